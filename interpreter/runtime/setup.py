"""Setting up a game from content (R-SETUP-*): the zones (stacks) shuffled and dealt, the rows, the map,
the wheel, the seeded RNG."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from interpreter.runtime import core_flow
from interpreter.runtime import zones as Z
from interpreter.runtime.chance import saved_state
from interpreter.runtime.machine import View
from interpreter.mechanisms import market_rows as rows
from interpreter.mechanisms import wheel
from interpreter.runtime.state import GameState, PlayerState, ReadOnlyDict

if TYPE_CHECKING:
    from interpreter.runtime.rules import Rules


def initial_state(rules: Rules, seed: int) -> GameState:
    """The state a game of these rules starts in (R-SETUP-*), its RNG seeded by ``seed``."""
    ruleset, players = rules.ruleset, rules.players
    rng = random.Random(seed)
    tables = rules.tables
    state = GameState(players=[])
    for seat in range(rules.seats):  # automatic seats too (e.g. R-SOLO-2's dummy)
        p = PlayerState(seat, pieces_free=dict(rules.setup.free_pieces))
        state.players.append(p)
    for seat, p in enumerate(state.players):
        view = View(tables, state, seat)
        p.holdings = {rid: fn(view, None) for rid, fn in tables.programs["setup/start_holdings"]}
        p.tracks = {tid: t.positions[0] for tid, t in tables.tracks.items()}
        for t in ruleset.single("tracks").tracks:
            p.tracks[t.id] = t.start
        p.grids = ReadOnlyDict({gid: list(g.start) for gid, g in tables.grids.items()})
    state.zones = deal_stacks(rules, rng)
    rows.deal(state.zones, rules.tables.layout.rows.values(), 1)
    _setup_map(rules, state, players, rng)
    wheel_model = ruleset.single("wheel")
    state.table.update({wheel_model.id: wheel.to_json(wheel.setup(rules.geometry, players, wheel_model.first_game_order)),
                        "era": 1, "seed": seed})
    state.rng = saved_state(rng)
    core_flow.begin(rules, state)  # round 1, the first seat's turn
    return state


def deal_stacks(rules: Rules, rng: random.Random) -> dict[str, tuple[str, ...]]:
    """Every zone's contents at the start: the records that name a zone, each hidden shared zone
    shuffled (in zone id order), the zones dealt from others, then the rows' stacks shuffled."""
    plan = rules.stack_plan
    zones = dict(plan.zones)
    for zid in plan.shuffled:
        zones[zid] = Z.shuffle(zones[zid], rng)
    for zid, source_id, count in plan.dealt:  # e.g. half of a shuffled set set aside elsewhere (R-SETUP-4)
        source = zones[source_id]
        zones[zid], zones[source_id] = source[:count], source[count:]
    zones.update(rows.shuffled(plan.row_stacks, rng))
    return zones


@dataclass(frozen=True)
class StackPlan:
    """The zones before shuffling, the same for every game of a ruleset and player count."""

    zones: dict  # zone key -> record ids in id order (tuples), every zone of the tables
    shuffled: tuple  # the hidden shared zones setup shuffles, in this order
    dealt: tuple  # (zone id, dealt from, count)
    row_stacks: dict  # the rows' (era, quality) stacks in id order, in the order they are shuffled


def plan_stacks(rules: Rules) -> StackPlan:
    ruleset, tables, pack = rules.ruleset, rules.tables, rules.ruleset.single("pack")
    starts = {kind: [f for f, spec in rk.fields if spec.type == "name" and spec.of == "zone"]
              for kind, rk in ruleset.record_kinds.items()}
    found: dict[str, list[str]] = {}
    for (kind, rid), rec in sorted(tables.records.items()):
        for f in starts.get(kind, ()):
            zone = getattr(rec, f, None)
            if zone:
                found.setdefault(zone, []).append(rid)
    tokens = ruleset.single("production_tokens")
    if tokens:
        found[tokens.pool] = [t.id for t in tokens.tokens if t.from_players <= rules.players]
    # in the order the zones were first filled (records, the pool), then the others: the order a
    # determinized copy reshuffles them in (Game.determinized)
    zones = {k: tuple(v) for k, v in found.items()}
    for k, empty in Z.empty(tables.zones.values(), rules.players).items():
        zones.setdefault(k, empty)
    declared = {z.id: z for z in pack.zones}
    shuffled = tuple(sorted(zid for zid, z in declared.items() if z.visibility == "hidden" and z.per == "shared" and not z.slots))
    return StackPlan(zones, shuffled, tuple((z.id, z.deal.from_, z.deal.count) for z in pack.zones if z.deal),
                     rows.sort_stacks(tables.records, rules.setup.rows))


def _setup_map(rules, state: GameState, players: int, rng: random.Random) -> None:
    """Area tiles on the area hexes in play; neutral tiles on the pre-filled sites (e.g. R-SETUP-7, R-SETUP-13)."""
    ruleset, layout = rules.ruleset, rules.tables.layout
    hex_map = ruleset.single("hex_map")
    if hex_map is None:
        return
    solo = ruleset.single("solo")
    count = solo.setup_as if players == 1 and solo is not None else players
    role = {name: t.role for name, t in hex_map.hex_types.items()}
    area_tiles = [p.id for p in ruleset.records(hex_map.area_tiles)]
    rng.shuffle(area_tiles)
    in_play = [h.id for h in hex_map.hexes if role[h.type] == "area" and (not h.marks or count in h.marks)]
    state.table[layout.areas_key] = dict(zip(in_play, area_tiles))  # unused area tiles go back to the box
    key = rows.stack_zone(hex_map.site_kind, 1, "regular")
    stack = list(state.zones.get(key, ()))
    state.table[layout.map_key] = {h.id: {"tile": stack.pop(0), "owner": None, "rot": 0}
                                   for h in hex_map.hexes if role[h.type] == "site" and count in h.pre_filled and stack}
    if key in state.zones:
        state.zones[key] = tuple(stack)
    state.table["where"] = {e["tile"]: site for site, e in state.table[layout.map_key].items()}
