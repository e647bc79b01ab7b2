"""A rotating wheel of offers: a fixed frame of positions around a turning wheel of slots
(a game's action crane, for one: R-CRANE, R-EOT).

A `WheelGeometry` is compiled once from the wheel's content model; the game holds a plain
`WheelState`, and every function returns a new state instead of changing one.

Numbering
- Frame positions 0..N-1 run in the direction the wheel turns; position 0 is the entry where a
  returned tile goes. Zones, costs, points and overflow targets belong to positions: they never move.
- Wheel slots 0..N-1 run clockwise *from the box*: slot 0 is always the box, whatever index the
  box has in the content list. Bonuses and tiles belong to slots and move with the wheel.
- The rotation is the frame position of the box, so slot k sits at position (rotation + k) % N.

Overflow (R-EOT-2, OPEN-31): a tile that a turn of the wheel carries onto a position where tiles do
not rest, or around from N-1 to 0, goes to the lowest empty overflow target. When all are full it
goes to the fallback: the highest resting position below the first overflow target (the last
position with a cost in the bundled pack); when that is taken too, to the nearest empty resting position
counting backwards from it (OPEN-31's recommendation), never to position 0, which the returned tile
needs. Every overflowed tile is flagged; a flag is a per-tile +points bonus, so several tiles may
carry one and overflowing again keeps a single flag (OPEN-31).
"""

from __future__ import annotations

from dataclasses import dataclass

from interpreter.errors import RulesError


@dataclass(frozen=True, slots=True)
class WheelGeometry:
    """The wheel's fixed facts, compiled once; per-position tuples are indexed by frame position."""

    size: int
    zones: tuple[str, ...]
    rest: tuple[bool, ...]  # False: a tile never rests here, it overflows
    overflow_targets: tuple[int, ...]  # positions, ascending
    fallback: int  # where an overflowing tile goes when every overflow target is full
    costs: tuple[str | None, ...]  # amounts text, paid to take a tile from the position
    cost_keys: tuple[str | None, ...]  # key of the compiled amounts in Ruleset.programs
    points: tuple[int, ...]  # scored for taking a tile from the position (0: none)
    bonuses: tuple[str | None, ...]  # by slot from the box: effect text gained by the taker
    bonus_keys: tuple[str | None, ...]  # by slot from the box: key of the program in Ruleset.programs
    overflow_points: int  # scored for taking a flagged tile, on top of the position's points
    start_rotations: tuple[tuple[int, int], ...]  # (player count, box position at setup)
    # derived: by a turn of 1 or 2 steps (index 0, 1) and start position, whether a tile there overflows
    overflows: tuple[tuple[bool, ...], tuple[bool, ...]] = ((), ())
    overflow_order: tuple[int, ...] = ()  # where overflowing tiles go: the targets, then back from the fallback


@dataclass(frozen=True, slots=True)
class WheelState:
    """Where the wheel stands and what it holds; plain, hashable and JSON-friendly."""

    rotation: int  # frame position of the box (slot 0)
    slots: tuple[str | None, ...]  # tile id per wheel slot from the box; slot 0 is always None
    flagged: tuple[str, ...] = ()  # tiles carrying the overflow bonus, sorted


@dataclass(slots=True)  # not frozen: made on every take, and a frozen dataclass sets each field through object.__setattr__
class TakeInfo:
    """What taking a tile means for the taker; paying and gaining are the engine's job."""

    tile: str
    position: int
    slot: int
    cost: str | None
    cost_key: str | None
    points: int
    flagged: bool  # the tile carried the overflow bonus (now removed from it)
    flag_points: int  # overflow_points if flagged, else 0
    bonus: str | None
    bonus_key: str | None


# ---------------------------------------------------------------- geometry

def geometry_problems(model) -> list[tuple[tuple, str]]:
    """What makes a wheel model unplayable, as (path in the model, message): validation reports these
    (references.py) and ``build_geometry`` refuses them. The wheel's slots and box are checked there too."""
    n = len(model.positions)
    rest = tuple(p.rest for p in model.positions)
    targets = [i for i, p in enumerate(model.positions) if p.overflow_target]
    if not targets:
        return [(("positions",), "no position is an `overflow_target`: an overflowing tile would have nowhere to go")]
    out = [(("positions", t, "overflow_target"), f"overflow target {t} must be a resting position other than the entry (0)")
           for t in targets if t == 0 or not rest[t]]
    if not out and not any(rest[p] for p in range(1, targets[0])):
        out.append((("positions", targets[0], "overflow_target"),
                    "no resting position between the entry and the first overflow target, where overflows fall back"))
    if not out and len(model.wheel) == n and sum(1 for s in model.wheel if s.box) == 1:
        geometry = build_geometry(model)
        order = list(model.first_game_order)
        for i, r in enumerate(model.rotations):
            try:
                setup(geometry, r.players, order)
            except RulesError as exc:
                out.append((("rotations", i, "box_at"), str(exc)))
    return out


def build_geometry(model) -> WheelGeometry:
    """Compile a validated wheel content model (`WheelFile`)."""
    n = len(model.positions)
    boxes = [i for i, s in enumerate(model.wheel) if s.box]
    if len(model.wheel) != n or len(boxes) != 1:
        raise RulesError(f"a wheel needs one slot per position ({n}) and exactly one box")
    box = boxes[0]
    rest = tuple(p.rest for p in model.positions)
    targets = tuple(i for i, p in enumerate(model.positions) if p.overflow_target)
    if not targets:
        raise RulesError("a wheel needs at least one overflow target")
    if any(t == 0 or not rest[t] for t in targets):
        raise RulesError("overflow targets must be resting positions other than the entry (0)")
    below = [p for p in range(1, targets[0]) if rest[p]]
    if not below:
        raise RulesError("no resting position between the entry and the first overflow target")
    wheel = [model.wheel[(box + k) % n] for k in range(n)]  # re-indexed from the box
    prefix = model.kind
    overflows = tuple(tuple(any(p >= n or not rest[p] for p in range(start + 1, start + steps + 1)) for start in range(n))
                      for steps in (1, 2))
    order = (*targets, *(p for p in range(below[-1], 0, -1) if rest[p]))
    return WheelGeometry(
        size=n,
        zones=tuple(p.zone for p in model.positions),
        rest=rest,
        overflow_targets=targets,
        fallback=below[-1],
        costs=tuple(p.cost for p in model.positions),
        cost_keys=tuple(None if p.cost is None else f"{prefix}/positions/{i}/cost" for i, p in enumerate(model.positions)),
        points=tuple(p.points or 0 for p in model.positions),
        bonuses=tuple(s.bonus for s in wheel),
        bonus_keys=tuple(None if s.bonus is None else f"{prefix}/wheel/{(box + k) % n}/bonus" for k, s in enumerate(wheel)),
        overflow_points=model.overflow_points,
        start_rotations=tuple((r.players, r.box_at) for r in model.rotations),
        overflows=overflows,
        overflow_order=order,
    )


def start_rotation(geometry: WheelGeometry, players: int) -> int:
    """The box position at setup for a player count (R-SETUP-CRANE-1)."""
    for count, box_at in geometry.start_rotations:
        if count == players:
            return box_at
    raise RulesError(f"the wheel has no starting rotation for {players} players")


# ---------------------------------------------------------------- reading a state

def box_position(state: WheelState) -> int:
    return state.rotation


def tile_at(state: WheelState, position: int) -> str | None:
    return state.slots[(position - state.rotation) % len(state.slots)]


def position_of(state: WheelState, tile: str) -> int:
    return (_slot_of(state, tile) + state.rotation) % len(state.slots)


def tiles_by_position(state: WheelState) -> tuple[tuple[int, str], ...]:
    """(position, tile) for every tile on the wheel, lowest position first."""
    n = len(state.slots)
    return tuple(sorted(((k + state.rotation) % n, t) for k, t in enumerate(state.slots) if t is not None))


def tiles_in_order(data: dict) -> list[tuple[int, str]]:
    """``tiles_by_position`` read straight from the JSON form (the game's table), lowest position first."""
    slots = data["slots"]
    cut = -data["rotation"] % len(slots)  # the slot at position 0: the slots from it on are in position order
    return [(pos, tile) for pos, tile in enumerate(slots[cut:] + slots[:cut]) if tile is not None]


def dummy_choice(state: WheelState, rule: str = "highest_position") -> str:
    """The tile an automatic seat takes (R-SOLO-2); `rule` is the solo model's `dummy_takes`."""
    tiles = tiles_by_position(state)
    if not tiles:
        raise RulesError("the dummy seat cannot choose: no tile is on the wheel")
    if rule not in ("highest_position", "lowest_position"):
        raise RulesError(f"unknown dummy rule {rule!r}")
    return tiles[-1 if rule == "highest_position" else 0][1]


# ---------------------------------------------------------------- changing a state

def setup(geometry: WheelGeometry, players: int, tile_order) -> WheelState:
    """Turn the wheel to its starting rotation and place the tiles from position 0 (R-SETUP-CRANE-1..4)."""
    n = geometry.size
    order = list(tile_order)
    if len(set(order)) != len(order):
        raise RulesError(f"a tile is listed twice in the wheel's setup order {order}")
    rotation = start_rotation(geometry, players)
    slots: list[str | None] = [None] * n
    pending = iter(order)
    placed = 0
    for position in range(n):
        if placed == len(order):
            break
        slot = (position - rotation) % n
        if slot == 0:  # the box holds no tile
            continue
        # Starting tiles never rest where tiles score points or overflow (R-SETUP-CRANE-4).
        if not geometry.rest[position] or geometry.points[position]:
            raise RulesError(f"{players} players: the wheel's setup puts a tile at position {position}, "
                             "where tiles do not rest or score points")
        slots[slot] = next(pending)
        placed += 1
    if placed < len(order):
        raise RulesError(f"the wheel has no room for {len(order)} tiles")
    return WheelState(rotation, tuple(slots))


def take(geometry: WheelGeometry, state: WheelState, tile: str) -> tuple[WheelState, TakeInfo]:
    """Lift a tile off the wheel (R-CRANE-5..10); its overflow bonus, if any, goes with this take."""
    slot = _slot_of(state, tile)
    position = (slot + state.rotation) % geometry.size
    flagged = tile in state.flagged
    info = TakeInfo(
        tile=tile,
        position=position,
        slot=slot,
        cost=geometry.costs[position],
        cost_key=geometry.cost_keys[position],
        points=geometry.points[position],
        flagged=flagged,
        flag_points=geometry.overflow_points if flagged else 0,
        bonus=geometry.bonuses[slot],
        bonus_key=geometry.bonus_keys[slot],
    )
    slots = list(state.slots)
    slots[slot] = None
    return WheelState(state.rotation, tuple(slots), tuple(t for t in state.flagged if t != tile)), info


def end_of_turn(geometry: WheelGeometry, state: WheelState, returned_tile: str) -> WheelState:
    """R-EOT-1 steps 2-5: rotate (twice if the box reaches the entry), overflow, return the tile to 0."""
    n = geometry.size
    if not isinstance(returned_tile, str):
        raise RulesError(f"end of turn needs the tile taken this turn, not {returned_tile!r}")
    if returned_tile in state.slots:
        raise RulesError(f"tile {returned_tile!r} is returned to the wheel but is still on the wheel")
    steps = 2 if (state.rotation + 1) % n == 0 else 1
    rotation = (state.rotation + steps) % n
    slots = list(state.slots)
    # Tiles that wrapped from N-1 to 0 or entered a non-resting position overflow; the one that
    # was furthest ahead passed first, so it takes the first free target.
    overflowing = []
    over = geometry.overflows[steps - 1]
    for k, tile in enumerate(state.slots):
        if tile is not None and over[start := (k + state.rotation) % n]:
            overflowing.append((start, k, tile))
            slots[k] = None
    flagged = state.flagged
    if overflowing:
        for _, _, tile in sorted(overflowing, reverse=True):
            slots[_free_slot(geometry, slots, rotation, tile)] = tile
        flagged = tuple(sorted(set(flagged) | {t for _, _, t in overflowing}))
    entry = (0 - rotation) % n
    if slots[entry] is not None:
        raise RulesError(f"position 0 holds {slots[entry]!r}: tile {returned_tile!r} cannot be returned")
    slots[entry] = returned_tile
    return WheelState(rotation, tuple(slots), flagged)


def _free_slot(geometry: WheelGeometry, slots: list, rotation: int, tile: str) -> int:
    """The slot an overflowing tile goes to: first empty target, else the fallback or below it."""
    n = geometry.size
    for position in geometry.overflow_order:
        slot = (position - rotation) % n
        if slot != 0 and slots[slot] is None:
            return slot
    raise RulesError(f"tile {tile!r} overflows but the wheel has no empty position for it")


def _slot_of(state: WheelState, tile: str) -> int:
    if tile is not None and tile in state.slots:
        return state.slots.index(tile)
    raise RulesError(f"tile {tile!r} is not on the wheel")


# ---------------------------------------------------------------- JSON

def to_json(state: WheelState) -> dict:
    return {"rotation": state.rotation, "slots": list(state.slots), "flagged": list(state.flagged)}


def from_json(data: dict) -> WheelState:
    return WheelState(int(data["rotation"]), tuple(data["slots"]), tuple(data["flagged"]))
