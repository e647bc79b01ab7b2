"""Board tables compiled once from a ruleset: tile kinds and where they go, the personal area,
the shared map, grids, the slot row, rows and the turn's any-time actions.

Everything is plain data keyed by content ids and program keys, so the mechanisms and the
effect machine read it on the hot path without touching pydantic or networkx.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from interpreter.mechanisms.hex_area import AreaGeometry, build_area, key as hex_key
from interpreter.mechanisms.hex_map import HexMap, build_hex_map
from interpreter.mechanisms.market_rows import RowSpec, row_specs
from interpreter.runtime.state import combined_dict


@dataclass(frozen=True)
class KindInfo:
    id: str
    placed_on: str | None  # action_hex | ring | site
    on_place: str | None  # program keys
    corner_reward: str | None
    colours: frozenset[str]


@dataclass(frozen=True)
class GridInfo:
    id: str
    sideways: str  # left | right
    cols: tuple[frozenset[int], ...]  # per row, bottom first
    tier: tuple[int, ...]  # tier index per row
    squares: dict[tuple[int, int], str]  # (row, col) -> landing program key
    up_cost: str | None  # amounts key
    tier_cost: dict[int, str]  # tier index -> amounts key paid to move up into it
    tier_enter: dict[int, str]  # tier index -> program run when a marker first enters it


@dataclass(frozen=True)
class Layout:
    kinds: dict[str, KindInfo]
    rows: dict[str, RowSpec]  # the market rows by kind
    row_permit: dict[str, str | None]  # row kind -> permit needed for its special positions
    main_only: frozenset[str]  # permits usable only by the main action
    area: AreaGeometry | None
    hex_map: HexMap | None
    map_key: str | None  # the state's table of the map's sites (site -> tile): the map file's id
    areas_key: str | None  # the state's table of area tiles by area hex: the file kind of the area records
    site_kind: str | None
    area_kind: str | None  # record kind lying on the area hexes
    area_rewards: tuple[str, ...]  # its effect fields, in the order the majority gains them
    premium: dict[str, tuple[str | None, int]]  # site -> (cost key, points)
    symbols: dict[str, str]  # edge symbol -> reward key (symbols without a reward are blank)
    icons: tuple[tuple[str, str], ...]  # (icon, effect key), in pack order
    slots: tuple[tuple[str, tuple[str, ...]], ...]  # (slot, bonus keys)
    slot_key: str | None  # the slotted zone of the slot row (its slots in order): the row file's id
    slot_verb: str | None  # the decision (and action verb) of laying a kept tile on a slot
    slot_stacks: frozenset[str]
    discard_when_complete: frozenset[str]
    complete_at: int
    grids: dict[str, GridInfo]
    anytime: dict[str, str]  # any-time action -> program key
    actions: tuple[str, ...]  # every action, in pack order

    def __post_init__(self) -> None:
        combined_dict(self)  # read many times per action (see combined_dict)

    @cached_property
    def plain_sites(self) -> tuple[str, ...]:
        """The building sites of the shared map that carry no premium, in file order."""
        if self.hex_map is None:
            return ()
        return tuple(s for s in self.hex_map.sites if self.premium.get(s, (None, 0))[0] is None)

    @cached_property
    def action_hex_keys(self) -> dict[str, str]:
        """Action -> the key of its hex in ``PlayerState.area``."""
        return {a: hex_key(h) for a, h in self.area.action_hex.items()} if self.area is not None else {}

    @cached_property
    def ring_keys(self) -> tuple[str, ...]:
        """The personal area's ring hexes, as the keys of ``PlayerState.area``."""
        return tuple(hex_key(h) for h in self.area.ring) if self.area is not None else ()


def build_layout(rs, key_of_path: dict[tuple[str, tuple], str], records: dict[tuple[str, str], Any]) -> Layout:
    pack = rs.single("pack")
    k = lambda kind, *path: key_of_path.get((kind, tuple(path)))  # noqa: E731
    kinds = {t.id: KindInfo(t.id, t.placed_on, k("pack", "tile_kinds", i, "on_place"),
                            k("pack", "tile_kinds", i, "corner_reward"), frozenset(t.corner_colours))
             for i, t in enumerate(pack.tile_kinds)}
    setup = rs.single("setup")
    board = rs.single("action_board")
    area = None
    if board is not None:
        area = build_area(tuple(board.centre), {a.action: tuple(a.at) for a in board.action_hexes})
    map_model = rs.single("hex_map")
    premium = {}
    if map_model is not None:
        for i, h in enumerate(map_model.hexes):
            if h.premium is not None:
                premium[h.id] = (k("hex_map", "hexes", i, "premium", "cost"), h.premium.points)
    area_records = rs.record_kinds.get(map_model.area_tiles) if map_model is not None else None
    row = rs.single("slot_row")
    slots = tuple((p.id, tuple(k("slot_row", "slots", i, "bonuses", j) for j in range(len(p.bonuses))))
                  for i, p in enumerate(row.slots)) if row else ()
    return Layout(
        kinds=kinds,
        rows=row_specs(setup.rows) if setup else {},
        row_permit={r.kind: r.special_permit for r in setup.rows} if setup else {},
        main_only=frozenset(p.id for p in pack.permits if p.main_action_only),
        area=area,
        hex_map=build_hex_map(map_model) if map_model is not None else None,
        map_key=map_model.id if map_model is not None else None,
        areas_key=area_records.file_kind if area_records is not None else None,
        site_kind=map_model.site_kind if map_model is not None else None,
        area_kind=map_model.area_tiles if map_model is not None else None,
        area_rewards=tuple(map_model.area_rewards) if map_model is not None else (),
        premium=premium,
        symbols={s.id: k("pack", "edge_symbols", i, "reward") for i, s in enumerate(pack.edge_symbols) if s.reward},
        icons=tuple((ic.id, k("pack", "icons", i, "effect")) for i, ic in enumerate(pack.icons) if ic.effect),
        slots=slots,
        slot_key=row.id if row else None,
        slot_verb=row.verb if row else None,
        slot_stacks=frozenset(row.slot_stacks) if row else frozenset(),
        discard_when_complete=frozenset(row.discard_when_complete) if row else frozenset(),
        complete_at=row.complete_at if row else 0,
        grids=_grids(rs, k),
        actions=tuple(a.id for a in pack.actions),
        anytime={a.id: k("setup", "anytime_actions", i, "effect") for i, a in enumerate(setup.anytime_actions)} if setup else {},
    )


def _grids(rs, k) -> dict[str, GridInfo]:
    out = {}
    projects = rs.single("projects")
    for gi, g in enumerate(projects.grids if projects else ()):
        si = next(i for i, ts in enumerate(g.tier_sets) if ts.id == g.tier_set)
        cols, tier, squares, tier_cost, tier_enter = [], [], {}, {}, {}
        for ti, t in enumerate(g.tier_sets[si].tiers):
            base = ("grids", gi, "tier_sets", si, "tiers", ti)
            if t.enter_cost is not None:
                tier_cost[ti] = k("projects", *base, "enter_cost")
            if t.on_enter is not None:
                tier_enter[ti] = k("projects", *base, "on_enter")
            for ri, row in enumerate(t.rows):
                cols.append(frozenset(row.cols))
                tier.append(ti)
                for qi, sq in enumerate(row.squares):
                    squares[(len(cols), sq.col)] = k("projects", *base, "rows", ri, "squares", qi, "effect")
        out[g.id] = GridInfo(g.id, g.sideways, tuple(cols), tuple(tier), squares, k("projects", "grids", gi, "up_cost"),
                             tier_cost, tier_enter)
    return out
