"""The view compiled expressions read: the game for one player and frame (dsl/compile.py's ReadContext)."""

from __future__ import annotations

from interpreter.errors import RulesError
from interpreter.runtime.between_steps import BETWEEN_STEPS, between, blended, track_steps
from interpreter.runtime.seats import owner_of, turn_order
from interpreter.runtime.state import Frame, GameState, PlayerState
from interpreter.runtime.tables import MISSING as _MISSING
from interpreter.runtime.tables import Tables
from interpreter.runtime.zones import count as zone_size
from interpreter.runtime.zones import key as zone_key

_NO_ENTRY: dict = {}  # read only
VISITING = "@visiting"  # the event parameter set in the programs of a space visited without a piece (visiting.py)
PLACED_VALUE = "@value"  # the event parameter of a space's programs that holds the placed piece's value (placing.py)


class View:
    """The ReadContext compiled expressions evaluate against, for one player and frame."""

    __slots__ = ("t", "s", "i", "f")

    def __init__(self, tables: Tables, state: GameState, player: int, frame: Frame | None = None):
        self.t, self.s, self.i, self.f = tables, state, player, frame

    @property
    def p(self) -> PlayerState:
        # read through the state each time: a write elsewhere may have replaced a shared player by its copy
        return self.s.players[self.i]

    def holding(self, resource: str) -> int:
        return self.s.players[self.i].holdings.get(resource, 0)  # as self.p, without the property call

    def shared(self, resource: str) -> int:
        """A shared resource: the table's count (pack `shared: true`)."""
        return self.s.shared.get(resource, 0)

    def group_total(self, group: str) -> int:
        return sum(self.holding(r) for r in self.t.groups.get(group, ()))

    def query(self, fn: str, name: str) -> int:
        if fn == "position":
            return self.p.tracks.get(name, 0)
        if fn == "value":
            exact = self.t.tracks[name].values.get(self.p.tracks.get(name, 0), 0)
            share = self.s.table.get(BETWEEN_STEPS)
            if share:  # a bots' forecast (between_steps.py)
                steps = self.t.once(("track_steps", name), lambda: track_steps(self.t.tracks[name]))
                return blended(exact, between(steps, self.p.tracks.get(name, 0)), share)
            return exact
        if fn == "free":
            return self.p.pieces_free.get(name, 0)
        if fn == "die":
            return self.s.dice.get(name, 0)
        grid = self.t.grids.get(name)
        if grid is not None:
            row, col = self.p.grids.get(name, grid.start)
            return {"row": row, "column": col, "row_value": grid.row_values[row - 1],
                    "column_value": grid.columns[col - 1]}[fn]
        raise RulesError(f"{fn}({name}) is not known to the machine")

    def table(self, table: str, n: int) -> int:
        steps = self.t.tables[table]
        exact = max((pts for lo, pts in steps if lo <= n), default=0)
        share = self.s.table.get(BETWEEN_STEPS)
        return blended(exact, between(steps, n), share) if share else exact  # a bots' forecast: between_steps.py

    def count(self, quant, kind, pred) -> int:
        players = self.s.players if quant == "all" else [self.p]
        ids = [rid for pl in players for rid in pl.owned.get(kind, ())]
        if quant == "all":  # neutral tiles on the shared map count too (OPEN-46)
            ids += [e["tile"] for e in self.s.table.get(self.t.layout.map_key, {}).values()
                    if e.get("owner") is None and self.t.kind_of.get(e["tile"]) == kind]
        return sum(1 for rid in ids if pred is None or pred(self, (kind, rid)))

    def zone_count(self, zone: str, pred) -> int:
        """The records in a zone (the player's own, if it is one per player) that pass ``pred``; each is
        tested as ``(its kind, its id)``, as count() tests a kind's records."""
        spec = self.t.zones[zone]
        contents = self.s.zones.get(zone_key(spec, self.i if spec.per_player else None), ())
        if pred is None:
            return zone_size(contents)
        kind_of = self.t.kind_of
        return sum(1 for rid in contents if rid is not None and pred(self, (kind_of.get(rid), rid)))

    def attribute(self, record, name: str):
        if record is None:
            return None
        kind, rid = record
        if name == "owned":  # a record the player holds, or one a zone gave them (state.owners)
            return rid in self.p.owned.get(kind, ()) or self.s.owners.get(rid) == self.i
        if name in ("covered", "claimed", "resolved"):
            return self._runtime(kind, rid, name)
        if name == "position":  # its place in the zone that holds it: 1 for a pile's top, a slot's number; 0 in none
            return next((contents.index(rid) + 1 for contents in self.s.zones.values() if rid in contents), 0)
        if name == "owner":  # the owner's seat from 1; 0: nobody's
            seat = owner_of(self.s, record)
            return 0 if seat is None else seat + 1
        if name == "occupant":  # the seat from 1 of the first piece's owner on the space the record names; 0: none
            here = self.s.spaces.get(rid)
            return here[0].owner + 1 if here else 0
        if name == self.t.layout.area_kind and self.t.layout.hex_map is not None:
            # a placed tile's attribute named after the map's area kind: the area its site belongs to
            site = self.s.table.get("where", {}).get(rid)
            area = self.t.layout.hex_map.area_of.get(site) if site is not None else None
            if area is not None and self.t.attr(self.t.records.get((kind, rid)), name, _MISSING) is _MISSING:
                return area
        model = self.t.records.get((kind, rid))
        if model is None:
            return None
        value = self.t.attr(model, name, _MISSING)
        if value is not _MISSING:
            return value
        if name in self.t.markable:  # a mark the pack declares, or a resource lying on the record
            return self.s.marks.get(rid, _NO_ENTRY).get(name, 0)
        return name in self.t.attr(model, "icons", ())

    def _runtime(self, kind: str, rid: str, name: str) -> bool:
        if name == "covered":
            return any(rid == tile for stack in self.p.area.values() for tile, _ in stack[:-1])
        hexes = self.t.holders(self.s.table.get(self.t.layout.areas_key, _NO_ENTRY)).get(rid) or [rid]
        if name == "resolved":
            resolved = self.s.table.get("resolved", ())
            return any(h in resolved for h in hexes)
        built, cmap = self.s.table.get(self.t.layout.map_key, {}), self.t.layout.hex_map
        if cmap is None:
            return False
        seat = self.p.seat
        for h in hexes:
            for site in cmap.sites_of.get(h, ()):
                piece = built.get(site, _NO_ENTRY).get("piece")
                if piece and piece[1] == seat:
                    return True
        return False

    def this(self):
        return tuple(self.f.this) if self.f and self.f.this else None

    def event_param(self, name: str):
        return (self.f.event or {}).get(name) if self.f else None

    # ------------------------------------------------------------ the other players and the flow
    def rank(self, value) -> int:
        """The player's place by ``value`` (``f(view)``, evaluated as each player): 1 + the number of
        players whose value is greater (competition ranking: tied players share a place)."""
        values = [value(View(self.t, self.s, i, self.f)) for i in range(len(self.s.players))]
        own = values[self.i]
        return 1 + sum(1 for v in values if v > own)

    def first_most(self, value) -> bool:
        """Whether no player has more of ``value`` (evaluated as each player) and none with as much comes
        before this one in the current phase's turn order (seat order from the round's first seat when the
        phase has none)."""
        values = [value(View(self.t, self.s, i, self.f)) for i in range(len(self.s.players))]
        own = values[self.i]
        if any(v > own for v in values):
            return False
        flow = self.s.flow
        order = list(flow.order) if flow is not None and flow.order else turn_order(self.s)
        order += [i for i in turn_order(self.s) if i not in order]
        return next(i for i in order if values[i] == own) == self.i

    def builtin(self, name: str) -> int:
        """A number about the game itself (resolve.BUILTINS): the seat from 1, the players, the round, the
        seats that passed this phase (0 for the last two without a flow)."""
        if name == "seat":
            return self.i + 1
        if name == "players":
            return len(self.s.players)
        if name == "value":  # the piece being put on a space, in the space's programs; 0 elsewhere
            return (self.f.event or _NO_ENTRY).get(PLACED_VALUE, 0) if self.f else 0
        if name == "visiting":  # a space's programs run by `visit`, without a piece
            return 1 if self.f and (self.f.event or _NO_ENTRY).get(VISITING) else 0
        if name == "points":
            return self.p.score
        flow = self.s.flow
        if flow is None:
            return 0
        if name == "round":
            return flow.round
        if name == "passed":
            return len(flow.passed)
        raise RulesError(f"{name} is not known to the machine")
