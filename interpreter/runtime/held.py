"""Gains that are changed on the way: `all at once: <body>` (the acting player's gains in the body are held
and received when it ends, so every cost in it is paid from what was held before: a production whose
cards all act at the same time) and resources declared `reduced_by:` another (each gain of one gives as
many fewer as the player holds of the other, not below 0: a lasting penalty, per source).

The held gains live in ``state.table[HELD]`` (seat as text -> [[resource, n], ...], replaced, never
changed in place, so copies of the state share it), from the `all at once` statement to the native frame
below its body (``RELEASE``), which gives them. A nested `all at once` of the same player holds into the
outer one. A reduction is taken when the gain is made, so a held gain is reduced as it would have been.
"""

from __future__ import annotations

from interpreter.dsl import steps as S
from interpreter.runtime.state import Frame

HELD = "held"  # state.table key
RELEASE = "@release_held"  # the native frame below an `all at once` body


def uses_held_gains(tables) -> bool:
    """Whether gains of this pack can be changed on the way (a reduction declared, an `all at once` written):
    the machine asks then, and only then, on each gain."""
    from interpreter.runtime.fallible import all_steps  # (it imports the machine, which imports this module)

    return bool(tables.reductions) or any(type(step) is S.AtOnce for step in all_steps(tables))


def adjusted(m, state, frame, gains) -> list | None:
    """The gains as the player receives them now: reduced, or None when they are held for later."""
    reductions = m.tables.reductions
    if reductions:
        holdings = state.players[frame.player].holdings
        gains = [(r, max(0, n - holdings.get(reductions[r], 0)) if r in reductions else n) for r, n in gains]
    held = state.table.get(HELD)
    seat = str(frame.player)
    if held and seat in held:
        kept = [[r, n] for r, n in gains if n > 0]
        if kept:
            state.table = {**state.table, HELD: {**held, seat: [*held[seat], *kept]}}
        return None
    return gains


def at_once(m, state, frame, step: S.AtOnce) -> None:
    """`all at once: <body>`: the body runs above a release frame (unless the player's gains are held already)."""
    frame.pc += 1
    held = state.table.get(HELD) or {}
    seat = str(frame.player)
    if seat not in held:
        state.table = {**state.table, HELD: {**held, seat: []}}
        state.frames.append(Frame(RELEASE, [], 0, frame.player, frame.source))
    m._push_block(state, frame, 0)


def release(m, state, frame, pop: bool = True) -> None:
    """The body is over: the held gains are received, in the order they were made."""
    if pop:
        state.frames.pop()
    held = dict(state.table.get(HELD) or {})
    gains = held.pop(str(frame.player), [])
    state.table = {**state.table, HELD: held} if held else {k: v for k, v in state.table.items() if k != HELD}
    if gains:
        m._receive(state, frame, [(r, n) for r, n in gains])


def cut_short(m, state, dropped) -> None:
    """Frames were taken off the stack (a flow program stopped where it could not go on, core_flow.py): the
    gains held for the bodies whose release frame went with them are received, as far as the body ran."""
    for frame in dropped:
        if frame.key == RELEASE:
            release(m, state, frame, pop=False)


def _no_answer(m, state, frame, index, decision):
    raise AssertionError("releasing held gains asks nothing")


EXECUTORS = {S.AtOnce: at_once}
NATIVES = {RELEASE: (release, _no_answer)}
