"""AST -> plain English, so a designer can proofread effects without reading the DSL.

Display names come from the pack (``Names``), by category, since one id may
name several things (an action and a tile kind, say): a resource's ``name``
and ``plural``, an action's or track's ``name``; anything undeclared is shown
as its id with underscores as spaces.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from interpreter.dsl import ast as A


@dataclass(frozen=True)
class Names:
    display: dict[str, str] = field(default_factory=dict)  # "category:id" (or a bare id) -> name
    plural: dict[str, str] = field(default_factory=dict)  # resource id -> plural
    this: str = "tile"  # what `this` is called: the record an effect belongs to

    def of(self, ident: str, category: str | None = None) -> str:
        if category is not None:
            found = self.display.get(f"{category}:{ident}")
            if found is not None:
                return found
        return self.display.get(ident, ident.replace("_", " "))

    def has(self, ident: str, category: str) -> bool:
        return f"{category}:{ident}" in self.display

    def count(self, n: int | None, ident: str) -> str:
        if n == 1:
            return f"1 {self.of(ident, 'resource')}"
        word = self.plural.get(ident, self.of(ident, "resource"))
        return f"{n} {word}" if n is not None else word


def to_english(node, names: Names | None = None) -> str:
    r = _Renderer(names or Names())
    if isinstance(node, A.Program):
        text = ". ".join(_cap(r.item(i)) for i in node.items)
    elif isinstance(node, tuple):
        text = r.amounts(node)
    elif isinstance(node, (A.Compare, A.Truth, A.And, A.Or, A.Not)):
        text = r.cond(node)
    else:
        text = r.expr(node)
    return text + ("." if isinstance(node, A.Program) and not text.endswith(".") else "")


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _times(n: str) -> str:
    return {"1": "once", "2": "twice"}.get(n, f"{n} times")


class _Renderer:
    def __init__(self, names: Names):
        self.n = names

    def item(self, i) -> str:
        return self.trigger(i) if isinstance(i, A.Trigger) else self.stmt(i)

    def trigger(self, t: A.Trigger) -> str:
        head = f"whenever {self.n.of(t.event.text, 'event')}"
        if t.arg:
            head += f" ({self.n.of(t.arg.text, self.n.display.get(f'eventarg:{t.event.text}'))})"
        parts = [head]
        parts += [f"if {self.cond(c)}" for c in t.conditions]
        parts += [f"while {self.cond(c)}" for c in t.while_]
        if t.once_per:
            parts.append(f"at most once per {t.once_per.text}")
        if t.from_next:
            parts.append(f"starting next {t.from_next.text}")
        return ", ".join(parts) + ": " + self.stmt(t.body)

    def seq(self, stmts) -> str:
        return ", then ".join(self.stmt(s) for s in stmts)

    def amounts(self, amounts) -> str:
        parts = []
        for a in amounts:
            if isinstance(a.value, A.Num):
                parts.append(self.n.count(a.value.value, a.name.text))
            else:
                parts.append(f"{self.expr(a.value)} {self.n.plural.get(a.name.text, self.n.of(a.name.text, 'resource'))}")
        return _join(parts)

    def mods(self, mods) -> str:
        out = []
        for m in mods:
            if isinstance(m, A.Free):
                out.append("for free")
            elif isinstance(m, A.Discount):
                out.append(f"with {self.amounts(m.amounts)} off the cost")
            else:
                out.append(f"with {self.n.of(m.permit.text, 'permit')}")
        return "".join(" " + o for o in out)

    def stmt(self, s) -> str:
        match s:
            case A.Gain():
                return f"gain {self.amounts(s.amounts)}"
            case A.Pay():
                return f"pay {self.amounts(s.amounts)}"
            case A.Score():
                return self.score(s.points)
            case A.Advance():
                times = "" if s.times is None else " " + _times(self.expr(s.times))
                return f"advance on the {self.n.of(s.track.text, 'track')} track{times}"
            case A.Produce():
                return f"produce on the {self.n.of(s.track.text, 'track')} track"
            case A.Move():
                steps = "" if s.steps is None else f" {self.expr(s.steps)} squares"
                return f"move {s.direction.text}{steps} on the {self.n.of(s.grid.text, 'grid')}{self.mods(s.modifiers)}"
            case A.Perform():
                what = "any one action" if s.action.text == "any" else f"the {self.n.of(s.action.text, 'action')} action"
                return f"perform {what}{self.mods(s.modifiers)}"
            case A.Build():
                return f"build {_a(self.n.of(s.kind.text, 'kind'))}{self.mods(s.modifiers)}"
            case A.Block():
                return self.seq(s.body)
            case A.Choose():
                opts = "; ".join(f"({chr(97 + i)}) {self.seq(o.body)}" for i, o in enumerate(s.options))
                return f"choose one: {opts}"
            case A.May():
                return f"you may {self.stmt(s.body)}"
            case A.MayPay():
                return f"you may pay {self.amounts(s.cost)} to {self.stmt(s.body)}"
            case A.If():
                text = f"if {self.cond(s.cond)}, {self.stmt(s.then)}"
                if s.otherwise is not None:
                    text += f"; otherwise {self.stmt(s.otherwise)}"
                return text
            case A.Repeat():
                if s.times is None:
                    return f"any number of times: {self.stmt(s.body)}"
                return f"{_times(self.expr(s.times))}: {self.stmt(s.body)}"
            case A.Grant():
                text = f"gain the right: {self.n.of(s.permit.text, 'permit')}"
                if s.unused is not None:
                    text += f" (if it is not used this turn, {self.stmt(s.unused)} instead)"
                return text
            case A.Later():
                return f"at any moment this turn: {self.stmt(s.body)}"
            case A.Draw():
                count = "all tiles" if s.count is None else self.expr(s.count)
                to = f" and put it on the {self.n.of(s.to.text, 'track')} track" if s.to else ""
                return f"look at {count} from {self.n.of(s.stack.text, 'stack')}, keep {self.expr(s.keep)}{to}"
            case A.Use():
                where = f" where {self.cond(s.where)}" if s.where is not None else ""
                which = {"any": "one chosen", "each": "each of your", "all": "every"}[s.quant]
                fields = _join([self.n.of(f.text) for f in s.fields])
                plural = "s" if len(s.fields) > 1 else ""
                return f"gain the {fields} reward{plural} of {which} {self.n.of(s.kind.text, 'kind')}{where}"
            case A.Place():
                target = f"this {self.n.this}" if not s.target.parts else f"this {self.n.this}'s {self.n.of(s.target.parts[0].text)}"
                return f"place {_a(self.n.of(s.piece.text, 'piece'))} on {target}"
            case A.ForEach():
                who = "each other player" if s.others else "each player"
                return f"for {who}, in turn order from the round's first player: {self.stmt(s.body)}"
            case A.AsOwner():
                return f"this {self.n.this}'s owner (if it has one): {self.stmt(s.body)}"
            case A.Roll():
                return f"roll the {self.n.of(s.die.text, 'die')}"
            case A.ZoneDraw():
                what = "all the records" if s.count is None else f"the top {self.expr(s.count)}"
                return f"move {what} of {self._zone(s.source)} onto {self._zone(s.to)}"
            case A.ZoneMove():
                what = f"every record of {self._zone(s.source)}" if s.record is None else self.expr(s.record)
                return f"move {what} to {self._zone(s.to)}{self._at(s.at)}"
            case A.Shuffle():
                return f"shuffle {self._zone(s.zone)}"
            case A.Refill():
                return f"refill {self._zone(s.zone)}"
            case A.ForEachRecord():
                where = f" where {self.cond(s.where)}" if s.where is not None else ""
                return f"for each record of {self._zone(s.zone)}{where}, in order from the top: {self.stmt(s.body)}"
            case A.JoinOrder():
                return "take the next place in the turn order of the next phase played in the recorded order"
            case A.Run():
                whose = "this record" if s.record is None else self.n.of(s.record.text)
                return f"do what the {s.field.text.replace('_', ' ')} of {whose} says"
            case A.AsOccupant():
                return f"the owner of the piece on this {self.n.this} (if there is one): {self.stmt(s.body)}"
            case A.ChooseRecord():
                where = f" where {self.cond(s.where)}" if s.where is not None else ""
                if s.count > 1:
                    return (f"choose {s.count} different records of {self._zone(s.zone)}{where}, one after another, "
                            f"and for each: {self.stmt(s.body)}")
                return f"choose one record of {self._zone(s.zone)}{where}, then for it: {self.stmt(s.body)}"
            case A.Require():
                return f"only if {self.cond(s.cond)}"
            case A.AtOnce():
                return f"all at once (what you gain comes after every cost is paid): {self.stmt(s.body)}"
            case A.Visit():
                spaces = " or ".join(self.n.of(x.text) for x in s.spaces)
                return f"take the action of {spaces} at value {self.expr(s.value)}, without placing a piece"
            case A.Multiply():
                what = _join([self.n.count(None, r.text) for r in s.resources])
                return f"with the {what} you gain multiplied by {self.expr(s.factor)}: {self.stmt(s.body)}"
            case A.Put():
                return f"put {self.amounts(s.amounts)} on this {self.n.this}"
            case A.Take():
                return f"take up to {self.amounts(s.amounts)} from this {self.n.this}"
        raise TypeError(s)

    def _zone(self, name: A.Name) -> str:
        return f"the {self.n.of(name.text, 'zone')}"

    @staticmethod
    def _at(at: A.Name | None) -> str:
        if at is None:
            return ""
        return {"top": " (on top)", "end": " (at the bottom)"}.get(at.text, f" (into its {at.text.replace('_', ' ')} slot)")

    def score(self, p) -> str:
        if isinstance(p, A.Num):
            return f"score {p.value} point{'s' if p.value != 1 else ''}"
        if isinstance(p, A.Count) or (isinstance(p, A.Ref) and self._resource(p)):
            return f"score 1 point for each {self.unit(p)}"
        if isinstance(p, A.BinOp) and p.op == "*":
            num, other = (p.left, p.right) if isinstance(p.left, A.Num) else (p.right, p.left)
            if isinstance(num, A.Num) and (isinstance(other, A.Count) or (isinstance(other, A.Ref) and self._resource(other))):
                return f"score {num.value} point{'s' if num.value != 1 else ''} for each {self.unit(other)}"
        return f"score points equal to {self.expr(p)}"

    def _resource(self, e: A.Ref) -> bool:
        return len(e.parts) == 1 and self.n.has(e.parts[0].text, "resource")

    def unit(self, e) -> str:
        """One unit of what a count or holding counts: 'upgrade tile you own with era is 1'."""
        if isinstance(e, A.Ref):
            return f"{self.n.of(e.parts[0].text, 'resource')} you hold"
        if self.n.has(e.kind.text, "zone") and not self.n.has(e.kind.text, "kind"):  # a zone's records
            where = f" whose {self.cond(e.where)}" if e.where is not None else ""
            return f"record in the {self.n.of(e.kind.text, 'zone')}{where}"
        owner = "on the board" if e.quant == "all" else "you own"
        where = f" whose {self.cond(e.where)}" if e.where is not None else ""
        return f"{self.n.of(e.kind.text, 'kind')} {owner}{where}"

    def expr(self, e) -> str:
        match e:
            case A.Num(value=v):
                return str(v)
            case A.BinOp(op=op, left=a, right=b):
                sym = {"*": "×", "/": "÷"}.get(op, op)
                # a chain of sums or products reads left to right without brackets: a + b + c
                left = self.expr(a) if op in "+*" and isinstance(a, A.BinOp) and a.op == op else self._operand(a)
                return f"{left} {sym} {self._operand(b)}"
            case A.Neg(operand=o):
                return f"-{self._operand(o)}"
            case A.Call(fn=fn, args=args):
                return self.call(fn.text, args)
            case A.Count() if self.n.has(e.kind.text, "zone") and not self.n.has(e.kind.text, "kind"):
                return "the number of " + self.unit(e).replace("record ", "records ", 1)
            case A.Count():
                return f"the number of {self.unit(e).replace(' you own', 's you own', 1).replace(' on the board', 's on the board', 1)}"
            case A.This(parts=parts):
                return f"this {self.n.this}" if not parts else f"this {self.n.this}'s {self.n.of(parts[0].text)}"
            case A.Ref(parts=parts):
                if parts[0].text == "event":
                    return "the event's " + " ".join(self.n.of(p.text) for p in parts[1:])
                if self._resource(e):
                    name = parts[0].text
                    return f"your {self.n.plural.get(name, self.n.of(name, 'resource'))}"
                if len(parts) == 1 and parts[0].text in _BUILTINS and not self.n.has(parts[0].text, "resource"):
                    return _BUILTINS[parts[0].text]
                return self.n.of(parts[0].text)
        raise TypeError(e)

    def quantity(self, e) -> str:
        """What a rank compares, said of anyone: `coins`, not `your coins`."""
        if isinstance(e, A.Ref) and self._resource(e):
            name = e.parts[0].text
            return self.n.plural.get(name, self.n.of(name, "resource"))
        return self.expr(e)

    def _operand(self, e) -> str:
        text = self.expr(e)
        return f"({text})" if isinstance(e, A.BinOp) else text

    def call(self, fn: str, args) -> str:
        arg = self.expr(args[0]) if args else ""
        match fn:
            case "position":
                return f"your position on the {arg} track"
            case "value":
                return f"the value of your {arg} track space"
            case "row":
                return f"your row on the {arg}"
            case "column":
                return f"your column on the {arg}"
            case "row_value":
                return f"your row's value on the {arg}"
            case "column_value":
                return f"your column's value on the {arg}"
            case "table" if len(args) == 2:
                return f"the {arg} table's points for {self.expr(args[1])}"
            case "free":
                return f"your free {arg}s"
            case "die":
                return f"the value the {self.n.of(args[0].parts[0].text, 'die') if _plain(args) else arg} shows"
            case "rank" if len(args) == 1:
                return f"your rank by {self.quantity(args[0])} (1 for the most)"
            case "most" if len(args) == 1:
                return f"1 if no player has more {self.quantity(args[0])} than you, else 0"
            case "first_most" if len(args) == 1:
                return (f"1 if no player has more {self.quantity(args[0])} than you nor as much and an earlier turn "
                        "this phase, else 0")
            case "min" | "max" if len(args) == 2:
                return f"the {'smaller' if fn == 'min' else 'larger'} of {self.expr(args[0])} and {self.expr(args[1])}"
            case _:  # not a known function (or the wrong arguments): resolve reports it; show it as written
                return f"{self.n.of(fn)}({', '.join(self.expr(a) for a in args)})"

    def cond(self, c) -> str:
        match c:
            case A.And(left=a, right=b):
                return f"{self._cond_operand(a)} and {self._cond_operand(b)}"
            case A.Or(left=a, right=b):
                return f"{self.cond(a)} or {self.cond(b)}"
            case A.Not(operand=a):
                if isinstance(a, A.Truth):
                    return self.truth(a.expr, negated=True)
                return f"not ({self.cond(a)})"
            case A.Truth(expr=e):
                return self.truth(e, negated=False)
            case A.Compare(op=op, left=a, right=b):
                word = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than", ">=": "is at least"}[op]
                return f"{self.expr(a)} {word} {self.expr(b)}"
        raise TypeError(c)

    def truth(self, e, negated: bool) -> str:
        """A value used as a condition: an icon a tile has, a state a record is in, or a non-zero number."""
        if isinstance(e, A.Call) and e.fn.text == "most" and len(e.args) == 1:
            return f"{'no player has more' if not negated else 'another player has more'} {self.quantity(e.args[0])} than you"
        if isinstance(e, A.Call) and e.fn.text == "first_most" and len(e.args) == 1:
            most = f"you have the most {self.quantity(e.args[0])}, a tie going to the earliest in this phase's turn order"
            return most if not negated else f"not ({most})"
        if isinstance(e, (A.Ref, A.This)) and e.parts:
            attr = e.parts[-1].text
            if isinstance(e, A.This):
                subject = f"this {self.n.this}"
            elif e.parts[0].text == "event" and len(e.parts) > 2:
                subject = f"the {self.n.of(e.parts[1].text)}"
            else:
                subject = "it"
            if self.n.has(attr, "icon"):
                return f"{subject} {'has no' if negated else 'has the'} {self.n.of(attr, 'icon')}"
            if self.n.has(attr, "state"):
                return f"{subject} is {'not ' if negated else ''}{self.n.of(attr, 'state')}"
        return f"{self.expr(e)} is {'' if negated else 'not '}zero"

    def _cond_operand(self, c) -> str:
        # `and` binds tighter than `or`: keep an `or` inside an `and` visibly grouped
        text = self.cond(c)
        return f"({text})" if isinstance(c, A.Or) else text


# the game's own numbers an expression reads (resolve.BUILTINS), as a sentence says them
_BUILTINS = {"seat": "your seat number", "players": "the number of players", "round": "the round number",
             "passed": "the number of players who passed", "value": "the value of the placed piece"}


def _plain(args) -> bool:
    return len(args) == 1 and isinstance(args[0], A.Ref) and len(args[0].parts) == 1


def _a(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]
