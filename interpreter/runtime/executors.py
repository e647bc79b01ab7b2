"""The statements the effect machine runs itself, one executor per step class (dsl/steps.py), and how a
statement that stopped at a decision takes its answer.

An executor ``f(machine, state, frame, step)`` runs the step at ``frame.pc`` of the top frame: it moves
the program counter past the step (or leaves it there and sets a decision), and may push frames (a
sub-block, queued advances, a record's effects). Statements that act on boards (``move``,
``perform``, ``build``, ``place``, ``later``) have none here: the engine's board mechanisms run them
(runtime/natives.py), and ``Machine`` builds its dispatch table from both.
"""

from __future__ import annotations

from typing import Callable

from interpreter.dsl import steps as S
from interpreter.errors import RulesError
from interpreter.runtime import counts, held, iterate, record_effects, seats
from interpreter.runtime.state import Frame
from interpreter.runtime.zone_effects import ZONE_EXECUTORS


def _gain(m, state, frame, step: S.Gain) -> None:
    frame.pc += 1
    if step.shared:
        counts.gain_shared(m, state, frame, step.shared)
    hit = m._constants.get(id(step.amounts))  # m.constant's memo, read here first: gains are the commonest steps
    gains = hit[1] if hit is not None else m.constant(step.amounts)
    if gains is None:
        view = m._view(state, frame)
        gains = [(r, fn(view, None)) for r, fn in step.amounts]
    m._gain(state, frame, gains)


def _pay(m, state, frame, step: S.Pay) -> None:
    frame.pc += 1
    if step.shared:  # all or nothing: the table's part is checked, the player's paid, then the table's
        shared = counts.shared_paid(m, state, frame, step.shared)
        m._pay(state, frame, step.amounts)
        state.shared = shared
        return
    m._pay(state, frame, step.amounts)


def _score(m, state, frame, step: S.Score) -> None:
    frame.pc += 1
    view = m._view(state, frame)
    m._player(state, frame).add_points(step.points(view, None), frame.source)


def _advance(m, state, frame, step: S.Advance) -> None:
    frame.pc += 1
    times = step.times
    m._advance_times(state, frame, step.track, times(m._view(state, frame), None) if times else 1)


def _produce(m, state, frame, step: S.Produce) -> None:
    frame.pc += 1
    m._produce(state, frame, step.track)


def _block(m, state, frame, step: S.Block) -> None:
    frame.pc += 1
    m._push_block(state, frame, 0)


def _choose(m, state, frame, step: S.Choose) -> None:
    m._decide(state, frame, "choose", m._labels(frame) or [str(i + 1) for i in range(len(step.options))])


def _may(m, state, frame, step: S.May) -> None:
    m._decide(state, frame, "may", ["yes", "no"])


def _may_pay(m, state, frame, step: S.MayPay) -> None:
    if m._can_pay(m._view(state, frame), step.cost):
        m._decide(state, frame, "may_pay", ["pay", "decline"])
    else:
        frame.pc += 1  # an optional payment nobody can make is simply skipped


def _if(m, state, frame, step: S.If) -> None:
    frame.pc += 1
    if step.cond(m._view(state, frame), None):
        m._push_block(state, frame, 0)
    elif step.otherwise is not None:
        m._push_block(state, frame, 1)


def _repeat(m, state, frame, step: S.Repeat) -> None:
    view = m._view(state, frame)
    if step.times is None:  # an open repeat: its body is one optional statement
        inner = step.body[0]
        if type(inner) is S.MayPay and not m._can_pay(view, inner.cost):
            frame.pc += 1
        else:
            m._decide(state, frame, "repeat", ["again", "stop"])
    else:
        frame.pc += 1
        n = step.times(view, None)
        if n > 0:
            state.frames.append(Frame(frame.key, frame.addr + [frame.pc - 1, 0], 0, frame.player, frame.source,
                                      frame.this, frame.event, frame.trigger, n - 1))


def _grant(m, state, frame, step: S.Grant) -> None:
    frame.pc += 1
    player = m._player(state, frame)
    player.permits = (*player.permits, step.permit)
    if step.unused is not None:
        state.expiring += ({"player": frame.player, "permit": step.permit, "key": frame.key,
                            "addr": frame.addr + [frame.pc - 1, 0], "source": frame.source,
                            "trigger": frame.trigger},)


def _draw(m, state, frame, step: S.Draw) -> None:
    m._draw(state, frame, step, m._view(state, frame))


def _use(m, state, frame, step: S.Use) -> None:
    m._use(state, frame, step, m._view(state, frame))


def _require(m, state, frame, step: S.Require) -> None:
    frame.pc += 1
    if not step.cond(m._view(state, frame), None):
        raise RulesError("a requirement of the effect does not hold")


Executor = Callable[..., None]

EXECUTORS: dict[type, Executor] = {
    S.Gain: _gain, S.Pay: _pay, S.Score: _score, S.Advance: _advance, S.Produce: _produce, S.Block: _block,
    S.Choose: _choose, S.May: _may, S.MayPay: _may_pay, S.If: _if, S.Repeat: _repeat, S.Grant: _grant,
    S.Draw: _draw, S.Use: _use, S.Require: _require,
    **held.EXECUTORS,  # all at once, gains of ... times (runtime/held.py)
    **seats.EXECUTORS,  # for each player, as owner, roll
    **ZONE_EXECUTORS,  # moving records between zones (runtime/zone_effects.py)
    **iterate.EXECUTORS,  # for each in a zone, join order (runtime/iterate.py)
    **record_effects.EXECUTORS,  # run a record's effect field (runtime/record_effects.py)
    **counts.EXECUTORS,  # put and take counts on records (runtime/counts.py)
}


def mechanism(fn) -> Executor:
    """A board mechanism ``fn(machine, state, frame, step)`` as an executor: the step is passed once started."""
    def run(m, state, frame, step) -> None:
        frame.pc += 1
        fn(m, state, frame, step)
    return run


# --------------------------------------------------------------------------- answers

def _answer_choose(m, state, frame, step: S.Choose, d, index: int) -> None:
    m._push_block(state, frame, index)


def _answer_may(m, state, frame, step: S.May, d, index: int) -> None:
    if index == 0:
        m._push_block(state, frame, 0)


def _answer_may_pay(m, state, frame, step: S.MayPay, d, index: int) -> None:
    if index == 0:
        m._pay(state, frame, step.cost)
        m._push_block(state, frame, 0)


def _answer_repeat(m, state, frame, step: S.Repeat, d, index: int) -> None:
    if index != 0:
        return
    frame.pc -= 1  # come back to the repeat after one more round
    inner = step.body[0]
    if type(inner) is S.MayPay:
        m._pay(state, frame, inner.cost)
    # the optional statement's own block: repeat body (0) -> its may block (0)
    state.frames.append(Frame(frame.key, frame.addr + [frame.pc, 0, 0, 0], 0, frame.player, frame.source,
                              frame.this, frame.event, frame.trigger))


def _answer_draw(m, state, frame, step: S.Draw, d, index: int) -> None:
    m._keep(state, frame, step, d, index)


def _answer_use(m, state, frame, step: S.Use, d, index: int) -> None:
    m._run_fields(state, frame, d.data["record_kind"], [d.options[index]], d.data["fields"])


# step class -> f(machine, state, frame, step, decision, index), called once the frame has moved past the step
ANSWERS: dict[type, Callable[..., None]] = {
    S.Choose: _answer_choose, S.May: _answer_may, S.MayPay: _answer_may_pay, S.Repeat: _answer_repeat,
    S.Draw: _answer_draw, S.Use: _answer_use,
    **iterate.ANSWERS,  # choose one in a zone
}


# the native frames (key "@...") of the statements above, which every machine runs
GENERIC_NATIVES: dict[str, tuple] = {**held.NATIVES, **iterate.NATIVES}
