"""AST -> canonical DSL text. ``parse(to_text(parse(s)))`` equals ``parse(s)``."""

from __future__ import annotations

from functools import singledispatch

from interpreter.dsl import ast as A

_PREC = {"+": 1, "-": 1, "*": 2, "/": 2}


def to_text(node) -> str:
    if isinstance(node, tuple):  # parsed from the `amounts` start rule
        return _amounts(node)
    return _text(node)


@singledispatch
def _text(node) -> str:
    raise TypeError(f"cannot print {type(node).__name__}")


@_text.register
def _(n: A.Program) -> str:
    return "; ".join(_text(i) for i in n.items)


@_text.register
def _(n: A.Name) -> str:
    return n.text


@_text.register
def _(n: A.Trigger) -> str:
    parts = [f"on {n.event.text}" + (f"({n.arg.text})" if n.arg else "")]
    parts += [f"if {_text(c)}" for c in n.conditions]
    parts += [f"while {_text(c)}" for c in n.while_]
    if n.once_per:
        parts.append(f"once per {n.once_per.text}")
    if n.from_next:
        parts.append(f"from next {n.from_next.text}")
    return " ".join(parts) + ": " + _body(n.body)


def _body(stmt) -> str:
    return _text(stmt)


def _amounts(amounts) -> str:
    return ", ".join(_text(a) for a in amounts)


def _mods(mods) -> str:
    return "".join(" " + _text(m) for m in mods)


@_text.register
def _(n: A.Amount) -> str:
    value = _text(n.value)
    if not isinstance(n.value, A.Num):
        value = f"({value})"
    return f"{value} {n.name.text}"


@_text.register
def _(n: A.Free) -> str:
    return "free"


@_text.register
def _(n: A.Discount) -> str:
    return f"discount {_amounts(n.amounts)}"


@_text.register
def _(n: A.With) -> str:
    return f"with {n.permit.text}"


@_text.register
def _(n: A.Gain) -> str:
    return f"gain {_amounts(n.amounts)}"


@_text.register
def _(n: A.Pay) -> str:
    return f"pay {_amounts(n.amounts)}"


@_text.register
def _(n: A.Score) -> str:
    return f"score {_text(n.points)}"


@_text.register
def _(n: A.Advance) -> str:
    return f"advance {n.track.text}" + (f" {_text(n.times)}" if n.times is not None else "")


@_text.register
def _(n: A.Produce) -> str:
    return f"produce {n.track.text}"


@_text.register
def _(n: A.Move) -> str:
    steps = f" {_text(n.steps)}" if n.steps is not None else ""
    return f"move {n.grid.text} {n.direction.text}{steps}{_mods(n.modifiers)}"


@_text.register
def _(n: A.Perform) -> str:
    return f"perform {n.action.text}{_mods(n.modifiers)}"


@_text.register
def _(n: A.Build) -> str:
    return f"build {n.kind.text}{_mods(n.modifiers)}"


@_text.register
def _(n: A.Block) -> str:
    return "{ " + "; ".join(_text(s) for s in n.body) + " }"


@_text.register
def _(n: A.Choose) -> str:
    return "choose { " + " | ".join("; ".join(_text(s) for s in o.body) for o in n.options) + " }"


@_text.register
def _(n: A.May) -> str:
    return f"may {_text(n.body)}"


@_text.register
def _(n: A.MayPay) -> str:
    return f"may pay {_amounts(n.cost)}: {_body(n.body)}"


@_text.register
def _(n: A.If) -> str:
    text = f"if {_text(n.cond)}: {_guard_else(n.then, n.otherwise)}"
    if n.otherwise is not None:
        text += f" else: {_body(n.otherwise)}"
    return text


def _guard_else(then, otherwise) -> str:
    # An `if` without `else` inside the then-branch would capture our else: brace it.
    if otherwise is not None and _ends_open(then):
        return "{ " + _text(then) + " }"
    return _body(then)


def _ends_open(stmt) -> bool:
    """True when a trailing `else` could attach to an `if` inside ``stmt``."""
    if isinstance(stmt, A.If):
        return stmt.otherwise is None or _ends_open(stmt.otherwise)
    if isinstance(stmt, (A.May, A.MayPay, A.Repeat, A.Later, A.ForEach, A.AsOwner, A.AsOccupant, A.ForEachRecord,
                         A.ChooseRecord, A.AtOnce, A.Multiply)):
        return _ends_open(stmt.body)
    if isinstance(stmt, A.Grant):
        # only `or` attaches to a grant; an `else` can reach only an `if` inside its `or` body
        return stmt.unused is not None and _ends_open(stmt.unused)
    return False


@_text.register
def _(n: A.Repeat) -> str:
    times = f" {_text(n.times)}" if n.times is not None else ""
    return f"repeat{times}: {_body(n.body)}"


@_text.register
def _(n: A.Grant) -> str:
    return f"grant {n.permit.text}" + (f" or {_body(n.unused)}" if n.unused is not None else "")


@_text.register
def _(n: A.Later) -> str:
    return f"later: {_body(n.body)}"


@_text.register
def _(n: A.Draw) -> str:
    count = "all" if n.count is None else _text(n.count)
    to = f" to {n.to.text}" if n.to else ""
    return f"draw {count} from {n.stack.text} keep {_text(n.keep)}{to}"


@_text.register
def _(n: A.Use) -> str:
    where = f" where {_text(n.where)}" if n.where is not None else ""
    return f"use {' and '.join(f.text for f in n.fields)} of {n.quant} {n.kind.text}{where}"


@_text.register
def _(n: A.Place) -> str:
    return f"place {n.piece.text} on {_text(n.target)}"


@_text.register
def _(n: A.ForEach) -> str:
    return f"for each {'other ' if n.others else ''}player: {_body(n.body)}"


@_text.register
def _(n: A.AsOwner) -> str:
    return f"as owner: {_body(n.body)}"


@_text.register
def _(n: A.AsOccupant) -> str:
    return f"as occupant: {_body(n.body)}"


@_text.register
def _(n: A.ChooseRecord) -> str:
    where = f" where {_text(n.where)}" if n.where is not None else ""
    count = "one" if n.count == 1 else str(n.count)
    return f"choose {count} in {n.zone.text}{where}: {_body(n.body)}"


@_text.register
def _(n: A.Require) -> str:
    return f"require {_text(n.cond)}"


@_text.register
def _(n: A.AtOnce) -> str:
    return f"all at once: {_body(n.body)}"


@_text.register
def _(n: A.Visit) -> str:
    return f"visit {' or '.join(s.text for s in n.spaces)} at {_text(n.value)}"


@_text.register
def _(n: A.Multiply) -> str:
    return f"gains of {', '.join(r.text for r in n.resources)} times {_text(n.factor)}: {_body(n.body)}"


@_text.register
def _(n: A.Put) -> str:
    return f"put {_amounts(n.amounts)} on {_text(n.target)}"


@_text.register
def _(n: A.Take) -> str:
    return f"take {_amounts(n.amounts)} from {_text(n.target)}"


@_text.register
def _(n: A.Roll) -> str:
    return f"roll {n.die.text}"


@_text.register
def _(n: A.ZoneDraw) -> str:
    count = "all" if n.count is None else _text(n.count)
    return f"draw {count} from {n.source.text} to {n.to.text}"


@_text.register
def _(n: A.ZoneMove) -> str:
    what = f"all from {n.source.text}" if n.record is None else _text(n.record)
    at = f" at {n.at.text}" if n.at is not None else ""
    return f"move {what} to {n.to.text}{at}"


@_text.register
def _(n: A.Shuffle) -> str:
    return f"shuffle {n.zone.text}"


@_text.register
def _(n: A.Refill) -> str:
    return f"refill {n.zone.text}"


@_text.register
def _(n: A.ForEachRecord) -> str:
    where = f" where {_text(n.where)}" if n.where is not None else ""
    return f"for each in {n.zone.text}{where}: {_body(n.body)}"


@_text.register
def _(n: A.JoinOrder) -> str:
    return f"join {n.what.text}"


@_text.register
def _(n: A.Run) -> str:
    return f"run {n.field.text} of {n.record.text if n.record is not None else 'this'}"


# expressions


@_text.register
def _(n: A.Num) -> str:
    return str(n.value)


@_text.register
def _(n: A.Ref) -> str:
    return ".".join(p.text for p in n.parts)


@_text.register
def _(n: A.This) -> str:
    return ".".join(["this", *(p.text for p in n.parts)])


@_text.register
def _(n: A.Call) -> str:
    return f"{n.fn.text}(" + ", ".join(_text(a) for a in n.args) + ")"


@_text.register
def _(n: A.Count) -> str:
    quant = f"{n.quant} " if n.quant else ""
    where = f" where {_text(n.where)}" if n.where is not None else ""
    return f"count({quant}{n.kind.text}{where})"


def _operand(e, parent_prec: int, right: bool) -> str:
    text = _text(e)
    if isinstance(e, A.BinOp):
        prec = _PREC[e.op]
        if prec < parent_prec or (right and prec == parent_prec):
            return f"({text})"
    return text


@_text.register
def _(n: A.BinOp) -> str:
    prec = _PREC[n.op]
    return f"{_operand(n.left, prec, False)} {n.op} {_operand(n.right, prec, True)}"


@_text.register
def _(n: A.Neg) -> str:
    inner = _text(n.operand)
    if isinstance(n.operand, A.BinOp):
        inner = f"({inner})"
    return f"-{inner}"


# conditions


@_text.register
def _(n: A.Compare) -> str:
    return f"{_text(n.left)} {n.op} {_text(n.right)}"


@_text.register
def _(n: A.Truth) -> str:
    return _text(n.expr)


def _cond_operand(c, wrap: tuple) -> str:
    text = _text(c)
    return f"({text})" if isinstance(c, wrap) else text


@_text.register
def _(n: A.And) -> str:
    return f"{_cond_operand(n.left, (A.Or,))} and {_cond_operand(n.right, (A.Or, A.And))}"


@_text.register
def _(n: A.Or) -> str:
    return f"{_cond_operand(n.left, ())} or {_cond_operand(n.right, (A.Or,))}"


@_text.register
def _(n: A.Not) -> str:
    return f"not {_cond_operand(n.operand, (A.And, A.Or))}"
