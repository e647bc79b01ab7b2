"""Simultaneous phases (docs/core.md §5): a phase declared `simultaneous: true` has every seat choose
its action without seeing what the others chose; the choices are applied once all have chosen.

Each seat's pick in such a phase is checked as an ordinary turn would carry it out (on a copy), then
only recorded (``state.table[PENDING]``: seat, action, and the action's place in the log) and the
seat's turn ends: the state the next seat chooses in is the one the first seat chose in. When the
last seat of the round of choices has chosen (the phase is over, or the next seat to act has chosen
already), the choices apply in the order they were made: each is a native frame (``APPLY``) above a
guard (core_flow.guarded), below the end of the last seat's turn. A choice that can no longer be
carried out then (a space another seat took first) stops where it fails, noted in
``state.table["stopped"]``, and the others still apply. A decision inside one pauses the game as
usual. Until the choices apply, an observation shows another seat's pending action in the log as
``HIDDEN``.
"""

from __future__ import annotations

from interpreter.errors import RulesError
from interpreter.runtime import core_flow
from interpreter.runtime import flow as F
from interpreter.runtime import menu as M
from interpreter.runtime.state import Frame, GameState

PENDING = "simultaneous"  # state.table key: [[seat, action, log index], ...] chosen, not yet applied
APPLY = "@together"  # the native frame that applies one chosen action
HIDDEN = "(hidden choice)"


def applies(rules, state: GameState) -> bool:
    """Whether the seat to act is choosing in a simultaneous phase."""
    cursor = state.flow
    return cursor is not None and cursor.seat is not None and rules.model.phases[cursor.phase].simultaneous


def commit(rules, state: GameState, action: str, apply_action) -> None:
    """Check the action as the seat's turn would carry it out (``apply_action`` on a copy, raising
    RulesError when it cannot), record it, and end the seat's turn."""
    seat = state.current
    apply_action(rules, state.clone(), action, settle=False, commit=False)
    state.table = {**state.table, PENDING: [*state.table.get(PENDING, ()), [seat, action, len(state.log)]]}
    state.frames += turn_over(rules, state, seat, False)
    rules.machine.run(state)


def turn_over(rules, state: GameState, seat: int, passed: bool) -> list[Frame]:
    """The frames that end ``seat``'s turn, in the order they are pushed: the sequence point, and in a
    simultaneous phase whose round of choices this turn completes, above it the pending choices."""
    frames = [core_flow.point("turn_over", seat, passed=passed)]
    pending = state.table.get(PENDING, ())
    if not pending or not applies(rules, state):
        return frames
    after, _ = F.finish_turn(rules.flow, state.flow, passed)
    if not (after.closing == "phase" or after.seat in {s for s, _, _ in pending}):
        return frames
    for s, action, _ in reversed(pending):  # the first choice's frames on top: it applies first
        frames += core_flow.guarded(Frame(APPLY, [], 0, s, f"{action} (seat {s + 1})", None, {"action": action}))
    state.table = {k: v for k, v in state.table.items() if k != PENDING}
    return frames


def apply_chosen(rules, machine, state: GameState, frame: Frame) -> None:
    """The native step of one chosen action: carried out for its seat, as its turn would have (the entry
    recorded, its piece placed, its costs paid, its effects queued above), without ending a turn."""
    from interpreter.runtime import core_game as G

    state.frames.pop()
    seat, action = frame.player, frame.event["action"]
    acting_seat, state.current = state.current, seat  # the menu's checks read the seat that acts
    try:
        menu = rules.phases[state.flow.phase].menu
        choice = M.parse(rules.verbs.get(menu, {}), action)
        entry = rules.entry_of[(menu, choice.entry.verb)]
        if action not in G.candidates(rules, state, entry):
            raise RulesError(f"`{action}` is no longer allowed when the choices apply")
        state.menu = M.record(state.menu or M.MenuLog(), entry.spec, seat)
        this = G.this_of(rules, entry, choice.argument)
        acting = Frame("", [], 0, seat, entry.id, this)
        if entry.effect:
            state.frames.append(Frame(entry.effect, [], 0, seat, entry.id, this))
        if entry.source == "spaces":
            G._put_piece(rules, state, entry, choice.argument, seat, choice.boost)
        if entry.cost:
            machine._pay(state, acting, rules.tables.programs[entry.cost])
        if choice.payment is not None:
            machine._pay(state, acting, rules.tables.programs[entry.payments[choice.payment - 1]])
    finally:
        state.current = acting_seat


def visible_log(state: GameState, player: int) -> list[str]:
    """The log as ``player`` may read it: another seat's choice that has not applied yet is hidden."""
    hidden = {i for s, _, i in state.table.get(PENDING, ()) if s != player}
    return [HIDDEN if i in hidden else a for i, a in enumerate(state.log)]
