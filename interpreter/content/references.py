"""Phase 3: checks across records that a per-file schema cannot make.

Unique ids, references between records (an upgrade's action, a technology's
stack, an overlay's tier set), consistency rules a kind declares (icons that
require or exclude each other) and board geometry (every city site touches
exactly one plaza; the wall ring has the declared size).

``check_names`` runs earlier, on every valid file before effects are parsed:
declared names must not be DSL keywords nor both a resource and a group.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from pydantic import BaseModel

from interpreter.mechanisms import hexes as board
from interpreter.mechanisms import wheel
from interpreter.dsl.parse import grammar_text
from interpreter.errors import ErrorBag
from interpreter.content.model import KindTable
from interpreter.content.model.base import Record
from interpreter.content import bot_checks, count_checks, events, flow_checks, owned_zones, table_checks
from interpreter.content.flow_checks import uses_offers
from interpreter.content.derived_zones import derived_zones
from interpreter.content.source import Document, walk

BLANK = "none"


def _keywords() -> set[str]:
    import re

    return set(re.findall(r'"([a-z]+)"', grammar_text()))


_PER = {"player": "one per player", "shared": "shared"}

class Checker:
    def __init__(self, pairs: list[tuple[Document, BaseModel]], errors: ErrorBag, kinds: KindTable):
        self.pairs = pairs
        self.errors = errors
        self.kinds = kinds
        self.record_kinds = kinds.records
        self.by_kind: dict[str, list[tuple[Document, BaseModel]]] = defaultdict(list)
        for doc, model in pairs:
            self.by_kind[model.kind].append((doc, model))
        self.pack_doc, self.pack = self.by_kind["pack"][0]

    def err(self, doc: Document, path: tuple, code: str, message: str) -> None:
        node, _ = walk(doc.root, path)
        self.errors.add(code, message, node.span)

    def err_edited(self, doc: Document, paths: list[tuple], code: str, message: str) -> None:
        """Report at the first of ``paths`` whose value an overlay wrote (it points into the overlay,
        where the change was made), else at the first path."""
        for path in paths:
            node, depth = walk(doc.root, path)
            if depth == len(path) and node.span.path != doc.path:
                self.errors.add(code, message, node.span)
                return
        self.err(doc, paths[0], code, message)

    def run(self) -> None:
        self.declarations()
        self.unique_records()
        self.declared_fields()
        self.nested_ids()
        self.kept_effects()
        self.dealt_zones()
        self.derived_zone_ids()
        for doc, m in self.pairs:
            check = getattr(self, "k_" + m.kind, None)
            if check:
                check(doc, m)

    # ------------------------------------------------------------ names
    def declarations(self) -> None:
        d, p = self.pack_doc, self.pack
        self.resources = {r.id for r in p.resources}
        self.groups = {r.group for r in p.resources if r.group}
        self.actions = {a.id for a in p.actions}
        self.zone_ids = {z.id for z in p.zones}
        self.pieces = {x.id for x in p.pieces}
        self.symbols = {s.id for s in p.edge_symbols}
        self.icons = {i.id for i in p.icons}
        self.colours = set(p.corner_colours)
        self.tile_kinds = {k.id: k for k in p.tile_kinds}
        for field in ("resources", "marks", "pieces", "actions", "events", "permits", "edge_symbols", "icons", "tile_kinds",
                      "zones"):
            seen: dict[str, int] = {}
            for i, item in enumerate(getattr(p, field)):
                if item.id in seen:
                    self.err(d, (field, i, "id"), "E206", f"'{item.id}' is declared twice in {field} (first at entry {seen[item.id] + 1})")
                seen[item.id] = i
        for i, e in enumerate(p.events):
            for path, message in events.declaration_problems(e):
                self.err(d, ("events", i, *path), "E220", message)
            names = [x.name for x in e.params]
            if e.key is not None and e.key not in names:
                self.err(d, ("events", i, "key"), "E314", f"event key '{e.key}' is not one of its params: {', '.join(names) or 'none'}")
        for i, k in enumerate(p.tile_kinds):
            rk = self.record_kinds.get(k.id)
            if rk is None or not self.kinds.record_fields(k.id, "hex_sides"):
                hexes = [n for n in self.record_kinds if self.kinds.record_fields(n, "hex_sides")]
                self.err(d, ("tile_kinds", i, "id"), "E307", f"'{k.id}' is not a hex tile kind; expected one of: {', '.join(hexes)}")
            for j, c in enumerate(k.corner_colours):
                if c not in self.colours:
                    self.err(d, ("tile_kinds", i, "corner_colours", j), "E301", f"unknown corner colour '{c}'")
        for i, k in enumerate(p.tile_kinds):
            # where a kind's tiles go needs the board that has such places
            needs = {"action_hex": "action_board", "ring": "action_board", "site": "hex_map"}.get(k.placed_on or "")
            if needs and not self.by_kind.get(needs):
                self.err(d, ("tile_kinds", i, "placed_on"), "E209", f"tiles placed on '{k.placed_on}' need a {needs} file in the pack")
            rk = self.record_kinds.get(k.id)
            if k.placed_on == "action_hex" and rk is not None and "action" not in rk.model.model_fields:
                self.err(d, ("tile_kinds", i, "placed_on"), "E209", f"a {k.id} names no action, so it cannot go on an action hex")
            why = owned_zones.problem(p.zones, k.id, "placed") if k.placed_on else None
            if why:
                self.err(d, ("tile_kinds", i, "placed_on"), "E322", why)
        self.zones(d, p)
        flows = self.by_kind.get("flow")
        for path, code, message in count_checks.problems(p, self.kinds, bool(flows) and uses_offers(flows[0][1])):
            self.err(d, path, code, message)
        for i, icon in enumerate(p.icons):
            for field in ("requires", "excludes"):
                for j, other in enumerate(getattr(icon, field)):
                    if other not in self.icons:
                        self.err(d, ("icons", i, field, j), "E301", f"unknown icon '{other}'")

    def dealt_zones(self) -> None:
        """A zone's `deal` takes records from another shared pile; both are shared piles."""
        for i, z in enumerate(self.pack.zones):
            if z.deal is None:
                continue
            if self.ref(self.pack_doc, ("zones", i, "deal", "from"), z.deal.from_, self.zone_ids - {z.id}, "E320", "zone to deal from"):
                source = next(o for o in self.pack.zones if o.id == z.deal.from_)
                for zone, where in ((z, ("zones", i, "deal")), (source, ("zones", i, "deal", "from"))):
                    if zone.per != "shared" or zone.slots:
                        self.err(self.pack_doc, where, "E209", f"zone '{zone.id}' deals or is dealt at setup, so it must be "
                                 "a shared zone without slots")
                        break

    def derived_zone_ids(self) -> None:
        """The zones the boards derive (content/derived_zones.py: the market rows' stacks and rows, the
        slot row's zone) take ids no declared zone or record has."""
        where = {z.id: (self.pack_doc, ("zones", i, "id")) for i, z in enumerate(self.pack.zones)}
        for rk in self.record_kinds.values():
            for doc, m in self.by_kind.get(rk.file_kind, []):
                for i, rec in enumerate(getattr(m, rk.field)):
                    where.setdefault(rec.id, (doc, (rk.field, i, "id")))
        models = {kind: [m for _, m in pairs] for kind, pairs in self.by_kind.items()}
        for z in derived_zones(models, self.record_kinds):
            if z.id in where:
                doc, path = where[z.id]
                self.err(doc, path, "E216", f"'{z.id}' is the id of the zone derived for {z.derived_for}; "
                         "give this another id")

    def kept_effects(self) -> None:
        """A zone's `run_on_keep` names an effect field that every record starting in that zone has."""
        from interpreter.content.model import effect_fields

        keep = {z.id: z.run_on_keep for z in self.pack.zones if z.run_on_keep}
        for name, rk in self.record_kinds.items():
            starts = [f for f, spec in rk.fields if spec.type == "name" and spec.of == "zone"]
            if not starts:
                continue
            for doc, m in self.by_kind.get(rk.file_kind, []):
                for i, rec in enumerate(getattr(m, rk.field)):
                    for fname in starts:
                        zone = getattr(rec, fname)
                        wanted = keep.get(zone)
                        if wanted and wanted not in effect_fields(rk.model):
                            self.err(doc, (rk.field, i, fname), "E308",
                                     f"zone '{zone}' runs the field '{wanted}' of kept records, which a {name} does not have")

    def unique_records(self) -> None:
        for name, rk in self.record_kinds.items():
            seen: dict[str, str] = {}
            for doc, m in self.by_kind.get(rk.file_kind, []):
                for i, rec in enumerate(getattr(m, rk.field)):
                    if rec.id in seen:
                        self.err(doc, (rk.field, i, "id"), "E206", f"duplicate {name} id '{rec.id}' (first at {seen[rec.id]})")
                    else:
                        node, _ = walk(doc.root, (rk.field, i, "id"))
                        seen[rec.id] = f"{node.span.path}:{node.span.line}"

    def nested_ids(self) -> None:
        """Ids are unique within every other list that has them (slots, route effects, hexes, ...).

        Record lists (unique across files) and the pack's declarations are checked above.
        """
        records = {(rk.file_kind, rk.field) for rk in self.record_kinds.values()}
        for doc, m in self.pairs:
            for name in type(m).model_fields:
                if m.kind != "pack" and (m.kind, name) not in records:
                    self._unique_in(doc, getattr(m, name), (name,))
                self._nested(doc, getattr(m, name), (name,))

    def _nested(self, doc, value, path: tuple) -> None:
        """Check the lists inside the items of a top-level field."""
        items = value if isinstance(value, (list, tuple)) else [value]
        for i, item in enumerate(items):
            if isinstance(item, BaseModel):
                here = (*path, i) if isinstance(value, (list, tuple)) else path
                for name in type(item).model_fields:
                    self._unique_in(doc, getattr(item, name), (*here, name))
                    self._nested(doc, getattr(item, name), (*here, name))

    def _unique_in(self, doc, value, path: tuple) -> None:
        if not isinstance(value, (list, tuple)) or not value or not isinstance(value[0], BaseModel) or not hasattr(value[0], "id"):
            return
        seen: dict[str, int] = {}
        for i, item in enumerate(value):
            if item.id in seen:
                self.err(doc, (*path, i, "id"), "E206", f"'{item.id}' appears twice in {path[-1]} (first at entry {seen[item.id] + 1})")
            seen.setdefault(item.id, i)

    def zones(self, d, p) -> None:
        """Zones hold a declared kind, name each slot once, and refill from another zone of the same ownership."""
        by_id = {z.id: z for z in p.zones}
        for i, z in enumerate(p.zones):
            if z.holds is not None:
                self.ref(d, ("zones", i, "holds"), z.holds, set(self.record_kinds), "E307", "record kind")
            if z.slots and z.capacity is not None:
                self.err(d, ("zones", i, "capacity"), "E209", f"zone '{z.id}' has slots, which set its capacity ({len(z.slots)}); drop `capacity`")
            if z.owned and z.per != "player":
                self.err(d, ("zones", i, "owned"), "E209", f"zone '{z.id}' is owned, so its records belong to a player: declare it `per: player`")
            if z.start != "empty" and (z.holds is None or (z.per == "player") != (z.start == "copies")):
                what, per = ("a copy of every record of its kind for each player", "player") if z.start == "copies" \
                    else ("every record of its kind", "shared")
                self.err(d, ("zones", i, "start"), "E209", f"zone '{z.id}' starts with {what}, so it needs `per: {per}` "
                                                           "and the kind it `holds`")
            first = next(o for o in p.zones if o.start == z.start and o.holds == z.holds) if z.start == "copies" else z
            if first is not z:  # a player's copies have one id each: one zone deals them
                self.err(d, ("zones", i, "start"), "E209", f"zones '{first.id}' and '{z.id}' both start with copies of "
                                                           f"'{z.holds}'; a player has one copy of each record")
            seen: set[str] = set()
            for j, slot in enumerate(z.slots):
                if slot in seen:
                    self.err(d, ("zones", i, "slots", j), "E206", f"slot '{slot}' is named twice in zone '{z.id}'")
                seen.add(slot)
            if z.refill is not None and self.ref(d, ("zones", i, "refill", "zone"), z.refill.zone, set(by_id) - {z.id}, "E301", "zone to refill from"):
                source = by_id[z.refill.zone]
                if source.per != z.per:
                    self.err(d, ("zones", i, "refill", "zone"), "E209",
                             f"zone '{z.id}' is {_PER[z.per]} but refills from '{source.id}', which is {_PER[source.per]}")

    def ref(self, doc, path, value, allowed, code, what) -> bool:
        if value in allowed:
            return True
        import difflib

        hint = difflib.get_close_matches(str(value), sorted(allowed), n=1)
        extra = f"; did you mean '{hint[0]}'?" if hint else (f"; known: {', '.join(sorted(allowed))}" if len(allowed) <= 12 else "")
        self.err(doc, path, code, f"unknown {what} '{value}'{extra}")
        return False

    # ------------------------------------------------------------ kinds
    # (category, code, what) for the names a declared field holds (`of:`)
    _CATEGORY_ERRORS = {"action": ("E305", "action"), "zone": ("E320", "zone"), "symbol": ("E301", "edge symbol"),
                        "resource": ("E302", "resource"), "track": ("E303", "track"), "grid": ("E304", "grid")}

    def record_ids(self, kind: str) -> set[str]:
        """The ids of every record of a record kind, across the files that list them."""
        rk = self.record_kinds[kind]
        return {r.id for _, m in self.by_kind.get(rk.file_kind, []) for r in getattr(m, rk.field)}

    def _category(self, of: str) -> set[str]:
        if of in self.record_kinds:
            return self.record_ids(of)
        sets = {"resource": self.resources, "group": self.groups, "action": self.actions, "zone": self.zone_ids,
                "piece": self.pieces, "permit": {p.id for p in self.pack.permits}, "symbol": self.symbols,
                "icon": self.icons, "colour": self.colours,
                "track": {t.id for _, tm in self.by_kind.get("tracks", []) for t in tm.tracks}
                | {rm.track for _, rm in self.by_kind.get("route", [])},
                "grid": {g.id for _, pm in self.by_kind.get("projects", []) for g in pm.grids}}
        return sets.get(of, set())

    def declared_fields(self) -> None:
        """The names the fields of declared records hold (`of:`) are declared; hex corners carry the colours
        of their tile kind; icons that require or exclude each other."""
        for name, rk in self.record_kinds.items():
            for doc, m in self.by_kind.get(rk.file_kind, []):
                for fname, spec in rk.decl.file_fields.items():
                    self._names(doc, (fname,), getattr(m, fname), spec, name)
                for i, rec in enumerate(getattr(m, rk.field)):
                    for fname, spec in rk.fields:
                        self._names(doc, (rk.field, i, fname), getattr(rec, fname), spec, name)

    def _names(self, doc, path: tuple, value, spec, kind: str) -> None:
        if value is None:
            return
        inner = spec.item if spec.type == "list" else spec
        if inner is None or inner.of is None:
            return
        values = value if isinstance(value, (list, tuple)) else [value]
        known = self._category(inner.of)
        if spec.type == "hex_corners" and kind in self.tile_kinds:
            known = set(self.tile_kinds[kind].corner_colours)
        code, what = self._CATEGORY_ERRORS.get(inner.of, ("E301", inner.of.replace("_", " ")))
        multi = isinstance(value, (list, tuple))
        for j, v in enumerate(values):
            at = path + (j,) if multi else path
            if spec.type in ("hex_sides", "hex_corners") and v == BLANK:
                continue
            if spec.type == "hex_corners":
                if v not in known:
                    self.err(doc, at, "E204", f"{_article(kind)} {kind} tile may carry corner colours {', '.join(sorted(known)) or 'none'}, not '{v}'")
                continue
            self.ref(doc, at, v, known, code, what)
        if inner.of == "icon" and multi:
            self._icon_rules(doc, path, list(values))

    def _icon_rules(self, doc, path: tuple, icons: list[str]) -> None:
        clashes = set()
        for decl in self.pack.icons:
            if decl.id not in icons:
                continue
            for req in decl.requires:
                if req not in icons:
                    self.err(doc, path, "E209", f"the '{decl.id}' icon always comes with '{req}'")
            for exc in decl.excludes:
                if exc in icons and frozenset((decl.id, exc)) not in clashes:
                    clashes.add(frozenset((decl.id, exc)))  # declared both ways: report the pair once
                    self.err(doc, path, "E209", f"the '{decl.id}' icon never comes with '{exc}'")

    def k_slot_row(self, doc, m):
        for field in ("slot_stacks", "discard_when_complete"):
            for i, st in enumerate(getattr(m, field)):
                self.ref(doc, (field, i), st, self.zone_ids, "E317", "stack")
        if m.complete_at > len(m.slots):
            self.err(doc, ("complete_at",), "E209", f"the row completes at {m.complete_at} tiles but has {len(m.slots)} slots")

    def k_tracks(self, doc, m):
        for i, t in enumerate(m.tracks):
            if t.produces is not None:
                self.ref(doc, ("tracks", i, "produces"), t.produces, self.resources, "E302", "resource")
            self._spaces(doc, ("tracks", i), t.spaces, t.start)

    def _spaces(self, doc, path, spaces, start) -> None:
        numbers = [s.n for s in spaces]
        for j in range(1, len(numbers)):
            if numbers[j] != numbers[j - 1] + 1:
                self.err(doc, (*path, "spaces", j, "n"), "E209", f"space numbers must count up by one: {numbers[j - 1]} is followed by {numbers[j]}")
                break
        if start is not None and start not in numbers:
            self.err(doc, (*path, "start"), "E209", f"the start space {start} is not one of the track's spaces {numbers[0]}..{numbers[-1]}")

    def k_route(self, doc, m):
        self._spaces(doc, (), m.spaces, None)
        effects: set[str] = set()
        for i, space in enumerate(m.spaces):
            for j, e in enumerate(space.effects):
                if e.id in effects:  # replacement tiles name route effects: one id, one effect
                    self.err(doc, ("spaces", i, "effects", j, "id"), "E206", f"route effect id '{e.id}' is used on two spaces")
                effects.add(e.id)
        for i, t in enumerate(m.replacement_tiles):
            self.ref(doc, ("replacement_tiles", i, "replaces"), t.replaces, effects, "E314", "route effect")
        faces = {t.id for t in m.replacement_tiles}
        for i, rid in enumerate(m.replacement_tiles_in_use):
            self.ref(doc, ("replacement_tiles_in_use", i), rid, faces, "E314", "replacement tile")
        covered = Counter(t.replaces for t in m.replacement_tiles if t.id in set(m.replacement_tiles_in_use))
        for i, rid in enumerate(m.replacement_tiles_in_use):
            tile = next((t for t in m.replacement_tiles if t.id == rid), None)
            if tile is not None and covered[tile.replaces] > 1:
                self.err(doc, ("replacement_tiles_in_use", i), "E209", f"two tiles in use cover the same route effect '{tile.replaces}'")

    def k_projects(self, doc, m):
        for i, g in enumerate(m.grids):
            self.ref(doc, ("grids", i, "multiplies"), g.multiplies, self.resources, "E302", "resource")
            sets = {s.id for s in g.tier_sets}
            self.ref(doc, ("grids", i, "tier_set"), g.tier_set, sets, "E314", "tier set")
            for j, ts in enumerate(g.tier_sets):
                rows = [r for tier in ts.tiers for r in tier.rows]
                for k, tier in enumerate(ts.tiers):
                    for ri, row in enumerate(tier.rows):
                        for ci, col in enumerate(row.cols):
                            if not 1 <= col <= len(g.columns):
                                self.err(doc, ("grids", i, "tier_sets", j, "tiers", k, "rows", ri, "cols", ci), "E209",
                                         f"column {col} is outside the grid's {len(g.columns)} columns")
                        for si, sq in enumerate(row.squares):
                            if sq.col not in row.cols:
                                self.err(doc, ("grids", i, "tier_sets", j, "tiers", k, "rows", ri, "squares", si, "col"), "E209",
                                         f"square in column {sq.col}, which this row does not have")
                srow, scol = g.start
                if not (1 <= srow <= len(rows) and scol in rows[srow - 1].cols):
                    self.err(doc, ("grids", i, "start"), "E209", f"the start square [{srow}, {scol}] is not on tier set '{ts.id}'")

    def k_wheel(self, doc, m):
        boxes = [i for i, s in enumerate(m.wheel) if s.box]
        if len(boxes) != 1:
            self.err(doc, ("wheel",), "E209", f"the wheel needs exactly one box slot, found {len(boxes)}")
        for i, s in enumerate(m.wheel):
            if s.box and s.bonus is not None:
                self.err(doc, ("wheel", i, "bonus"), "E209", "the box slot holds no tile and so has no bonus")
        if len(m.wheel) != len(m.positions):
            self.err(doc, ("wheel",), "E209", f"the wheel has {len(m.wheel)} slots but the frame has {len(m.positions)} positions")
        for i, r in enumerate(m.rotations):
            if r.box_at >= len(m.positions):
                self.err(doc, ("rotations", i, "box_at"), "E209", f"position {r.box_at} does not exist (0..{len(m.positions) - 1})")
        counts = Counter(r.players for r in m.rotations)
        for i, r in enumerate(m.rotations):
            if counts[r.players] > 1:
                self.err(doc, ("rotations", i, "players"), "E206", f"two rotations for {r.players} players")
        ids = {t.id for t in m.tiles}
        for i, t in enumerate(m.tiles):
            for side in ("a", "b"):
                for j, a in enumerate(getattr(t, side).actions):
                    self.ref(doc, ("tiles", i, side, "actions", j), a, self.actions, "E305", "action")
        for i, tid in enumerate(m.first_game_order):
            self.ref(doc, ("first_game_order", i), tid, ids, "E314", "action tile")
        if sorted(m.first_game_order) != sorted(ids):
            self.err(doc, ("first_game_order",), "E209", "the first-game order must list every action tile exactly once")
        elif len(m.wheel) == len(m.positions) and len(boxes) == 1 and all(r.box_at < len(m.positions) for r in m.rotations):
            for path, message in wheel.geometry_problems(m):
                if path == ("positions",):  # no target at all: at a position whose flag was cleared
                    paths = [path, *(("positions", i, "overflow_target") for i in range(len(m.positions)))]
                    self.err_edited(doc, [*paths[1:], path], "E209", message)
                else:
                    self.err(doc, path, "E209", message)
        lo, hi = self.pack.players.min, self.pack.players.max
        for n in range(lo, hi + 1):
            if counts[n] == 0:
                self.err(doc, ("rotations",), "E209", f"the wheel has no starting rotation for {n} players")

    def k_action_board(self, doc, m):
        actions = Counter(h.action for h in m.action_hexes)
        for i, h in enumerate(m.action_hexes):
            self.ref(doc, ("action_hexes", i, "action"), h.action, self.actions, "E305", "action")
            if actions[h.action] > 1:
                self.err(doc, ("action_hexes", i, "action"), "E206", f"action '{h.action}' has two hexes")
        for a in sorted(self.actions - set(actions)):
            self.err(doc, ("action_hexes",), "E209", f"action '{a}' has no hex on the action board")
        area = [tuple(m.centre)] + [tuple(h.at) for h in m.action_hexes]
        if len(set(area)) != len(area):
            self.err(doc, ("action_hexes",), "E209", "two action-board hexes share a coordinate")
        b = board.build_board(area)
        if not board.connected(b):
            self.err(doc, ("action_hexes",), "E209", "the action board's hexes are not connected")
        size = len(board.ring(area))
        if size != m.ring_size:
            self.err(doc, ("ring_size",), "E209", f"the hexes around this action board number {size}, not {m.ring_size}")

    def k_hex_map(self, doc, m):
        from interpreter.content.model import effect_fields

        self.ref(doc, ("site_kind",), m.site_kind, set(self.tile_kinds), "E307", "tile kind")
        if self.ref(doc, ("area_tiles",), m.area_tiles, set(self.record_kinds), "E307", "record kind"):
            fields = set(effect_fields(self.record_kinds[m.area_tiles].model))
            for i, f in enumerate(m.area_rewards):
                self.ref(doc, ("area_rewards", i), f, fields, "E308", f"effect field of a {m.area_tiles}")
        at = {}
        for i, h in enumerate(m.hexes):
            key = tuple(h.at)
            if key in at:
                self.err(doc, ("hexes", i, "at"), "E206", f"hex {list(key)} is listed twice (also '{at[key]}')")
            at[key] = h.id
        b = board.build_board(at)
        for i, h in enumerate(m.hexes):
            self.ref(doc, ("hexes", i, "type"), h.type, set(m.hex_types), "E301", "hex type")
        roles = {tuple(h.at): m.hex_types[h.type].role for h in m.hexes if h.type in m.hex_types}
        for i, h in enumerate(m.hexes):
            role = roles.get(tuple(h.at))
            if role is None:
                continue
            if role == "site":
                areas = [n for n in b.adjacent(tuple(h.at)) if roles.get(n) == "area"]
                if len(areas) != 1:
                    self.err(doc, ("hexes", i), "E209", f"site '{h.id}' touches {len(areas)} area hexes; every site touches exactly one")
            elif h.premium is not None or h.pre_filled:
                self.err(doc, ("hexes", i), "E209", f"only sites have `premium` or `pre_filled`, not a {h.type} hex")
            if h.marks and role != "area":
                self.err(doc, ("hexes", i, "marks"), "E209", "only area hexes carry player-count marks")
        for i, c in enumerate(m.corners):
            self.ref(doc, ("corners", i, "colour"), c.colour, self.colours, "E301", "corner colour")
            if tuple(c.at) not in at:
                self.err(doc, ("corners", i, "at"), "E209", f"printed corner on {c.at}, which is not a hex of the map")

    def k_setup(self, doc, m):
        permits = {x.id for x in self.pack.permits}
        for i, r in enumerate(m.rows):
            self.ref(doc, ("rows", i, "kind"), r.kind, set(self.tile_kinds), "E307", "tile kind")
            if r.regular + r.special == 0:
                self.err(doc, ("rows", i), "E209", "a row needs at least one position: `regular` and `special` "
                         "are both 0, so its tiles could never be taken")
            if r.special_permit is not None:
                self.ref(doc, ("rows", i, "special_permit"), r.special_permit, permits, "E301", "permit")
        self.ref(doc, ("carry_group",), m.carry_group, self.groups, "E301", "resource group")
        if m.claim_kind is not None:
            if self.ref(doc, ("claim_kind",), m.claim_kind, set(self.record_kinds), "E307", "record kind"):
                why = owned_zones.problem(self.pack.zones, m.claim_kind, "claimed")
                if why:
                    self.err(doc, ("claim_kind",), "E322", why)
        if m.claim_right is not None:
            self.ref(doc, ("claim_right",), m.claim_right, self.resources, "E302", "resource")
        for piece in m.free_pieces:
            self.ref(doc, ("free_pieces", piece), piece, self.pieces, "E301", "piece")

    def k_scoring(self, doc, m):
        for i, t in enumerate(m.tables):
            mins = [s.min for s in t.steps]
            if mins != sorted(set(mins)):
                self.err(doc, ("tables", i, "steps"), "E209", "table steps must have increasing `min` values")

    def k_bots(self, doc, m):
        bot_checks.check_bots(self, doc, m)

    def k_flow(self, doc, m):
        flow_checks.check_flow(self, doc, m)

    def k_table(self, doc, m):
        table_checks.check_table(self, doc, m)

    def k_solo(self, doc, m):
        if not self.pack.players.min <= m.setup_as <= self.pack.players.max:
            self.err(doc, ("setup_as",), "E204", f"solo is set up as {m.setup_as} players, outside the pack's range")


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


# Lists whose records' ids (and param or attribute names) effects may name, by file kind.
_DECLARED_NAMES = (
    ("pack", ("resources", "pieces", "actions", "events", "permits", "edge_symbols", "icons", "tile_kinds")),
    ("tracks", ("tracks",)),
    ("projects", ("grids",)),
    ("scoring", ("tables",)),
)


def check_names(pairs: list[tuple[Document, BaseModel]], errors: ErrorBag) -> None:
    """Declared names effects refer to: no DSL keyword (`advance score` could never
    parse; a record id included, as effects name records too), and no name that is
    both a resource and a resource group.

    Runs on every valid file before effects are parsed, so a bad declaration is
    reported together with the syntax errors its uses cause.
    """
    keywords = _keywords()
    lists = dict(_DECLARED_NAMES)
    for doc, m in pairs:
        if m.kind == "pack":
            groups = {r.group for r in m.resources if r.group}
            for i, r in enumerate(m.resources):
                if r.id in groups:
                    node, _ = walk(doc.root, ("resources", i, "id"))
                    errors.add("E313", f"'{r.id}' names both a resource and a resource group", node.span)
        found: list[tuple[tuple, str]] = list(_record_ids(m, ()))
        for field in lists.get(m.kind, ()):
            for i, item in enumerate(getattr(m, field)):
                for j, p in enumerate(getattr(item, "params", ())):
                    found.append(((field, i, "params", j, "name"), p.name))
                for j, a in enumerate(getattr(item, "attributes", ())):
                    found.append(((field, i, "attributes", j, "name"), a.name))
        if m.kind == "pack":
            found += [(("corner_colours", i), c) for i, c in enumerate(m.corner_colours)]
        if m.kind == "route":
            found.append((("track",), m.track))
        if m.kind == "flow":  # menus and their entries (whose ids are verbs) are never named by effects
            found = [(path, name) for path, name in found if path[:1] != ("menus",)]
        for path, name in found:
            if name in keywords:
                node, _ = walk(doc.root, path)
                what = "a record id" if path[-1] == "id" else "a name"
                errors.add("E318", f"'{name}' is a DSL keyword and cannot be {what}", node.span)


def _record_ids(model: BaseModel, path: tuple):
    """(path of the id, id) of every record anywhere in a model, in document order."""
    if isinstance(model, Record):
        yield (*path, "id"), model.id
    for name in type(model).model_fields:
        value = getattr(model, name)
        items = enumerate(value) if isinstance(value, (list, tuple)) else [(None, value)]
        for i, item in items:
            if isinstance(item, BaseModel):
                yield from _record_ids(item, (*path, name) if i is None else (*path, name, i))


def check_references(pairs: list[tuple[Document, BaseModel]], errors: ErrorBag, kinds: KindTable) -> None:
    if Counter(m.kind for _, m in pairs)["pack"] != 1:
        return
    Checker(pairs, errors, kinds).run()
