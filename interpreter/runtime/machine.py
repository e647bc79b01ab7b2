"""The effect machine: runs compiled programs over a GameState, stopping at decision points.

Programs run as frames on a stack (``GameState.frames``); a frame names its
compiled block by the program's key and an address, so the whole machine
state is plain data that clones and serialises with the game. A step that
needs a choice (an option of ``choose``, a ``may``, a ``may pay``, another
round of an open ``repeat``, which drawn record to keep) sets
``GameState.decision`` and stops; ``answer`` continues.

The machine implements the DSL's generic statements over declared names:
resources with caps and one-time milestones, tracks with values, production
bonuses, reach effects, entry costs and a beyond-the-top effect, stacks,
permits, events and the triggers of owned records. Statements that act on
boards (``move``, ``perform``, ``build``, ``use``, ``place``) are handed to
the engine through ``mechanisms``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable

from interpreter.content.bounds import STEP_BUDGET, runaway
from interpreter.dsl import ast as A
from interpreter.dsl.printer import to_text
from interpreter.errors import RulesError
from interpreter.runtime.layout import Layout, build_layout
from interpreter.runtime.state import Decision, Frame, GameState, PlayerState

# --------------------------------------------------------------------------- tables compiled from a ruleset


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
    milestones: tuple[tuple[str, str, str, str | None], ...]  # (id, condition key, reward key, piece)
    stack_keep: dict[str, str]  # stack id -> effect field run when a record is kept
    tables: dict[str, tuple[tuple[int, int], ...]]  # scoring table -> (min, points) steps
    triggers: dict[tuple[str, str], tuple[tuple[str, int], ...]]  # (kind, id) -> (program key, trigger index)
    event_keys: dict[str, str]  # event -> the parameter `on event(X)` matches
    grids: dict[str, GridTable]
    layout: Layout  # boards, tile kinds, rows (see layout.py)
    global_triggers: tuple[tuple[str, int, str], ...]  # (program key, trigger index, source) active for every player
    spans: dict = field(default_factory=dict, compare=False, repr=False)  # program key -> Span of its text
    _attrs: dict = field(default_factory=dict, compare=False, repr=False)  # (id of a record, field) -> (record, value)
    _once: dict = field(default_factory=dict, compare=False, repr=False)  # see once
    _holders: dict = field(default_factory=dict, compare=False, repr=False)  # id of a table -> (table, inverse)

    def once(self, key: tuple, make: Callable[[], Any]) -> Any:
        """A value derived from the content alone (read-only), made on first use and kept."""
        hit = self._once.get(key)
        if hit is None:
            hit = self._once[key] = make()
        return hit

    def ids_of(self, kind: str) -> tuple[str, ...]:
        """The ids of every record of a kind, in content order."""
        return self.once(("kind", kind), lambda: tuple(rid for (k, rid) in self.records if k == kind))

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
            hit = self._attrs[(id(model), name)] = (model, getattr(model, name, _MISSING))
        return default if hit[1] is _MISSING else hit[1]


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
    road = rs.single("kings_road")
    global_triggers = []
    if road is not None:
        # the road's space effects (the replacement tiles in use cover theirs) run on arrival
        faces = {t.replaces: t for t in road.replacement_tiles if t.id in road.replacement_tiles_in_use}
        on_reach = {}
        for si, s in enumerate(road.spaces):
            progs = []
            for ei, e in enumerate(s.effects):
                if e.id in faces:
                    ti = road.replacement_tiles.index(faces[e.id])
                    key = key_of_path[("kings_road", ("replacement_tiles", ti, "effect"))]
                    progs.append(key)
                    # a face's triggers ("while your pawn is on this space") listen for every player
                    global_triggers += [(key, i, faces[e.id].id) for i in range(len(programs[key].triggers))]
                else:
                    progs.append(key_of_path[("kings_road", ("spaces", si, "effects", ei, "effect"))])
            if progs:
                on_reach[s.n] = tuple(progs)
        tracks[road.track] = TrackTable(
            road.track, tuple(s.n for s in road.spaces), {s.n: s.n for s in road.spaces}, None, (), on_reach,
            {s.n: key_of_path[("kings_road", ("spaces", si, "enter_cost"))] for si, s in enumerate(road.spaces) if s.enter_cost},
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

    wealth = rs.single("wealth_bonuses")
    milestones = tuple(
        (b.id, keys[("wealth_bonus", b.id, "when")], keys[("wealth_bonus", b.id, "reward")], b.piece)
        for b in (wealth.bonuses if wealth else ())
    )
    scoring = rs.single("scoring")
    tables = {t.id: tuple((s.min, s.points) for s in t.steps) for t in (scoring.tables if scoring else ())}
    return Tables(programs, asts, caps, {g: tuple(v) for g, v in groups.items()}, tracks, records, kind_of, keys,
                  milestones, {s.id: s.run_on_keep for s in pack.stacks if s.run_on_keep}, tables, triggers,
                  {e.id: e.key for e in pack.events if e.key}, _grids(rs), build_layout(rs, key_of_path, records),
                  tuple(global_triggers), {f.key: f.span for f in rs.fields})


def _grids(rs) -> dict[str, GridTable]:
    out = {}
    projects = rs.single("projects")
    for g in projects.grids if projects else ():
        tiers = next(ts for ts in g.tier_sets if ts.id == g.tier_set).tiers
        rows = tuple(r.value for t in tiers for r in t.rows)
        out[g.id] = GridTable(g.id, (g.start[0], g.start[1]), rows, tuple(g.columns))
    return out


# --------------------------------------------------------------------------- reading the state


_NO_ENTRY: dict = {}  # read only
_MISSING = object()  # a field a record does not have
_READING = frozenset({"gain", "score", "advance", "may_pay", "if", "repeat", "draw", "use"})  # steps that read the game
_NOBODY: tuple = (frozenset(), frozenset())  # no record listens to an event


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
        return self.p.holdings.get(resource, 0)

    def group_total(self, group: str) -> int:
        return sum(self.holding(r) for r in self.t.groups.get(group, ()))

    def query(self, fn: str, name: str) -> int:
        if fn == "position":
            return self.p.tracks.get(name, 0)
        if fn == "value":
            return self.t.tracks[name].values.get(self.p.tracks.get(name, 0), 0)
        if fn == "free":
            return self.p.pieces_free.get(name, 0)
        grid = self.t.grids.get(name)
        if grid is not None:
            row, col = self.p.grids.get(name, grid.start)
            return {"row": row, "column": col, "row_value": grid.row_values[row - 1],
                    "column_value": grid.columns[col - 1]}[fn]
        raise RulesError(f"{fn}({name}) is not known to the machine")

    def table(self, table: str, n: int) -> int:
        return max((pts for lo, pts in self.t.tables[table] if lo <= n), default=0)

    def count(self, quant, kind, pred) -> int:
        players = self.s.players if quant == "all" else [self.p]
        ids = [rid for pl in players for rid in pl.owned.get(kind, ())]
        if quant == "all":  # neutral tiles on the shared map count too (OPEN-46)
            ids += [e["tile"] for e in self.s.table.get("city", {}).values()
                    if e.get("owner") is None and self.t.kind_of.get(e["tile"]) == kind]
        return sum(1 for rid in ids if pred is None or pred(self, (kind, rid)))

    def attribute(self, record, name: str):
        if record is None:
            return None
        kind, rid = record
        if name == "owned":
            return rid in self.p.owned.get(kind, ())
        if name in ("covered", "claimed", "resolved"):
            return self._runtime(kind, rid, name)
        if name == self.t.layout.area_kind and self.t.layout.city is not None:
            # a placed tile's attribute named after the map's area kind: the area its site belongs to
            site = self.s.table.get("where", {}).get(rid)
            area = self.t.layout.city.plaza_of.get(site) if site is not None else None
            if area is not None and self.t.attr(self.t.records.get((kind, rid)), name, _MISSING) is _MISSING:
                return area
        model = self.t.records.get((kind, rid))
        if model is None:
            return None
        value = self.t.attr(model, name, _MISSING)
        if value is not _MISSING:
            return value
        return name in self.t.attr(model, "icons", ())

    def _runtime(self, kind: str, rid: str, name: str) -> bool:
        if name == "covered":
            return any(rid == tile for stack in self.p.area.values() for tile, _ in stack[:-1])
        hexes = self.t.holders(self.s.table.get("plazas", _NO_ENTRY)).get(rid) or [rid]
        if name == "resolved":
            resolved = self.s.table.get("resolved", ())
            return any(h in resolved for h in hexes)
        city, cmap = self.s.table.get("city", {}), self.t.layout.city
        if cmap is None:
            return False
        seat = self.p.seat
        for h in hexes:
            for site in cmap.sites_of.get(h, ()):
                piece = city.get(site, _NO_ENTRY).get("piece")
                if piece and piece[1] == seat:
                    return True
        return False

    def this(self):
        return tuple(self.f.this) if self.f and self.f.this else None

    def event_param(self, name: str):
        return (self.f.event or {}).get(name) if self.f else None


# --------------------------------------------------------------------------- the machine

ADVANCE = "@advance"  # the key of a queued single track advance (a frame, so it survives cloning)

_SUB = {  # op -> positions of sub-blocks in its step tuple
    "block": lambda s: (s[1],),
    "choose": lambda s: s[1],
    "may": lambda s: (s[1],),
    "may_pay": lambda s: (s[2],),
    "if": lambda s: (s[2], s[3] or ()),
    "repeat": lambda s: (s[2],),
    "grant": lambda s: (s[2] or (),),
    "later": lambda s: (s[1],),
}


def constant_amounts(amounts) -> tuple | None:
    """((resource, n), ...) when no value of compiled amounts depends on the game, else None: a compiled
    expression that reads the game fails when it is given no game to read."""
    try:
        return tuple((r, fn(None, None)) for r, fn in amounts)
    except (AttributeError, TypeError):
        return None


def block_at(program, addr, trigger: int | None = None) -> tuple:
    block = program.steps if trigger is None else program.triggers[trigger].body
    for i in range(0, len(addr), 2):
        step = block[addr[i]]
        block = _SUB[step[0]](step)[addr[i + 1]]
    return block


def _ast_block_at(tree: A.Program, addr, trigger: int | None) -> list:
    """The AST statements parallel to ``block_at`` (for readable option labels)."""
    if trigger is None:
        stmts = [i for i in tree.items if not isinstance(i, A.Trigger)]
    else:
        body = [i for i in tree.items if isinstance(i, A.Trigger)][trigger].body
        stmts = list(body.body) if isinstance(body, A.Block) else [body]
    for i in range(0, len(addr), 2):
        node, k = stmts[addr[i]], addr[i + 1]
        sub = {A.Block: lambda n: [n], A.Choose: lambda n: list(n.options), A.May: lambda n: [n.body],
               A.MayPay: lambda n: [n.body], A.If: lambda n: [n.then, n.otherwise], A.Repeat: lambda n: [n.body],
               A.Grant: lambda n: [n.unused], A.Later: lambda n: [n.body]}[type(node)](node)[k]
        stmts = list(sub.body) if isinstance(sub, A.Block) else [sub]
    return stmts


@dataclass
class Machine:
    tables: Tables
    mechanisms: dict[str, Callable] = field(default_factory=dict)  # op -> board mechanism (see mechanisms.py)
    natives: dict[str, tuple] = field(default_factory=dict)  # "@name" -> (step, answer) of native frames
    trace: set[str] | None = None  # when a set, the keys of the programs that ran are added (simulation reports)
    _constants: dict = field(default_factory=dict, repr=False)  # id(amounts) -> (amounts, values or None)
    _label_memo: dict = field(default_factory=dict, repr=False)  # (key, addr, trigger, pc) -> option labels
    _record_prices: dict = field(default_factory=dict, repr=False)  # (kind, id) -> constant cost, (), or None

    def record_price(self, kind: str, rid: str) -> tuple | None:
        """A record's `cost` as constant ((resource, n), ...), () when it has none, None when it reads the game."""
        hit = self._record_prices.get((kind, rid), False)
        if hit is False:
            key = self.tables.keys.get((kind, rid, "cost"))
            hit = self._record_prices[(kind, rid)] = self.constant(self.tables.programs[key]) if key else ()
        return hit

    def constant(self, amounts) -> tuple | None:
        """((resource, n), ...) when no value depends on the game, else None. Probed once per compiled
        amounts: a compiled expression that reads the game fails when given no game to read."""
        hit = self._constants.get(id(amounts))
        if hit is None:
            hit = self._constants[id(amounts)] = (amounts, constant_amounts(amounts))  # kept: the id stays theirs
        return hit[1]

    @property
    def layout(self) -> Layout:
        return self.tables.layout

    # ------------------------------------------------------------ entry points
    def start(self, state: GameState, key: str, player: int, source: str, this=None, event=None) -> None:
        """Queue a program's steps; call ``run`` to execute them."""
        state.frames.append(Frame(key, [], 0, player, source, list(this) if this else None, event))

    def run(self, state: GameState) -> None:
        """Execute until every frame is done or a decision is needed.

        Within ``STEP_BUDGET`` steps per action (bounds.py): content that loops raises ``RunawayError``
        instead of hanging the game. The steps are counted on the state object, not in its data: an
        action is applied to a fresh copy, which has taken none, and every run during that action counts."""
        frames, programs, natives, trace = state.frames, self.tables.programs, self.natives, self.trace
        steps = getattr(state, "_steps", 0)
        while frames and state.decision is None:
            steps += 1
            if steps > STEP_BUDGET:
                raise runaway(state, self.tables.spans)
            frame = frames[-1]  # read; state.top_frame() before changing it (it may be shared with a copy)
            if frame.key[:1] == "@":
                if frame.key == ADVANCE:
                    frames.pop()
                    self.advance(state, frame.player, frame.this[0], frame.source)
                else:
                    natives[frame.key][0](self, state, state.top_frame())
                continue
            if trace is not None and frame.pc == 0 and not frame.addr:
                trace.add(frame.key)
            prog = programs[frame.key]
            block = prog.steps if not frame.addr and frame.trigger is None else block_at(prog, frame.addr, frame.trigger)
            if frame.pc >= len(block):
                frames.pop()
                if frame.remaining:  # a counted repeat: run the body again
                    frames.append(Frame(frame.key, list(frame.addr), 0, frame.player, frame.source, frame.this,
                                        frame.event, frame.trigger, frame.remaining - 1))
                continue
            self._step(state, state.top_frame(), block[frame.pc])
        state._steps = steps

    def answer(self, state: GameState, index: int) -> None:
        d = state.decision
        if d is None:
            raise RulesError("no decision is pending")
        if not 0 <= index < len(d.options):
            raise RulesError(f"the decision has options 1 to {len(d.options)}, not {index + 1}")
        state.decision = None
        frame = state.top_frame()
        if frame.key[:1] == "@":
            self.natives[frame.key][1](self, state, frame, index, d)
            self.run(state)
            return
        step = block_at(self.tables.programs[frame.key], frame.addr, frame.trigger)[frame.pc]
        op = step[0]
        frame.pc += 1
        if op == "choose":
            self._push_block(state, frame, index)
        elif op in ("may", "may_pay") and index == 0:
            if op == "may_pay":
                self._pay(state, frame, step[1])
            self._push_block(state, frame, 0)
        elif op == "repeat" and index == 0:
            frame.pc -= 1  # come back to the repeat after one more round
            inner = step[2][0]
            if inner[0] == "may_pay":
                self._pay(state, frame, inner[1])
            # the optional statement's own block: repeat body (0) -> its may block (0)
            state.frames.append(Frame(frame.key, frame.addr + [frame.pc, 0, 0, 0], 0, frame.player, frame.source,
                                      frame.this, frame.event, frame.trigger))
        elif op == "draw":
            self._keep(state, frame, step, d, index)
        elif op == "use":
            self._run_fields(state, frame, d.data["record_kind"], [d.options[index]], d.data["fields"])
        self.run(state)

    # ------------------------------------------------------------ steps
    def _view(self, state, frame) -> View:
        return View(self.tables, state, frame.player, frame)

    def _player(self, state, frame) -> PlayerState:
        return state.player(frame.player)

    def _push_block(self, state, frame, k) -> None:
        state.frames.append(Frame(frame.key, frame.addr + [frame.pc - 1, k], 0, frame.player, frame.source,
                                  frame.this, frame.event, frame.trigger))

    def _decide(self, state, frame, kind, options, **data) -> None:
        state.decision = Decision(frame.player, kind, options, data)

    def _labels(self, frame) -> list[str]:
        """The options of a `choose` as the player reads them, printed once per statement."""
        where = (frame.key, tuple(frame.addr), frame.trigger, frame.pc)
        labels = self._label_memo.get(where)
        if labels is None:
            tree = self.tables.asts.get(frame.key)
            stmts = _ast_block_at(tree, frame.addr, frame.trigger) if isinstance(tree, A.Program) else []
            node = stmts[frame.pc] if frame.pc < len(stmts) else None
            labels = ["; ".join(to_text(s) for s in o.body) for o in node.options] if isinstance(node, A.Choose) else []
            self._label_memo[where] = labels
        return list(labels)  # a decision's options are its own

    def _step(self, state: GameState, frame: Frame, step: tuple) -> None:
        op = step[0]
        view = self._view(state, frame) if op in _READING else None
        if op == "gain":
            frame.pc += 1
            gains = self.constant(step[1])
            self._gain(state, frame, gains if gains is not None else [(r, fn(view, None)) for r, fn in step[1]])
        elif op == "pay":
            frame.pc += 1
            self._pay(state, frame, step[1])
        elif op == "score":
            frame.pc += 1
            self._player(state, frame).add_points(step[1](view, None), frame.source)
        elif op == "advance":
            frame.pc += 1
            self._advance_times(state, frame, step[1], step[2](view, None) if step[2] else 1)
        elif op == "produce":
            frame.pc += 1
            self._produce(state, frame, step[1])
        elif op == "block":
            frame.pc += 1
            self._push_block(state, frame, 0)
        elif op == "choose":
            self._decide(state, frame, "choose", self._labels(frame) or [str(i + 1) for i in range(len(step[1]))])
        elif op == "may":
            self._decide(state, frame, "may", ["yes", "no"])
        elif op == "may_pay":
            if self._can_pay(view, step[1]):
                self._decide(state, frame, "may_pay", ["pay", "decline"])
            else:
                frame.pc += 1  # an optional payment nobody can make is simply skipped
        elif op == "if":
            frame.pc += 1
            if step[1](view, None):
                self._push_block(state, frame, 0)
            elif step[3] is not None:
                self._push_block(state, frame, 1)
        elif op == "repeat":
            if step[1] is None:
                inner = step[2][0]
                if inner[0] == "may_pay" and not self._can_pay(view, inner[1]):
                    frame.pc += 1
                else:
                    self._decide(state, frame, "repeat", ["again", "stop"])
            else:
                frame.pc += 1
                n = step[1](view, None)
                if n > 0:
                    state.frames.append(Frame(frame.key, frame.addr + [frame.pc - 1, 0], 0, frame.player, frame.source,
                                              frame.this, frame.event, frame.trigger, n - 1))
        elif op == "grant":
            frame.pc += 1
            self._player(state, frame).permits.append(step[1])
            if step[2] is not None:
                state.expiring.append({"player": frame.player, "permit": step[1], "key": frame.key,
                                       "addr": frame.addr + [frame.pc - 1, 0], "source": frame.source,
                                       "trigger": frame.trigger})
        elif op == "draw":
            self._draw(state, frame, step, view)
        elif op == "use" and op not in self.mechanisms:
            self._use(state, frame, step, view)
        elif op in self.mechanisms:
            frame.pc += 1
            self.mechanisms[op](self, state, frame, step)
        else:
            raise RulesError(f"`{op}` acts on the game's boards and needs the engine")

    def expire_permits(self, state: GameState, player_index: int) -> None:
        """End of turn: every permit still unused runs its `or` fallback; all permits lapse (R-ROW-4)."""
        lapsing = [e for e in state.expiring if e["player"] == player_index]
        if not lapsing and not state.players[player_index].permits:
            return  # nothing lapses: the player is not copied
        player = state.player(player_index)
        for e in reversed(lapsing):
            if e["permit"] in player.permits:
                player.permits.remove(e["permit"])
                state.frames.append(Frame(e["key"], list(e["addr"]), 0, player_index, e["source"], None, None, e["trigger"]))
        state.expiring = [e for e in state.expiring if e["player"] != player_index]
        player.permits.clear()

    # ------------------------------------------------------------ resources
    def _can_pay(self, view: View, amounts) -> bool:
        holdings = view.p.holdings  # compiled amounts name each resource once (dsl/compile.py)
        for r, fn in amounts:
            if holdings.get(r, 0) < fn(view, None):
                return False
        return True

    def _pay(self, state, frame, amounts) -> None:
        values = self.constant(amounts)
        if values is None:
            view = self._view(state, frame)
            # a computed amount below zero is nothing, as in a gain (a constant one is refused: E319)
            values = [(r, n) for r, n in ((r, fn(view, None)) for r, fn in amounts) if n > 0]
        holdings = state.players[frame.player].holdings
        if any(holdings.get(r, 0) < n for r, n in values):  # compiled amounts name each resource once
            raise RulesError(f"player {frame.player + 1} cannot pay {list(values)}")
        holdings = self._player(state, frame).holdings
        for r, n in values:
            holdings[r] = holdings.get(r, 0) - n

    def _gain(self, state, frame, gains) -> None:
        player = self._player(state, frame)
        for r, n in gains:
            if n <= 0:
                continue
            cap = self.tables.caps.get(r)
            before = player.holdings.get(r, 0)
            after = before + n if cap is None else min(cap, before + n)
            player.holdings[r] = after
            self.emit(state, frame.player, "resource_gained", {"resource": r, "amount": n})
        self._milestones(state, frame.player)

    def _milestones(self, state, player_index: int) -> None:
        """One-time bonuses reached after a gain (a capped gain counts, R-WEALTH-3)."""
        taken = state.players[player_index].milestones
        if len(taken) >= len(self.tables.milestones):
            return  # every bonus taken (the list holds milestone ids only)
        view = View(self.tables, state, player_index)
        for mid, cond_key, reward_key, piece in self.tables.milestones:
            if mid not in taken and self.tables.programs[cond_key](view, None):
                player = state.player(player_index)
                player.milestones.append(mid)
                taken = player.milestones
                if piece:
                    player.pieces_free[piece] = player.pieces_free.get(piece, 0) + 1
                self.start(state, reward_key, player_index, mid, ("wealth_bonus", mid))

    # ------------------------------------------------------------ tracks
    def _advance_times(self, state, frame, track_id, times) -> None:
        # Queue the single advances as frames of their own so that each one's reach effect
        # resolves before the next advance ("advance N times" = N single advances, R-DOC-6).
        if times > STEP_BUDGET:  # a count read from the game: more advances than one action may run
            raise runaway(state, self.tables.spans)
        for _ in range(times):
            state.frames.append(Frame(ADVANCE, [], 0, frame.player, frame.source, [track_id], None))

    def can_advance(self, state: GameState, player_index: int, track_id: str) -> bool:
        """Whether one advance can be made now (what ``advance`` refuses, checked without making it)."""
        track = self.tables.tracks[track_id]
        player = state.players[player_index]
        pos = player.tracks.get(track_id, track.positions[0])
        if pos == track.positions[-1]:
            return track.beyond_top is not None
        cost = track.enter_cost.get(track.positions[track.positions.index(pos) + 1])
        fake = Frame(cost, [], 0, player_index, "")
        return cost is None or self._can_pay(View(self.tables, state, player_index, fake), self.tables.programs[cost])

    def advance(self, state: GameState, player_index: int, track_id: str, source: str) -> None:
        player = state.player(player_index)
        track = self.tables.tracks[track_id]
        pos = player.tracks.get(track_id, track.positions[0])
        if pos == track.positions[-1]:
            if track.beyond_top is None:  # nothing past the end: the advance cannot be made (OPEN-26, R-ROAD-8)
                raise RulesError(f"the {track_id} marker is at the end of its track")
            self.start(state, track.beyond_top, player_index, source)
            return
        nxt = track.positions[track.positions.index(pos) + 1]
        cost = track.enter_cost.get(nxt)
        if cost is not None:
            fake = Frame(cost, [], 0, player_index, source)
            self._pay(state, fake, self.tables.programs[cost])
        player.tracks[track_id] = nxt
        self.emit(state, player_index, "track_advanced", {"track": track_id})
        for key in reversed(track.on_reach.get(nxt, ())):
            self.start(state, key, player_index, f"{track_id}:{nxt}")

    def _produce(self, state, frame, track_id) -> None:
        track = self.tables.tracks[track_id]
        player = self._player(state, frame)
        pos = player.tracks.get(track_id, track.positions[0])
        # bonuses left of the marker, then the tokens kept on the track; queued in reverse so they run in order
        queued = [(key, f"{track_id}:{n}", None) for n, key in track.production if n < pos]
        queued += [(self.tables.keys[(self.tables.kind_of[t], t, "bonus")], t, (self.tables.kind_of[t], t))
                   for t in player.track_tokens.get(track_id, ())]
        for key, source, this in reversed(queued):
            self.start(state, key, frame.player, source, this)
        if track.produces:
            self._gain(state, frame, [(track.produces, track.values.get(pos, 0))])

    # ------------------------------------------------------------ using other records' effects
    def _use(self, state, frame, step, view) -> None:
        """`use F of each K` runs F of the player's K records; `all`: every K record passing `where`;
        `any`: one the player chooses. Records' effects run in order, as the record's own."""
        _, fields, quant, kind, pred = step
        if quant == "each":
            ids = list(self._player(state, frame).owned.get(kind, ()))
        elif kind == self.layout.area_kind:  # only the area tiles dealt onto the map; the rest are in the box
            dealt = set(state.table.get("plazas", {}).values())
            ids = [rid for rid in self.tables.ids_of(kind) if rid in dealt]
        else:
            ids = self.tables.ids_of(kind)
        ids = [rid for rid in ids if pred is None or pred(view, (kind, rid))]
        if quant == "any":
            if not ids:
                frame.pc += 1
                return
            self._decide(state, frame, "use", ids, fields=list(fields), record_kind=kind)
            return
        frame.pc += 1
        self._run_fields(state, frame, kind, ids, fields)

    def _run_fields(self, state, frame, kind, ids, fields) -> None:
        queued = [(self.tables.keys[(kind, rid, f)], rid) for rid in ids for f in fields if (kind, rid, f) in self.tables.keys]
        for key, rid in reversed(queued):
            self.start(state, key, frame.player, rid, (kind, rid))

    # ------------------------------------------------------------ stacks
    def _draw(self, state, frame, step, view) -> None:
        _, count_fn, stack_id, keep_fn, to = step
        stack = state.stacks.get(stack_id, [])
        n = len(stack) if count_fn is None else min(len(stack), count_fn(view, None))
        keep = min(keep_fn(view, None), n)
        if keep <= 0:  # an empty stack gives nothing (OPEN-25)
            frame.pc += 1
            return
        drawn = stack[:n]
        state.stacks[stack_id] = stack[n:]  # stacks are replaced, never changed in place (copies share them)
        self._decide(state, frame, "keep", list(drawn), stack=stack_id, drawn=list(drawn), keep=keep, to=to)

    def _keep(self, state, frame, step, d: Decision, index: int) -> None:
        drawn = list(d.data["drawn"])
        kept = drawn.pop(index)
        player = self._player(state, frame)
        kind = self.tables.kind_of[kept]
        complete = len(state.table.get("bridge", {})) >= self.layout.complete_at
        if d.data["to"]:
            player.track_tokens[d.data["to"]] = [*player.track_tokens.get(d.data["to"], ()), kept]
        elif complete and d.data["stack"] in self.layout.discard_when_complete:
            pass  # its effect applies, then it is discarded (R-ROAD-5, DIFF-6)
        else:
            player.owned[kind] = [*player.owned.get(kind, ()), kept]
            player.acquired[f"{kind}:{kept}"] = state.turn
        left = d.data["keep"] - 1
        if left > 0 and drawn:
            frame.pc -= 1
            self._decide(state, frame, "keep", drawn, stack=d.data["stack"], drawn=drawn, keep=left, to=d.data["to"])
        else:
            state.stacks[d.data["stack"]] = state.stacks[d.data["stack"]] + drawn  # the others go to the bottom, in order
        field_name = self.tables.stack_keep.get(d.data["stack"])
        key = self.tables.keys.get((kind, kept, field_name)) if field_name else None
        if key:
            self.start(state, key, frame.player, kept, (kind, kept))
        if d.data["stack"] in self.layout.plank_stacks and not complete:
            # laid as a plank first: the covered bonuses, then the tile's own (R-ROAD-5, R-ROAD-7)
            state.frames.append(Frame("@plank", [], 0, frame.player, kept, [kind, kept], {"tile": kept}))

    # ------------------------------------------------------------ events and triggers
    @cached_property
    def _listeners(self) -> dict[str, tuple[frozenset, frozenset]]:
        """event -> (the kinds, the (kind, id) of the records with a trigger on it)."""
        records: dict[str, set] = {}
        for rec, refs in self.tables.triggers.items():
            for key, ti in refs:
                records.setdefault(self.tables.programs[key].triggers[ti].event, set()).add(rec)
        return {ev: (frozenset(k for k, _ in recs), frozenset(recs)) for ev, recs in records.items()}

    def emit(self, state: GameState, player_index: int, event: str, params: dict) -> None:
        """Queue the bodies of the triggers this event fires for the player's owned records."""
        kinds, listening = self._listeners.get(event, _NOBODY)
        player = state.players[player_index]  # read only
        for kind, ids in (player.owned.items() if kinds else ()):  # in the order owned, as triggers queue
            if kind not in kinds:
                continue  # e.g. tiles: no record of the kind listens to this event
            for rid in ids:
                if (kind, rid) not in listening:
                    continue
                for key, ti in self.tables.triggers.get((kind, rid), ()):
                    trig = self.tables.programs[key].triggers[ti]
                    if trig.event != event or not self._active(state, player_index, kind, rid, key, ti, trig, params):
                        continue
                    if trig.once_per:
                        state.flags.append(f"{trig.once_per}:{player_index}:{key}:{ti}")
                    state.frames.append(Frame(key, [], 0, player_index, rid, [kind, rid], dict(params), ti))
        for key, ti, source in self.tables.global_triggers:
            trig = self.tables.programs[key].triggers[ti]
            if trig.event == event and self._active(state, player_index, "", source, key, ti, trig, params):
                if trig.once_per:
                    state.flags.append(f"{trig.once_per}:{player_index}:{key}:{ti}")
                state.frames.append(Frame(key, [], 0, player_index, source, None, dict(params), ti))

    def listens(self, state: GameState, player_index: int, event: str) -> bool:
        """Whether an event may set off a trigger for the player (an owned record or a global one listens)."""
        kinds, listening = self._listeners.get(event, _NOBODY)
        if any(self.tables.programs[key].triggers[ti].event == event for key, ti, _ in self.tables.global_triggers):
            return True
        owned = state.players[player_index].owned
        return any((kind, rid) in listening for kind in kinds for rid in owned.get(kind, ()))

    def _active(self, state, player_index, kind, rid, key, ti, trig, params) -> bool:
        if trig.arg is not None and params.get(self.tables.event_keys.get(trig.event)) != trig.arg:
            return False
        # a permanent ability acts from the turn after it was gained (R-TECH-4)
        if trig.from_next and state.players[player_index].acquired.get(f"{kind}:{rid}", 0) >= state.turn:
            return False
        if trig.once_per and f"{trig.once_per}:{player_index}:{key}:{ti}" in state.flags:
            return False
        view = View(self.tables, state, player_index, Frame(key, [], 0, player_index, rid, [kind, rid], params, ti))
        return all(c(view, None) for c in (*trig.conditions, *trig.while_))
