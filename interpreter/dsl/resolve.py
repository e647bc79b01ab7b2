"""Resolve pass: check every name in an AST against what the content declares.

The pass is pure: it takes an AST, a ``Symbols`` table built from the pack
and a ``Scope`` saying what ``this`` and ``event`` mean where the effect
lives, and returns a list of ``NameError_`` (code, message, offsets). It
reports every problem it finds, not just the first.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from interpreter.dsl import ast as A
from interpreter.dsl.resolve_statements import StatementChecks
from interpreter.dsl.vocabulary import (  # noqa: F401  (re-exported: resolve.NUMBER, resolve.FUNCTIONS, ...)
    ANY_KIND, BOOL, BUILTINS, DIRECTIONS, FUNCTION_DOCS, FUNCTIONS, NUMBER, PERIODS, RUNTIME_ATTRIBUTES,
)

# Category -> error code for an unknown member.
_UNKNOWN_CODE = {
    "resource": "E302", "track": "E303", "grid": "E304", "action": "E305", "event": "E306",
    "kind": "E307", "counted": "E307", "direction": "E315", "stack": "E317", "zone": "E320",
}
# Where `move ... to Z at P` may put a record, besides a slot of a slotted zone.
ZONE_ENDS = ("top", "end")


# Where the members of a category are declared, said when a pack declares none.
_DECLARED_IN = {"die": "; the pack declares no dice (they are declared under `dice:` in its flow file)"}


@dataclass(frozen=True)
class EventSig:
    key: str | None
    params: dict[str, str]  # name -> type (a category, "record", or NUMBER)


@dataclass(frozen=True)
class KindSig:
    attributes: dict[str, str]  # name -> NUMBER | BOOL | category | "record"
    effect_fields: frozenset[str]
    buildable: bool = False


@dataclass(frozen=True)
class ZoneSig:
    holds: str | None  # the record kind it holds (what `where` tests in `count(Z where ...)`); None: any
    per_player: bool = False
    slots: tuple[str, ...] = ()
    refills: bool = False  # it declares `refill:`


@dataclass(frozen=True)
class Symbols:
    """Every name a pack declares, by category."""

    categories: dict[str, frozenset[str]]  # resource, action, track, grid, stack, permit, piece, table, colour, symbol, icon, group, die
    events: dict[str, EventSig] = field(default_factory=dict)
    kinds: dict[str, KindSig] = field(default_factory=dict)
    producing_tracks: frozenset[str] = frozenset()
    zones: dict[str, ZoneSig] = field(default_factory=dict)
    record_kinds: dict[str, str] = field(default_factory=dict)  # record id -> its kind (`run F of R`)

    def members(self, category: str) -> frozenset[str]:
        if category in ("kind", "counted"):  # counted: what count() counts, a kind's records or a zone's
            return frozenset(self.kinds) | (frozenset(self.zones) if category == "counted" else frozenset())
        if category == "direction":
            return frozenset(DIRECTIONS)
        if category == "event":
            return frozenset(self.events)
        if category == "zone":
            return frozenset(self.zones) | self.categories.get("zone", frozenset())
        return self.categories.get(category, frozenset())


@dataclass(frozen=True)
class Scope:
    """What the effect may refer to: the kinds `this` can be, and whether it is a trigger body."""

    this_kinds: tuple[str, ...] = ()
    where_kind: str | None = None
    event: EventSig | None = None
    event_kind: str | None = None  # the record kind the trigger's key narrows `event.<record>` to


@dataclass(frozen=True)
class NameError_:
    code: str
    message: str
    start: int
    end: int


def _suggest(word: str, options) -> str:
    close = difflib.get_close_matches(word, sorted(options), n=3, cutoff=0.6)
    return f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""


class Resolver(StatementChecks):
    def __init__(self, symbols: Symbols):
        self.sym = symbols
        self.errors: list[NameError_] = []
        # ids of Ref nodes that name a constant (e.g. a resource compared with an
        # event parameter) rather than a holding; the compiler needs to know
        self.constants: set[int] = set()
        # ids of Ref nodes inside `where` that read the tested record's attribute
        self.attributes: set[int] = set()
        # ids of Count nodes that count the records of a zone (not of a kind)
        self.zone_counts: set[int] = set()

    # ------------------------------------------------------------ helpers
    def error(self, code: str, message: str, pos: A.Pos) -> None:
        self.errors.append(NameError_(code, message, pos[0], pos[1]))

    def member(self, name: A.Name, category: str, what: str | None = None) -> bool:
        members = self.sym.members(category)
        if name.text in members:
            return True
        code = _UNKNOWN_CODE.get(category, "E301")
        what = what or category
        hint = _DECLARED_IN.get(category, "") if not members else ""
        self.error(code, f"unknown {what} '{name.text}'{_suggest(name.text, members)}{hint}", name.pos)
        return False

    # ------------------------------------------------------------ programs
    def program(self, node, scope: Scope) -> list[NameError_]:
        if isinstance(node, A.Program):
            seen_trigger = None
            for item in node.items:
                if isinstance(item, A.Trigger):
                    seen_trigger = item
                    self.trigger(item, scope)
                else:
                    if seen_trigger is not None:
                        self.error("E110", "a statement after a trigger is not part of it; put the trigger's body in braces "
                                   "`on ...: { ...; ... }` or move the statement before the trigger", item.pos)
                    self.stmt(item, scope)
        elif isinstance(node, tuple):  # amounts
            self.amounts(node, scope)
        else:
            self.cond(node, scope) if _is_cond(node) else self.expr(node, scope)
        return self.errors

    def trigger(self, t: A.Trigger, scope: Scope) -> None:
        if not self.member(t.event, "event"):
            self.stmt(t.body, scope)
            return
        sig = self.sym.events[t.event.text]
        event_kind = None
        if t.arg is not None:
            if sig.key is None:
                self.error("E310", f"event '{t.event.text}' takes no argument", t.arg.pos)
            elif sig.key in sig.params:  # a key that is not a param is reported with the event (E314)
                category = sig.params[sig.key]
                if self.member(t.arg, category) and category == "kind":
                    event_kind = t.arg.text
        inner = Scope(scope.this_kinds, None, sig, event_kind)
        for c in (*t.conditions, *t.while_):
            self.cond(c, inner)
        for name, allowed in ((t.once_per, PERIODS), (t.from_next, PERIODS[:2])):
            if name is not None and name.text not in allowed:
                self.error("E301", f"expected {' or '.join(allowed)}, not '{name.text}'", name.pos)
        self.stmt(t.body, inner)

    # ------------------------------------------------------------ statements
    def stmt(self, s, scope: Scope) -> None:
        method = getattr(self, "s_" + type(s).__name__.lower())
        method(s, scope)

    def s_gain(self, s: A.Gain, scope):
        self.amounts(s.amounts, scope, shared=True)

    s_pay = s_gain

    def s_score(self, s: A.Score, scope):
        self.number(s.points, scope)

    def s_advance(self, s: A.Advance, scope):
        self.member(s.track, "track")
        if s.times is not None:
            self.count(s.times, scope)

    def s_produce(self, s: A.Produce, scope):
        if self.member(s.track, "track") and s.track.text not in self.sym.producing_tracks:
            self.error("E309", f"track '{s.track.text}' produces nothing (it has no `produces:` resource)", s.track.pos)

    def s_move(self, s: A.Move, scope):
        self.member(s.grid, "grid")
        self.member(s.direction, "direction")
        if s.steps is not None:
            self.count(s.steps, scope)
        self.modifiers(s.modifiers, scope)

    def s_perform(self, s: A.Perform, scope):
        if s.action.text != "any":
            self.member(s.action, "action")
        self.modifiers(s.modifiers, scope)

    def s_build(self, s: A.Build, scope):
        if self.member(s.kind, "kind") and not self.sym.kinds[s.kind.text].buildable:
            self.error("E307", f"'{s.kind.text}' records are not tiles that can be built", s.kind.pos)
        self.modifiers(s.modifiers, scope)

    def s_block(self, s: A.Block, scope):
        for x in s.body:
            self.stmt(x, scope)

    def s_choose(self, s: A.Choose, scope):
        for o in s.options:
            self.stmt(o, scope)

    def s_may(self, s: A.May, scope):
        self.stmt(s.body, scope)

    def s_maypay(self, s: A.MayPay, scope):
        self.amounts(s.cost, scope)
        self.stmt(s.body, scope)

    def s_if(self, s: A.If, scope):
        self.cond(s.cond, scope)
        self.stmt(s.then, scope)
        if s.otherwise is not None:
            self.stmt(s.otherwise, scope)

    def s_repeat(self, s: A.Repeat, scope):
        if s.times is None:
            if not isinstance(s.body, (A.May, A.MayPay)):
                self.error("E312", "`repeat:` without a count must repeat an optional statement, e.g. `repeat: may pay 1 brick: score 2`", s.pos)
        else:
            self.count(s.times, scope)
        self.stmt(s.body, scope)

    def s_grant(self, s: A.Grant, scope):
        self.member(s.permit, "permit")
        if s.unused is not None:
            self.stmt(s.unused, scope)

    def s_later(self, s: A.Later, scope):
        self.stmt(s.body, scope)

    def s_draw(self, s: A.Draw, scope):
        if s.count is not None:
            self.count(s.count, scope)
        if s.stack.text in self.sym.zones and s.stack.text not in self.sym.members("stack"):
            self.error("E317", f"'{s.stack.text}' is a zone of each player or with slots, not a stack: move its records with "
                       f"`draw N from {s.stack.text} to <zone>` (no `keep`)", s.stack.pos)
        else:
            self.member(s.stack, "stack")
        self.count(s.keep, scope)
        if s.to is not None:
            self.member(s.to, "track")

    def s_use(self, s: A.Use, scope):
        if not self.member(s.kind, "kind"):
            return
        sig = self.sym.kinds[s.kind.text]
        for f in s.fields:
            if f.text not in sig.effect_fields:
                self.error("E308", f"'{s.kind.text}' has no effect field '{f.text}'; it has: {', '.join(sorted(sig.effect_fields)) or 'none'}", f.pos)
        if s.where is not None:
            self.cond(s.where, Scope(scope.this_kinds, s.kind.text, scope.event, scope.event_kind))

    def s_place(self, s: A.Place, scope):
        self.member(s.piece, "piece")
        self.this(s.target, scope)

    def s_foreach(self, s: A.ForEach, scope):
        self.stmt(s.body, scope)

    def s_asowner(self, s: A.AsOwner, scope):
        if not scope.this_kinds:
            self.error("E311", "`as owner` is only available in effects that belong to a record (its owner acts)",
                       (s.pos[0], s.pos[0] + len("as owner")))
        self.stmt(s.body, scope)

    def s_roll(self, s: A.Roll, scope):
        self.member(s.die, "die")
    # ------------------------------------------------------------ moving records between zones
    def zone(self, name: A.Name) -> ZoneSig | None:
        """The zone a name declares, or None after reporting it (E320)."""
        sig = self.sym.zones.get(name.text)
        if sig is not None:
            return sig
        hint = ""
        if name.text in self.sym.members("stack"):
            hint = f"; '{name.text}' is a stack: draw from a stack with `keep` (`draw 1 from {name.text} keep 1`)"
        self.error("E320", f"unknown zone '{name.text}'{_suggest(name.text, self.sym.zones)}{hint}", name.pos)
        return None

    def s_zonedraw(self, s: A.ZoneDraw, scope):
        if s.count is not None:
            self.count(s.count, scope)
        self.zone(s.source)
        self.zone(s.to)

    def s_zonemove(self, s: A.ZoneMove, scope):
        if s.record is not None:
            if s.record.parts:
                self.error("E308", "`move this` moves the record itself; it takes no attribute", s.record.parts[0].pos)
            else:
                self.this(s.record, scope)
        else:
            self.zone(s.source)
        sig = self.zone(s.to)
        if sig is not None and s.at is not None and s.at.text not in ZONE_ENDS + sig.slots:
            where = f"top, end or one of its slots ({', '.join(sig.slots)})" if sig.slots else "top or end"
            self.error("E321", f"zone '{s.to.text}' has no place '{s.at.text}': put a record at {where}", s.at.pos)

    def s_shuffle(self, s: A.Shuffle, scope):
        self.zone(s.zone)

    def s_refill(self, s: A.Refill, scope):
        sig = self.zone(s.zone)
        if sig is not None and not sig.refills:
            self.error("E321", f"zone '{s.zone.text}' declares no `refill:` zone to refill from", s.zone.pos)

    def modifiers(self, mods, scope):
        for m in mods:
            if isinstance(m, A.Discount):
                self.amounts(m.amounts, scope)
            elif isinstance(m, A.With):
                self.member(m.permit, "permit")

    def amounts(self, amounts, scope, shared: bool = False):
        """``shared``: the amounts of a `gain` or a `pay`, which may name shared resources (the table's)."""
        for a in amounts:
            self.number(a.value, scope)
            value = constant_value(a.value)
            if value is not None and value < 0:
                self.error("E319", f"an amount cannot be negative, and this one is always {value}; "
                           "to take resources away, `pay` them", a.pos)
            if self.member(a.name, "resource") and not shared and a.name.text in self.sym.members("shared"):
                self.error("E310", f"'{a.name.text}' is shared (the table's, not a player's): only `gain` and `pay` "
                           "change it, so it cannot be part of a cost or lie on a record", a.name.pos)

    # ------------------------------------------------------------ expressions
    def number(self, e, scope) -> None:
        t = self.expr(e, scope)
        if t not in (NUMBER, None, BOOL):
            self.error("E309", f"expected a number, but this is a {_describe(t)}", e.pos)

    def count(self, e, scope) -> None:
        """A number of times or of things: a number that is never negative."""
        self.number(e, scope)
        value = constant_value(e)
        if value is not None and value < 0:
            self.error("E319", f"a count cannot be negative, and this one is always {value}", e.pos)

    def expr(self, e, scope: Scope, hint: str | None = None) -> str | None:
        """Type of an expression (NUMBER, BOOL, a category, ("record", kind)); None after an error."""
        if isinstance(e, A.Num):
            return NUMBER
        if isinstance(e, A.BinOp):
            self.number(e.left, scope)
            self.number(e.right, scope)
            return NUMBER
        if isinstance(e, A.Neg):
            self.number(e.operand, scope)
            return NUMBER
        if isinstance(e, A.Call):
            return self.call(e, scope)
        if isinstance(e, A.Count) and e.kind.text not in self.sym.kinds and e.kind.text in self.sym.zones:
            self.zone_counts.add(id(e))  # the records of a zone: the player's own, if it is one per player
            if e.quant is not None:
                self.error("E310", f"count() of a zone counts the records in it; `{e.quant}` means nothing here", e.pos)
            if e.where is not None:
                self.cond(e.where, Scope(scope.this_kinds, self.sym.zones[e.kind.text].holds or ANY_KIND, scope.event,
                                         scope.event_kind))
            return NUMBER
        if isinstance(e, A.Count):
            if e.quant not in (None, "all"):
                self.error("E310", f"count() counts your own records, or everyone's with `all`; `{e.quant}` means nothing here", e.pos)
            if self.member(e.kind, "counted", "kind or zone") and e.where is not None:
                self.cond(e.where, Scope(scope.this_kinds, e.kind.text, scope.event, scope.event_kind))
            return NUMBER
        if isinstance(e, A.This):
            return self.this(e, scope)
        if isinstance(e, A.Ref):
            return self.ref(e, scope, hint)
        raise TypeError(e)

    def call(self, e: A.Call, scope) -> str | None:
        fn = e.fn.text
        if fn not in FUNCTIONS:
            self.error("E301", f"unknown function '{fn}'{_suggest(fn, FUNCTIONS)}", e.fn.pos)
            return None
        params = FUNCTIONS[fn]
        if len(e.args) != len(params):
            self.error("E310", f"{fn}() takes {len(params)} argument(s): {', '.join(params)}", e.pos)
            return NUMBER
        for arg, cat in zip(e.args, params):
            if cat == NUMBER:
                self.number(arg, scope)
            elif isinstance(arg, A.Ref) and len(arg.parts) == 1:
                self.member(arg.parts[0], cat)
            else:
                self.error("E310", f"argument of {fn}() must be a {cat} name", arg.pos)
        return NUMBER

    def this(self, e: A.This, scope) -> str | None:
        if not scope.this_kinds:
            self.error("E311", "`this` is only available in effects that belong to a record", e.pos)
            return None
        if not e.parts:
            return "record"
        return self.attribute_path(e.parts, scope.this_kinds, e.pos)

    def attribute_path(self, parts, kinds: tuple[str, ...], pos) -> str | None:
        attr = parts[0]
        types = {self.sym.kinds[k].attributes.get(attr.text) for k in kinds if k in self.sym.kinds}
        types.discard(None)
        runtime = RUNTIME_ATTRIBUTES.get(attr.text)
        if not types and runtime is None and attr.text in self.markable():
            runtime = NUMBER  # a count the record keeps (a mark, or a resource lying on it)
        if not types and runtime is None:
            known = set(RUNTIME_ATTRIBUTES) | self.markable()
            for k in kinds:
                if k in self.sym.kinds:
                    known |= set(self.sym.kinds[k].attributes)
            self.error("E308", f"{' / '.join(kinds)} has no attribute '{attr.text}'{_suggest(attr.text, known)}", attr.pos)
            return None
        if len(parts) > 1:
            self.error("E308", f"'{attr.text}' has no attributes", parts[1].pos)
            return None
        return runtime or (types.pop() if len(types) == 1 else None)

    def ref(self, e: A.Ref, scope: Scope, hint: str | None) -> str | None:
        head = e.parts[0]
        if head.text == "event":
            if scope.event is None:
                self.error("E311", "`event` is only available inside a trigger (`on ...:`)", head.pos)
                return None
            if len(e.parts) < 2:
                self.error("E308", "name an event parameter: `event.<parameter>`", head.pos)
                return None
            param = e.parts[1]
            ptype = scope.event.params.get(param.text)
            if ptype is None:
                self.error("E308", f"the event has no parameter '{param.text}'; it has: {', '.join(sorted(scope.event.params)) or 'none'}", param.pos)
                return None
            if ptype == "record" and len(e.parts) > 2:
                # narrowed by the key, else the tiles a pack builds, else (a pack that builds none) any record kind
                kinds = (scope.event_kind,) if scope.event_kind else (
                    tuple(k for k, s in self.sym.kinds.items() if s.buildable) or tuple(self.sym.kinds))
                return self.attribute_path(e.parts[2:], kinds, e.pos)
            if len(e.parts) > 2:
                self.error("E308", f"'{param.text}' has no attributes", e.parts[2].pos)
                return None
            return ptype
        if len(e.parts) > 1:
            self.error("E308", f"'{head.text}' has no attributes; only `event` and `this` do", e.parts[1].pos)
            return None
        name = head.text
        if scope.where_kind is not None:
            attrs = self.where_attributes(scope.where_kind)
            if name in attrs:
                self.attributes.add(id(e))
                return attrs[name]
        if name in self.sym.members("resource") or name in self.sym.members("group"):
            # a resource is its holding (a number), or a resource name when compared with one
            if hint == "resource":
                self.constants.add(id(e))
                return "resource"
            return NUMBER
        if name in BUILTINS and hint in (None, NUMBER, BOOL):
            return NUMBER
        if hint and hint not in (NUMBER, BOOL, "record") and not isinstance(hint, tuple):
            if name in self.sym.members(hint):
                self.constants.add(id(e))
                return hint
            self.member(head, hint)
            return None
        known = set(self.sym.members("resource")) | set(self.sym.members("group"))
        if scope.where_kind in self.sym.kinds or scope.where_kind == ANY_KIND:
            # inside `where`, an unknown word is most likely a misspelt attribute
            what = "the records tested have" if scope.where_kind == ANY_KIND else f"{scope.where_kind} has"
            attrs = set(self.where_attributes(scope.where_kind))
            self.error("E308", f"{what} no attribute '{name}'{_suggest(name, attrs | known)}", head.pos)
            return None
        self.error("E301", f"unknown name '{name}'{_suggest(name, known)}", head.pos)
        return None

    def markable(self) -> set[str]:
        """What a record may keep counts of: the pack's marks and its player resources (not shared ones)."""
        return set(self.sym.members("mark")) | (set(self.sym.members("resource")) - set(self.sym.members("shared")))

    def where_attributes(self, where_kind: str) -> dict[str, str]:
        """Name -> type of what a bare name in a `where` reads of the record tested: the fields of its kind
        (of every kind, for a zone that holds any), the runtime attributes and the pack's marks. A resource
        stays the acting player's holding there."""
        if where_kind == ANY_KIND:
            attrs: dict[str, str] = {}
            for sig in self.sym.kinds.values():
                for name, t in sig.attributes.items():
                    attrs.setdefault(name, t)
        else:
            attrs = dict(self.sym.kinds[where_kind].attributes) if where_kind in self.sym.kinds else {}
        for name in self.sym.members("mark"):
            attrs.setdefault(name, NUMBER)
        return {**RUNTIME_ATTRIBUTES, **attrs}

    # ------------------------------------------------------------ conditions
    def cond(self, c, scope: Scope) -> None:
        if isinstance(c, (A.And, A.Or)):
            self.cond(c.left, scope)
            self.cond(c.right, scope)
        elif isinstance(c, A.Not):
            self.cond(c.operand, scope)
        elif isinstance(c, A.Truth):
            self.expr(c.expr, scope)
        elif isinstance(c, A.Compare):
            left_plain = _plain_name(c.left)
            right_plain = _plain_name(c.right)
            before = len(self.errors)
            # a bare name takes its meaning from the other side; when that side
            # already has an error, the name cannot be checked: do not report it too
            if left_plain and not right_plain:
                rt = self.expr(c.right, scope)
                failed = rt is None and len(self.errors) > before
                lt = None if failed else self.expr(c.left, scope, hint=rt)
            else:
                lt = self.expr(c.left, scope)
                failed = right_plain and lt is None and len(self.errors) > before
                rt = None if failed else self.expr(c.right, scope, hint=lt)
            if lt is not None and rt is not None and _numeric(lt) != _numeric(rt):
                self.error("E309", f"cannot compare a {_describe(lt)} with a {_describe(rt)}", c.pos)
            elif lt is not None and rt is not None and not _numeric(lt) and c.op not in ("==", "!="):
                self.error("E309", f"a {_describe(lt)} can only be compared with == or !=", c.pos)
        else:
            raise TypeError(c)


def constant_value(e) -> int | None:
    """The value of an expression of numbers only, as the compiled program computes it
    (`/` rounds down, and is 0 for a division by zero); None when it reads the game."""
    if isinstance(e, A.Num):
        return e.value
    if isinstance(e, A.Neg):
        v = constant_value(e.operand)
        return None if v is None else -v
    if isinstance(e, A.BinOp):
        a, b = constant_value(e.left), constant_value(e.right)
        if a is None or b is None:
            return None
        if e.op == "+":
            return a + b
        if e.op == "-":
            return a - b
        if e.op == "*":
            return a * b
        return a // b if b else 0
    return None


def _plain_name(e) -> bool:
    return isinstance(e, A.Ref) and len(e.parts) == 1


def _numeric(t) -> bool:
    return t in (NUMBER, BOOL)


def _is_cond(node) -> bool:
    return isinstance(node, (A.Compare, A.Truth, A.And, A.Or, A.Not))


def _describe(t) -> str:
    return {NUMBER: "number", BOOL: "yes/no value", "record": "record"}.get(t, f"{t} name")


@dataclass(frozen=True)
class Resolution:
    errors: list[NameError_]
    constants: frozenset[int]
    attributes: frozenset[int] = frozenset()
    zone_counts: frozenset[int] = frozenset()


def resolve(node, symbols: Symbols, scope: Scope = Scope()) -> Resolution:
    r = Resolver(symbols)
    r.program(node, scope)
    return Resolution(r.errors, frozenset(r.constants), frozenset(r.attributes), frozenset(r.zone_counts))
