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
  turn_begun      a turn's `turn_started` triggers have run: the seat acts (an automatic seat
                  takes its turn here, and it is over)
  scored          final scoring's programs have run (or, with `final_choices: most_points`, run
                  now, each answered for the most points): the game is over

An era change (`era_changes`) happens at the `turn_over` of the turn it follows, before the next
turn begins; what it does is the rules' (`change_era`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.errors import RulesError, RunawayError
from interpreter.runtime import flow as F
from interpreter.runtime import held, maximise
from interpreter.runtime.between_steps import BETWEEN_STEPS
from interpreter.runtime import menu as M
from interpreter.runtime import spaces as SP
from interpreter.runtime.machine import Machine
from interpreter.runtime.state import Frame, GameState, ReadOnlyDict
from interpreter.runtime.view import View

if TYPE_CHECKING:
    from interpreter.runtime.core_rules import CoreRules

OVER = "over"  # state.table key set once the game is over
SEQUENCE_POINT = "@flow"  # the native frame at which the flow moves on, once the programs above it ran
GUARD = "@guard"  # the native frame below each program the flow runs (see GuardedMachine)
STOPPED = "stopped"  # state.table key: the flow programs that stopped where they could not go on
SCORING = "scoring"  # state.table key set once final scoring begins


_machine_run = Machine.run  # a global read is specialized; a class's attribute is not (Python 3.11)


class GuardedMachine(Machine):
    """The effect machine of a pack on the generic core. A program the flow runs (the setup, a phase's
    programs, a trigger of a lifecycle event, a final scoring step) sits above a guard frame: when
    one of its statements cannot be carried out (a payment nobody can make in an automatic phase),
    that program stops there and the game goes on, noted in ``state.table["stopped"]``. Without a
    guard below it, the refusal is the player's action being illegal, as before."""

    def run(self, state: GameState) -> None:
        if not state.frames:
            return  # nothing to run (the end of a turn asks after each of its steps)
        while True:
            try:
                _machine_run(self, state)
                return
            except RunawayError:
                raise
            except RulesError as exc:
                frames = state.frames
                at = next((i for i in range(len(frames) - 1, -1, -1) if frames[i].key == GUARD), None)
                if at is None:
                    raise
                guard = frames[at]
                dropped = frames[at:]
                del frames[at:]
                state.decision = None
                held.cut_short(self, state, dropped)  # held gains are not lost, factors end
                state.table = {**state.table, STOPPED: [*state.table.get(STOPPED, ()), f"{guard.source}: {exc}"]}


def flow_natives(rules: CoreRules) -> dict[str, tuple]:
    """The native frames the flow runs on, for the machine of these rules: the sequence points, the
    guards, and the applying of a simultaneous phase's choices (simultaneous.py)."""
    from interpreter.runtime.simultaneous import APPLY, apply_chosen

    def no_answer(machine, state, frame, index, decision):
        raise AssertionError("a sequence point asks nothing")

    return {SEQUENCE_POINT: (lambda m, s, f: sequence_point(rules, m, s, f), no_answer),
            GUARD: (lambda m, s, f: s.frames.pop(), no_answer),
            APPLY: (lambda m, s, f: apply_chosen(rules, m, s, f), no_answer)}


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
        _turn_over(rules, machine, state, frame.event.get("passed", False))
        return
    elif at == "automatic_done":
        cursor, events = F.finish_phase(spec, cursor)
    elif at == "phase_over":
        cursor, events = F.next_phase(spec, cursor)
    elif at == "round_over":
        cursor, events = F.next_round(spec, cursor, _ends(rules, state, cursor))
    elif at == "scored":
        if rules.model.final_choices == "most_points":
            _score_for_most_points(rules, machine, state)
        state.table = {**state.table, OVER: True}
        return
    elif at == "turn_begun":  # the turn's lifecycle programs have run: the seat acts
        if cursor.seat in rules.automatic_seats:
            rules.play_automatic_turn(state, cursor.seat)
            state.frames.append(point("turn_over", cursor.seat))
        return
    else:
        raise AssertionError(f"unknown sequence point {at!r}")
    state.flow = cursor
    _schedule(rules, machine, state, cursor, events)


def end_turn(rules: CoreRules, machine, state: GameState) -> None:
    """The acting seat ended its turn: the `turn_over` sequence point, at once when no frame waits (no
    frame to queue and pop), then what it starts."""
    if state.frames:
        state.frames.append(point("turn_over", state.current))
    else:
        _turn_over(rules, machine, state, False)
    machine.run(state)


def _turn_over(rules: CoreRules, machine, state: GameState, passed: bool) -> None:
    cursor, events = F.finish_turn(rules.flow, state.flow, passed)
    if cursor.turn == rules.era_change_turn:
        rules.change_era(state)
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
            _clear_flags(state, "round:")
        elif name == "phase_started":
            programs = rules.phases[cursor.phase]
            if programs.on_begin:
                jobs.append(Frame(programs.on_begin, [], 0, first, params["phase"]))
            if programs.run:
                jobs.append(Frame(programs.run, [], 0, first, params["phase"]))
        elif name == "turn_started":
            state.current = params["seat"]
            state.turn = cursor.turn + 1  # its number, every seat's turns counted
            _clear_flags(state, "turn:")
        elif name == "turn_ended":  # what the turn kept of itself goes with it
            if state.menu is not None:
                state.menu = M.new_turn(state.menu)
            state.turn_info = {}
            _clear_flags(state, "turn:")
        elif name == "phase_ended":
            index = next(i for i, p in enumerate(rules.model.phases) if p.id == params["phase"])
            if rules.phases[index].on_end:
                jobs.append(Frame(rules.phases[index].on_end, [], 0, first, params["phase"]))
            _release(rules, state, "phase_end", params["phase"])
        elif name == "round_ended":
            if state.menu is not None:
                state.menu = M.new_round(state.menu)
            _release(rules, state, "round_end")
        elif name == "game_ended":
            state.turn = cursor.turn
        if name in machine._listeners:
            jobs += _listeners(machine, state, name, _declared_params(name, params))
    if events[-1].name == "game_ended":
        jobs += _final_scoring(rules, state)
    after = _after(cursor, events)
    if not jobs and after == "turn_begun" and cursor.seat not in rules.automatic_seats:
        return  # nothing runs before the seat acts: no point to pass
    state.frames.append(point(after, first))
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
    """The trigger bodies a lifecycle event fires, for every seat in seat order (some listen to it)."""
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
        state.flags = tuple(f for f in state.flags if not f.startswith(prefix))


def _release(rules: CoreRules, state: GameState, when: str, phase: str | None = None) -> None:
    """Pieces on the spaces released at this point (the end of ``phase``) go back to their owners."""
    if not state.spaces:
        return
    kept, back = SP.release(rules.current_spaces(state), state.spaces, when, phase)
    state.spaces = ReadOnlyDict(kept)
    for placement in back:
        player = state.player(placement.owner)
        player.pieces_free = player.pieces_free.with_entry(placement.piece, player.pieces_free.get(placement.piece, 0) + 1)


def _final_scoring(rules: CoreRules, state: GameState) -> list[Frame]:
    """The scoring file's final steps: every player completes a step before the next (a choice a
    step offers is the player's; with `final_choices: most_points` they run at the `scored` point)."""
    state.table = {**state.table, SCORING: True}
    if rules.model.final_choices == "most_points":
        return []
    return _final_jobs(rules, state)


def _final_jobs(rules: CoreRules, state: GameState) -> list[Frame]:
    """Each final step for each scoring seat, in the order they run: the first step of every player first."""
    return [Frame(key, [], 0, seat, source) for key, source in rules.final_steps for seat in _scoring_seats(rules, state)]


def _scoring_seats(rules: CoreRules, state: GameState) -> list[int]:
    return [seat for seat in range(len(state.players)) if seat not in rules.automatic_seats]


def scores_if_over(rules: CoreRules, state: GameState, between_steps: float = 0.0) -> list[float]:
    """Every player's score if the game ended now: final scoring run on a copy of ``state`` (the turn's
    programs left aside), each of its choices answered for the most points of the player choosing. For
    bots, which value a position by what it would score; ``state`` is unchanged. With ``between_steps``,
    scoring tables and tracks' printed values are read that share of the way between their steps
    (between_steps.py): the scores are then a forecast, not whole points."""
    if state.table.get(OVER):
        return [p.score for p in state.players]
    work = state.clone()
    work.frames, work._own_frames, work.decision = [], 0, None  # the copy's own stack, empty
    work.table = {**work.table, SCORING: True}
    if between_steps:
        work.table[BETWEEN_STEPS] = between_steps
    # every step queued at once, the first on top (every player completes a step before the next); a
    # choice is answered by a search over the rest of the scoring, which is the most points as well
    for job in reversed(_final_jobs(rules, work)):
        work.frames += guarded(job)
    machine = rules.machine
    machine.run(work)
    if work.decision is not None:
        maximise.answer_best(machine, work)
    return [p.score for p in work.players]


def _score_for_most_points(rules: CoreRules, machine, state: GameState) -> None:
    """Final scoring with every choice answered for the most points of the player choosing
    (maximise.py): each step of each player is run and decided on its own, the frames below set
    aside meanwhile so that the search weighs that step alone."""
    frames = state.frames
    below = frames[:]
    del frames[:]
    for key, source in rules.final_steps:
        for seat in _scoring_seats(rules, state):
            frames += guarded(Frame(key, [], 0, seat, source))
            machine.run(state)
            maximise.answer_best(machine, state)
    frames[:0] = below
    state._own_frames = len(below)  # copies made meanwhile may share any of them: none is taken as this state's own
