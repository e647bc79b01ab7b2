"""The statements that act for other seats or for chance (docs/core.md §7): `for each player`,
`for each other player`, `as owner`, `as occupant` and `roll`, one executor per step class
(dsl/steps.py), added to the machine's table in executors.py.

A body run for a seat is a new frame whose ``player`` is that seat: what it gains, pays and scores is
that seat's, and a decision inside it is that seat's (``Decision.player`` is the frame's player). The
frames of `for each` are pushed together, the first seat's on top, so the seats run one after another,
each seeing what the previous ones did.
"""

from __future__ import annotations

from interpreter.dsl import steps as S
from interpreter.runtime import chance
from interpreter.runtime.state import Frame, GameState


def turn_order(state: GameState) -> list[int]:
    """Every seat in turn order from the round's first seat (seat 0 in a game without a flow)."""
    n = len(state.players)
    first = state.flow.first_seat if state.flow is not None else 0
    return [(first + k) % n for k in range(n)]


def owner_of(state: GameState, record) -> int | None:
    """The seat that owns a record ([kind, id]): the owners map first, then the seat whose owned records
    list it; None when nobody owns it."""
    if not record:
        return None
    kind, rid = record
    seat = state.owners.get(rid)
    if seat is not None:
        return seat
    for i, p in enumerate(state.players):
        if rid in p.owned.get(kind, ()):
            return i
    return None


def _body_for(frame: Frame, seat: int) -> Frame:
    """A frame running the body (sub-block 0) of the step just passed, for ``seat``."""
    return Frame(frame.key, frame.addr + [frame.pc - 1, 0], 0, seat, frame.source, frame.this, frame.event,
                 frame.trigger)


def _for_each(m, state, frame, step: S.ForEach) -> None:
    frame.pc += 1
    seats = [s for s in turn_order(state) if not (step.others and s == frame.player)]
    for seat in reversed(seats):  # the first seat's frame on top: it runs first
        state.frames.append(_body_for(frame, seat))


def _as_owner(m, state, frame, step: S.AsOwner) -> None:
    frame.pc += 1
    seat = owner_of(state, frame.this)
    if seat is not None:
        state.frames.append(_body_for(frame, seat))


def _as_occupant(m, state, frame, step: S.AsOccupant) -> None:
    """The body for the owner of each piece on the space `this` names, in the order they went there."""
    frame.pc += 1
    here = state.spaces.get(frame.this[1], ()) if frame.this else ()
    for placement in reversed(here):  # the first piece's owner on top: runs first
        state.frames.append(_body_for(frame, placement.owner))


def _roll(m, state, frame, step: S.Roll) -> None:
    frame.pc += 1
    rng = chance.generator(state.rng)
    value = chance.roll(m.tables.dice[step.die], rng)
    state.rng = chance.saved_state(rng)  # replaced, never changed in place: copies keep their own
    state.dice = state.dice.with_entry(step.die, value)


EXECUTORS = {S.ForEach: _for_each, S.AsOwner: _as_owner, S.AsOccupant: _as_occupant, S.Roll: _roll}
