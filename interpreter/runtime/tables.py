"""The tables the effect machine reads, compiled once from a Ruleset: tracks, grids, records, the program
keys of record fields, milestones, triggers, the board layout (``build_tables``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from interpreter.runtime.chance import Die
from interpreter.runtime.copies import COPY, add_copies
from interpreter.runtime.layout import Layout, build_layout
from interpreter.content.derived_zones import derived_zones
from interpreter.content.owned_zones import owned_zone_for
from interpreter.runtime.zones import ZoneSpec, specs_of as zone_specs

MISSING = object()  # a field a record does not have


@dataclass(frozen=True)
class TrackTable:
    id: str
    positions: tuple[int, ...]  # space numbers, first to last
    values: dict[int, int]
    produces: str | None
    production: tuple[tuple[int, str], ...]  # (space, program key), gained when the marker is right of it
    on_reach: dict[int, tuple[str, ...]]  # space -> programs run on arrival, in order
    enter_cost: dict[int, str]  # space -> compiled-amounts key
    beyond_top: str | None


@dataclass(frozen=True)
class GridTable:
    id: str
    start: tuple[int, int]  # (row, col), from 1
    row_values: tuple[int, ...]  # of the tier set in play, bottom row first
    columns: tuple[int, ...]  # column head values, column 1 first


@dataclass(frozen=True)
class Tables:
    """What the machine needs from a Ruleset, indexed once."""

    programs: Any  # key -> compiled program / amounts / condition
    asts: dict[str, Any]
    caps: dict[str, int]
    groups: dict[str, tuple[str, ...]]
    tracks: dict[str, TrackTable]
    records: dict[tuple[str, str], Any]  # (kind, id) -> model
    kind_of: dict[str, str]  # record id -> kind
    keys: dict[tuple[str, str, str], str]  # (kind, id, field) -> program key
    milestones: tuple[tuple[str, str, str, str, str | None], ...]  # (kind, id, condition key, reward key, piece)
    stack_keep: dict[str, str]  # zone id -> effect field run when a record is kept from it (`run_on_keep`)
    tables: dict[str, tuple[tuple[int, int], ...]]  # scoring table -> (min, points) steps
    triggers: dict[tuple[str, str], tuple[tuple[str, int], ...]]  # (kind, id) -> (program key, trigger index)
    event_keys: dict[str, str]  # event -> the parameter `on event(X)` matches
    grids: dict[str, GridTable]
    layout: Layout  # boards, tile kinds, rows (see layout.py)
    global_triggers: tuple[tuple[str, int, str], ...]  # (program key, trigger index, source) active for every player
    spans: dict = field(default_factory=dict, compare=False, repr=False)  # program key -> Span of its text
    zones: dict = field(default_factory=dict)  # zone id -> ZoneSpec (zones.py)
    dice: dict = field(default_factory=dict)  # die id -> Die (chance.py)
    markable: frozenset = frozenset()  # what records may keep counts of: the pack's marks and its player resources
    marks: frozenset = frozenset()  # the pack's marks (the rest of ``markable`` are resources)
    substitutes: dict = field(default_factory=dict)  # resource -> the resources that pay for it when lacking, in order
    reductions: dict = field(default_factory=dict)  # resource -> the resource whose count is taken off each gain of it
    _attrs: dict = field(default_factory=dict, compare=False, repr=False)  # (id of a record, field) -> (record, value)
    _once: dict = field(default_factory=dict, compare=False, repr=False)  # see once
    _holders: dict = field(default_factory=dict, compare=False, repr=False)  # id of a table -> (table, inverse)

    def once(self, key: tuple, make: Callable[[], Any]) -> Any:
        """A value derived from the content alone (read-only), made on first use and kept."""
        hit = self._once.get(key)
        if hit is None:
            hit = self._once[key] = make()
        return hit

    def owned_zone(self, kind: str | None) -> ZoneSpec | None:
        """The zone declared `owned: true` that a record of ``kind`` a player gains (keeps, places, claims)
        goes into (content/owned_zones.py; E322 makes sure a pack that lets players gain one has it); None: no such zone."""
        return self.once(("owned_zone", kind), lambda: owned_zone_for(self.zones.values(), kind))

    def shapes(self) -> dict[str, tuple[tuple, tuple]]:
        """Record id -> (its edges, its corners) as tuples (empty for a record without them), for the hex tiles'
        placement rules."""
        return self.once(("shapes",), lambda: {rid: (tuple(getattr(rec, "edges", None) or ()), tuple(getattr(rec, "corners", None) or ()))
                                              for (_, rid), rec in self.records.items()})

    def ids_of(self, kind: str) -> tuple[str, ...]:
        """The ids of every record of a kind, in content order."""
        return self.once(("kind", kind), lambda: tuple(rid for (k, rid) in self.records if k == kind and COPY not in rid))

    def holders(self, placed: dict) -> dict:
        """For a table of where records lie (place -> record id, e.g. the plazas), record id -> its places.
        Remembered by the table itself: the game's tables are replaced, never changed, when they change."""
        hit = self._holders.get(id(placed))
        if hit is None or hit[0] is not placed:
            if len(self._holders) > 1024:
                self._holders.clear()  # one per game: keep the memory of long simulations bounded
            inverse: dict[str, list] = {}
            for where, rid in placed.items():
                inverse.setdefault(rid, []).append(where)
            hit = self._holders[id(placed)] = (placed, inverse)
        return hit[1]

    def attr(self, model, name: str, default=None):
        """A content record's field, else ``default``. pydantic answers a field a record lacks slowly (by an
        exception) and records are read-only, so each answer is kept (with the record, so its id stays its own)."""
        hit = self._attrs.get((id(model), name))
        if hit is None or hit[0] is not model:
            hit = self._attrs[(id(model), name)] = (model, getattr(model, name, MISSING))
        return default if hit[1] is MISSING else hit[1]


def build_tables(rs) -> Tables:
    programs = rs.programs
    asts = {f.key: f.ast for f in rs.fields}
    key_of_path = {(f.kind, f.path): f.key for f in rs.fields}
    pack = rs.single("pack")
    caps = {r.id: r.cap for r in pack.resources if r.cap is not None}
    groups: dict[str, list[str]] = {}
    for r in pack.resources:
        if r.group:
            groups.setdefault(r.group, []).append(r.id)

    tracks = {}
    tracks_file = rs.single("tracks")
    for ti, t in enumerate(tracks_file.tracks if tracks_file else ()):
        def key(si, name, ti=ti):
            return key_of_path.get(("tracks", ("tracks", ti, "spaces", si, name)))
        tracks[t.id] = TrackTable(
            t.id, tuple(s.n for s in t.spaces), {s.n: s.value for s in t.spaces}, t.produces,
            tuple((s.n, key(si, "production")) for si, s in enumerate(t.spaces) if s.production),
            {s.n: (key(si, "on_reach"),) for si, s in enumerate(t.spaces) if s.on_reach},
            {s.n: key(si, "enter_cost") for si, s in enumerate(t.spaces) if s.enter_cost},
            key_of_path.get(("tracks", ("tracks", ti, "beyond_top"))),
        )
    route = rs.single("route")
    global_triggers = []
    if route is not None:
        # the route's space effects (the replacement tiles in use cover theirs) run on arrival
        faces = {t.replaces: t for t in route.replacement_tiles if t.id in route.replacement_tiles_in_use}
        on_reach = {}
        for si, s in enumerate(route.spaces):
            progs = []
            for ei, e in enumerate(s.effects):
                if e.id in faces:
                    ti = route.replacement_tiles.index(faces[e.id])
                    key = key_of_path[("route", ("replacement_tiles", ti, "effect"))]
                    progs.append(key)
                    # a face's triggers ("while your pawn is on this space") listen for every player
                    global_triggers += [(key, i, faces[e.id].id) for i in range(len(programs[key].triggers))]
                else:
                    progs.append(key_of_path[("route", ("spaces", si, "effects", ei, "effect"))])
            if progs:
                on_reach[s.n] = tuple(progs)
        tracks[route.track] = TrackTable(
            route.track, tuple(s.n for s in route.spaces), {s.n: s.n for s in route.spaces}, None, (), on_reach,
            {s.n: key_of_path[("route", ("spaces", si, "enter_cost"))] for si, s in enumerate(route.spaces) if s.enter_cost},
            None,
        )

    records, kind_of, keys, triggers = {}, {}, {}, {}
    for kind, rk in rs.record_kinds.items():
        for m in rs.models.get(rk.file_kind, ()):
            for i, rec in enumerate(getattr(m, rk.field)):
                records[(kind, rec.id)] = rec
                kind_of[rec.id] = kind
    for f in rs.fields:
        if f.record and f.kind in {rk.file_kind for rk in rs.record_kinds.values()}:
            kind = kind_of.get(f.record)
            if kind is None or len(f.path) < 3:
                continue
            keys.setdefault((kind, f.record, f.path[2]), f.key)
            prog = programs[f.key]
            if f.start == "program" and prog.triggers:
                triggers[(kind, f.record)] = tuple((f.key, i) for i in range(len(prog.triggers)))

    add_copies(pack, records, kind_of, keys, triggers)  # per-player copies read as their records (copies.py)
    # one-time bonuses: the records of every kind with a `when` condition and a `reward` effect, in file order
    milestones = tuple(
        (kind, rid, keys[(kind, rid, "when")], keys[(kind, rid, "reward")], getattr(rec, "piece", None))
        for (kind, rid), rec in records.items() if (kind, rid, "when") in keys and (kind, rid, "reward") in keys
    )
    scoring = rs.single("scoring")
    tables = {t.id: tuple((s.min, s.points) for s in t.steps) for t in (scoring.tables if scoring else ())}
    return Tables(programs, asts, caps, {g: tuple(v) for g, v in groups.items()}, tracks, records, kind_of, keys,
                  milestones, {z.id: z.run_on_keep for z in pack.zones if z.run_on_keep}, tables, triggers,
                  {e.id: e.key for e in pack.events if e.key}, _grids(rs), build_layout(rs, key_of_path, records),
                  tuple(global_triggers), {f.key: f.span for f in rs.fields}, _zones(rs), _dice(rs),
                  frozenset(m.id for m in pack.marks) | frozenset(r.id for r in pack.resources if not r.shared),
                  frozenset(m.id for m in pack.marks), _substitutes(pack),
                  {r.id: r.reduced_by for r in pack.resources if r.reduced_by})


def _substitutes(pack) -> dict[str, tuple[str, ...]]:
    """Resource -> the resources declared to stand in for it, in declaration order."""
    out: dict[str, tuple[str, ...]] = {}
    for r in pack.resources:
        for paid in r.substitutes:
            out[paid] = (*out.get(paid, ()), r.id)
    return out


def _grids(rs) -> dict[str, GridTable]:
    out = {}
    projects = rs.single("projects")
    for g in projects.grids if projects else ():
        tiers = next(ts for ts in g.tier_sets if ts.id == g.tier_set).tiers
        rows = tuple(r.value for t in tiers for r in t.rows)
        out[g.id] = GridTable(g.id, (g.start[0], g.start[1]), rows, tuple(g.columns))
    return out



def _zones(rs) -> dict[str, ZoneSpec]:
    """The zones the pack declares, then those its boards derive (content/derived_zones.py): the
    market rows' hidden stacks in the order they are shuffled, the rows, the slot row."""
    specs = zone_specs(rs.single("pack").zones)
    for z in derived_zones(rs.models, rs.record_kinds):
        specs[z.id] = ZoneSpec(z.id, holds=z.holds, slots=z.slots, visibility="hidden" if z.hidden else "public")
    return specs


def _dice(rs) -> dict[str, Die]:
    """The dice a pack's flow declares (none without a flow)."""
    flow = rs.single("flow")
    return {d.id: Die(d.id, tuple(d.outcomes) if d.outcomes else tuple(range(1, d.faces + 1)))
            for d in (flow.dice if flow else ())}
