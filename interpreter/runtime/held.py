"""Gains that are changed on the way: `all at once: <body>` (the acting player's gains in the body are held
and received when it ends, so every cost in it is paid from what was held before: a production whose
cards all act at the same time), `gains of R [, R2 ...] times E: <body>` (the acting player's gains of
those resources in the body are E times as large: a card that doubles what other cards give) and
resources declared `reduced_by:` another (each gain of one gives as many fewer as the player holds of
the other, not below 0: a lasting penalty, per source).

The held gains live in ``state.table[HELD]`` (seat as text -> [[resource, n], ...], replaced, never
changed in place, so copies of the state share it), from the `all at once` statement to the native frame
below its body (``RELEASE``), which gives them. A nested `all at once` of the same player holds into the
outer one. The factors live in ``state.table[FACTORS]`` (seat as text -> [[[resource, ...], factor], ...],
replaced likewise), from the `gains of` statement to the native frame below its body (``UNFACTOR``),
which takes its factor and those after it off; nested ones multiply. A gain is multiplied first, then
reduced, then held: a held gain is held as it would have been received.
"""

from __future__ import annotations

from interpreter.dsl import steps as S
from interpreter.runtime.state import Frame

HELD = "held"  # state.table key
RELEASE = "@release_held"  # the native frame below an `all at once` body
FACTORS = "gain_factors"  # state.table key
UNFACTOR = "@end_factor"  # the native frame below a `gains of ... times` body


def uses_held_gains(tables) -> bool:
    """Whether gains of this pack can be changed on the way (a reduction declared, an `all at once` or a
    `gains of ... times` written): the machine asks then, and only then, on each gain."""
    from interpreter.runtime.fallible import all_steps  # (it imports the machine, which imports this module)

    return bool(tables.reductions) or any(type(step) in (S.AtOnce, S.Multiply) for step in all_steps(tables))


def adjusted(m, state, frame, gains) -> list | None:
    """The gains as the player receives them now: multiplied, reduced, or None when they are held for later."""
    seat = str(frame.player)
    factors = state.table.get(FACTORS)
    if factors and seat in factors:
        gains = [(r, _times(factors[seat], r) * n) for r, n in gains]
    reductions = m.tables.reductions
    if reductions:
        holdings = state.players[frame.player].holdings
        gains = [(r, max(0, n - holdings.get(reductions[r], 0)) if r in reductions else n) for r, n in gains]
    held = state.table.get(HELD)
    if held and seat in held:
        kept = [[r, n] for r, n in gains if n > 0]
        if kept:
            state.table = {**state.table, HELD: {**held, seat: [*held[seat], *kept]}}
        return None
    return gains


def _times(factors, resource: str) -> int:
    """The product of the factors in force that name the resource."""
    out = 1
    for resources, factor in factors:
        if resource in resources:
            out *= factor
    return out


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


def multiply(m, state, frame, step: S.Multiply) -> None:
    """`gains of R times E: <body>`: E is read now (below 0 counts as 0) and the body runs above the frame
    that ends the factor; a factor of 1 changes nothing, so the body runs without one."""
    frame.pc += 1
    factor = max(0, int(step.factor(m._view(state, frame), None)))
    if factor != 1:
        factors = state.table.get(FACTORS) or {}
        seat = str(frame.player)
        own = factors.get(seat, [])
        state.table = {**state.table, FACTORS: {**factors, seat: [*own, [list(step.resources), factor]]}}
        state.frames.append(Frame(UNFACTOR, [], 0, frame.player, frame.source, None, {"at": len(own)}))
    m._push_block(state, frame, 0)


def end_factor(m, state, frame, pop: bool = True) -> None:
    """The body is over: its factor (and any a body inside it left, cut short) no longer applies."""
    if pop:
        state.frames.pop()
    factors = dict(state.table.get(FACTORS) or {})
    seat = str(frame.player)
    kept = factors.pop(seat, [])[:frame.event["at"]]
    if kept:
        factors[seat] = kept
    state.table = {**state.table, FACTORS: factors} if factors else {k: v for k, v in state.table.items()
                                                                     if k != FACTORS}


def cut_short(m, state, dropped) -> None:
    """Frames were taken off the stack (a flow program stopped where it could not go on, core_flow.py): the
    factors of the `gains of` bodies whose frames went with them end, and the gains held for the `all at
    once` bodies whose release frame went are received, as far as the body ran (not multiplied again)."""
    for frame in reversed(dropped):
        if frame.key == UNFACTOR:
            end_factor(m, state, frame, pop=False)
    for frame in dropped:
        if frame.key == RELEASE:
            release(m, state, frame, pop=False)


def _no_answer(m, state, frame, index, decision):
    raise AssertionError("releasing held gains or ending a factor asks nothing")


EXECUTORS = {S.AtOnce: at_once, S.Multiply: multiply}
NATIVES = {RELEASE: (release, _no_answer), UNFACTOR: (end_factor, _no_answer)}
