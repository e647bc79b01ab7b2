"""Enclosed areas of the shared map and the slots of a slot row."""

from __future__ import annotations

from interpreter.dsl.printer import to_text
from interpreter.mechanisms import hex_map as C
from interpreter.runtime import zones as Z
from interpreter.runtime.state import Decision, Frame, GameState
from interpreter.runtime.natives.common import PICK_HALF, _amounts, _prog, _push

# --------------------------------------------------------------------------- enclosed areas

def area_step(m, state, frame) -> None:
    """An enclosed area resolves: majority gets both halves, other claimants one (R-PLAZA-6/7)."""
    state.frames.pop()
    hex_id = frame.event["area"]
    cmap = m.layout.hex_map
    sites = state.table[m.layout.map_key] = dict(state.table[m.layout.map_key])  # the claims' cubes come off below
    claims: dict[int, int] = {}
    spend: dict[int, int] = {}
    returned: dict[tuple[str, int], int] = {}
    for site in cmap.sites_of[hex_id]:
        e = sites.get(site, {})
        piece = e.get("piece")
        if not piece:
            continue
        sites[site] = e = dict(e)
        seat = piece[1]
        claims[seat] = claims.get(seat, 0) + 1
        kind = m.tables.kind_of[e["tile"]]
        key = m.tables.keys.get((kind, e["tile"], "cost"))
        if key:
            spend[seat] = spend.get(seat, 0) + sum(n for _, n in _amounts(m, state, Frame("", [], 0, seat, ""), key))
        returned[(piece[0], seat)] = returned.get((piece[0], seat), 0) + 1
        e.pop("piece")
    state.table["resolved"] = [*state.table.get("resolved", ()), hex_id]
    for (piece, seat), n in returned.items():  # cubes go back to their owners (R-PLAZA-6 step 4)
        player = state.player(seat)
        player.pieces_free = player.pieces_free.with_entry(piece, player.pieces_free.get(piece, 0) + n)
    tile = state.table.get(m.layout.areas_key, {}).get(hex_id)
    if tile is None:
        return  # an empty area hex never gives rewards (R-PLAZA-2)
    best, others = C.majority(claims, spend)
    n = len(state.players)
    order = [(state.current + i) % n for i in range(n)]  # active player first, then seat order (OPEN-47)
    kind = m.layout.area_kind
    queue = []
    for seat in order:
        if seat in best:
            queue += [_prog(m, m.tables.keys[(kind, tile, f)], seat, tile, (kind, tile)) for f in m.layout.area_rewards]
        elif seat in others:
            queue.append(Frame(PICK_HALF, [], 0, seat, tile, [kind, tile], {"tile": tile}))
    _push(state, queue)


def half_step(m, state, frame) -> None:
    tile, kind = frame.event["tile"], m.layout.area_kind
    options = [f"{f}: {to_text(m.tables.asts[m.tables.keys[(kind, tile, f)]])}" for f in m.layout.area_rewards]
    state.decision = Decision(frame.player, "choose", options, {})


def half_answer(m, state, frame, index, d) -> None:
    state.frames.pop()
    tile, kind = frame.event["tile"], m.layout.area_kind
    _push(state, [_prog(m, m.tables.keys[(kind, tile, m.layout.area_rewards[index])], frame.player, tile, (kind, tile))])


# --------------------------------------------------------------------------- slot rows

def _free_slots(m, state) -> list[str]:
    return [p for (p, _), laid in zip(m.layout.slots, state.zones[m.layout.slot_key]) if laid is None]


def slot_step(m, state, frame) -> None:
    state.decision = Decision(frame.player, m.layout.slot_verb, _free_slots(m, state), {})


def slot_answer(m, state, frame, index, d) -> None:
    """Lay the kept tile on a free slot and gain the bonuses it covers (R-ROAD-5, R-ROAD-7, OPEN-19)."""
    state.frames.pop()
    key = m.layout.slot_key
    slot = _free_slots(m, state)[index]
    state.zones[key] = Z.put(m.tables.zones[key], state.zones[key], frame.event["tile"], slot)
    keys = dict(m.layout.slots)[slot]
    _push(state, [_prog(m, k, frame.player, f"{key}:{slot}") for k in keys])


def slots_open(m, state) -> bool:
    return bool(m.layout.slots) and Z.count(state.zones[m.layout.slot_key]) < m.layout.complete_at
