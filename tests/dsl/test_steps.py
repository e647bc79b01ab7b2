"""The registry of statement kinds (dsl/steps.py): every kind of the grammar has a step class, and
every part that works on statements handles every kind: compile, the effect machine, the static pass
(fallible), the cycle check (bounds), the printer and the English renderer. Compiled steps are frozen
and nothing changes them while games run."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from interpreter.content import bounds
from interpreter.dsl import ast as A
from interpreter.dsl import compile as C
from interpreter.dsl import printer
from interpreter.dsl import steps as S
from interpreter.dsl.english import to_english
from interpreter.dsl.parse import parse
from interpreter.dsl.resolve import Scope, resolve
from interpreter.runtime import fallible
from interpreter.runtime.executors import ANSWERS, EXECUTORS
from interpreter.runtime.machine import Machine, _needs_engine
from interpreter.runtime.tables import build_tables
from interpreter.runtime import natives

# one text per statement kind, written against the bundled pack
EXAMPLES = {
    "gain": "gain 2 gold, 1 stone",
    "pay": "pay 1 gold",
    "score": "score 2 * egg",
    "advance": "advance university 2",
    "produce": "produce quarry",
    "move": "move cathedral up free",
    "perform": "perform upgrade discount 1 gold",
    "build": "build wall with special_tile",
    "block": "{ gain 1 gold; score 1 }",
    "choose": "choose { gain 1 gold | score 1 }",
    "may": "may score 1",
    "may_pay": "may pay 1 egg: score 3",
    "if": "if gold > 1: score 1 else: score 2",
    "repeat": "repeat 2: gain 1 gold",
    "grant": "grant special_tile or score 1",
    "later": "later: score 1",
    "draw": "draw 3 from technology_i keep 1",
    "use": "use upper of any plaza",
    "place": "place cube on this",
    "for_each": "for each other player: gain 1 gold",
    "as_owner": "as owner: score 1",
    "roll": "roll d6",
    # moving records between zones, against the zones of tests/dsl/test_cases.py (the pack declares none)
    "zone_draw": "draw 2 from pile to hand",
    "zone_move": "move this to row at second",
    "shuffle": "shuffle pile",
    "refill": "refill row",
    "for_each_record": "for each in hand where era == 1: move this to discard",
    "join_order": "join order",
    "run": "run reward of this",
    "as_occupant": "as occupant: score 1",
    "choose_record": "choose one in hand where era == 1: move this to discard",
    "put": "put 2 gold on this",
    "take": "take 1 gold from this",
    "require": "require gold > 1",
    "at_once": "all at once: { pay 1 gold; gain 2 stone }",
    "visit": "visit field at 3",
    "multiply": "gains of gold, stone times 1 + egg: { gain 1 gold; pay 1 stone }",
}
ZONE_OPS = ("zone_draw", "zone_move", "shuffle", "refill", "for_each_record", "choose_record")
BUILDING = Scope(this_kinds=("building",))
WITH_DICE = {"roll"}  # examples resolved against the pack with a die added (the bundled pack has none)


def _statement(symbols, op: str):
    """The example's AST statement and its compiled step."""
    text = EXAMPLES[op]
    node = parse(text)
    if op in WITH_DICE:
        symbols = dataclasses.replace(symbols, categories={**symbols.categories, "die": frozenset({"d6"})})
    if op == "visit":  # against a flow with a space (the bundled pack has none)
        symbols = dataclasses.replace(symbols, categories={**symbols.categories, "space": frozenset({"field"})})
    if op == "join_order":  # against a flow with a phase in the recorded order (the bundled pack has no flow)
        symbols = dataclasses.replace(symbols, categories={**symbols.categories, "recorded_order": frozenset({"work"})})
    if op in ZONE_OPS:
        from tests.dsl.test_cases import _with_zones
        symbols = _with_zones(symbols)
    res = resolve(node, symbols, BUILDING if op in ("place", "as_owner", "as_occupant", "zone_move", "run", "put", "take")
                  else Scope())
    assert res.errors == [], [e.message for e in res.errors]
    (stmt,) = node.items
    (step,) = C.Compiler(symbols.members("resource"), symbols.members("group"), res.constants).program(node).steps
    return stmt, step


def _english_renders(stmt) -> bool:
    try:
        return bool(to_english(A.Program((stmt,))))
    except TypeError:
        return False


def unhandled(kinds, statements) -> dict[str, list[str]]:
    """For each part that works on statements, the kinds (step classes) it does not handle.
    ``statements``: step class -> an AST statement of that kind (printed and rendered in English)."""
    board = set(natives.OPS) | {"visit"}  # `visit`: the machine of a pack with a flow runs it (runtime/visiting.py)
    return {
        "compile": [k.op for k in kinds if k not in C._STATEMENT],
        "machine": [k.op for k in kinds if k not in EXECUTORS and k.op not in board],
        "fallible": [k.op for k in kinds if k not in fallible._JUDGE],
        "bounds": [k.op for k in kinds if k.node not in bounds._EDGES],
        "printer": [k.op for k in kinds if k.node not in printer._text.registry],
        "english": [k.op for k in kinds if not _english_renders(statements[k])],
    }


# --------------------------------------------------------------------------- the registry


def test_every_statement_of_the_grammar_has_one_step_class():
    grammar = (Path(C.__file__).parent / "effect.lark").read_text()
    rule = re.search(r"^\?statement:(.*?)\n\n", grammar, re.S | re.M).group(1)
    names = {n.strip() for n in rule.replace("\n", "|").split("|") if n.strip()}
    # `as <word>: ...` is one rule of two statements, which the parser tells apart by the word
    assert {"if" if n == "if_stmt" else n for n in names} | {"as_occupant"} == set(S.STATEMENTS)
    assert set(A.Stmt.__args__) == set(S.OF_NODE)  # the AST's statement classes, each linked once
    assert len(S.OF_NODE) == len(S.STATEMENTS) == len(EXAMPLES)
    assert all(k.op == op for op, k in S.STATEMENTS.items())


@pytest.mark.parametrize("op", sorted(S.STATEMENTS))
def test_each_example_compiles_to_its_step_class_and_prints(symbols, op):
    stmt, step = _statement(symbols, op)
    kind = S.STATEMENTS[op]
    assert type(stmt) is kind.node and type(step) is kind
    # the AST's sub-blocks parallel the step's (readable option labels are found through them)
    nodes = kind.node_blocks(stmt)
    assert len(nodes) == len(step.blocks())
    for node, block in zip(nodes, step.blocks()):
        assert len(node.body if isinstance(node, A.Block) else () if node is None else (node,)) == len(block)
    assert parse(printer.to_text(A.Program((stmt,)))) == parse(EXAMPLES[op])
    assert _english_renders(stmt)


def test_every_kind_is_handled_everywhere(symbols):
    kinds = list(S.STATEMENTS.values())
    statements = {S.STATEMENTS[op]: _statement(symbols, op)[0] for op in S.STATEMENTS}
    assert unhandled(kinds, statements) == {part: [] for part in
                                            ("compile", "machine", "fallible", "bounds", "printer", "english")}


def test_a_new_kind_missing_everywhere_is_reported_by_every_part():
    @dataclasses.dataclass(frozen=True, slots=True)
    class Shout:  # an AST statement no part knows
        pos: A.Pos = (0, 0)

    @dataclasses.dataclass(frozen=True, slots=True)
    class ShoutStep(S.Step):
        op = "shout"
        node = Shout

    missing = unhandled([ShoutStep], {ShoutStep: Shout()})
    assert missing == {part: ["shout"] for part in missing} and len(missing) == 6


def test_the_machine_dispatches_every_kind(ruleset):
    tables = build_tables(ruleset)
    full = Machine(tables, dict(natives.OPS), dict(natives.NATIVES))
    assert set(full._exec) == set(S.STATEMENTS.values())
    # every statement but `visit`, which the machine of a pack with a flow runs (its spaces: runtime/visiting.py)
    assert {k.op for k, f in full._exec.items() if f is _needs_engine} == {"visit"}
    bare = Machine(tables)  # without the board mechanisms: exactly the board statements need the engine
    assert {k.op for k, f in bare._exec.items() if f is _needs_engine} == set(natives.OPS) | {"visit"}
    # the statements that stop at a decision take their answer
    assert set(ANSWERS) == {S.Choose, S.May, S.MayPay, S.Repeat, S.Draw, S.Use, S.ChooseRecord}


def test_blocks_follow_the_address_order(symbols):
    _, step = _statement(symbols, "if")
    assert step.blocks() == (step.then, step.otherwise)
    assert S.If(step.cond, step.then, None).blocks() == (step.then, ())
    assert S.Grant("x", None).blocks() == ((),)
    _, choose = _statement(symbols, "choose")
    assert choose.blocks() == choose.options and len(choose.options) == 2
    assert S.Gain(()).blocks() == ()
    assert [type(s) for s in S.walk((choose,))] == [S.Choose, S.Gain, S.Score]


# --------------------------------------------------------------------------- immutability


def _all_steps(ruleset):
    for prog in ruleset.programs.values():
        if isinstance(prog, C.Program):
            yield from S.walk(prog.steps)
            for t in prog.triggers:
                yield from S.walk(t.body)


def _frozen_value(v) -> bool:
    """A field of a compiled step holds only immutable things (closures are read only)."""
    if isinstance(v, tuple):
        return all(_frozen_value(x) for x in v)
    if isinstance(v, (S.Step, *S.MODIFIERS)):
        return all(_frozen_value(getattr(v, f.name)) for f in dataclasses.fields(v))
    return v is None or isinstance(v, (str, int)) or (callable(v) and not isinstance(v, type))


def test_compiled_programs_are_frozen(ruleset):
    steps = list(_all_steps(ruleset))
    assert {type(s) for s in steps} >= {S.Gain, S.Choose, S.If, S.MayPay, S.Move, S.Perform}
    for step in steps:
        assert dataclasses.is_dataclass(step) and type(step).__dataclass_params__.frozen
        assert _frozen_value(step), step
    step = steps[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        object.__getattribute__(step, "__setattr__")(dataclasses.fields(step)[0].name, ())
    prog = next(p for p in ruleset.programs.values() if isinstance(p, C.Program))
    with pytest.raises(dataclasses.FrozenInstanceError):
        prog.steps = ()


def test_playing_games_changes_no_compiled_program():
    import random

    from interpreter import load_ruleset, make_bot, new_game

    ruleset = load_ruleset()
    before = {k: (id(p), repr(p)) for k, p in ruleset.programs.items()}
    for seed in (1, 2):
        game = new_game(ruleset, 2, seed=seed)
        bot, rng = make_bot("random", game.rules), random.Random(seed)
        while not game.is_terminal():
            game.apply(bot.choose(game, rng))
    assert {k: (id(p), repr(p)) for k, p in ruleset.programs.items()} == before
