"""Putting a piece on a space of a pack on the generic core (runtime/core_game.py, runtime/placing.py,
spaces.py): the fee for entering an occupied group (`occupied_cost`), and the value of a placed piece
(a piece's `value`, a menu entry's `boost`, a space's `min_value` and `value_bonus`, the name `value`).
Small invented packs, written inline."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter import load_ruleset, new_game
from interpreter.content.ruleset import run_pipeline

E = "provenance: exact, source: test"


def pack_text(pieces: str, resources: str = "") -> str:
    return textwrap.dedent(f"""\
    kind: pack
    id: placing
    name: Placing
    version: 0.0.1
    players: {{min: 1, max: 4}}
    include: [flow.yaml, scoring.yaml]
    resources:
      - {{id: coin, name: coin, plural: coins, {E}}}
      - {{id: grain, name: grain, {E}}}
    {resources}
    pieces:
    {pieces}
    actions:
      - {{id: rest, name: Rest, effect: gain 0 coin, {E}}}
    """)


SCORING = f"""\
kind: scoring
final:
  - {{id: coins, effect: "score coin", {E}}}
"""


def make(tmp_path: Path, flow: str, pieces: str = f"  - {{id: worker, per_player: 2, {E}}}", resources: str = ""):
    (tmp_path / "pack.yaml").write_text(pack_text(pieces, resources))
    (tmp_path / "flow.yaml").write_text("kind: flow\nprovenance: exact\nsource: test\n" + textwrap.dedent(flow))
    (tmp_path / "scoring.yaml").write_text(SCORING)
    return tmp_path


def errors(path: Path) -> list[tuple[str, str]]:
    return [(e.code, f"{Path(e.span.path).name}:{e.span.line}:{e.span.col}") for e in run_pipeline(path).errors]


# ---------------------------------------------------------------- the fee of an occupied group

TOWER = f"""\
setup: "for each player: gain 5 coin"
rounds: 1
phases:
  - {{id: work, menu: work, until: all_passed}}
menus:
  - id: work
    provenance: exact
    source: test
    entries:
      - {{id: place, from: spaces, piece: worker, ends_turn: true, {E}}}
      - {{id: pass, passes: true, {E}}}
spaces:
  - {{id: low, group: tower, occupied_cost: 3 coin, effect: gain 1 grain, {E}}}
  - {{id: high, group: tower, occupied_cost: 3 coin, cost: 1 coin, effect: gain 2 grain, {E}}}
  - {{id: yard, {E}}}
  - {{id: inn, capacity: null, occupied_cost: 1 coin, {E}}}
"""


def coins(g) -> list[int]:
    return [p.holdings["coin"] for p in g.state.players]


def test_the_first_piece_in_a_group_pays_nothing_more_the_next_pay_the_fee(tmp_path):
    g = new_game(load_ruleset(make(tmp_path, TOWER)), 2, seed=0)
    g.apply("place high")
    assert coins(g) == [4, 5]  # its own cost only: the tower was empty
    g.apply("place low")
    assert coins(g) == [4, 2]  # the tower holds a piece (another seat's): 3 coins
    g.apply("place yard")  # outside the group: no fee
    assert coins(g) == [4, 2]
    assert "place low" not in g.legal_actions()  # full
    g.apply("pass")


def test_the_fee_is_paid_for_the_own_pieces_too_and_a_seat_that_cannot_pay_is_not_offered_it(tmp_path):
    flow = TOWER.replace("gain 5 coin", "gain 3 coin")
    g = new_game(load_ruleset(make(tmp_path, flow)), 1, seed=0)
    g.apply("place low")
    assert "place high" not in g.legal_actions()  # 1 coin + 3 coins of fee, with 3 coins
    g.apply("place inn")  # a space without a group: the fee when the space itself holds a piece
    assert coins(g) == [3]
    g2 = new_game(load_ruleset(make(tmp_path, TOWER)), 1, seed=0)
    g2.apply("place low")
    g2.apply("place high")  # the seat's own piece occupies the tower: 1 + 3 coins
    assert coins(g2) == [1]


def test_a_fee_that_can_never_be_paid_is_an_error(tmp_path):
    flow = TOWER.replace("  - {id: yard, ", "  - {id: yard, occupied_cost: 2 coin, ")
    line = flow.splitlines().index(next(x for x in flow.splitlines() if "id: yard" in x)) + 4
    col = flow.splitlines()[line - 4].index("2 coin") + 1  # at the field's value
    assert errors(make(tmp_path, flow)) == [("E209", f"flow.yaml:{line}:{col}")]
    message = run_pipeline(tmp_path).errors[0].message
    assert "'yard'" in message and "never paid" in message
