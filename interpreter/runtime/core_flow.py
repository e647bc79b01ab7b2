"""How a game on the generic core moves on: the flow's sequence points as frames of the effect machine.

Every program the flow runs (the setup, a phase's `on_begin`, `run` and `on_end`, the triggers of
lifecycle events, final scoring) is a frame on the machine's stack, above a *sequence point*: a native
frame that, once the programs above it are done (decisions included), takes the flow's next step
(flow.py) and queues what that step starts. So a decision in any program simply pauses the game,
and content runs in the order the rules say: a phase's `on_end` before the next phase begins, the
end condition once the round's last program is over.

The sequence points (``Frame.event["at"]``):
  begin           the setup has run: round 1 begins
  turn_over       the acting seat ended its turn (``passed``: by passing)
  automatic_done  an automatic phase's program has run
  phase_over      the phase's `on_end` has run: the next phase begins
  round_over      the round is over: the end condition is checked, the next round begins or the game ends
  turn_begun      a turn's `turn_started` triggers have run: the seat acts
  scored          final scoring is done: the game is over
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.errors import RulesError, RunawayError
from interpreter.runtime import flow as F
from interpreter.runtime import menu as M
from interpreter.runtime import spaces as SP
from interpreter.runtime.machine import Machine
from interpreter.runtime.state import Frame, GameState
from interpreter.runtime.view import View

if TYPE_CHECKING:
    from interpreter.runtime.core_rules import CoreRules

OVER = "over"  # state.table key set once the game is over
SEQUENCE_POINT = "@flow"  # the native frame at which the flow moves on, once the programs above it ran
GUARD = "@guard"  # the native frame below each program the flow runs (see GuardedMachine)
STOPPED = "stopped"  # state.table key: the flow programs that stopped where they could not go on


class GuardedMachine(Machine):
    """The effect machine of a pack on the generic core. A program the flow runs (the setup, a phase's
    programs, a trigger of a lifecycle event, a final scoring step) sits above a guard frame: when
    one of its statements cannot be carried out (a payment nobody can make in an automatic phase),
    that program stops there and the game goes on, noted in ``state.table["stopped"]``. Without a
    guard below it, the refusal is the player's action being illegal, as before."""

    def run(self, state: GameState) -> None:
        while True:
            try:
                Machine.run(self, state)
                return
            except RunawayError:
                raise
            except RulesError as exc:
                frames = state.frames
                at = next((i for i in range(len(frames) - 1, -1, -1) if frames[i].key == GUARD), None)
                if at is None:
                    raise
                guard = frames[at]
                del frames[at:]
                state.decision = None
                state.table = {**state.table, STOPPED: [*state.table.get(STOPPED, ()), f"{guard.source}: {exc}"]}


def guarded(job: Frame) -> list[Frame]:
    """A flow program and the guard below it, in the order they are pushed."""
    return [Frame(GUARD, [], 0, job.player, job.source), job]


def point(at: str, player: int = 0, **data) -> Frame:
    return Frame(SEQUENCE_POINT, [], 0, player, "", None, {"at": at, **data})


def begin(rules: CoreRules, state: GameState) -> None:
    """Queue the setup, then round 1, and run until a seat must act."""
    state.frames.append(point("begin"))
    if rules.setup_key:
        state.frames += guarded(Frame(rules.setup_key, [], 0, 0, "setup"))
    rules.machine.run(state)


def sequence_point(rules: CoreRules, machine, state: GameState, frame: Frame) -> None:
    """The native step of a sequence point: the flow's next step, and the programs it starts."""
    state.frames.pop()
    at, spec, cursor = frame.event["at"], rules.flow, state.flow
    if at == "begin":
        cursor, events = F.start(spec, len(state.players))
    elif at == "turn_over":
        cursor, events = F.finish_turn(spec, cursor, frame.event.get("passed", False))
    elif at == "automatic_done":
        cursor, events = F.finish_phase(spec, cursor)
    elif at == "phase_over":
        cursor, events = F.next_phase(spec, cursor)
    elif at == "round_over":
        cursor, events = F.next_round(spec, cursor, _ends(rules, state, cursor))
    elif at == "scored":
        state.table = {**state.table, OVER: True}
        return
    elif at == "turn_begun":
        return  # the turn's lifecycle programs have run: the seat acts
    else:
        raise AssertionError(f"unknown sequence point {at!r}")
    state.flow = cursor
    _schedule(rules, machine, state, cursor, events)


def _ends(rules: CoreRules, state: GameState, cursor: F.FlowCursor) -> bool:
    if rules.end_key is None:
        return False
    return bool(rules.tables.programs[rules.end_key](View(rules.tables, state, cursor.first_seat), None))


def _schedule(rules: CoreRules, machine, state: GameState, cursor: F.FlowCursor, events: list[F.FlowEvent]) -> None:
    """Apply what the events say at once (new counts, released pieces) and queue, in order, the
    programs they start, above the sequence point that comes after them."""
    jobs: list[Frame] = []  # in the order they run
    first = cursor.first_seat
    for event in events:
        name, params = event.name, event.params
        if name == "round_started":
            state.menu = M.new_round(state.menu or M.MenuLog())
            _clear_flags(state, "round:")
        elif name == "phase_started":
            programs = rules.phases[cursor.phase]
            if programs.on_begin:
                jobs.append(Frame(programs.on_begin, [], 0, first, params["phase"]))
            if programs.run:
                jobs.append(Frame(programs.run, [], 0, first, params["phase"]))
        elif name == "turn_started":
            state.current = params["seat"]
            state.menu = M.new_turn(state.menu or M.MenuLog())
            state.turn_info = {}
            _clear_flags(state, "turn:")
        elif name == "phase_ended":
            index = next(i for i, p in enumerate(rules.model.phases) if p.id == params["phase"])
            if rules.phases[index].on_end:
                jobs.append(Frame(rules.phases[index].on_end, [], 0, first, params["phase"]))
            _release(rules, state, "phase_end")
        elif name == "round_ended":
            _release(rules, state, "round_end")
        elif name == "game_ended":
            state.turn = cursor.turn
        jobs += _listeners(machine, state, name, _declared_params(name, params))
    if events[-1].name == "game_ended":
        jobs += _final_scoring(rules, state)
    state.frames.append(point(_after(cursor, events), first))
    for job in reversed(jobs):
        state.frames += guarded(job)


def _after(cursor: F.FlowCursor, events) -> str:
    """The sequence point that follows these events' programs."""
    if events[-1].name == "game_ended":
        return "scored"
    if cursor.closing == "phase":
        return "phase_over"
    if cursor.closing == "round":
        return "round_over"
    if cursor.seat is None:
        return "automatic_done"
    return "turn_begun"


def _declared_params(name: str, params: dict) -> dict:
    """An event's parameters as content reads them: seats from 1, no phase ids (no declared category)."""
    out = {k: v for k, v in params.items() if k != "phase"}
    if "seat" in out:
        out["seat"] += 1
    return out


def _listeners(machine, state: GameState, name: str, params: dict) -> list[Frame]:
    """The trigger bodies a lifecycle event fires, for every seat in seat order."""
    if name not in machine._listeners:
        return []
    jobs: list[Frame] = []
    for seat in range(len(state.players)):
        before = len(state.frames)
        machine.emit(state, seat, name, dict(params))
        fired = state.frames[before:]
        del state.frames[before:]
        jobs += reversed(fired)  # emit queues them to run last first
    return jobs


def _clear_flags(state: GameState, prefix: str) -> None:
    if any(f.startswith(prefix) for f in state.flags):
        state.flags = [f for f in state.flags if not f.startswith(prefix)]


def _release(rules: CoreRules, state: GameState, when: str) -> None:
    """Pieces on the spaces released at this point go back to their owners."""
    if not state.spaces:
        return
    kept, back = SP.release(rules.current_spaces(state), state.spaces, when)
    state.spaces = kept
    for placement in back:
        player = state.player(placement.owner)
        player.pieces_free[placement.piece] = player.pieces_free.get(placement.piece, 0) + 1


def _final_scoring(rules: CoreRules, state: GameState) -> list[Frame]:
    """The scoring file's final steps: every player completes a step before the next (a choice a
    step offers is the player's)."""
    return [Frame(key, [], 0, seat, source) for key, source in rules.final_steps for seat in range(len(state.players))]
