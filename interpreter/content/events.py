"""The lifecycle events the interpreter emits: one registry, which packs' declarations are checked
against and the runtime's emitters name.

A pack declares the events its triggers listen to (with a name, provenance and source, so the
rule that makes them matter is documented), but it cannot invent one: an event nothing emits
would be a trigger that never fires. So every declared event must be one of these, with the same
parameters and key (error E220). A test reads the runtime's code and checks that every event it
emits is listed here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: str  # a category of names (resource, track, ...), `record` or `number`


@dataclass(frozen=True, slots=True)
class LifecycleEvent:
    name: str
    params: tuple[Param, ...]
    key: str | None  # the parameter `on event(X)` matches
    emitted_by: str  # what emits it, for the guide
    doc: str


def _event(name: str, key: str | None, emitted_by: str, doc: str, **params: str) -> LifecycleEvent:
    return LifecycleEvent(name, tuple(Param(n, t) for n, t in params.items()), key, emitted_by, doc)


EVENTS: dict[str, LifecycleEvent] = {e.name: e for e in (
    _event("resource_gained", "resource", "the `gain` statement",
           "a player gained an amount of a resource", resource="resource", amount="number"),
    _event("track_advanced", "track", "the `advance` statement",
           "a player's marker advanced one step on a track (once per step)", track="track"),
    _event("action_performed", "action", "the `perform` statement and the turn's actions",
           "a player performed one of the pack's actions", action="action"),
    _event("tile_placed", "kind", "placing a tile onto a hex area or map",
           "a tile of a kind was placed", kind="kind", tile="record"),
    _event("marker_moved", "grid", "the `move` statement",
           "a marker moved one step on a grid", grid="grid", direction="direction"),
    _event("corner_token_gained", "colour", "closing a corner of matching colours on a hex area",
           "a player gained a corner token of a colour", colour="colour"),
    _event("wheel_bonus_gained", "resource", "taking an offer from a rotating wheel",
           "the taker gained the bonus of the wheel slot the offer sat in", resource="resource", amount="number"),
    _event("action_tile_scored", None, "taking an offer from a rotating wheel",
           "the taker scored the points of the frame position the offer was taken from", points="number"),
    # the flow of a pack on the generic core (runtime/core_flow.py), fired for every seat in seat order
    _event("round_started", None, "the flow", "a round began", round="number"),
    _event("round_ended", None, "the flow", "a round's last phase is over", round="number"),
    _event("phase_started", None, "the flow", "a phase began (after its `on_begin`)"),
    _event("phase_ended", None, "the flow", "a phase is over (after its `on_end`)"),
    _event("turn_started", None, "the flow", "a seat's turn began", seat="number"),
    _event("turn_ended", None, "the flow", "a seat's turn ended", seat="number"),
    _event("player_passed", None, "the flow", "a seat passed: it acts no more this phase; place 1 passed first",
           seat="number", place="number"),
    _event("game_ended", None, "the flow", "the last round is over, or the end condition held", round="number"),
    _event("record_moved", "to_zone", "the statements that move records between zones (`draw ... to`, `move ... to`, `refill`)",
           "a record left a zone (`from_zone`; none when it came from outside every zone) and entered another",
           record="record", from_zone="zone", to_zone="zone"),
)}


def declaration_problems(declared) -> list[tuple[tuple, str]]:
    """What is wrong with one declared event (a content `Event` model), as (path, message)."""
    known = EVENTS.get(declared.id)
    if known is None:
        return [(("id",), f"nothing emits an event '{declared.id}'; the interpreter emits: {', '.join(sorted(EVENTS))}")]
    out = []
    declared_params = tuple((p.name, p.type) for p in declared.params)
    emitted_params = tuple((p.name, p.type) for p in known.params)
    if declared_params != emitted_params:
        shown = ", ".join(f"{n}: {t}" for n, t in emitted_params) or "none"
        out.append((("params",), f"event '{declared.id}' is emitted with params ({shown})"))
    if declared.key != known.key:
        out.append((("key",), f"event '{declared.id}' is matched by {known.key or 'no parameter'}"))
    return out
