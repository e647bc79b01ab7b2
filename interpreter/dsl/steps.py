"""Compiled statements: one small frozen class per statement kind of the DSL, and the registry of kinds.

``compile.py`` turns each AST statement into one of these; the effect machine (runtime/machine.py and
runtime/executors.py), the static pass (runtime/fallible.py) and the board mechanisms read them by
attribute. Expressions and conditions inside are compiled closures ``f(ctx, rec)``; amounts are
``((resource, fn), ...)``, one entry per resource; a block is a tuple of steps. Everything is
immutable: a program is compiled once per ruleset and shared by every game.

``STATEMENTS`` lists every kind once, by its name (``op``). Each class names the AST node it is
compiled from (``node``), so one list tells compile, the machine, the static pass, the cycle check
(content/bounds.py), the printer and the English renderer which kinds exist; tests/dsl/test_steps.py
checks that each of them handles every kind.

``blocks()`` gives a step's sub-blocks in the order a frame's address counts them (see
``runtime.machine.block_at``): e.g. an ``If`` has its ``then`` block (0) and its ``otherwise``
block (1, empty when there is none).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from interpreter.dsl import ast as A

Fn = Callable[[Any, Any], Any]  # a compiled expression or condition: f(ctx, record)
Amounts = tuple  # ((resource, Fn), ...), each resource once
Steps = tuple  # a block: (Step, ...)


class Step:
    """A compiled statement. ``op``: the kind's name; ``node``: the AST class it is compiled from."""

    __slots__ = ()
    op: ClassVar[str]
    node: ClassVar[type]

    def blocks(self) -> tuple:
        """The sub-blocks, in address order (none for a simple statement)."""
        return ()

    @staticmethod
    def node_blocks(node) -> tuple:
        """The AST statements the sub-blocks are compiled from, in the same order (None: no block)."""
        return ()


class BodyStep(Step):
    """A statement with one sub-block, its ``body`` (``may``, ``may pay``, ``repeat``, ``later``, ``for each``,
    ``as owner``, ``as occupant``, ``for each in``, ``choose one in``, ``all at once``, ``gains of ... times``)."""

    __slots__ = ()

    def blocks(self) -> tuple:
        return (self.body,)

    @staticmethod
    def node_blocks(node) -> tuple:
        return (node.body,)


_step = dataclass(frozen=True, slots=True)


# --------------------------------------------------------------------------- modifiers (move, perform, build)


@_step
class Free:
    """`free`: no price is paid."""

    node: ClassVar[type] = A.Free


@_step
class Discount:
    """`discount AMOUNTS`: the price less these amounts."""

    amounts: Amounts
    node: ClassVar[type] = A.Discount


@_step
class With:
    """`with PERMIT`: the permit holds for this statement."""

    permit: str
    node: ClassVar[type] = A.With


Modifier = Free | Discount | With
MODIFIERS: tuple[type, ...] = (Free, Discount, With)

# --------------------------------------------------------------------------- statements


@_step
class Gain(Step):
    amounts: Amounts
    shared: Amounts = ()  # of the shared resources: the table's counts (runtime/shared_counts.py)
    op: ClassVar[str] = "gain"
    node: ClassVar[type] = A.Gain


@_step
class Pay(Step):
    amounts: Amounts
    shared: Amounts = ()  # of the shared resources: the table's counts (runtime/shared_counts.py)
    op: ClassVar[str] = "pay"
    node: ClassVar[type] = A.Pay


@_step
class Score(Step):
    points: Fn
    op: ClassVar[str] = "score"
    node: ClassVar[type] = A.Score


@_step
class Advance(Step):
    track: str
    times: Fn | None  # None: once
    op: ClassVar[str] = "advance"
    node: ClassVar[type] = A.Advance


@_step
class Produce(Step):
    track: str
    op: ClassVar[str] = "produce"
    node: ClassVar[type] = A.Produce


@_step
class Move(Step):
    grid: str
    direction: str
    steps: Fn | None  # None: one square
    modifiers: tuple[Modifier, ...]
    op: ClassVar[str] = "move"
    node: ClassVar[type] = A.Move


@_step
class Perform(Step):
    action: str | None  # None: any action, the player chooses
    modifiers: tuple[Modifier, ...]
    op: ClassVar[str] = "perform"
    node: ClassVar[type] = A.Perform


@_step
class Build(Step):
    kind: str
    modifiers: tuple[Modifier, ...]
    op: ClassVar[str] = "build"
    node: ClassVar[type] = A.Build


@_step
class Block(Step):
    body: Steps
    op: ClassVar[str] = "block"
    node: ClassVar[type] = A.Block

    def blocks(self) -> tuple:
        return (self.body,)

    @staticmethod
    def node_blocks(node) -> tuple:
        return (node,)


@_step
class Choose(Step):
    options: tuple[Steps, ...]
    op: ClassVar[str] = "choose"
    node: ClassVar[type] = A.Choose

    def blocks(self) -> tuple:
        return self.options

    @staticmethod
    def node_blocks(node) -> tuple:
        return node.options


@_step
class May(BodyStep):
    body: Steps
    op: ClassVar[str] = "may"
    node: ClassVar[type] = A.May


@_step
class MayPay(BodyStep):
    cost: Amounts
    body: Steps
    op: ClassVar[str] = "may_pay"
    node: ClassVar[type] = A.MayPay


@_step
class If(Step):
    cond: Fn
    then: Steps
    otherwise: Steps | None
    op: ClassVar[str] = "if"
    node: ClassVar[type] = A.If

    def blocks(self) -> tuple:
        return (self.then, self.otherwise or ())

    @staticmethod
    def node_blocks(node) -> tuple:
        return (node.then, node.otherwise)


@_step
class Repeat(BodyStep):
    times: Fn | None  # None: any number of times (the body is one optional statement)
    body: Steps
    op: ClassVar[str] = "repeat"
    node: ClassVar[type] = A.Repeat


@_step
class Grant(Step):
    permit: str
    unused: Steps | None  # runs at the end of the turn when the permit was not used
    op: ClassVar[str] = "grant"
    node: ClassVar[type] = A.Grant

    def blocks(self) -> tuple:
        return (self.unused or (),)

    @staticmethod
    def node_blocks(node) -> tuple:
        return (node.unused,)


@_step
class Later(BodyStep):
    body: Steps
    op: ClassVar[str] = "later"
    node: ClassVar[type] = A.Later


@_step
class Draw(Step):
    count: Fn | None  # None: the whole stack
    stack: str
    keep: Fn
    to: str | None  # a track the kept records lie on, else they are owned
    op: ClassVar[str] = "draw"
    node: ClassVar[type] = A.Draw


@_step
class Use(Step):
    fields: tuple[str, ...]
    quant: str  # any | each | all
    kind: str
    where: Fn | None
    op: ClassVar[str] = "use"
    node: ClassVar[type] = A.Use


@_step
class Place(Step):
    piece: str
    target: tuple[str, ...]  # the parts after `this`
    op: ClassVar[str] = "place"
    node: ClassVar[type] = A.Place


@_step
class ForEach(BodyStep):
    others: bool  # True: every seat but the acting one
    body: Steps
    op: ClassVar[str] = "for_each"
    node: ClassVar[type] = A.ForEach


@_step
class AsOwner(BodyStep):
    body: Steps
    op: ClassVar[str] = "as_owner"
    node: ClassVar[type] = A.AsOwner


@_step
class AsOccupant(BodyStep):
    body: Steps
    op: ClassVar[str] = "as_occupant"
    node: ClassVar[type] = A.AsOccupant


@_step
class Roll(Step):
    die: str
    op: ClassVar[str] = "roll"
    node: ClassVar[type] = A.Roll
# --------------------------------------------------------------------------- moving records between zones


@_step
class ZoneDraw(Step):
    count: Fn | None  # None: every record of the source
    source: str  # a zone id; a per-player zone is the acting player's
    to: str
    op: ClassVar[str] = "zone_draw"
    node: ClassVar[type] = A.ZoneDraw


@_step
class ZoneMove(Step):
    source: str | None  # None: the record `this` names, from whichever zone holds it; else every record of it
    to: str
    at: str  # "top", "bottom" (`at end`) or a slot name
    op: ClassVar[str] = "zone_move"
    node: ClassVar[type] = A.ZoneMove


@_step
class Shuffle(Step):
    zone: str
    op: ClassVar[str] = "shuffle"
    node: ClassVar[type] = A.Shuffle


@_step
class Refill(Step):
    zone: str
    op: ClassVar[str] = "refill"
    node: ClassVar[type] = A.Refill


# --------------------------------------------------------------------------- the records of a zone, one after another


@_step
class ForEachRecord(BodyStep):
    zone: str  # a zone id; a per-player zone is the acting player's
    where: Fn | None  # tested on each record (as the `where` of count) when the statement starts
    body: Steps  # run once per record that passed, with the frame's `this` bound to it
    op: ClassVar[str] = "for_each_record"
    node: ClassVar[type] = A.ForEachRecord


# --------------------------------------------------------------------------- the flow's turn order


@_step
class JoinOrder(Step):
    """`join order`: the acting seat joins the order of the next `recorded` phase (runtime/flow.py join_order)."""

    op: ClassVar[str] = "join_order"
    node: ClassVar[type] = A.JoinOrder


# --------------------------------------------------------------------------- a record's effect field, run


@_step
class Run(Step):
    """`run F of this|R`: the field's program runs for the acting player with `this` bound to the record
    (runtime/record_effects.py); a record without the field runs nothing."""

    field: str
    record: str | None  # a record id; None: the frame's `this`
    op: ClassVar[str] = "run"
    node: ClassVar[type] = A.Run


# --------------------------------------------------------------------------- a record picked, counts kept on records


@_step
class ChooseRecord(BodyStep):
    """`choose one in Z [where C]: <body>`: a decision among the records of Z that pass C (runtime/marks.py)."""

    zone: str  # a zone id; a per-player zone is the acting player's
    where: Fn | None  # tested on each record (as the `where` of count) when the statement starts
    body: Steps  # run with the frame's `this` bound to the record picked
    count: int = 1  # how many different records are picked, one after another (the body runs for each)
    op: ClassVar[str] = "choose_record"
    node: ClassVar[type] = A.ChooseRecord


@_step
class Put(Step):
    """`put N M on this`: the record `this` names keeps N more of each M (runtime/marks.py)."""

    amounts: Amounts
    op: ClassVar[str] = "put"
    node: ClassVar[type] = A.Put


@_step
class Take(Step):
    """`take N M from this`: up to N of each M the record keeps go; a resource goes to the acting player."""

    amounts: Amounts
    op: ClassVar[str] = "take"
    node: ClassVar[type] = A.Take


# --------------------------------------------------------------------------- requirements, held and multiplied gains, visits


@_step
class Require(Step):
    """`require C`: refused (the effect cannot be carried out) unless C holds."""

    cond: Fn
    op: ClassVar[str] = "require"
    node: ClassVar[type] = A.Require


@_step
class AtOnce(BodyStep):
    """`all at once: <body>`: the acting player's gains in the body are held, and received when it ends (runtime/held.py)."""

    body: Steps
    op: ClassVar[str] = "at_once"
    node: ClassVar[type] = A.AtOnce


@_step
class Visit(Step):
    """`visit S [or S2 ...] at E`: a space's programs run without a piece, at value E (runtime/visiting.py)."""

    spaces: tuple[str, ...]  # space ids: named spaces, or declared spaces on the records of a zone
    value: Fn
    op: ClassVar[str] = "visit"
    node: ClassVar[type] = A.Visit


@_step
class Multiply(BodyStep):
    """`gains of R [, R2 ...] times E: <body>`: the acting player's gains of those resources in the body are
    multiplied by E, read when it starts (runtime/held.py)."""

    resources: tuple[str, ...]  # resource ids
    factor: Fn
    body: Steps
    op: ClassVar[str] = "multiply"
    node: ClassVar[type] = A.Multiply


# --------------------------------------------------------------------------- the registry

STATEMENTS: dict[str, type[Step]] = {k.op: k for k in (
    Gain, Pay, Score, Advance, Produce, Move, Perform, Build, Block, Choose, May, MayPay, If, Repeat, Grant, Later,
    Draw, Use, Place,
    ForEach, AsOwner, AsOccupant, Roll, ZoneDraw, ZoneMove, Shuffle, Refill,
    ForEachRecord, JoinOrder,
    Run,
    ChooseRecord, Put, Take,
    Require, AtOnce, Visit,
    Multiply,
)}
OF_NODE: dict[type, type[Step]] = {k.node: k for k in STATEMENTS.values()}  # AST class -> step class
OPTIONAL: tuple[type[Step], ...] = (May, MayPay)  # declining finishes them; an open `repeat` repeats one of these


def walk(steps: Steps):
    """Every step of a block, nested ones included (a step before the steps of its blocks)."""
    for step in steps:
        yield step
        for block in step.blocks():
            yield from walk(block)
