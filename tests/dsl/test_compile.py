"""Compiled programs: expressions and conditions run against a fake game view, and typed steps.

Every text is parsed and resolved against the bundled pack first (the resolve
pass tells the compiler which names are constants), then compiled.
"""

from __future__ import annotations

import dataclasses

import pytest

from interpreter.dsl import steps as S
from interpreter.dsl.compile import Compiler, Program, ReadContext, Trigger
from interpreter.dsl.parse import parse
from interpreter.dsl.resolve import Scope, resolve

# --------------------------------------------------------------------------- a fake ReadContext


def rec(kind, owner="me", **attrs):
    return {"kind": kind, "owner": owner, **attrs}


class FakeContext:
    """The game as the acting player ("me") sees it; logs every read."""

    def __init__(self, holdings=None, groups=None, queries=None, tables=None, records=(), this=None, event=None):
        self.holdings = dict(holdings or {})
        self.groups = dict(groups or {})
        self.queries = dict(queries or {})
        self.tables = dict(tables or {})
        self.records = list(records)
        self._this = this
        self.event = dict(event or {})
        self.log: list[tuple] = []

    def holding(self, resource: str) -> int:
        self.log.append(("holding", resource))
        return self.holdings.get(resource, 0)

    def group_total(self, group: str) -> int:
        self.log.append(("group_total", group))
        return self.groups[group]

    def query(self, fn: str, name: str) -> int:
        self.log.append(("query", fn, name))
        return self.queries[(fn, name)]

    def table(self, table: str, n: int) -> int:
        self.log.append(("table", table, n))
        return max(points for least, points in self.tables[table] if n >= least)

    def count(self, quant, kind, pred) -> int:
        self.log.append(("count", quant, kind))
        pool = [r for r in self.records if r["kind"] == kind and (quant == "all" or r["owner"] == "me")]
        return sum(1 for r in pool if pred is None or pred(self, r))

    def attribute(self, record, name):
        self.log.append(("attribute", name))
        return record[name]

    def this(self):
        return self._this

    def event_param(self, name):
        self.log.append(("event", name))
        return self.event[name]


def test_fake_context_implements_the_protocol():
    for name in ("holding", "group_total", "query", "table", "count", "attribute", "this", "event_param"):
        assert name in ReadContext.__dict__ and callable(getattr(FakeContext, name))


P1, P2 = "plaza_a", "plaza_b"
THIS_BUILDING = rec("building", plaza=P1, era=1, cathedral=True)

RECORDS = [
    rec("upgrade", era=1, action="mines"),
    rec("upgrade", era=1, action="upgrade"),
    rec("upgrade", era=2, action="mines"),
    rec("upgrade", "other", era=1, action="wall"),
    rec("wall", era=1, hunger_wall=True),
    rec("wall", era=1, hunger_wall=False),
    rec("wall", era=2, hunger_wall=True),
    rec("wall", era=2, hunger_wall=False),
    THIS_BUILDING,
    rec("building", "other", plaza=P1, era=1, cathedral=False),
    rec("building", "other", plaza=P1, era=2, cathedral=True),
    rec("building", plaza=P2, era=1, cathedral=False),
    rec("plaza", colour="red", claimed=True, resolved=False),
    rec("plaza", colour="blue", claimed=True, resolved=True),
    rec("plaza", colour="red", claimed=False, resolved=False),
]


def make_ctx(**over):
    base = dict(
        holdings={"gold": 5, "stone": 3, "egg": 2, "silver_window": 1, "gold_window": 2, "red_token": 2, "blue_token": 0},
        groups={"window": 3},
        queries={("position", "technology"): 4, ("value", "university"): 2, ("row", "hunger_wall"): 3,
                 ("row", "cathedral"): 2, ("row_value", "cathedral"): 7, ("column_value", "cathedral"): 3,
                 ("value", "gold_mine"): 6, ("position", "kings_road"): 2, ("free", "cube"): 2},
        tables={"walls": [(0, 0), (3, 4), (4, 10), (6, 18)], "eggs": [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10)]},
        records=RECORDS,
        this=THIS_BUILDING,
    )
    base.update(over)
    return FakeContext(**base)


# --------------------------------------------------------------------------- compiling


def compiler_for(symbols, node, scope=Scope()):
    res = resolve(node, symbols, scope)
    assert res.errors == [], [f"{e.code} at {e.start}: {e.message}" for e in res.errors]
    return Compiler(symbols.members("resource"), symbols.members("group"), res.constants)


def expr_fn(symbols, text, scope=Scope()):
    node = parse(text, "expr")
    return compiler_for(symbols, node, scope).expr(node, False)


def cond_fn(symbols, text, scope=Scope()):
    node = parse(text, "condition")
    return compiler_for(symbols, node, scope).cond(node, False)


def program(symbols, text, scope=Scope()) -> Program:
    node = parse(text)
    return compiler_for(symbols, node, scope).program(node, text)


def run(value, ctx, record=None):
    """A compiled step (or block, amounts) with every closure replaced by its value: a step of the same
    class, so tests compare kinds as well as operands."""
    if dataclasses.is_dataclass(value):
        return type(value)(*(run(getattr(value, f.name), ctx, record) for f in dataclasses.fields(value)))
    if callable(value):
        return value(ctx, record)
    if isinstance(value, tuple):
        return tuple(run(v, ctx, record) for v in value)
    return value


BUILDING = Scope(this_kinds=("building",))
UPGRADE = Scope(this_kinds=("upgrade",))

# --------------------------------------------------------------------------- expressions

EXPRESSIONS = [
    # arithmetic, precedence, associativity
    ("1 + 2 * 3", 7),
    ("(1 + 2) * 3", 9),
    ("10 - 4 - 3", 3),
    ("10 - (4 - 3)", 9),
    ("-2 + 5", 3),
    ("- -4", 4),
    ("-(2 * 3)", -6),
    ("2 * -3", -6),
    # division floors, and a division by zero is 0
    ("7 / 2", 3),
    ("8 / 2 / 2", 2),
    ("-7 / 2", -4),
    ("7 / 0", 0),
    ("gold / (stone - 3)", 0),
    # holdings and groups
    ("gold", 5),
    ("gold * 2 + stone", 13),
    ("egg / 2", 1),
    ("2 * silver_window", 2),
    ("window", 3),
    ("blue_token", 0),
    # min / max
    ("min(gold, 3)", 3),
    ("max(gold, stone)", 5),
    ("min(1 - gold, 0)", -4),
    ("max(min(gold, stone), egg)", 3),
    ("min(gold, stone) + max(gold, stone)", 8),
    # track / grid queries, tables, free pieces
    ("position(technology) * value(university)", 8),
    ("2 * row(hunger_wall) + 2 * row(cathedral)", 10),
    ("row_value(cathedral) + column_value(cathedral) * red_token", 13),
    ("value(gold_mine)", 6),
    ("table(walls, count(wall))", 10),
    ("table(walls, 3)", 4),
    ("table(walls, 2)", 0),
    ("table(eggs, egg)", 3),
    ("table(eggs, egg + 5)", 10),
    ("free(cube)", 2),
    # count: the player's own records unless `all`; where-clauses read record attributes
    ("count(upgrade)", 3),
    ("count(all upgrade)", 4),
    ("count(upgrade where era == 1)", 2),
    ("3 * count(upgrade where era == 1)", 6),
    ("count(all upgrade where era == 1)", 3),
    ("count(upgrade where era >= 2)", 1),
    ("count(wall where hunger_wall)", 2),
    ("count(wall where not hunger_wall and era == 2)", 1),
    ("count(wall where hunger_wall or era == 2)", 3),
    ("count(upgrade where action == mines)", 2),
    ("count(all upgrade where action != mines)", 2),
    ("count(all plaza where not resolved)", 2),
    ("count(all plaza where claimed and not resolved)", 1),
    # inside `where`, resources and groups are still the player's holdings
    ("count(upgrade where era == 1 and gold > 4)", 2),
    ("count(upgrade where era == 1 and gold > 5)", 0),
    ("count(wall where window >= 3)", 4),
    ("count(wall where era < egg)", 2),
]


@pytest.mark.parametrize("text, expected", EXPRESSIONS, ids=[t for t, _ in EXPRESSIONS])
def test_expression_value(symbols, text, expected):
    assert expr_fn(symbols, text)(make_ctx(), None) == expected


@pytest.mark.parametrize("text, scope, expected", [
    ("count(all building where plaza == this.plaza)", BUILDING, 3),
    ("count(building where plaza == this.plaza)", BUILDING, 1),
    ("count(all building where plaza != this.plaza)", BUILDING, 1),
    ("count(all building where era == this.era and cathedral)", BUILDING, 1),
    ("this.era + 1", UPGRADE, 2),
])
def test_expression_reads_this(symbols, text, scope, expected):
    assert expr_fn(symbols, text, scope)(make_ctx(), None) == expected


def test_holdings_are_read_at_run_time(symbols):
    f = expr_fn(symbols, "gold * 2 + window")
    assert f(make_ctx(), None) == 13
    assert f(make_ctx(holdings={"gold": 1}, groups={"window": 0}), None) == 2


def test_group_in_where_reads_the_group_total(symbols):
    ctx = make_ctx()
    expr_fn(symbols, "count(wall where window >= 3)")(ctx, None)
    assert ("group_total", "window") in ctx.log
    assert ("attribute", "window") not in ctx.log


def test_count_passes_quantifier_and_kind(symbols):
    ctx = make_ctx()
    expr_fn(symbols, "count(all building) + count(seal) + count(all plaza) + count(wall)")(ctx, None)
    assert [e for e in ctx.log if e[0] == "count"] == [
        ("count", "all", "building"), ("count", None, "seal"), ("count", "all", "plaza"), ("count", None, "wall")]


# --------------------------------------------------------------------------- conditions

CONDITIONS = [
    ("gold >= 6", False),
    ("gold >= 5", True),
    ("gold > 5", False),
    ("gold < 6", True),
    ("gold <= 4", False),
    ("gold == 5", True),
    ("gold != 5", False),
    ("gold >= 9 or stone >= 3", True),
    ("gold >= 9 or stone >= 9", False),
    ("gold > 1 and stone > 1", True),
    ("not (gold > 1 and stone > 1)", False),
    ("not gold > 1 and stone > 1", False),
    ("gold > 9 and stone > 9 or egg == 2", True),
    ("gold > 9 and (stone > 9 or egg == 2)", False),
    ("silver_window", True),
    ("blue_token", False),
    ("not blue_token", True),
    ("gold + stone == 2 * 4", True),
    ("count(upgrade where era == 1) >= 2", True),
    ("position(kings_road) == 2", True),
    ("min(gold, stone) > egg", True),
]


@pytest.mark.parametrize("text, expected", CONDITIONS, ids=[t for t, _ in CONDITIONS])
def test_condition_value(symbols, text, expected):
    assert cond_fn(symbols, text)(make_ctx(), None) is expected


# --------------------------------------------------------------------------- event parameters

EVENT_CONDITIONS = [
    # a resource compared with an event parameter is a name, not a holding
    ("on wheel_bonus_gained if event.resource == gold: score 1", {"resource": "gold"}, True),
    ("on wheel_bonus_gained if event.resource == gold: score 1", {"resource": "stone"}, False),
    ("on wheel_bonus_gained if gold == event.resource: score 1", {"resource": "gold"}, True),
    ("on resource_gained if event.resource != stone: score 1", {"resource": "stone"}, False),
    ("on resource_gained if event.resource == egg or event.resource == stone: score 1", {"resource": "stone"}, True),
    # a number parameter compares with numbers, holdings included
    ("on resource_gained if event.amount > 1: score 1", {"amount": 2}, True),
    ("on resource_gained if event.amount >= gold: score 1", {"amount": 2}, False),
    ("on action_tile_scored if event.points >= 1: score 1", {"points": 0}, False),
    ("on action_tile_scored if event.points >= 1: score 1", {"points": 5}, True),
    # other categories: direction, colour, action, track, grid, kind
    ("on marker_moved if event.direction == up: score 2", {"direction": "up"}, True),
    ("on marker_moved if event.direction == up: score 2", {"direction": "sideways"}, False),
    ("on marker_moved if event.grid == cathedral and event.direction == up: score 2", {"grid": "cathedral", "direction": "up"}, True),
    ("on corner_token_gained if event.colour == red: score 1", {"colour": "blue"}, False),
    ("on corner_token_gained if red == event.colour: score 1", {"colour": "red"}, True),
    ("on action_performed if event.action == upgrade: score 1", {"action": "upgrade"}, True),
    ("on track_advanced if event.track != technology: score 1", {"track": "university"}, True),
    ("on tile_placed if event.kind == wall: score 1", {"kind": "wall"}, True),
    # record parameters: attributes of the placed tile
    ("on tile_placed(building) if event.tile.cathedral: score 1", {"tile": {"cathedral": True}}, True),
    ("on tile_placed(building) if not event.tile.cathedral: score 1", {"tile": {"cathedral": True}}, False),
    ("on tile_placed(upgrade) if event.tile.era == 2: score 1", {"tile": {"era": 2}}, True),
]


@pytest.mark.parametrize("text, event, expected", EVENT_CONDITIONS, ids=[f"{t[:60]}-{sorted(e.values())!r}" for t, e, _ in EVENT_CONDITIONS])
def test_event_condition(symbols, text, event, expected):
    (trigger,) = program(symbols, text).triggers
    ctx = make_ctx(event=event)
    assert all(c(ctx, None) for c in trigger.conditions) is expected
    # the constant side never reads a holding
    assert not any(e[0] == "holding" and e[1] in ("gold", "stone", "egg") for e in ctx.log if "amount" not in event)


def test_event_resource_compares_names_not_holdings(symbols):
    (trigger,) = program(symbols, "on wheel_bonus_gained if event.resource == gold: score 1").triggers
    (cond,) = trigger.conditions
    # with 5 gold held, a holding would compare 5 == "gold"; with gold's holding equal to the
    # event value by coincidence the answer must still follow the name
    assert cond(make_ctx(event={"resource": "gold"}), None) is True
    assert cond(make_ctx(event={"resource": 5}), None) is False
    ctx = make_ctx(event={"resource": "gold"})
    cond(ctx, None)
    assert ctx.log == [("event", "resource")]


def test_same_name_is_a_holding_outside_the_comparison(symbols):
    (trigger,) = program(symbols, "on resource_gained if event.resource == gold and gold >= 6: score 1").triggers
    (cond,) = trigger.conditions
    ctx = make_ctx(event={"resource": "gold"}, holdings={"gold": 6})
    assert cond(ctx, None) is True
    assert ctx.log == [("event", "resource"), ("holding", "gold")]
    assert cond(make_ctx(event={"resource": "gold"}, holdings={"gold": 5}), None) is False


def test_event_params_in_expressions(symbols):
    (trigger,) = program(symbols, "on tile_placed(upgrade): advance university event.tile.era").triggers
    (step,) = trigger.body
    assert run(step, make_ctx(event={"tile": {"era": 2}})) == S.Advance("university", 2)
    (trigger,) = program(symbols, "on resource_gained(gold): gain (event.amount * 2) gold").triggers
    assert run(trigger.body, make_ctx(event={"amount": 3})) == (S.Gain((("gold", 6),)),)


# --------------------------------------------------------------------------- typed steps

G, ST, EGG, SW = "gold", "stone", "egg", "silver_window"
STEPS = [
    ("gain 2 gold, 1 stone", S.Gain(((G, 2), (ST, 1)))),
    ("gain (egg + 1) gold", S.Gain(((G, 3),))),
    ("pay 1 gold and 2 stone", S.Pay(((G, 1), (ST, 2)))),
    ("score 2 * egg", S.Score(4)),
    ("advance technology", S.Advance("technology", None)),
    ("advance university 4", S.Advance("university", 4)),
    ("produce quarry", S.Produce("quarry")),
    ("move hunger_wall sideways", S.Move("hunger_wall", "sideways", None, ())),
    ("move cathedral up 2 free discount 2 silver_window",
     S.Move("cathedral", "up", 2, (S.Free(), S.Discount(((SW, 2),))))),
    ("perform upgrade", S.Perform("upgrade", ())),
    ("perform any", S.Perform(None, ())),
    ("perform any free", S.Perform(None, (S.Free(),))),
    ("perform building discount 2 gold with special_tile",
     S.Perform("building", (S.Discount(((G, 2),)), S.With("special_tile")))),
    ("build wall free", S.Build("wall", (S.Free(),))),
    ("{ gain 1 gold; score 1 }", S.Block((S.Gain(((G, 1),)), S.Score(1)))),
    ("choose { gain 1 gold | score 1; score 2 }",
     S.Choose(((S.Gain(((G, 1),)),), (S.Score(1), S.Score(2))))),
    ("choose { gain 1 gold; advance gold_mine | produce gold_mine }",
     S.Choose(((S.Gain(((G, 1),)), S.Advance("gold_mine", None)), (S.Produce("gold_mine"),)))),
    ("may move hunger_wall sideways", S.May((S.Move("hunger_wall", "sideways", None, ()),))),
    ("may { score 1; score 2 }", S.May((S.Score(1), S.Score(2)))),
    ("may pay 1 egg: score 3", S.MayPay(((EGG, 1),), (S.Score(3),))),
    ("may pay 1 egg: { score 1; gain 1 gold }", S.MayPay(((EGG, 1),), (S.Score(1), S.Gain(((G, 1),))))),
    ("if gold > 1: score 1 else: score 2", S.If(True, (S.Score(1),), (S.Score(2),))),
    ("if gold > 9: score 1", S.If(False, (S.Score(1),), None)),
    ("if gold > 9: { score 1; score 2 }", S.If(False, (S.Score(1), S.Score(2)), None)),
    ("repeat 3: gain 1 gold", S.Repeat(3, (S.Gain(((G, 1),)),))),
    ("repeat: may pay 1 gold: score 2", S.Repeat(None, (S.MayPay(((G, 1),), (S.Score(2),)),))),
    ("grant special_tile", S.Grant("special_tile", None)),
    ("grant special_tile or score 1", S.Grant("special_tile", (S.Score(1),))),
    ("later: move hunger_wall sideways", S.Later((S.Move("hunger_wall", "sideways", None, ()),))),
    ("later: { score 1; gain 1 gold }", S.Later((S.Score(1), S.Gain(((G, 1),))))),
    ("later: may pay 1 gold: score 4", S.Later((S.MayPay(((G, 1),), (S.Score(4),)),))),
    ("draw 3 from technology_i keep 1", S.Draw(3, "technology_i", 1, None)),
    ("draw all from river keep 1 to gold_mine", S.Draw(None, "river", 1, "gold_mine")),
    ("draw egg + 1 from bridge_iv keep 1", S.Draw(3, "bridge_iv", 1, None)),
    ("use upper of any plaza", S.Use(("upper",), "any", "plaza", None)),
    ("use upper and lower of any plaza", S.Use(("upper", "lower"), "any", "plaza", None)),
    ("use scoring of each seal", S.Use(("scoring",), "each", "seal", None)),
]


@pytest.mark.parametrize("text, expected", STEPS, ids=[t for t, _ in STEPS])
def test_typed_step(symbols, text, expected):
    prog = program(symbols, text)
    assert prog.triggers == ()
    (step,) = prog.steps
    assert run(step, make_ctx()) == expected


@pytest.mark.parametrize("text, expected", [
    ("place cube on this", S.Place("cube", ())),
    ("place cube on this.plaza", S.Place("cube", ("plaza",))),
])
def test_place_step(symbols, text, expected):
    (step,) = program(symbols, text, BUILDING).steps
    assert step == expected


def test_use_step_predicate_tests_records(symbols):
    (step,) = program(symbols, "use lower of all plaza where claimed and not resolved").steps
    assert isinstance(step, S.Use)
    assert (step.fields, step.quant, step.kind) == (("lower",), "all", "plaza")
    pred = step.where
    ctx = make_ctx()
    plazas = [r for r in RECORDS if r["kind"] == "plaza"]
    assert [pred(ctx, r) for r in plazas] == [True, False, False]


def test_program_steps_in_order_and_source(symbols):
    text = "gain 1 egg; perform kings_road\nscore 3"
    prog = program(symbols, text)
    assert prog.source == text
    assert run(prog.steps, make_ctx()) == (S.Gain((("egg", 1),)), S.Perform("kings_road", ()), S.Score(3))


def test_trigger_compiles_every_part(symbols):
    text = ("score 1; on action_performed(upgrade) if event.action == upgrade while position(kings_road) == 2 "
            "once per turn from next turn: { score 2; choose { gain 1 gold | gain 1 stone } }")
    prog = program(symbols, text)
    assert run(prog.steps, make_ctx()) == (S.Score(1),)
    (t,) = prog.triggers
    assert isinstance(t, Trigger)
    assert (t.event, t.arg, t.once_per, t.from_next) == ("action_performed", "upgrade", "turn", "turn")
    ctx = make_ctx(event={"action": "upgrade"})
    assert [c(ctx, None) for c in t.conditions] == [True]
    assert [w(ctx, None) for w in t.while_] == [True]
    assert [w(make_ctx(queries={("position", "kings_road"): 1}), None) for w in t.while_] == [False]
    assert run(t.body, ctx) == (S.Score(2), S.Choose(((S.Gain((("gold", 1),)),), (S.Gain((("stone", 1),)),))))


def test_trigger_without_options(symbols):
    (t,) = program(symbols, "on action_tile_scored: score position(university)").triggers
    assert (t.event, t.arg, t.conditions, t.while_, t.once_per, t.from_next) == ("action_tile_scored", None, (), (), None, None)
    assert run(t.body, make_ctx(queries={("position", "university"): 8})) == (S.Score(8),)


def test_amounts_compile(symbols):
    node = parse("2 gold, (egg) stone", "amounts")
    amounts = compiler_for(symbols, node).amounts(node)
    assert run(amounts, make_ctx()) == (("gold", 2), ("stone", 2))


def test_amounts_name_each_resource_once(symbols):
    node = parse("1 gold, 2 stone, (egg) gold", "amounts")
    amounts = compiler_for(symbols, node).amounts(node)
    assert run(amounts, make_ctx()) == (("gold", 3), ("stone", 2))


# --------------------------------------------------------------------------- the pipeline


def _program_of(ruleset, record, field="effect"):
    (f,) = [f for f in ruleset.fields if f.record == record and f.path[-1] == field]
    return ruleset.programs[f.key]


def test_pipeline_compiles_content_programs(ruleset):
    prog = _program_of(ruleset, "t3_royal_procession")
    assert isinstance(prog, Program)
    assert run(prog.steps, make_ctx()) == (S.Gain((("egg", 1),)), S.If(True, (S.Perform("kings_road", ()),), None))
    on_v = make_ctx(queries={("position", "kings_road"): 5})  # OPEN-33: the road part is skipped from V
    assert run(prog.steps, on_v) == (S.Gain((("egg", 1),)), S.If(False, (S.Perform("kings_road", ()),), None))


def test_pipeline_keeps_event_constants(ruleset):
    (t,) = _program_of(ruleset, "t1_climber").triggers
    assert [c(make_ctx(event={"direction": "up"}), None) for c in t.conditions] == [True]
    assert [c(make_ctx(event={"direction": "sideways"}), None) for c in t.conditions] == [False]


def test_pipeline_compiles_conditions(ruleset):
    (f,) = [f for f in ruleset.fields if f.record == "any_9" and f.path[-1] == "when"]
    cond = ruleset.programs[f.key]
    assert cond(make_ctx(holdings={"gold": 9, "stone": 0}), None) is True
    assert cond(make_ctx(holdings={"gold": 8, "stone": 8}), None) is False
