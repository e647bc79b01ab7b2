"""Bounds: content must not be able to hang or flood a game.

Two static checks run on every pack once its names resolve, and one budget runs in every game:

- **Counts** (E231): a constant count or amount beyond what any game could use is refused where it
  is written: ``repeat N`` with N above ``MAX_REPEAT``; ``advance T N`` and ``move G D N`` above
  ``MAX_TIMES``; a gain, payment or score above ``MAX_AMOUNT``; and a payment (``pay``, ``may pay``,
  a cost) of more of a capped resource than its cap, which no player could ever hold.
- **Cycles** (E230): a static graph of what can run what. A program *runs* the programs it performs
  (``perform A``: the action's effect, the bonuses of tiles of that action), the ones it uses
  (``use F of K``: the F fields of K records; ``run F of R``: R's field F, and ``run F of this`` the F
  field of any record), the production bonuses of what it produces and the
  effect past the end of a track it advances; and it *fires* the triggers listening to the events
  its statements emit (``gain R``: resource_gained(R); ``perform A``: action_performed(A); ``move G``
  sideways or down: marker_moved(G); ``produce T``: resource_gained of what T produces; ``draw ... to Z``,
  ``move ... to Z``, ``refill Z``: record_moved(Z)). A cycle in
  that graph runs forever. Edges that can be taken only a bounded number of times per game or turn
  are left out, so cycles through them are fine: a trigger limited ``once per`` turn/round/game, the
  ``or`` part of a ``grant`` (once at the end of a turn), ``build`` (the tiles run out), ``draw`` (the
  stacks run out), what reaching a track space runs or fires (markers only move forward, and stop at
  the end), up moves on a grid (they stop at the top row), one-time wealth bonuses. Conditions
  (``if``, ``may``, ``choose``) do not count as bounds: a cycle through them depends on a player's
  or the game's luck to stop.
- **Step budget** (runtime): the effect machine runs at most ``STEP_BUDGET`` steps for one action
  (all the runs of one action of a player, decisions included); past it, it raises ``RunawayError``
  naming the program most present on the stack and where it is written. Whatever the static checks
  miss, a game never hangs.
"""

from __future__ import annotations

from collections import Counter

from interpreter.dsl import ast as A
from interpreter.dsl.resolve import constant_value
from interpreter.dsl.steps import OF_NODE
from interpreter.errors import ErrorBag, RunawayError

MAX_REPEAT = 100  # `repeat N`: no turn of a board game does one thing more than 100 times
MAX_TIMES = 100  # `advance T N`, `move G D N`: longer than any track or grid a board can print
MAX_AMOUNT = 1000  # a gain, payment or score written in an effect
STEP_BUDGET = 100_000  # machine steps for one action; a whole game's final scoring takes a few thousand


def check_counts(fields, caps: dict[str, int], groups: dict[str, tuple[str, ...]], errors: ErrorBag) -> None:
    """E231 for constant counts and amounts beyond the limits above (see the module docstring)."""
    for f in fields:
        if f.start == "amounts":
            _check_amounts(f, f.ast, caps, groups, errors, paid=True)
            continue
        for node in A.walk(f.ast):
            if isinstance(node, A.Repeat) and node.times is not None:
                _limit(f, node.times, MAX_REPEAT, "a repeat count of {n}", errors)
            elif isinstance(node, A.Advance) and node.times is not None:
                _limit(f, node.times, MAX_TIMES, f"advancing {node.track.text} {{n}} times", errors)
            elif isinstance(node, A.Move) and node.steps is not None:
                _limit(f, node.steps, MAX_TIMES, f"moving on {node.grid.text} {{n}} times", errors)
            elif isinstance(node, A.Gain):
                _check_amounts(f, node.amounts, caps, groups, errors, paid=False)
            elif isinstance(node, (A.Pay, A.MayPay)):
                _check_amounts(f, node.amounts if isinstance(node, A.Pay) else node.cost, caps, groups, errors, paid=True)
            elif isinstance(node, A.Score):
                _limit(f, node.points, MAX_AMOUNT, "scoring {n} points", errors)


def _limit(f, expr, most: int, what: str, errors: ErrorBag) -> bool:
    value = constant_value(expr)
    if value is not None and value > most:
        errors.add("E231", f"{what.format(n=value)} is more than any game can use (at most {most})", f.span_at(*expr.pos))
        return False
    return True


def _check_amounts(f, amounts, caps, groups, errors, paid: bool) -> None:
    for a in amounts if isinstance(amounts, tuple) else ():
        if not isinstance(a, A.Amount) or not _limit(f, a.value, MAX_AMOUNT, f"{{n}} {a.name.text}", errors) or not paid:
            continue
        value = constant_value(a.value)
        members = groups.get(a.name.text, (a.name.text,))
        cap = sum(caps[r] for r in members) if all(r in caps for r in members) else None
        if value is not None and cap is not None and value > cap:
            errors.add("E231", f"paying {value} {a.name.text} can never happen: a player holds at most {cap}",
                       f.span_at(*a.pos))


# --------------------------------------------------------------------------- what can run what


class _Graph:
    """Nodes: (program key, None) for a program's statements, (program key, i) for its i-th trigger's body.
    Edges: node -> node, with (the statement, how) for the message."""

    def __init__(self, fields, models, kinds):
        self.fields = {f.key: f for f in fields if f.start == "program"}
        self.edges: dict[tuple, dict[tuple, tuple]] = {}
        self._index(models, kinds)

    def _index(self, models, kinds) -> None:
        of_record = kinds.record_of()
        self.record_fields: dict[tuple[str, str], list[str]] = {}  # (record kind, field) -> program keys
        self.action_bonus: dict[str, list[str]] = {}  # action -> bonus programs of the tiles of that action
        self.production: dict[str, list[str]] = {}  # track -> its production bonuses
        self.beyond: dict[str, str] = {}  # track -> effect past its last space
        self.produces: dict[str, str] = {}
        records = {}
        for rk in kinds.records.values():
            for m in models.get(rk.file_kind, ()):
                for rec in getattr(m, rk.field):
                    records[(rk.name, rec.id)] = rec
        for key, f in self.fields.items():
            kp = f.key_path
            kind = of_record.get((f.kind, f.path[0])) if len(f.path) >= 3 else None
            if kind is not None and f.record is not None:
                self.record_fields.setdefault((kind, f.path[2]), []).append(key)
                rec = records.get((kind, f.record))
                action = getattr(rec, "action", None)
                if isinstance(action, str) and f.path[2] == "bonus":
                    self.action_bonus.setdefault(action, []).append(key)
            if f.kind == "tracks" and len(kp) >= 3:
                if kp[2] == "beyond_top":
                    self.beyond[kp[1]] = key
                elif kp[2] == "spaces" and kp[-1] == "production":
                    self.production.setdefault(kp[1], []).append(key)
        for m in models.get("tracks", ()):
            for t in m.tracks:
                if t.produces:
                    self.produces[t.id] = t.produces
        self.tokens = self.record_fields.get(("production_token", "bonus"), [])
        pack = models["pack"][0]
        self.actions = [a.id for a in pack.actions]
        self.event_keys = {e.id: e.key for e in pack.events}
        self.listeners: dict[str, list[tuple[tuple, str | None]]] = {}  # event -> (trigger node, its argument)
        for key, f in self.fields.items():
            for i, trig in enumerate(t for t in f.ast.items if isinstance(t, A.Trigger)):
                if trig.once_per is None:  # at most once per turn, round or game: bounded
                    self.listeners.setdefault(trig.event.text, []).append(((key, i), trig.arg.text if trig.arg else None))

    def build(self, groups) -> None:
        self.groups = groups
        for key, f in self.fields.items():
            triggers = [t for t in f.ast.items if isinstance(t, A.Trigger)]
            for stmt in (i for i in f.ast.items if not isinstance(i, A.Trigger)):
                self._stmt((key, None), stmt)
            for i, trig in enumerate(triggers):
                self._stmt((key, i), trig.body)

    def _edge(self, src, dst, stmt, how: str) -> None:
        self.edges.setdefault(src, {}).setdefault(dst, (stmt, how))

    def _fire(self, src, stmt, event: str, value: str | None, how: str) -> None:
        for node, arg in self.listeners.get(event, ()):
            if arg is None or value is None or arg == value:
                self._edge(src, node, stmt, how)

    def _run(self, src, stmt, keys, how: str) -> None:
        for key in keys:
            if key in self.fields:
                self._edge(src, (key, None), stmt, how)

    def _stmt(self, src, stmt) -> None:
        edges = _EDGES[type(stmt)]
        if edges is _BOUNDED:
            return
        if edges is not None:
            edges(self, src, stmt)
        for child in A.children(stmt):
            if type(child) in OF_NODE:  # a statement inside this one (a block, an option, a body)
                self._stmt(src, child)

    def _gain(self, src, stmt: A.Gain) -> None:
        for a in stmt.amounts:
            for r in self.groups.get(a.name.text, (a.name.text,)):
                self._fire(src, stmt, "resource_gained", r, f"gains {r}")

    def _advance(self, src, stmt: A.Advance) -> None:
        t = stmt.track.text  # track_advanced fires only when a marker moves forward: bounded
        if t in self.beyond:
            self._run(src, stmt, [self.beyond[t]], f"advances {t} past its end")

    def _produce(self, src, stmt: A.Produce) -> None:
        t = stmt.track.text
        self._run(src, stmt, self.production.get(t, ()) + self.tokens, f"produces {t}")
        if t in self.produces:
            self._fire(src, stmt, "resource_gained", self.produces[t], f"produces {t}")

    def _perform(self, src, stmt: A.Perform) -> None:
        actions = self.actions if stmt.action.text == "any" else [stmt.action.text]
        for a in actions:
            self._run(src, stmt, [f"pack/actions/{a}/effect", *self.action_bonus.get(a, ())], f"performs {a}")
            self._fire(src, stmt, "action_performed", a, f"performs {a}")

    def _move(self, src, stmt: A.Move) -> None:
        if stmt.direction.text != "up":  # up moves end at the top row
            self._fire(src, stmt, "marker_moved", stmt.grid.text, f"moves on {stmt.grid.text}")

    def _use(self, src, stmt: A.Use) -> None:
        for fld in stmt.fields:
            self._run(src, stmt, self.record_fields.get((stmt.kind.text, fld.text), ()),
                      f"uses {fld.text} of {stmt.kind.text}")

    def _zone_moves(self, src, stmt) -> None:
        to = stmt.zone.text if isinstance(stmt, A.Refill) else stmt.to.text  # records move: record_moved(to)
        self._fire(src, stmt, "record_moved", to, f"moves records to {to}")

    def name(self, node) -> str:
        key, trig = node
        if trig is None:
            return key
        t = self._trigger(node)
        return f"the trigger `on {t.event.text}{f'({t.arg.text})' if t.arg else ''}` of {key}"

    def _trigger(self, node) -> A.Trigger:
        return [t for t in self.fields[node[0]].ast.items if isinstance(t, A.Trigger)][node[1]]


_BOUNDED = object()  # a statement whose runs are bounded: nothing inside it counts


def _run_field(graph: _Graph, src, stmt: A.Run) -> None:
    """`run F of R` runs R's field F; `run F of this` may run the field F of any record (the kinds `this`
    can be are not known here, so every record with such a field counts)."""
    keys = [k for (_, fld), ks in graph.record_fields.items() if fld == stmt.field.text for k in ks
            if stmt.record is None or graph.fields[k].record == stmt.record.text]
    graph._run(src, stmt, keys, f"runs {stmt.field.text} of {stmt.record.text if stmt.record else 'this'}")

# AST statement class -> the edges a statement of that kind adds (None: none of its own; the statements
# inside it count); one entry per kind of dsl/steps.STATEMENTS (tests/dsl/test_steps.py)
_EDGES = {
    A.Gain: _Graph._gain,
    A.Advance: _Graph._advance,
    A.Produce: _Graph._produce,
    A.Perform: _Graph._perform,
    A.Move: _Graph._move,
    A.Use: _Graph._use,
    A.Pay: None, A.Score: None, A.Place: None,
    A.Block: None, A.Choose: None, A.May: None, A.MayPay: None, A.If: None, A.Repeat: None, A.Later: None,
    A.Build: _BOUNDED, A.Draw: _BOUNDED,  # tiles and stacks run out
    A.Grant: _BOUNDED,  # its `or` part runs once, at the end of the turn
    A.ForEach: None, A.AsOwner: None, A.Roll: None,  # the body's statements count; a roll fires nothing
    A.ZoneDraw: _Graph._zone_moves, A.ZoneMove: _Graph._zone_moves, A.Refill: _Graph._zone_moves,
    A.Shuffle: None,
    A.ForEachRecord: None,  # the body runs once per record the zone holds when it starts: its statements count
    A.JoinOrder: None,  # it fires nothing
    A.Run: lambda g, src, stmt: _run_field(g, src, stmt),
    A.AsOccupant: None,  # the body's statements count
    A.ChooseRecord: None,  # the body runs once, for the record picked
    A.Put: None,  # a count on a record fires nothing
    A.Take: _Graph._gain,  # a resource taken from a record is gained: its gain triggers fire (a mark's fire nothing)
    A.Require: None,  # it fires nothing
    A.AtOnce: None,  # the body's statements count (its gains are only received later)
    A.Multiply: None,  # the body's statements count (its gains are only larger)
    A.Visit: _BOUNDED,  # one action of a space, chosen by the player (a column's record taken leaves it); a space
    # whose effect visits itself would run until the step budget stops it (bounds.STEP_BUDGET), never hang
}


def check_cycles(fields, models, groups: dict[str, tuple[str, ...]], errors: ErrorBag, prefer=(), kinds=None) -> None:
    """E230 for every group of programs that can run each other forever (see the module docstring).

    One error per cycle, at the statement that closes it in the program written first, preferring
    programs whose text comes from ``prefer`` (the overlays applied, where the change was made)."""
    import networkx as nx

    g = _Graph(fields, models, kinds)
    g.build(groups)
    graph = nx.DiGraph()
    for src, dsts in g.edges.items():
        for dst in dsts:
            graph.add_edge(src, dst)
    prefer = set(prefer)

    def order(node):
        span = g.fields[node[0]].span
        return (span.path not in prefer, span.path, span.line, span.col, node[1] if node[1] is not None else -1)

    for component in nx.strongly_connected_components(graph):
        nodes = sorted(component, key=order)
        first = nodes[0]
        if len(nodes) == 1 and not graph.has_edge(first, first):
            continue
        sub = graph.subgraph(component)
        cycle = [first, *_path_back(sub, first)]
        steps = []
        for a, b in zip(cycle, cycle[1:]):
            stmt, how = g.edges[a][b]
            steps.append(f"{g.name(a)} {how}, which runs {g.name(b)}" if b[1] is None
                         else f"{g.name(a)} {how}, which fires {g.name(b)}")
        stmt, _ = g.edges[cycle[0]][cycle[1]]
        f = g.fields[first[0]]
        errors.add("E230", "effects can run each other forever: " + "; ".join(steps)
                   + " (bound it with `once per turn`, a one-time step, or break the cycle)", f.span_at(*stmt.pos))


def _path_back(graph, start) -> list:
    """A shortest path from start's successors back to start, inclusive of start at the end."""
    import networkx as nx

    best = None
    for nxt in sorted(graph.successors(start), key=str):
        if nxt == start:
            return [start]
        try:
            path = nx.shortest_path(graph, nxt, start)
        except nx.NetworkXNoPath:
            continue
        if best is None or len(path) < len(best):
            best = path
    return best or [start]


# --------------------------------------------------------------------------- the runtime budget


def runaway(state, spans: dict) -> RunawayError:
    """The error for an action whose effects ran past ``STEP_BUDGET``: names the program most present
    on the machine's stack (a cycle piles its frames up; a long repeat keeps its own there)."""
    counts = Counter(f.key for f in state.frames if not f.key.startswith("@"))
    key = counts.most_common(1)[0][0] if counts else None
    where = f" ({spans[key]})" if key in spans else ""
    named = f": {key}{where} keeps running" if key else ""
    return RunawayError(f"effects ran more than {STEP_BUDGET} steps in one action{named}; "
                        "the content loops (see `caput validate`)")
