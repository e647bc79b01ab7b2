"""Case tables for the effect DSL: text -> AST, text -> syntax error, text -> resolve error.

The AST tables exercise every rule alternative and alias of effect.lark; a meta
test parses every case with an instrumented parser and fails if some grammar
rule was never reduced. Positions are checked exactly where the tables say so.
"""

from __future__ import annotations

import pytest
from lark import Lark

from interpreter.dsl import ast as A
from interpreter.dsl import parse as P
from interpreter.dsl.parse import DslSyntaxError, parse
from interpreter.dsl.resolve import Scope, resolve

# --------------------------------------------------------------------------- AST builders


def n(text):
    return A.Name(text)


def num(v):
    return A.Num(v)


def ref(*parts):
    return A.Ref(tuple(n(p) for p in parts))


def this(*parts):
    return A.This(tuple(n(p) for p in parts))


def _e(x):
    return num(x) if isinstance(x, int) else x


def amt(value, name):
    return A.Amount(_e(value), n(name))


def prog(*items):
    return A.Program(tuple(items))


def gain(*amounts):
    return A.Gain(tuple(amounts))


def pay(*amounts):
    return A.Pay(tuple(amounts))


def score(x):
    return A.Score(_e(x))


def blk(*stmts):
    return A.Block(tuple(stmts))


def choose(*options):
    return A.Choose(tuple(o if isinstance(o, A.Block) else blk(o) for o in options))


def op(o, left, right):
    return A.BinOp(o, _e(left), _e(right))


def cmp(o, left, right):
    return A.Compare(o, _e(left), _e(right))


def truth(x):
    return A.Truth(_e(x))


def call(fn, *args):
    return A.Call(n(fn), tuple(_e(a) for a in args))


def trig(event, body, arg=None, ifs=(), whiles=(), once=None, from_next=None):
    return A.Trigger(n(event), n(arg) if arg else None, tuple(ifs), tuple(whiles),
                     n(once) if once else None, n(from_next) if from_next else None, body)


a_ = truth(ref("a"))
G1 = gain(amt(1, "gold"))
S1 = score(1)
S2 = score(2)

# --------------------------------------------------------------------------- programs

PROGRAMS = [
    # ---- statements
    ("gain 2 gold", prog(gain(amt(2, "gold")))),
    ("pay 3 stone", prog(pay(amt(3, "stone")))),
    ("score 4", prog(score(4))),
    ("advance technology", prog(A.Advance(n("technology"), None))),
    ("advance university 4", prog(A.Advance(n("university"), num(4)))),
    ("advance university this.era", prog(A.Advance(n("university"), this("era")))),
    ("produce gold_mine", prog(A.Produce(n("gold_mine")))),
    ("move hunger_wall sideways", prog(A.Move(n("hunger_wall"), n("sideways"), None, ()))),
    ("move cathedral up 2", prog(A.Move(n("cathedral"), n("up"), num(2), ()))),
    ("move cathedral up free", prog(A.Move(n("cathedral"), n("up"), None, (A.Free(),)))),
    ("move cathedral up 1 + 1 discount 2 silver_window free",
     prog(A.Move(n("cathedral"), n("up"), op("+", 1, 1), (A.Discount((amt(2, "silver_window"),)), A.Free())))),
    ("perform upgrade", prog(A.Perform(n("upgrade"), ()))),
    ("perform building discount 2 gold", prog(A.Perform(n("building"), (A.Discount((amt(2, "gold"),)),)))),
    ("perform building discount 2 gold, 1 stone free with special_tile",
     prog(A.Perform(n("building"), (A.Discount((amt(2, "gold"), amt(1, "stone"))), A.Free(), A.With(n("special_tile")))))),
    ("perform any", prog(A.Perform(n("any"), ()))),
    ("perform any free", prog(A.Perform(n("any"), (A.Free(),)))),
    ("perform any with special_tile discount 1 gold",
     prog(A.Perform(n("any"), (A.With(n("special_tile")), A.Discount((amt(1, "gold"),)))))),
    ("build wall", prog(A.Build(n("wall"), ()))),
    ("build building free discount 1 gold", prog(A.Build(n("building"), (A.Free(), A.Discount((amt(1, "gold"),)))))),
    ("choose { gain 1 gold | score 1 }", prog(choose(G1, S1))),
    ("choose { gain 1 gold | score 1 | score 2 }", prog(choose(G1, S1, S2))),
    ("choose { gain 1 gold; advance gold_mine | produce gold_mine }",
     prog(choose(blk(G1, A.Advance(n("gold_mine"), None)), A.Produce(n("gold_mine"))))),
    ("may move hunger_wall sideways", prog(A.May(A.Move(n("hunger_wall"), n("sideways"), None, ())))),
    ("may pay 1 gold", prog(A.May(pay(amt(1, "gold"))))),
    ("may pay 1 gold: score 4", prog(A.MayPay((amt(1, "gold"),), score(4)))),
    ("may pay 1 gold, 1 stone: { score 3; gain 1 egg }",
     prog(A.MayPay((amt(1, "gold"), amt(1, "stone")), blk(score(3), gain(amt(1, "egg")))))),
    ("if gold > 1: score 1", prog(A.If(cmp(">", ref("gold"), 1), S1, None))),
    ("if gold: score 1 else: score 2", prog(A.If(truth(ref("gold")), S1, S2))),
    # dangling else: it belongs to the innermost `if`
    ("if a: if b: score 1 else: score 2",
     prog(A.If(truth(ref("a")), A.If(truth(ref("b")), S1, S2), None))),
    ("if a: { if b: score 1 } else: score 2",
     prog(A.If(truth(ref("a")), blk(A.If(truth(ref("b")), S1, None)), S2))),
    ("repeat 3: gain 1 gold", prog(A.Repeat(num(3), G1))),
    ("repeat: may pay 1 gold: score 2", prog(A.Repeat(None, A.MayPay((amt(1, "gold"),), S2)))),
    ("grant special_tile", prog(A.Grant(n("special_tile"), None))),
    ("grant special_tile or score 1", prog(A.Grant(n("special_tile"), S1))),
    ("later: move hunger_wall sideways", prog(A.Later(A.Move(n("hunger_wall"), n("sideways"), None, ())))),
    ("later: may pay 1 gold: score 4", prog(A.Later(A.MayPay((amt(1, "gold"),), score(4))))),
    ("later: { advance technology; score 1 }", prog(A.Later(blk(A.Advance(n("technology"), None), S1)))),
    ("gain 1 gold; later: score 2", prog(G1, A.Later(S2))),
    ("on x: later: score 1", prog(trig("x", A.Later(S1)))),
    # an `else` after `later:` belongs to the `if` inside it
    ("later: if a: score 1 else: score 2", prog(A.Later(A.If(a_, S1, S2)))),
    ("draw 3 from technology_i keep 1", prog(A.Draw(num(3), n("technology_i"), num(1), None))),
    ("draw all from river keep 1 to gold_mine", prog(A.Draw(None, n("river"), num(1), n("gold_mine")))),
    ("draw 1 + 2 from bridge_iv keep 2 - 1", prog(A.Draw(op("+", 1, 2), n("bridge_iv"), op("-", 2, 1), None))),
    ("use upper of any plaza", prog(A.Use((n("upper"),), "any", n("plaza"), None))),
    ("use upper and lower of any plaza", prog(A.Use((n("upper"), n("lower")), "any", n("plaza"), None))),
    ("use a and b and c of any plaza", prog(A.Use((n("a"), n("b"), n("c")), "any", n("plaza"), None))),
    ("use upper and lower of all plaza where claimed",
     prog(A.Use((n("upper"), n("lower")), "all", n("plaza"), truth(ref("claimed"))))),
    ("use scoring of each seal", prog(A.Use((n("scoring"),), "each", n("seal"), None))),
    ("use lower of all plaza where claimed and not resolved",
     prog(A.Use((n("lower"),), "all", n("plaza"), A.And(truth(ref("claimed")), A.Not(truth(ref("resolved"))))))),
    ("place cube on this", prog(A.Place(n("cube"), this()))),
    ("place cube on this.plaza", prog(A.Place(n("cube"), this("plaza")))),
    ("{ gain 1 gold; score 1 }", prog(blk(G1, S1))),
    ("{ score 1 }", prog(blk(S1))),
    ("{ gain 1 gold; score 1; score 2 }", prog(blk(G1, S1, S2))),
    # ---- amounts: `,` and `and`, parenthesised values
    ("gain 1 gold, 2 stone", prog(gain(amt(1, "gold"), amt(2, "stone")))),
    ("gain 1 gold and 2 stone", prog(gain(amt(1, "gold"), amt(2, "stone")))),
    ("gain 1 gold, 2 stone and 1 egg", prog(gain(amt(1, "gold"), amt(2, "stone"), amt(1, "egg")))),
    ("gain 1 gold and 2 stone, 1 egg", prog(gain(amt(1, "gold"), amt(2, "stone"), amt(1, "egg")))),
    ("gain 1 gold, 2 stone, 1 egg", prog(gain(amt(1, "gold"), amt(2, "stone"), amt(1, "egg")))),
    ("gain (egg) gold", prog(gain(amt(ref("egg"), "gold")))),
    ("gain (2 * count(wall)) stone", prog(gain(amt(op("*", 2, A.Count(None, n("wall"), None)), "stone")))),
    ("pay (1) gold", prog(pay(amt(1, "gold")))),
    # ---- triggers, with each option
    ("on action_tile_scored: score 1", prog(trig("action_tile_scored", S1))),
    ("on tile_placed(building): score 1", prog(trig("tile_placed", S1, arg="building"))),
    ("on marker_moved if event.direction == up: score 2",
     prog(trig("marker_moved", S2, ifs=[cmp("==", ref("event", "direction"), ref("up"))]))),
    ("on action_performed(wall) while position(kings_road) == 2: score 2",
     prog(trig("action_performed", S2, arg="wall", whiles=[cmp("==", call("position", ref("kings_road")), 2)]))),
    ("on corner_token_gained(red) once per turn: score 1", prog(trig("corner_token_gained", S1, arg="red", once="turn"))),
    ("on resource_gained(egg) from next turn: score 1", prog(trig("resource_gained", S1, arg="egg", from_next="turn"))),
    ("on x(y) if a if b while c once per round from next turn: { score 1; score 2 }",
     prog(trig("x", blk(S1, S2), arg="y", ifs=[truth(ref("a")), truth(ref("b"))], whiles=[truth(ref("c"))],
               once="round", from_next="turn"))),
    # options may come in any order; `if` and `while` collect in order
    ("on x from next turn while a once per game if b while c: score 1",
     prog(trig("x", S1, ifs=[truth(ref("b"))], whiles=[truth(ref("a")), truth(ref("c"))], once="game", from_next="turn"))),
    ("on x: if a: score 1 else: score 2", prog(trig("x", A.If(truth(ref("a")), S1, S2)))),
    # a statement after a trigger parses (resolve reports E110)
    ("on x: score 1; score 2", prog(trig("x", S1), S2)),
    ("score 1; on x: score 2", prog(S1, trig("x", S2))),
    # ---- separators: `;`, line breaks, blank lines, CRLF, repeated and trailing separators
    ("gain 1 gold; score 1", prog(G1, S1)),
    ("gain 1 gold; score 1; score 2", prog(G1, S1, S2)),
    ("gain 1 gold\nscore 1", prog(G1, S1)),
    ("gain 1 gold\r\nscore 1", prog(G1, S1)),
    ("gain 1 gold\n\n\nscore 1\n", prog(G1, S1)),
    ("\n  gain 1 gold ;; ;\n; score 1 ;", prog(G1, S1)),
    ("gain 1 gold;\nscore 1;\n", prog(G1, S1)),
    # multi-line block text as YAML `|` gives it
    ("choose { advance gold_mine | advance quarry }\nchoose { produce gold_mine | produce quarry }\n",
     prog(choose(A.Advance(n("gold_mine"), None), A.Advance(n("quarry"), None)),
          choose(A.Produce(n("gold_mine")), A.Produce(n("quarry"))))),
    ("score row_value(hunger_wall) + column_value(hunger_wall) * blue_token\n"
     "score row_value(cathedral) + column_value(cathedral) * red_token\n",
     prog(score(op("+", call("row_value", ref("hunger_wall")), op("*", call("column_value", ref("hunger_wall")), ref("blue_token")))),
          score(op("+", call("row_value", ref("cathedral")), op("*", call("column_value", ref("cathedral")), ref("red_token")))))),
    # line breaks inside braces separate statements of a block or an option, and vanish around | { }
    ("{\n  gain 1 gold\n  score 1\n}", prog(blk(G1, S1))),
    ("choose {\n  gain 1 gold\n  score 2\n|\n  score 1\n}", prog(choose(blk(G1, S2), S1))),
    ("on x:\n  {\n    gain 1 gold\n    score 1\n  }", prog(trig("x", blk(G1, S1)))),
    ("if a: score 1\nelse: score 2", prog(A.If(truth(ref("a")), S1, S2))),
    ("on x(y)\n  while a\n  once per turn\n  from next turn:\n  score 1",
     prog(trig("x", S1, arg="y", whiles=[a_], once="turn", from_next="turn"))),
    ("grant special_tile\nor score 1", prog(A.Grant(n("special_tile"), S1))),
    ("later:\n  score 1\nscore 2", prog(A.Later(S1), S2)),
    # line breaks inside parentheses are ignored; so are breaks where a statement cannot end
    ("score (1 +\n 2)", prog(score(op("+", 1, 2)))),
    ("score min(gold,\n  stone)\nscore 1", prog(score(call("min", ref("gold"), ref("stone"))), S1)),
    ("score count(upgrade\n where era == 1)", prog(score(A.Count(None, n("upgrade"), cmp("==", ref("era"), 1))))),
    ("score 1 +\n 2", prog(score(op("+", 1, 2)))),
    ("score 2\n * 3", prog(score(op("*", 2, 3)))),
    ("gain 1 gold,\n 1 stone", prog(gain(amt(1, "gold"), amt(1, "stone")))),
    ("may pay 1 gold:\n score 4", prog(A.MayPay((amt(1, "gold"),), score(4)))),
    ("perform building\n discount 2 gold\n free", prog(A.Perform(n("building"), (A.Discount((amt(2, "gold"),)), A.Free())))),
    ("draw all\n from river\n keep 1\n to quarry", prog(A.Draw(None, n("river"), num(1), n("quarry")))),
    ("use upper of\n any plaza\n where colour == red",
     prog(A.Use((n("upper"),), "any", n("plaza"), cmp("==", ref("colour"), ref("red"))))),
    # statements ending in `any`, `this`, `free`, `)` or `}` still end at a separator
    ("perform any\nscore 1", prog(A.Perform(n("any"), ()), S1)),
    ("perform any; score 1", prog(A.Perform(n("any"), ()), S1)),
    ("place cube on this\nscore 1", prog(A.Place(n("cube"), this()), S1)),
    ("perform wall free\nscore 1", prog(A.Perform(n("wall"), (A.Free(),)), S1)),
    ("score min(1, 2)\nscore 1", prog(score(call("min", 1, 2)), S1)),
    ("{ score 1 }\nscore 2", prog(blk(S1), S2)),
    # ---- the function `free(...)` shares its name with the modifier keyword
    ("score free(cube)", prog(score(call("free", ref("cube"))))),
    ("move cathedral up free(cube) free", prog(A.Move(n("cathedral"), n("up"), call("free", ref("cube")), (A.Free(),)))),
    # ---- other players, a record's owner, chance
    ("for each player: gain 1 gold", prog(A.ForEach(False, G1))),
    ("for each other player: { gain 1 gold; score 1 }", prog(A.ForEach(True, blk(G1, S1)))),
    ("for each player:\n  if rank(gold) == 1: score 5",
     prog(A.ForEach(False, A.If(cmp("==", call("rank", ref("gold")), 1), score(5), None)))),
    ("for each player: if a: score 1 else: score 2", prog(A.ForEach(False, A.If(a_, S1, S2)))),
    ("for each player: for each other player: score 1", prog(A.ForEach(False, A.ForEach(True, S1)))),
    ("as owner: gain 1 gold", prog(A.AsOwner(G1))),
    ("as owner: { gain 1 gold; score 1 }\nscore 2", prog(A.AsOwner(blk(G1, S1)), S2)),
    ("roll d6", prog(A.Roll(n("d6")))),
    ("roll d6\nscore die(d6)", prog(A.Roll(n("d6")), score(call("die", ref("d6"))))),
    ("on x: roll d6; score 1", prog(trig("x", A.Roll(n("d6"))), S1)),
    # ---- moving records between zones: `draw ... to` without `keep`, `move this|all ... to`, shuffle, refill
    ("draw 2 from pile to hand", prog(A.ZoneDraw(num(2), n("pile"), n("hand")))),
    ("draw all\n from pile\n to hand", prog(A.ZoneDraw(None, n("pile"), n("hand")))),
    ("draw count(hand) from pile to hand", prog(A.ZoneDraw(A.Count(None, n("hand"), None), n("pile"), n("hand")))),
    ("move this to discard", prog(A.ZoneMove(this(), None, n("discard"), None))),
    ("move this to row\n at second\nscore 1", prog(A.ZoneMove(this(), None, n("row"), n("second")), S1)),
    ("move all from hand to discard", prog(A.ZoneMove(None, n("hand"), n("discard"), None))),
    ("move all from hand to pile at end", prog(A.ZoneMove(None, n("hand"), n("pile"), n("end")))),
    ("shuffle pile\nrefill row", prog(A.Shuffle(n("pile")), A.Refill(n("row")))),
    ("move this to discard; move hunger_wall sideways", prog(A.ZoneMove(this(), None, n("discard"), None),
                                                             A.Move(n("hunger_wall"), n("sideways"), None, ()))),
    # ---- the records of a zone, one after another: `for each in Z [where C]: ...`, and `position(this)`
    ("for each in road: gain 1 gold", prog(A.ForEachRecord(n("road"), None, G1))),
    ("for each in road where position <= position(provost): { gain 1 gold; as owner: score 1 }",
     prog(A.ForEachRecord(n("road"), cmp("<=", ref("position"), call("position", ref("provost"))),
                          blk(G1, A.AsOwner(S1))))),
    ("for each in hand where era == 1 and not owned:\n  move this to discard\nscore 1",
     prog(A.ForEachRecord(n("hand"), A.And(cmp("==", ref("era"), 1), A.Not(truth(ref("owned")))),
                          A.ZoneMove(this(), None, n("discard"), None)), S1)),
    ("for each in row where a: if a: score 1 else: score 2", prog(A.ForEachRecord(n("row"), a_, A.If(a_, S1, S2)))),
    ("for each player: for each in hand: score this.era",
     prog(A.ForEach(False, A.ForEachRecord(n("hand"), None, score(this("era")))))),
    # ---- the flow's turn order
    ("join order", prog(A.JoinOrder(n("order")))),
    ("gain 1 gold; join order\nscore 1", prog(G1, A.JoinOrder(n("order")), S1)),
    ("if a: join order else: score 1", prog(A.If(a_, A.JoinOrder(n("order")), S1))),
    # ---- a record's effect field, run: `run F of this|R`
    ("run primary of this", prog(A.Run(n("primary"), None))),
    ("as owner: run secondary of this; run effect of castle",
     prog(A.AsOwner(A.Run(n("secondary"), None)), A.Run(n("effect"), n("castle")))),
    # ---- the owner of the piece on a record's space, a record picked, counts kept on records
    ("as occupant: run primary of this", prog(A.AsOccupant(A.Run(n("primary"), None)))),
    ("if this.occupant != this.owner: as owner: score 1",
     prog(A.If(cmp("!=", this("occupant"), this("owner")), A.AsOwner(S1), None))),
    ("choose one in road: score 1", prog(A.ChooseRecord(n("road"), None, S1))),
    ("choose one in road where owner == seat and a:\n  put 1 residential on this\nscore 1",
     prog(A.ChooseRecord(n("road"), A.And(cmp("==", ref("owner"), ref("seat")), a_),
                         A.Put((amt(1, "residential"),), this())), S1)),
    ("put 2 gold, 1 stone on this; take 1 gold from this",
     prog(A.Put((amt(2, "gold"), amt(1, "stone")), this()), A.Take((amt(1, "gold"),), this()))),
    # ---- several different records picked, a requirement, held gains, a space's action without a piece
    ("choose 2 in road where a: score 1", prog(A.ChooseRecord(n("road"), a_, S1, count=2))),
    ("choose 3 in road: score 1", prog(A.ChooseRecord(n("road"), None, S1, count=3))),
    ("require a and b", prog(A.Require(A.And(a_, truth(ref("b")))))),
    ("all at once: { score 1; score 1 }", prog(A.AtOnce(A.Block((S1, S1))))),
    ("visit field at 4", prog(A.Visit((n("field"),), num(4)))),
    ("visit field or yard or barn at value + 1",
     prog(A.Visit((n("field"), n("yard"), n("barn")), A.BinOp("+", ref("value"), num(1))))),
    # ---- gains multiplied while a body runs
    ("gains of gold times 2: score 1", prog(A.Multiply((n("gold"),), num(2), S1))),
    ("gains of gold, stone, egg\n  times (1 + egg): { gain 1 gold; score 1 }\nscore 2",
     prog(A.Multiply((n("gold"), n("stone"), n("egg")), op("+", 1, ref("egg")), A.Block((G1, S1))), S2)),
    ("if a: gains of gold times egg: if b: score 1 else: score 2",
     prog(A.If(a_, A.Multiply((n("gold"),), ref("egg"), A.If(truth(ref("b")), S1, S2)), None))),
]


@pytest.mark.parametrize("text, expected", PROGRAMS, ids=[repr(t)[:60] for t, _ in PROGRAMS])
def test_program_ast(text, expected):
    assert parse(text) == expected


# --------------------------------------------------------------------------- expressions

EXPRS = [
    ("7", num(7)),
    ("gold", ref("gold")),
    ("event.tile.era", ref("event", "tile", "era")),
    ("this", this()),
    ("this.plaza", this("plaza")),
    ("1 + 2", op("+", 1, 2)),
    ("5 - 2", op("-", 5, 2)),
    ("2 * gold", op("*", 2, ref("gold"))),
    ("egg / 2", op("/", ref("egg"), 2)),
    ("-gold", A.Neg(ref("gold"))),
    ("- -1", A.Neg(A.Neg(num(1)))),
    ("-(1 + 2)", A.Neg(op("+", 1, 2))),
    ("1 - -2", op("-", 1, A.Neg(num(2)))),
    # precedence and associativity
    ("1 + 2 * 3", op("+", 1, op("*", 2, 3))),
    ("1 * 2 + 3", op("+", op("*", 1, 2), 3)),
    ("(1 + 2) * 3", op("*", op("+", 1, 2), 3)),
    ("10 - 4 - 3", op("-", op("-", 10, 4), 3)),
    ("10 - (4 - 3)", op("-", 10, op("-", 4, 3))),
    ("12 / 3 / 2", op("/", op("/", 12, 3), 2)),
    ("8 / 2 * 3", op("*", op("/", 8, 2), 3)),
    ("-2 * 3", op("*", A.Neg(num(2)), 3)),
    ("2 * -3 + 1", op("+", op("*", 2, A.Neg(num(3))), 1)),
    ("((4))", num(4)),
    # calls: no argument, one, two, nested
    ("f()", call("f")),
    ("f(1, 2, 3)", call("f", 1, 2, 3)),
    ("free()", call("free")),
    ("free(cube, 2)", call("free", ref("cube"), 2)),
    ("position(university)", call("position", ref("university"))),
    ("min(gold, 3)", call("min", ref("gold"), 3)),
    ("max(min(1, 2), 3 + 4)", call("max", call("min", 1, 2), op("+", 3, 4))),
    ("table(walls, count(wall))", call("table", ref("walls"), A.Count(None, n("wall"), None))),
    ("free(cube)", call("free", ref("cube"))),
    # count with every quantifier and a where clause
    ("count(wall)", A.Count(None, n("wall"), None)),
    ("count(any plaza)", A.Count("any", n("plaza"), None)),
    ("count(each seal)", A.Count("each", n("seal"), None)),
    ("count(all building)", A.Count("all", n("building"), None)),
    ("count(upgrade where era == 1)", A.Count(None, n("upgrade"), cmp("==", ref("era"), 1))),
    ("count(all building where plaza == this.plaza)",
     A.Count("all", n("building"), cmp("==", ref("plaza"), this("plaza")))),
    ("count(wall where hunger_wall)", A.Count(None, n("wall"), truth(ref("hunger_wall")))),
    ("3 * count(upgrade where era == 1 or special)",
     op("*", 3, A.Count(None, n("upgrade"), A.Or(cmp("==", ref("era"), 1), truth(ref("special")))))),
    # other players, chance and the flow: calls and plain names
    ("die(d6)", call("die", ref("d6"))),
    ("rank(gold + count(wall))", call("rank", op("+", ref("gold"), A.Count(None, n("wall"), None)))),
    ("most(gold)", call("most", ref("gold"))),
    ("seat + players * round - passed", op("-", op("+", ref("seat"), op("*", ref("players"), ref("round"))), ref("passed"))),
]


@pytest.mark.parametrize("text, expected", EXPRS, ids=[t for t, _ in EXPRS])
def test_expr_ast(text, expected):
    assert parse(text, "expr") == expected
    # an expression in a statement gives the same node
    assert parse(f"score {text}") == prog(score(expected))


# --------------------------------------------------------------------------- conditions

a, b, c = truth(ref("a")), truth(ref("b")), truth(ref("c"))

CONDITIONS = [
    ("a", a),
    ("gold == 1", cmp("==", ref("gold"), 1)),
    ("gold != 1", cmp("!=", ref("gold"), 1)),
    ("gold < 1", cmp("<", ref("gold"), 1)),
    ("gold <= 1", cmp("<=", ref("gold"), 1)),
    ("gold > 1", cmp(">", ref("gold"), 1)),
    ("gold >= 1", cmp(">=", ref("gold"), 1)),
    ("gold + 1 >= stone * 2", cmp(">=", op("+", ref("gold"), 1), op("*", ref("stone"), 2))),
    ("event.resource == gold", cmp("==", ref("event", "resource"), ref("gold"))),
    ("a and b", A.And(a, b)),
    ("a or b", A.Or(a, b)),
    ("not a", A.Not(a)),
    ("not not a", A.Not(A.Not(a))),
    # not > and > or; and/or are left-associative
    ("a or b and c", A.Or(a, A.And(b, c))),
    ("a and b or c", A.Or(A.And(a, b), c)),
    ("not a and b", A.And(A.Not(a), b)),
    ("not a or b", A.Or(A.Not(a), b)),
    ("a and b and c", A.And(A.And(a, b), c)),
    ("a or b or c", A.Or(A.Or(a, b), c)),
    ("(a or b) and c", A.And(A.Or(a, b), c)),
    ("a and (b or c)", A.And(a, A.Or(b, c))),
    ("not (a and b)", A.Not(A.And(a, b))),
    ("not gold > 1", A.Not(cmp(">", ref("gold"), 1))),
    # a parenthesised expression and a parenthesised condition
    ("(a)", a),
    ("(1 + 2) > 3", cmp(">", op("+", 1, 2), 3)),
    ("(gold > 1)", cmp(">", ref("gold"), 1)),
    ("((a or b))", A.Or(a, b)),
    ("(a\n or b)", A.Or(a, b)),
    ("gold >= 9 or stone >= 9", A.Or(cmp(">=", ref("gold"), 9), cmp(">=", ref("stone"), 9))),
]


@pytest.mark.parametrize("text, expected", CONDITIONS, ids=[repr(t) for t, _ in CONDITIONS])
def test_condition_ast(text, expected):
    assert parse(text, "condition") == expected
    assert parse(f"if {text}: score 1") == prog(A.If(expected, S1, None))


AMOUNTS = [
    ("2 gold", (amt(2, "gold"),)),
    ("1 gold, 1 stone", (amt(1, "gold"), amt(1, "stone"))),
    ("1 gold_window and 1 silver_window", (amt(1, "gold_window"), amt(1, "silver_window"))),
    ("(egg + 1) gold, 2 stone and (3) egg", (amt(op("+", ref("egg"), 1), "gold"), amt(2, "stone"), amt(3, "egg"))),
]


@pytest.mark.parametrize("text, expected", AMOUNTS, ids=[t for t, _ in AMOUNTS])
def test_amounts_ast(text, expected):
    assert parse(text, "amounts") == expected


def test_unknown_start_rule_is_rejected():
    with pytest.raises(ValueError):
        parse("score 1", "statement")


# --------------------------------------------------------------------------- positions


def _first(tree, cls, k=0):
    return [x for x in A.walk(tree) if isinstance(x, cls)][k]


POSITIONS = [
    # text, node class, index among nodes of that class (walk order), expected (start, end)
    ("gain 2 gold", A.Gain, 0, (0, 11)),
    ("gain 2 gold", A.Amount, 0, (5, 11)),
    ("gain 2 gold", A.Num, 0, (5, 6)),
    ("gain 2 gold", A.Name, 0, (7, 11)),
    ("gain 1 gold; score 1 + 2", A.Score, 0, (13, 24)),
    ("gain 1 gold; score 1 + 2", A.BinOp, 0, (19, 24)),
    ("gain 1 gold\n  score 3", A.Score, 0, (14, 21)),
    ("gain 1 gold\n  score 3", A.Program, 0, (0, 21)),
    ("perform any", A.Name, 0, (8, 11)),
    ("perform\t  any free", A.Name, 0, (10, 13)),
    ("perform upgrade free", A.Free, 0, (16, 20)),
    ("perform wall discount 2 stone", A.Discount, 0, (13, 29)),
    ("on tile_placed(building) if event.tile.era > 1: score 1", A.Trigger, 0, (0, 55)),
    ("on tile_placed(building) if event.tile.era > 1: score 1", A.Name, 1, (15, 23)),
    ("on tile_placed(building) if event.tile.era > 1: score 1", A.Compare, 0, (28, 46)),
    ("on tile_placed(building) if event.tile.era > 1: score 1", A.Ref, 0, (28, 42)),
    ("score count(all building where plaza == this.plaza)", A.Count, 0, (6, 51)),
    ("score count(all building where plaza == this.plaza)", A.This, 0, (40, 50)),
    ("choose { gain 1 gold | score 1 }", A.Block, 1, (23, 30)),
    ("if gold: score 1", A.Truth, 0, (3, 7)),
    ("place cube on this.plaza", A.This, 0, (14, 24)),
    ("gain (1 + 2) gold", A.Amount, 0, (5, 17)),
]


@pytest.mark.parametrize("text, cls, k, pos", POSITIONS, ids=[f"{t!r}-{c.__name__}{k}" for t, c, k, _ in POSITIONS])
def test_positions(text, cls, k, pos):
    node = _first(parse(text), cls, k)
    assert node.pos == pos, text[pos[0]:pos[1]]


def test_positions_do_not_affect_equality():
    assert parse("gain 1 gold") == parse("   gain   1   gold")
    assert parse("gain 1 gold").items[0].pos != parse("  gain 1 gold").items[0].pos


# --------------------------------------------------------------------------- grammar coverage


def _instrumented_parser():
    lk = Lark(P.grammar_text(), parser="lalr", lexer="basic", start=list(P.START_RULES),
              postlex=P._Separators(), maybe_placeholders=False)
    used = set()
    callbacks = lk.parser.parser.parser.callbacks
    for rule, fn in list(callbacks.items()):
        def wrapped(children, rule=rule, fn=fn):
            used.add(rule)
            return fn(children)
        callbacks[rule] = wrapped
    return lk, used


def _rule_text(rule) -> str:
    return f"{rule.origin.name}: {' '.join(s.name for s in rule.expansion)}" + (f" -> {rule.alias}" if rule.alias else "")


def test_every_grammar_rule_and_alias_is_covered():
    lk, used = _instrumented_parser()
    for text, _ in PROGRAMS:
        lk.parse(text, start="program")
    for text, _ in EXPRS:
        lk.parse(text, start="expr")
    for text, _ in CONDITIONS:
        lk.parse(text, start="condition")
    for text, _ in AMOUNTS:
        lk.parse(text, start="amounts")
    # every alternative of every rule (optional parts expanded, helper rules for `*`/`+` included)
    missing = sorted(_rule_text(r) for r in lk.rules if r not in used)
    assert not missing, "grammar alternatives no case exercises:\n" + "\n".join(missing)
    aliases = {r.alias for r in lk.rules if r.alias}
    assert {"trig_if", "trig_while", "trig_once", "trig_from", "perform_any", "count_all", "q_any", "q_each", "q_all",
            "mod_free", "mod_discount", "mod_with", "number", "add", "sub", "mul", "div", "neg", "or_", "and_", "not_",
            "compare"} <= aliases


# --------------------------------------------------------------------------- syntax errors

SYNTAX_ERRORS = [
    # E101: an unexpected token, with what was expected
    ("score 1 score 2", "E101", 8),
    ("gain 1 gold )", "E101", 12),
    ("on x: score 1 else: score 2", "E101", 14),
    ("score 1 == 2", "E101", 8),
    ("if a == : score 1", "E108", 8),
    ("gain 1 gold |", "E101", 12),
    ("score 1)", "E101", 7),
    ("advance x y z", "E101", 12),
    ("on : score 1", "E101", 3),
    ("use x of y", "E101", 9),
    ("place cube on that", "E101", 14),
    ("on x once turn: score 1", "E101", 10),
    ("choose { score 1 | score 2 } }", "E101", 29),
    ("gain 1 gold\n\n  score 1 score 2", "E101", 23),
    # moving records between zones: `keep` or `to` after a draw's source; `to` after `move this`
    ("draw 2 from pile", "E102", 16),
    ("move this discard", "E101", 10),
    ("move all hand to discard", "E101", 9),
    ("move this to row at", "E102", 19),
    ("refill 2", "E101", 7),
    # E102: the effect is empty or ends too early
    ("", "E102", 0),
    ("  \n ", "E102", 0),
    ("perform", "E102", 7),
    ("perform   ", "E102", 7),
    ("draw 3 from x", "E102", 13),
    ("score a.", "E102", 8),
    ("score this.", "E102", 11),
    ("on x(y", "E102", 6),
    # E103: characters the DSL does not use, upper case names
    ("gain 1 Gold", "E103", 7),
    ("gain 1 gold # note", "E103", 12),
    ("score 1 % 2", "E103", 8),
    ("gain 1 gold\nScore 1", "E103", 12),
    ("gain 1 stone; gain 1 gold!", "E103", 25),
    # E104: a number without what it counts
    ("gain 2", "E104", 6),
    ("gain 2 }", "E104", 7),
    ("gain 1 gold, 2", "E104", 14),
    ("gain 1 gold and 2;", "E104", 17),
    ("gain 2;\n", "E104", 6),
    ("may pay 2: score 1", "E104", 9),
    ("perform x discount 2", "E104", 20),
    ("choose { gain 2 | score 1 }", "E104", 16),
    # E105: choose with one option
    ("choose { gain 1 gold }", "E105", 0),  # the caret sits on `choose`
    ("choose { score 1 }", "E105", 0),
    ("gain 1 gold; choose { gain 1 gold; score 1 }", "E105", 13),
    ("choose {\n  advance quarry\n}", "E105", 0),
    # clearer E101s: a comma between statements, a keyword where a name is needed
    ("choose { gain 1 gold, gain 1 stone }", "E101", 22),
    ("advance score 2", "E101", 8),
    ("advance later", "E101", 8),
    ("may pay gold: score 2", "E108", 8),
    # E106: unclosed bracket, reported where it opens
    ("choose { gain 1 gold | score 1", "E106", 7),
    ("score count(wall", "E106", 11),
    ("score (1 + 2", "E106", 6),
    ("{ gain 1 gold", "E106", 0),
    ("score 1; { score 2; { score 3 }", "E106", 9),
    ("score min(1, (2 + 3)", "E106", 9),
    # E107: missing colon
    ("may pay 1 gold score 4", "E107", 15),
    ("on x score 1", "E107", 5),
    ("on x(y) score 1", "E107", 8),
    ("on x once per turn score 1", "E107", 19),
    ("if gold > 1 score 1", "E107", 12),
    ("repeat 2 score 1", "E107", 9),
    ("repeat score 1", "E107", 7),
    ("on x if a gain 1 gold", "E107", 10),
    ("on x\nif a: score 1", "E107", 4),  # `if` may start a statement: the line break ends the header
    ("later score 2", "E107", 6),
    ("gain 1 gold; later gain 1 gold", "E107", 19),
    # E108: a number or expression is missing
    ("gain gold", "E108", 5),
    ("score", "E108", 5),
    ("score 1 +", "E108", 9),
    ("gain 1 gold,", "E108", 12),
    ("draw from river keep 1", "E108", 5),
    ("draw 3 from river keep", "E108", 22),
    ("gain 1 gold\nscore", "E108", 17),
    ("score 2 * ", "E108", 9),
    # E109: a statement must start with a verb
    ("gold", "E109", 0),
    ("1 gold", "E109", 0),
    ("gain 1 gold; 2 stone", "E109", 13),
    ("gain 1 gold\nstone", "E109", 12),
    ("choose { 1 | 2 }", "E109", 9),
    ("may wood", "E109", 4),
    ("on x: wood", "E109", 6),
    ("later: wood", "E109", 7),
    ("{}", "E109", 1),
    # other players, a record's owner, chance
    ("for each player score 1", "E107", 16),
    ("as owner score 1", "E107", 9),
    ("for each player: wood", "E109", 17),
    ("for each players: score 1", "E101", 9),
    ("for each other: score 1", "E101", 14),
    ("as this: score 1", "E101", 3),
    ("roll 3", "E101", 5),
    ("roll", "E102", 4),
    # the records of a zone
    ("for each in road score 1", "E107", 17),
    ("as guest: score 1", "E101", 3),  # `as owner` or `as occupant`
    ("choose two in road: score 1", "E101", 7),  # `choose one in` or `choose 2 in`
    ("choose 0 in road: score 1", "E101", 7),
    ("visit field", "E102", 11),
    ("all at once score 1", "E101", 12),
    ("choose one road: score 1", "E101", 11),
    ("put 1 gold this", "E101", 11),
    ("take 1 gold on this", "E101", 12),
    ("for each in road where a score 1", "E107", 25),
    ("for each in: score 1", "E101", 11),
    ("for each in road: 1", "E109", 18),
    ("for each card in road: score 1", "E101", 9),
    ("join", "E102", 4),
    ("join 2", "E101", 5),
    ("join order 2", "E101", 11),
    ("run primary", "E102", 11),
    ("run primary of", "E102", 14),
    ("run primary of this.era", "E101", 19),
    # gains multiplied while a body runs
    ("gains of gold times 2 score 1", "E107", 22),
    ("gains gold times 2: score 1", "E101", 6),
    ("gains of gold 2: score 1", "E101", 14),
    ("gains of gold times: score 1", "E108", 19),
    ("gains of gold, times 2: score 1", "E101", 15),
]


@pytest.mark.parametrize("text, code, start", SYNTAX_ERRORS, ids=[repr(t)[:50] for t, _, _ in SYNTAX_ERRORS])
def test_syntax_error(text, code, start):
    with pytest.raises(DslSyntaxError) as info:
        parse(text)
    err = info.value
    assert (err.code, err.start) == (code, start), err.message
    assert err.end > err.start
    assert err.message


@pytest.mark.parametrize("text, code, start, end", [
    ("gain 1 Gold", "E103", 7, 11),  # the whole word
    ("gain 1 gold # note", "E103", 12, 13),
    ("if era = 1: score 1", "E103", 7, 8),
    ("score 1 score 2", "E101", 8, 13),  # the whole token
    ("may pay 1 gold score 4", "E107", 15, 20),
    ("choose { gain 1 gold | score 1", "E106", 7, 8),  # the bracket
    ("gain 2", "E104", 6, 7),  # one past the end
    ("", "E102", 0, 1),
    ("   ", "E102", 0, 3),
])
def test_syntax_error_span(text, code, start, end):
    with pytest.raises(DslSyntaxError) as info:
        parse(text)
    assert (info.value.code, info.value.start, info.value.end) == (code, start, end)


def test_syntax_error_codes_are_all_exercised():
    assert {code for _, code, _ in SYNTAX_ERRORS} == {f"E10{i}" for i in range(1, 10)}


@pytest.mark.parametrize("code, example", [(c, e) for c, es in P.ERROR_EXAMPLES.items() for e in es])
def test_error_examples_give_their_own_code(code, example):
    with pytest.raises(DslSyntaxError) as info:
        parse(example)
    assert info.value.code == code


def test_syntax_error_messages_name_what_was_found():
    with pytest.raises(DslSyntaxError) as info:
        parse("score 1 score 2")
    assert "`score`" in info.value.message and "the end of the effect" in info.value.message
    with pytest.raises(DslSyntaxError) as info:
        parse("gain 1 Gold")
    assert "`gold`" in info.value.message


@pytest.mark.parametrize("text, start, code, offset", [
    ("2", "amounts", "E104", 1),
    ("2 gold,", "amounts", "E108", 7),
    ("silver_window", "amounts", "E108", 0),
    ("gold +", "expr", "E108", 6),
    ("gold > ", "condition", "E108", 6),
    ("gold gold", "expr", "E101", 5),
])
def test_syntax_error_other_start_rules(text, start, code, offset):
    with pytest.raises(DslSyntaxError) as info:
        parse(text, start)
    assert (info.value.code, info.value.start) == (code, offset)


# --------------------------------------------------------------------------- resolve errors

BUILDING = Scope(this_kinds=("building",))
UPGRADE = Scope(this_kinds=("upgrade",))

RESOLVE_ERRORS = [
    # text, scope, [(code, start), ...] in report order
    # E110: a statement after a trigger is not its body
    ("on action_tile_scored: score 1; score 2", None, [("E110", 32)]),
    ("on action_tile_scored: score 1\nscore 2\nscore 3", None, [("E110", 31), ("E110", 39)]),
    # E301: unknown name, function, period
    ("score foo", None, [("E301", 6)]),
    ("score 2 * bogus(1)", None, [("E301", 10)]),
    ("on action_tile_scored once per week: score 1", None, [("E301", 31)]),
    ("on action_tile_scored from next game: score 1", None, [("E301", 32)]),
    ("if gold == red: score 1", None, [("E301", 11)]),
    # E302: unknown resource (amounts, discounts, costs)
    ("gain 1 gould", None, [("E302", 7)]),
    ("pay 2 gold, 1 ston", None, [("E302", 14)]),
    ("perform building discount 2 gol", None, [("E302", 28)]),
    ("may pay 1 eg: score 1", None, [("E302", 10)]),
    # E303: unknown track (advance, produce, functions, draw ... to)
    ("advance technolgy", None, [("E303", 8)]),
    ("produce gold_mines", None, [("E303", 8)]),
    ("score position(quary)", None, [("E303", 15)]),
    ("draw all from river keep 1 to gold", None, [("E303", 30)]),
    ("on track_advanced(tech): score 1", None, [("E303", 18)]),
    # E304: unknown grid
    ("move hunger up", None, [("E304", 5)]),
    ("score row(cathedrals)", None, [("E304", 10)]),
    # E305: unknown action
    ("perform mine", None, [("E305", 8)]),
    ("on action_performed(upgrades): score 1", None, [("E305", 20)]),
    # E306: unknown event
    ("on tile_built: score 1", None, [("E306", 3)]),
    # E307: unknown kind, or a kind that is not a buildable tile
    ("build tower", None, [("E307", 6)]),
    ("build plaza", None, [("E307", 6)]),
    ("score count(walls)", None, [("E307", 12)]),
    ("use upper of any plazas", None, [("E307", 17)]),
    ("on tile_placed(plazza): score 1", None, [("E307", 15)]),
    # E308: attributes, effect fields, event parameters
    ("use lower of each seal", None, [("E308", 4)]),
    ("on tile_placed(building) if event.tile.colour: score 1", None, [("E308", 39)]),
    ("on marker_moved if event.dir == up: score 1", None, [("E308", 25)]),
    ("on marker_moved if up == event.dir: score 1", None, [("E308", 31)]),  # no cascade onto `up`
    ("on action_tile_scored if event: score 1", None, [("E308", 25)]),
    ("on track_advanced if event.track.x == 1: score 1", None, [("E308", 33)]),
    ("score gold.x", None, [("E308", 11)]),
    ("score this.colour", BUILDING, [("E308", 11)]),
    ("score this.era.x", UPGRADE, [("E308", 15)]),
    ("score count(upgrade where eras == 1)", None, [("E308", 26)]),
    # E309: type errors
    ("produce technology", None, [("E309", 8)]),
    ("on resource_gained: score event.resource", None, [("E309", 26)]),
    ("on resource_gained if event.resource == 1: score 1", None, [("E309", 22)]),
    ("on corner_token_gained if event.colour < red: score 1", None, [("E309", 26)]),
    ("score this", BUILDING, [("E309", 6)]),
    ("score count(all building where plaza == 1)", None, [("E309", 31)]),
    # E310: arguments
    ("on action_tile_scored(gold): score 1", None, [("E310", 22)]),
    ("score min(1)", None, [("E310", 6)]),
    ("score table(walls)", None, [("E310", 6)]),
    ("score position(1)", None, [("E310", 15)]),
    ("score value(kings_road + 1)", None, [("E310", 12)]),
    # E311: `this` outside a record, `event` outside a trigger
    ("score this.era", None, [("E311", 6)]),
    ("place cube on this", None, [("E311", 14)]),
    ("score event.points", None, [("E311", 6)]),
    # E312: open-ended repeat of a compulsory statement
    ("repeat: score 1", None, [("E312", 0)]),
    ("gain 1 gold; repeat: gain 1 egg", None, [("E312", 13)]),
    # E315: unknown direction
    ("move cathedral forward", None, [("E315", 15)]),
    ("on marker_moved if event.direction == sideway: score 1", None, [("E315", 38)]),
    # E317: unknown stack
    ("draw 3 from technology_v keep 1", None, [("E317", 12)]),
    # E319: a negative constant amount or count (a computed one may be negative only at run time)
    ("gain (-5) gold", None, [("E319", 5)]),
    ("pay 1 gold, (2 - 3) stone", None, [("E319", 12)]),
    ("perform mines discount (0 - 1) gold", None, [("E319", 23)]),
    ("may pay (1 - 2 * 3) gold: score 1", None, [("E319", 8)]),
    ("advance university (-1)", None, [("E319", 20)]),
    ("move cathedral up 1 - 2", None, [("E319", 18)]),
    ("repeat 1 - 2: score 1", None, [("E319", 7)]),
    ("draw (-3) from technology_i keep 1", None, [("E319", 6)]),
    ("draw 3 from technology_i keep -1", None, [("E319", 30)]),
    # gains multiplied while a body runs: resources of the pack, a factor never negative
    ("gains of gould, stone times 2: score 1", None, [("E302", 9)]),
    ("gains of gold times 0 - 1: score 1", None, [("E319", 20)]),
    ("gains of gold times 2: gain 1 gould", None, [("E302", 30)]),
    # every error is reported, in text order
    ("gain 1 gould; advance technolgy; perform mine; draw 1 from nowhere keep 1", None,
     [("E302", 7), ("E303", 22), ("E305", 41), ("E317", 59)]),
    ("on action_tile_scored(x) once per week: { gain 1 gould; score this }", None, [("E310", 22), ("E301", 34), ("E302", 49), ("E311", 62)]),
]
# E313 (a name declared twice) and E314 (an unknown record reference) come from the
# pack's declarations (interpreter/content/references.py), never from an effect string.


@pytest.mark.parametrize("text, scope, expected", RESOLVE_ERRORS, ids=[repr(t)[:50] for t, _, _ in RESOLVE_ERRORS])
def test_resolve_errors(symbols, text, scope, expected):
    errors = resolve(parse(text), symbols, scope or Scope()).errors
    assert [(e.code, e.start) for e in errors] == expected, [e.message for e in errors]
    for e in errors:
        assert e.end > e.start and e.message


def test_resolve_error_codes_are_all_exercised():
    codes = {code for _, _, exp in RESOLVE_ERRORS for code, _ in exp}
    assert codes == {"E110", *(f"E3{i:02d}" for i in range(1, 13)), "E315", "E317", "E319"}


@pytest.mark.parametrize("text, span", [
    ("gain 1 gould", (7, 12)),
    ("advance technolgy", (8, 17)),
    ("on action_tile_scored: score 1; score 2", (32, 39)),
    ("score min(1)", (6, 12)),
])
def test_resolve_error_span(symbols, text, span):
    (err,) = resolve(parse(text), symbols).errors
    assert (err.start, err.end) == span


def test_resolve_suggests_close_names(symbols):
    (err,) = resolve(parse("gain 1 gould"), symbols).errors
    assert "'gold'" in err.message
    (err,) = resolve(parse("advance technolgy"), symbols).errors
    assert "'technology'" in err.message


@pytest.mark.parametrize("text, scope", [
    ("score count(all building where plaza == this.plaza)", BUILDING),
    ("place cube on this", Scope(this_kinds=("wall", "building"))),
    ("advance university this.era", UPGRADE),
    ("on wheel_bonus_gained if event.resource == gold: gain 1 gold", None),
    ("on wheel_bonus_gained if gold == event.resource: gain 1 gold", None),
    ("on corner_token_gained if event.colour != red: score 1", None),
    ("on marker_moved if event.direction == up and event.grid == cathedral: score 2", None),
    ("on tile_placed(building) if event.tile.cathedral and event.tile.era >= 2: score 1", None),
    ("on tile_placed if event.kind == wall: score 1", None),
    ("score count(upgrade where action == mines)", None),
    ("score count(wall where window > 1)", None),
    ("score free(cube) + table(eggs, egg) + min(gold, stone)", None),
    ("repeat: may pay 1 gold: score 2", None),
    ("repeat: may score 1", None),
    ("gain (gold - 5) gold; pay (stone - 1) stone", None),  # computed: below zero counts as nothing
    ("score -2", None),  # points may be lost
    ("gain (0) gold, (3 - 3) stone, (1 / 0) egg", None),
])
def test_resolves_cleanly(symbols, text, scope):
    assert resolve(parse(text), symbols, scope or Scope()).errors == []


# --------------------------------------------------------------------------- zones (statements and count)

def _with_zones(symbols):
    """The bundled pack's names plus zones of its upgrade tiles: a pile per player that refills from the
    player's discard, a hand and a discard, and a shared row of two slots that refills from the pile."""
    from dataclasses import replace

    from interpreter.dsl.resolve import ZoneSig
    return replace(symbols, zones={
        "pile": ZoneSig("upgrade", True, (), True), "hand": ZoneSig("upgrade", True), "discard": ZoneSig("upgrade", True),
        "row": ZoneSig("upgrade", False, ("first", "second"), True),
    })


ZONE_ERRORS = [
    # text, scope, [(code, start, end), ...]
    ("draw 2 from pil to hand", None, [("E320", 12, 15)]),
    ("draw 2 from pile to hands", None, [("E320", 20, 25)]),
    ("draw 1 from technology_i to hand", None, [("E320", 12, 24)]),  # a stack: drawn with `keep`
    ("draw 3 from pile keep 1", None, [("E317", 12, 16)]),  # the Praga form still wants a stack
    ("draw (-1) from pile to hand", None, [("E319", 6, 8)]),
    ("move this to discrd", BUILDING, [("E320", 13, 19)]),
    ("move this to discard", None, [("E311", 5, 9)]),
    ("move this.era to discard", UPGRADE, [("E308", 10, 13)]),
    ("move all from hnd to discard", None, [("E320", 14, 17)]),
    ("move this to row at third", BUILDING, [("E321", 20, 25)]),
    ("move this to discard at first", BUILDING, [("E321", 24, 29)]),
    ("shuffle pyle", None, [("E320", 8, 12)]),
    ("refill hand", None, [("E321", 7, 11)]),
    ("score count(hnd)", None, [("E307", 12, 15)]),
    ("score count(all hand)", None, [("E310", 6, 21)]),
    ("score count(hand where eras == 1)", None, [("E308", 23, 27)]),
]


@pytest.mark.parametrize("text, scope, expected", ZONE_ERRORS, ids=[t for t, _, _ in ZONE_ERRORS])
def test_zone_resolve_errors(symbols, text, scope, expected):
    errors = resolve(parse(text), _with_zones(symbols), scope or Scope()).errors
    assert [(e.code, e.start, e.end) for e in errors] == expected, [e.message for e in errors]


def test_zone_errors_name_what_is_wrong(symbols):
    zs = _with_zones(symbols)
    (err,) = resolve(parse("draw 2 from pil to hand"), zs).errors
    assert "unknown zone 'pil'" in err.message and "'pile'" in err.message
    (err,) = resolve(parse("draw 1 from technology_i to hand"), zs).errors
    assert "is a stack" in err.message and "keep" in err.message
    (err,) = resolve(parse("draw 3 from pile keep 1"), zs).errors
    assert err.code == "E317" and "is a zone" in err.message and "to <zone>" in err.message
    (err,) = resolve(parse("move this to row at third"), zs, BUILDING).errors
    assert "first, second" in err.message
    assert {code for _, _, exp in ZONE_ERRORS for code, _, _ in exp} >= {"E320", "E321"}


@pytest.mark.parametrize("text, scope", [
    ("draw 2 from pile to hand; draw all from hand to discard", None),
    ("move this to discard; move this to row at second; move this to pile at end; move this to pile at top", BUILDING),
    ("move all from hand to discard; move all from discard to row", None),
    ("shuffle pile; refill row; refill pile", None),
    ("score count(hand) + count(hand where era == 2 and owned)", None),
    ("draw 3 from technology_i keep 1; move hunger_wall sideways", None),  # the Praga forms, unchanged
])
def test_zones_resolve_cleanly(symbols, text, scope):
    res = resolve(parse(text), _with_zones(symbols), scope or Scope())
    assert res.errors == [], [e.message for e in res.errors]


def test_resolve_tells_zone_counts_from_kind_counts(symbols):
    tree = parse("count(hand where era == 1) + count(upgrade)", "expr")
    res = resolve(tree, _with_zones(symbols))
    assert res.errors == [] and res.zone_counts == frozenset({id(tree.left)})
    assert id(tree.left.where.left) in res.attributes  # `era` is the tested record's, as in a kind's count


ZONE_NAMES = {"zone:pile": "draw pile", "zone:hand": "hand", "zone:discard": "discard pile", "zone:row": "market row"}


@pytest.mark.parametrize("text, english", [
    ("draw 2 from pile to hand", "Move the top 2 of the draw pile onto the hand."),
    ("draw all from hand to discard", "Move all the records of the hand onto the discard pile."),
    ("move this to discard", "Move this tile to the discard pile."),
    ("move this to row at second", "Move this tile to the market row (into its second slot)."),
    ("move this to pile at end", "Move this tile to the draw pile (at the bottom)."),
    ("move all from hand to discard at top", "Move every record of the hand to the discard pile (on top)."),
    ("shuffle pile; refill row", "Shuffle the draw pile. Refill the market row."),
    ("score count(hand)", "Score 1 point for each record in the hand."),
    ("score 2 * count(hand where era == 1)", "Score 2 points for each record in the hand whose era is 1."),
    ("gain (count(discard)) gold", "Gain the number of records in the discard pile gold."),
])
def test_zone_statements_in_english(text, english):
    from interpreter.dsl.english import Names, to_english
    assert to_english(parse(text), Names(ZONE_NAMES)) == english


# --------------------------------------------------------------------------- the records of a zone: for each in Z

RECORD_LOOP_ERRORS = [
    # text, scope, [(code, start, end), ...]
    ("for each in hnd: score 1", None, [("E320", 12, 15)]),
    ("for each in hand where eras == 1: score 1", None, [("E308", 23, 27)]),  # bare names: the record's attributes
    ("for each in hand: score this.eras", None, [("E308", 29, 33)]),  # `this` is an upgrade tile
    ("for each in hand where this.era == 1: score 1", None, [("E311", 23, 31)]),  # `this` in where: the effect's record
    ("for each in hand where this.eras == era: score 1", BUILDING, [("E308", 28, 32)]),  # ... a building here
    ("for each in hand: score position", None, [("E301", 24, 32)]),  # the record's place is `this.position`
    ("for each in hand: score this.position.x", None, [("E308", 38, 39)]),
    ("for each in hand: as owner: move this to rows", None, [("E320", 41, 45)]),
]


@pytest.mark.parametrize("text, scope, expected", RECORD_LOOP_ERRORS, ids=[t for t, _, _ in RECORD_LOOP_ERRORS])
def test_record_loop_resolve_errors(symbols, text, scope, expected):
    errors = resolve(parse(text), _with_zones(symbols), scope or Scope()).errors
    assert [(e.code, e.start, e.end) for e in errors] == expected, [e.message for e in errors]


@pytest.mark.parametrize("text, scope", [
    ("for each in hand: score this.era", None),  # `this` is the zone's record, outside any record's effect
    ("for each in hand where era == 2 and owned: { move this to discard; as owner: gain 1 gold }", None),
    ("for each in row where position <= position(university): score this.position", None),
    ("for each in pile: for each in hand where era == this.era: score 1", None),  # the outer loop's record
    ("score this.position + position(university) + count(row where position == 2)", UPGRADE),
])
def test_record_loops_resolve_cleanly(symbols, text, scope):
    res = resolve(parse(text), _with_zones(symbols), scope or Scope())
    assert res.errors == [], [e.message for e in res.errors]


@pytest.mark.parametrize("text, english", [
    ("for each in hand: score 1", "For each record of the hand, in order from the top: score 1 point."),
    ("for each in row where position <= 2: move this to discard",
     "For each record of the market row where position is at most 2, in order from the top: move this tile to "
     "the discard pile."),
])
def test_record_loops_in_english(text, english):
    from interpreter.dsl.english import Names, to_english
    assert to_english(parse(text), Names(ZONE_NAMES)) == english


# --------------------------------------------------------------------------- the flow's turn order: join order

def _with_recorded_order(symbols):
    from dataclasses import replace
    return replace(symbols, categories={**symbols.categories, "recorded_order": frozenset({"placement"})})


@pytest.mark.parametrize("text, recorded, expected", [
    ("join order", True, []),
    ("for each player: if gold > 2: join order", True, []),
    ("join orders", True, [("E301", 5, 11)]),
    ("join seat", True, [("E301", 5, 9)]),
    ("join order", False, [("E311", 0, 10)]),  # the pack's flow has no phase in the recorded order
])
def test_join_order_resolves(symbols, text, recorded, expected):
    errors = resolve(parse(text), _with_recorded_order(symbols) if recorded else symbols).errors
    assert [(e.code, e.start, e.end) for e in errors] == expected, [e.message for e in errors]
    if expected:
        assert ("`join order`" in errors[0].message) and (expected[0][0] != "E311" or "order: recorded" in errors[0].message)


def test_join_order_prints_and_reads_in_english():
    from interpreter.dsl.english import to_english
    from interpreter.dsl.printer import to_text
    tree = parse("gain 1 gold; join order")
    assert to_text(tree) == "gain 1 gold; join order" and parse(to_text(tree)) == tree
    assert to_english(parse("join order")) == (
        "Take the next place in the turn order of the next phase played in the recorded order.")
