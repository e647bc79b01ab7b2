"""Typed AST of the effect DSL.

Every node carries ``pos``: (start, end) character offsets into the DSL text,
so later phases report errors at the exact column inside a YAML string.
Nodes are frozen and compare by value, positions excluded, which lets tests
compare an AST built by hand with a parsed one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Pos = tuple[int, int]
NOPOS: Pos = (0, 0)


def _pos() -> Pos:
    return field(default=NOPOS, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Name:
    text: str
    pos: Pos = _pos()


# ------------------------------------------------------------------ expressions


@dataclass(frozen=True, slots=True)
class Num:
    value: int
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Ref:
    """A name, possibly with attributes: `brick`, `event.tile.era`."""

    parts: tuple[Name, ...]
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class This:
    """The record that owns the effect, possibly with attributes: `this.plaza`."""

    parts: tuple[Name, ...]
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Call:
    fn: Name
    args: tuple["Expr", ...]
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Count:
    quant: str | None  # None (the player's own), "any", "each", "all" (everyone's)
    kind: Name
    where: "Cond | None"
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class BinOp:
    op: str  # + - * /
    left: "Expr"
    right: "Expr"
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Neg:
    operand: "Expr"
    pos: Pos = _pos()


Expr = Num | Ref | This | Call | Count | BinOp | Neg

# ------------------------------------------------------------------ conditions


@dataclass(frozen=True, slots=True)
class Compare:
    op: str  # == != < <= > >=
    left: Expr
    right: Expr
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Truth:
    """An expression used as a condition: true when non-zero."""

    expr: Expr
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class And:
    left: "Cond"
    right: "Cond"
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Or:
    left: "Cond"
    right: "Cond"
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Not:
    operand: "Cond"
    pos: Pos = _pos()


Cond = Compare | Truth | And | Or | Not

# ------------------------------------------------------------------ amounts and modifiers


@dataclass(frozen=True, slots=True)
class Amount:
    value: Expr
    name: Name
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Free:
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Discount:
    amounts: tuple[Amount, ...]
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class With:
    permit: Name
    pos: Pos = _pos()


Modifier = Free | Discount | With

# ------------------------------------------------------------------ statements


@dataclass(frozen=True, slots=True)
class Gain:
    amounts: tuple[Amount, ...]
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Pay:
    amounts: tuple[Amount, ...]
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Score:
    points: Expr
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Advance:
    track: Name
    times: Expr | None
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Produce:
    track: Name
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Move:
    grid: Name
    direction: Name
    steps: Expr | None
    modifiers: tuple[Modifier, ...]
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Perform:
    action: Name  # an action id, or "any"
    modifiers: tuple[Modifier, ...]
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Build:
    kind: Name
    modifiers: tuple[Modifier, ...]
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Block:
    body: tuple["Stmt", ...]
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Choose:
    options: tuple[Block, ...]
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class May:
    body: "Stmt"
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class MayPay:
    cost: tuple[Amount, ...]
    body: "Stmt"
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class If:
    cond: Cond
    then: "Stmt"
    otherwise: "Stmt | None"
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Repeat:
    times: Expr | None  # None: any number of times (the body must be optional)
    body: "Stmt"
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Grant:
    permit: Name
    unused: "Stmt | None"  # runs at the end of the turn if the permit was not used
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Later:
    """`later: <body>`: resolvable at any moment of the current turn; what is left runs before the turn ends."""

    body: "Stmt"
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Draw:
    count: Expr | None  # None: all
    stack: Name
    keep: Expr
    to: Name | None
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Use:
    """Run effect fields of records: `use upper and lower of any plaza`."""

    fields: tuple[Name, ...]
    quant: str  # any | each | all
    kind: Name
    where: Cond | None
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Place:
    piece: Name
    target: This
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class ForEach:
    """`for each player: <body>` (or `for each other player:`, without the acting seat): the body runs
    once per seat, as that seat, in turn order from the round's first seat."""

    others: bool
    body: "Stmt"
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class AsOwner:
    """`as owner: <body>`: the body runs for the seat that owns `this` (skipped when nobody does)."""

    body: "Stmt"
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class AsOccupant:
    """`as occupant: <body>`: the body runs for the owner of each piece on the space `this` names (the space
    declared `on:` the zone that holds it), in the order they were put there; skipped when it holds none."""

    body: "Stmt"
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Roll:
    """`roll <die>`: the die shows a new value, drawn from the game's generator."""

    die: Name
    pos: Pos = _pos()


# ---------------------------------------------------------- moving records between zones (docs/core.md §3)


@dataclass(frozen=True, slots=True)
class ZoneDraw:
    """`draw N from Z to Z2` (no `keep`): the top N records of Z go on top of Z2, in order."""

    count: Expr | None  # None: all
    source: Name
    to: Name
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class ZoneMove:
    """`move this to Z [at P]`, or `move all from Z to Z2 [at P]` (P: top, end or a slot)."""

    record: This | None  # the record `this` names; None: every record of ``source``
    source: Name | None  # the zone emptied by `move all`
    to: Name
    at: Name | None
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Shuffle:
    zone: Name
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Refill:
    zone: Name
    pos: Pos = _pos()


# ---------------------------------------------------------- the records of a zone, one after another


@dataclass(frozen=True, slots=True)
class ForEachRecord:
    """`for each in Z [where C]: <body>`: the body runs once per record Z holds when the statement starts
    (that pass C), in zone order, with `this` bound to the record."""

    zone: Name
    where: "Cond | None"
    body: "Stmt"
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class JoinOrder:
    """`join order`: the acting seat takes the next place in the order of the next phase declared
    `order: recorded` (the seats that joined, in the order they joined, then the others)."""

    what: Name  # the word after `join`: `order` (resolve checks it)
    pos: Pos = _pos()


# ---------------------------------------------------------- a record's effect field, run


@dataclass(frozen=True, slots=True)
class Run:
    """`run F of this` / `run F of R`: the effect field F of `this` (or of the record R) runs as a
    program, for the acting player, with `this` bound to that record."""

    field: Name
    record: Name | None  # None: `this`
    pos: Pos = _pos()


# ---------------------------------------------------------- a record picked, counts kept on records


@dataclass(frozen=True, slots=True)
class ChooseRecord:
    """`choose one in Z [where C]: <body>`: the acting player picks one record Z holds that passes C; the
    body runs with `this` bound to it (none passing: the statement cannot be carried out). `choose N in Z`
    picks N different records, one after another, the body running for each (fewer than N passing: the
    statement cannot be carried out)."""

    zone: Name
    where: "Cond | None"
    body: "Stmt"
    pos: Pos = _pos()
    count: int = 1


@dataclass(frozen=True, slots=True)
class Put:
    """`put N M on this`: the record keeps N more of M (a mark the pack declares, or a resource lying on it,
    taken from the stock)."""

    amounts: tuple[Amount, ...]
    target: This
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Take:
    """`take N M from this`: up to N of what the record keeps of M go (a resource to the acting player)."""

    amounts: tuple[Amount, ...]
    target: This
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Require:
    """`require C`: the effect cannot be carried out unless C holds (so an action or answer that reaches it with
    C false is not offered)."""

    cond: "Cond"
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class AtOnce:
    """`all at once: <body>`: what the acting player gains in the body is received when it ends, so the costs in it
    are paid from what was held before (every card of a production at the same time)."""

    body: "Stmt"
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Visit:
    """`visit S [or S2 ...] at E`: the programs of a space (one of those named, or of the records of a zone
    with spaces on it) run for the acting player without a piece, as if one worth E were put there (the
    space's bonus and a boost the player buys added); the player picks the space and the boost."""

    spaces: tuple[Name, ...]
    value: "Expr"
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Multiply:
    """`gains of R [, R2 ...] times E: <body>`: while the body runs, each gain the acting player makes of one of
    the resources named is E times as large (E read when the statement starts; 1 changes nothing)."""

    resources: tuple[Name, ...]
    factor: "Expr"
    body: "Stmt"
    pos: Pos = _pos()


Stmt = (Gain | Pay | Score | Advance | Produce | Move | Perform | Build | Block | Choose | May | MayPay | If | Repeat
        | Grant | Later | Draw | Use | Place | ForEach | AsOwner | AsOccupant | Roll | ZoneDraw | ZoneMove | Shuffle
        | Refill | ForEachRecord | JoinOrder | Run | ChooseRecord | Put | Take | Require | AtOnce | Visit
        | Multiply)


@dataclass(frozen=True, slots=True)
class Trigger:
    event: Name
    arg: Name | None
    conditions: tuple[Cond, ...]  # `if` options, all must hold for the event
    while_: tuple[Cond, ...]  # `while` options: state that must hold when it fires
    once_per: Name | None
    from_next: Name | None
    body: Stmt
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Program:
    items: tuple[Stmt | Trigger, ...]
    pos: Pos = _pos()


Node = Program | Trigger | Stmt | Expr | Cond | Amount | Modifier | Name


def children(node) -> list:
    """Direct child nodes, for generic walks."""
    out = []
    for name in node.__slots__:
        if name == "pos":
            continue
        value = getattr(node, name)
        if isinstance(value, tuple):
            out.extend(v for v in value if hasattr(v, "pos"))
        elif hasattr(value, "pos"):
            out.append(value)
    return out


def walk(node):
    yield node
    for child in children(node):
        yield from walk(child)
