"""`join order` (interpreter/runtime/iterate.py, runtime/flow.py join_order): a seat takes the next
place in the order of the next phase declared `order: recorded`, as visitors of a council space set
the next round's turn order: the seats that joined in the order they joined, then the others in the
order they had. Played on a tiny pack on the generic core written to disk."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from interpreter import load_ruleset, new_game
from interpreter.content.ruleset import run_pipeline
from interpreter.dsl.compile import Compiler
from interpreter.dsl.parse import parse
from interpreter.dsl.resolve import resolve
from interpreter.errors import RulesError
from interpreter.runtime.fallible import Fallibility
from interpreter.runtime.machine import Machine
from interpreter.runtime.state import GameState, PlayerState
from interpreter.runtime.tables import build_tables

import inline_pack

E = "provenance: exact, source: test"
PACK = f"""\
kind: pack
id: council
name: Council
version: 0.0.1
players: {{min: 1, max: 4}}
include: [flow.yaml, scoring.yaml]
resources:
  - {{id: coin, name: coin, plural: coins, {E}}}
  - {{id: grain, name: grain, {E}}}
actions:
  - {{id: rest, name: Rest, effect: gain 0 coin, {E}}}
"""
FLOW = f"""\
kind: flow
provenance: exact
source: test
rounds: 3
phases:
  - {{id: place, menu: place, order: recorded, turns_each: 2}}
menus:
  - id: place
    provenance: exact
    source: test
    entries:
      - {{id: palace, effect: "gain 1 coin; join order", ends_turn: true, {E}}}
      - {{id: work, effect: gain 1 grain, ends_turn: true, {E}}}
"""
SCORING = f"""\
kind: scoring
final:
  - {{id: coins, effect: score coin, {E}}}
"""


def write_pack(root: Path, flow: str = FLOW) -> Path:
    return inline_pack.write_pack(root, {"pack.yaml": PACK, "flow.yaml": flow, "scoring.yaml": SCORING})


@pytest.fixture(scope="module")
def rs(tmp_path_factory):
    return load_ruleset(write_pack(tmp_path_factory.mktemp("council")))


def play_round(g, actions) -> list[int]:
    """Apply one action per turn; the seats that took them."""
    seats = []
    for a in actions:
        seats.append(g.current_player)
        g.apply(a)
    return seats


def test_visitors_come_first_in_visit_order_then_the_others_in_their_old_order(rs):
    g = new_game(rs, 3, seed=1)
    seats = play_round(g, ["work", "work", "palace", "palace", "work", "palace"])
    assert seats == [0, 1, 2, 0, 1, 2]  # round 1: seat order (nobody joined yet)
    assert g.state.flow.round == 2 and g.state.flow.order == (2, 0, 1)  # seat 2 joined first; it joined twice
    assert g.state.flow.joined == () and g.state.flow.recorded == (2, 0, 1)  # used once, cleared
    seats = play_round(g, ["work"] * 6)
    assert seats == [2, 0, 1, 2, 0, 1]
    assert g.state.flow.round == 3 and g.state.flow.order == (2, 0, 1)  # nobody joined: the order stays
    seats = play_round(g, ["work", "work", "palace", "work", "work", "work"])
    assert seats == [2, 0, 1, 2, 0, 1] and g.is_terminal()
    assert g.state.flow.joined == (1,)  # joined after the last recorded phase began: never used
    assert [p.holdings.get("coin", 0) for p in g.state.players] == [1, 1, 2]


def test_the_recorded_order_survives_json_and_a_clone_keeps_its_own(rs):
    g = new_game(rs, 2, seed=1)
    g.apply("work")  # seat 0
    g.apply("palace")  # seat 1 joins
    copy = g.clone()
    copy.apply("palace")  # seat 0 joins, in the copy only
    assert copy.state.flow.joined == (1, 0) and g.state.flow.joined == (1,)
    again = type(g).from_json(rs, g.to_json())
    assert again.state.flow.joined == (1,)
    for game in (g, again):
        game.apply("work")
        game.apply("work")
    assert g.state.flow.order == again.state.flow.order == (1, 0)


# --------------------------------------------------------------------------- checks and the static pass

def test_join_order_needs_a_phase_in_the_recorded_order_and_the_word_order(tmp_path):
    flow = FLOW.replace("order: recorded, ", "").replace('"gain 1 coin; join order"', '"gain 1 coin; join seats"')
    errors = run_pipeline(write_pack(tmp_path / "bad", flow)).errors
    line_no = next(n for n, text in enumerate(flow.splitlines(), 1) if "join seats" in text)
    col = flow.splitlines()[line_no - 1].index("seats\"") + 1
    assert [(Path(e.span.path).name, e.span.line, e.span.col, e.code) for e in errors] == [("flow.yaml", line_no, col, "E301")]
    flow = FLOW.replace("order: recorded, ", "")
    errors = run_pipeline(write_pack(tmp_path / "none", flow)).errors
    line_no = next(n for n, text in enumerate(flow.splitlines(), 1) if "join order" in text)
    col = flow.splitlines()[line_no - 1].index("join order") + 1
    assert [(e.span.line, e.span.col, e.code) for e in errors] == [(line_no, col, "E311")]
    assert "order: recorded" in errors[0].message


def test_join_order_cannot_fail_and_needs_a_flow_to_run(rs):
    tables = build_tables(rs)
    node = parse("join order")
    res = resolve(node, rs.symbols)
    assert res.errors == []
    prog = Compiler(rs.symbols.members("resource")).program(node, "join order")
    assert Fallibility(tables, {}).safe(prog.steps)
    m = Machine(dataclasses.replace(tables, programs={**tables.programs, "test": prog}))
    state = GameState(players=[PlayerState(0)])  # no flow
    m.start(state, "test", 0, "test")
    with pytest.raises(RulesError, match="flow"):
        m.run(state)
