"""Compile resolved ASTs into runnable programs.

Expressions and conditions become Python closures ``f(ctx, rec)`` (``rec`` is
the record a ``where`` clause is testing, else None); statements become flat
immutable steps, one class per statement kind (dsl/steps.py). Nothing here
parses or validates: the hot path runs these directly, and the engine's
frames step through a block (a tuple of steps) with a program counter, so a
decision point is just an index into a tuple.

The ``ctx`` an expression reads is the engine's view of the game for the
acting player; its interface is ``ReadContext`` below.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol

from interpreter.dsl import ast as A
from interpreter.dsl import steps as S
from interpreter.dsl.resolve import BUILTINS

Fn = Callable[[Any, Any], Any]


class ReadContext(Protocol):
    """What compiled expressions may ask of the game, for the acting player."""

    def holding(self, resource: str) -> int: ...
    def group_total(self, group: str) -> int: ...
    def query(self, fn: str, name: str) -> int: ...  # position/value of a track, row/column of a grid, free pieces
    def table(self, table: str, n: int) -> int: ...
    def count(self, quant: str | None, kind: str, pred: Fn | None) -> int: ...
    def zone_count(self, zone: str, pred: Fn | None) -> int: ...  # records in a zone (the player's, if per player)
    def attribute(self, record: Any, name: str) -> Any: ...
    def this(self) -> Any: ...
    def event_param(self, name: str) -> Any: ...
    def rank(self, value: Fn) -> int: ...  # 1 + the players whose value(view of that player) is greater
    def first_most(self, value: Fn) -> bool: ...  # the most, ties going to the earliest in the phase's order
    def shared(self, resource: str) -> int: ...  # a shared resource: the table's count
    def builtin(self, name: str) -> int: ...  # seat, players, round, passed (resolve.BUILTINS)


@dataclass(frozen=True, slots=True)
class Trigger:
    event: str
    arg: str | None
    conditions: tuple[Fn, ...]
    while_: tuple[Fn, ...]
    once_per: str | None
    from_next: str | None
    body: tuple  # of steps


@dataclass(frozen=True, slots=True)
class Program:
    steps: tuple  # of steps (dsl/steps.py)
    triggers: tuple[Trigger, ...]
    source: str


class Compiler:
    def __init__(self, resources: frozenset[str], groups: frozenset[str] = frozenset(),
                 constants: frozenset[int] = frozenset(), attributes: frozenset[int] | None = None,
                 zone_counts: frozenset[int] = frozenset(), shared: frozenset[str] = frozenset()):
        self.resources = resources
        self.groups = groups
        self.shared = shared  # resources with one count for the table (`shared: true`)
        # What the resolve pass decided about plain names (by Ref node id): constants such as a
        # resource name compared with an event parameter, and record attributes inside `where`.
        # Without a resolution, a name inside `where` that is no resource is an attribute.
        self.constants = constants
        self.attributes = attributes
        # ids of the Count nodes that count a zone's records rather than a kind's (resolve decides)
        self.zone_counts = zone_counts

    # ------------------------------------------------------------ programs
    def program(self, node: A.Program, source: str = "") -> Program:
        steps, triggers = [], []
        for item in node.items:
            if isinstance(item, A.Trigger):
                triggers.append(self.trigger(item))
            else:
                steps.append(self.stmt(item, where=False))
        return Program(tuple(steps), tuple(triggers), source)

    def trigger(self, t: A.Trigger) -> Trigger:
        return Trigger(
            t.event.text,
            t.arg.text if t.arg else None,
            tuple(self.cond(c, where=False) for c in t.conditions),
            tuple(self.cond(c, where=False) for c in t.while_),
            t.once_per.text if t.once_per else None,
            t.from_next.text if t.from_next else None,
            self.block(t.body),
        )

    def block(self, s) -> tuple:
        body = s.body if isinstance(s, A.Block) else (s,)
        return tuple(self.stmt(x, where=False) for x in body)

    def amounts(self, amounts, shared: bool = False) -> tuple:
        """((resource, fn), ...), one entry per resource: "1 x, 2 x" is "3 x", so a payment checks
        each holding once. The player's resources; with ``shared``, the shared ones (the table's
        counts, which only `gain` and `pay` name)."""
        out: dict[str, Fn] = {}
        for a in amounts:
            name = a.name.text
            if (name in self.shared) != shared:
                continue
            fn = self.expr(a.value, False)
            if name in out:
                fa, fb = out[name], fn
                fn = lambda c, r, fa=fa, fb=fb: fa(c, r) + fb(c, r)  # noqa: E731
            out[name] = fn
        return tuple(out.items())

    def mods(self, mods) -> tuple:
        out = []
        for m in mods:
            if isinstance(m, A.Free):
                out.append(S.Free())
            elif isinstance(m, A.Discount):
                out.append(S.Discount(self.amounts(m.amounts)))
            else:
                out.append(S.With(m.permit.text))
        return tuple(out)

    def stmt(self, s, where: bool) -> S.Step:
        make = _STATEMENT.get(S.OF_NODE.get(type(s)))
        if make is None:
            raise TypeError(s)
        return make(self, s)

    def _e(self, x) -> Fn | None:
        return None if x is None else self.expr(x, False)

    # ------------------------------------------------------------ expressions
    def expr(self, x, where: bool) -> Fn:
        match x:
            case A.Num(value=v):
                return lambda c, r, v=v: v
            case A.BinOp(op=op, left=l, right=rr):
                fl, fr = self.expr(l, where), self.expr(rr, where)
                if op == "+":
                    return lambda c, r: fl(c, r) + fr(c, r)
                if op == "-":
                    return lambda c, r: fl(c, r) - fr(c, r)
                if op == "*":
                    return lambda c, r: fl(c, r) * fr(c, r)
                return lambda c, r: _floordiv(fl(c, r), fr(c, r))
            case A.Neg(operand=o):
                f = self.expr(o, where)
                return lambda c, r: -f(c, r)
            case A.Call(fn=fn, args=args):
                return self.call(fn.text, args, where)
            case A.Count(quant=q, kind=k, where=w):
                pred = self.cond(w, True) if w is not None else None
                if id(x) in self.zone_counts:
                    return lambda c, r, z=k.text: c.zone_count(z, pred)
                return lambda c, r, q=q, k=k.text: c.count(q, k, pred)
            case A.This(parts=parts):
                names = tuple(p.text for p in parts)
                if not names:
                    return lambda c, r: c.this()
                return lambda c, r, n=names[0]: c.attribute(c.this(), n)
            case A.Ref(parts=parts):
                if id(x) in self.constants:
                    name = parts[0].text
                    return lambda c, r: name
                if where and self.attributes is not None and id(x) in self.attributes:
                    name = parts[0].text
                    return lambda c, r: c.attribute(r, name)
                return self.ref(tuple(p.text for p in parts), where)
        raise TypeError(x)

    def call(self, fn: str, args, where: bool) -> Fn:
        if fn in ("min", "max"):
            fa, fb = (self.expr(a, where) for a in args)
            op = min if fn == "min" else max
            return lambda c, r: op(fa(c, r), fb(c, r))
        if fn == "table":
            name, fn_n = args[0].parts[0].text, self.expr(args[1], where)
            return lambda c, r: c.table(name, fn_n(c, r))
        if fn in ("rank", "most", "first_most"):  # the argument is evaluated as each player
            fv = self.expr(args[0], where)
            if fn == "rank":
                return lambda c, r: c.rank(lambda v: fv(v, r))
            if fn == "first_most":
                return lambda c, r: c.first_most(lambda v: fv(v, r))
            return lambda c, r: c.rank(lambda v: fv(v, r)) == 1
        name = args[0].parts[0].text
        return lambda c, r, fn=fn, name=name: c.query(fn, name)

    def ref(self, names: tuple[str, ...], where: bool) -> Fn:
        head = names[0]
        if head == "event":
            param, rest = names[1], names[2:]
            if rest:
                return lambda c, r: c.attribute(c.event_param(param), rest[0])
            return lambda c, r: c.event_param(param)
        if head in self.shared:
            return lambda c, r: c.shared(head)
        if where:
            # inside `where`, a name is the tested record's attribute when it has one
            if head in self.groups:
                return lambda c, r: c.group_total(head)
            if head in self.resources:
                return lambda c, r: c.holding(head)
            if head in BUILTINS and self.attributes is not None:  # resolved: not an attribute of the record
                return lambda c, r: c.builtin(head)
            return lambda c, r: c.attribute(r, head)
        if head in self.groups:
            return lambda c, r: c.group_total(head)
        if head in self.resources:
            return lambda c, r: c.holding(head)
        if head in BUILTINS:
            return lambda c, r: c.builtin(head)
        return lambda c, r: head  # a constant: an enum member such as a direction or colour name

    # ------------------------------------------------------------ conditions
    def cond(self, x, where: bool) -> Fn:
        match x:
            case A.And(left=a, right=b):
                fa, fb = self.cond(a, where), self.cond(b, where)
                return lambda c, r: fa(c, r) and fb(c, r)
            case A.Or(left=a, right=b):
                fa, fb = self.cond(a, where), self.cond(b, where)
                return lambda c, r: fa(c, r) or fb(c, r)
            case A.Not(operand=a):
                fa = self.cond(a, where)
                return lambda c, r: not fa(c, r)
            case A.Truth(expr=e):
                f = self.expr(e, where)
                return lambda c, r: bool(f(c, r))
            case A.Compare(op=op, left=a, right=b):
                return _COMPARE[op](self.expr(a, where), self.expr(b, where))
        raise TypeError(x)


# step class -> how its AST statement compiles; one entry per kind of steps.STATEMENTS (tests/dsl/test_steps.py)
_STATEMENT: dict[type, Callable[[Compiler, Any], S.Step]] = {
    S.Gain: lambda c, s: S.Gain(c.amounts(s.amounts), c.amounts(s.amounts, shared=True)),
    S.Pay: lambda c, s: S.Pay(c.amounts(s.amounts), c.amounts(s.amounts, shared=True)),
    S.Score: lambda c, s: S.Score(c._e(s.points)),
    S.Advance: lambda c, s: S.Advance(s.track.text, c._e(s.times)),
    S.Produce: lambda c, s: S.Produce(s.track.text),
    S.Move: lambda c, s: S.Move(s.grid.text, s.direction.text, c._e(s.steps), c.mods(s.modifiers)),
    S.Perform: lambda c, s: S.Perform(None if s.action.text == "any" else s.action.text, c.mods(s.modifiers)),
    S.Build: lambda c, s: S.Build(s.kind.text, c.mods(s.modifiers)),
    S.Block: lambda c, s: S.Block(c.block(s)),
    S.Choose: lambda c, s: S.Choose(tuple(c.block(o) for o in s.options)),
    S.May: lambda c, s: S.May(c.block(s.body)),
    S.MayPay: lambda c, s: S.MayPay(c.amounts(s.cost), c.block(s.body)),
    S.If: lambda c, s: S.If(c.cond(s.cond, False), c.block(s.then),
                            c.block(s.otherwise) if s.otherwise is not None else None),
    S.Repeat: lambda c, s: S.Repeat(c._e(s.times), c.block(s.body)),
    S.Grant: lambda c, s: S.Grant(s.permit.text, c.block(s.unused) if s.unused is not None else None),
    S.Later: lambda c, s: S.Later(c.block(s.body)),
    S.Draw: lambda c, s: S.Draw(c._e(s.count), s.stack.text, c._e(s.keep), s.to.text if s.to else None),
    S.Use: lambda c, s: S.Use(tuple(f.text for f in s.fields), s.quant, s.kind.text,
                              c.cond(s.where, True) if s.where is not None else None),
    S.Place: lambda c, s: S.Place(s.piece.text, tuple(p.text for p in s.target.parts)),
    S.ForEach: lambda c, s: S.ForEach(s.others, c.block(s.body)),
    S.AsOwner: lambda c, s: S.AsOwner(c.block(s.body)),
    S.Roll: lambda c, s: S.Roll(s.die.text),
    S.ZoneDraw: lambda c, s: S.ZoneDraw(c._e(s.count), s.source.text, s.to.text),
    S.ZoneMove: lambda c, s: S.ZoneMove(s.source.text if s.source else None, s.to.text, _at(s.at)),
    S.Shuffle: lambda c, s: S.Shuffle(s.zone.text),
    S.Refill: lambda c, s: S.Refill(s.zone.text),
    S.ForEachRecord: lambda c, s: S.ForEachRecord(s.zone.text, c.cond(s.where, True) if s.where is not None else None,
                                                  c.block(s.body)),
    S.JoinOrder: lambda c, s: S.JoinOrder(),
    S.Run: lambda c, s: S.Run(s.field.text, s.record.text if s.record is not None else None),
    S.AsOccupant: lambda c, s: S.AsOccupant(c.block(s.body)),
    S.ChooseRecord: lambda c, s: S.ChooseRecord(s.zone.text, c.cond(s.where, True) if s.where is not None else None,
                                                c.block(s.body), s.count),
    S.Require: lambda c, s: S.Require(c.cond(s.cond, False)),
    S.AtOnce: lambda c, s: S.AtOnce(c.block(s.body)),
    S.Visit: lambda c, s: S.Visit(tuple(n.text for n in s.spaces), c._e(s.value)),
    S.Multiply: lambda c, s: S.Multiply(tuple(n.text for n in s.resources), c._e(s.factor), c.block(s.body)),
    S.Put: lambda c, s: S.Put(c.amounts(s.amounts)),
    S.Take: lambda c, s: S.Take(c.amounts(s.amounts)),
}


def _at(at) -> str:
    """Where `move ... at P` puts a record, as zones.put names it: top (the default), bottom, a slot."""
    if at is None:
        return "top"
    return "bottom" if at.text == "end" else at.text


def _floordiv(a: int, b: int) -> int:
    return a // b if b else 0


_COMPARE = {
    "==": lambda a, b: (lambda c, r: a(c, r) == b(c, r)),
    "!=": lambda a, b: (lambda c, r: a(c, r) != b(c, r)),
    "<": lambda a, b: (lambda c, r: a(c, r) < b(c, r)),
    "<=": lambda a, b: (lambda c, r: a(c, r) <= b(c, r)),
    ">": lambda a, b: (lambda c, r: a(c, r) > b(c, r)),
    ">=": lambda a, b: (lambda c, r: a(c, r) >= b(c, r)),
}
