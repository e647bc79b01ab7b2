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
    return (f"kind: pack\nid: placing\nname: Placing\nversion: 0.0.1\nplayers: {{min: 1, max: 4}}\n"
            f"include: [flow.yaml, scoring.yaml]\nresources:\n"
            f"  - {{id: coin, name: coin, plural: coins, {E}}}\n  - {{id: grain, name: grain, {E}}}\n"
            f"{resources + chr(10) if resources else ''}pieces:\n{pieces}\n"
            f"actions:\n  - {{id: rest, name: Rest, effect: gain 0 coin, {E}}}\n")


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


def test_a_space_takes_a_piece_when_full_while_its_enter_when_full_holds_for_the_player(tmp_path):
    flow = TOWER.replace('setup: "for each player: gain 5 coin"', 'setup: "for each player: gain 5 coin; gain 1 grain"')
    flow = flow.replace("  - {id: yard, ", "  - {id: yard, enter_when_full: grain > 0, ")
    g = new_game(load_ruleset(make(tmp_path, flow)), 2, seed=0)
    g.apply("place yard")  # seat 1 holds a grain after setup (the last seat's `gain 1 grain` is its own)
    assert g.state.current == 1 and "place yard" not in g.legal_actions()  # seat 2 holds none: full
    g.apply("place inn")
    g.apply("place yard")  # seat 1 again: the space is full, its condition holds for seat 1
    assert [p.owner for p in g.state.spaces["yard"]] == [0, 0]
    assert "place yard" not in g.legal_actions()  # seat 2, still no grain
    g.apply("place inn")
    g.apply("pass")


# ---------------------------------------------------------------- the value of a placed piece

MEMBERS = f"""\
  - {{id: black, per_player: 1, value: die(black), {E}}}
  - {{id: white, per_player: 1, value: die(white) + 0, {E}}}
  - {{id: neutral, per_player: 1, value: "0", coloured: false, {E}}}"""
VALUE_RESOURCES = f"""\
  - {{id: servant, name: servant, plural: servants, {E}}}
  - {{id: bonus, name: bonus, {E}}}"""

FAMILY = f"""\
setup: |
  roll black
  roll white
  for each player: gain 3 servant
rounds: 1
phases:
  - {{id: work, menu: work, until: all_passed}}
menus:
  - id: work
    provenance: exact
    source: test
    entries:
      - {{id: place_black, verb: place black, from: spaces, piece: black, boost: 1 servant, ends_turn: true, {E}}}
      - {{id: place_white, verb: place white, from: spaces, piece: white, boost: 1 servant, ends_turn: true, {E}}}
      - {{id: place_neutral, verb: place neutral, from: spaces, piece: neutral, boost: 1 servant, ends_turn: true, {E}}}
      - {{id: train, cost: 1 servant, effect: gain 2 bonus, limit: 1, {E}}}
      - {{id: pass, passes: true, effect: score value, {E}}}
spaces:
  - {{id: floor_1, group: tower, occupancy: one_coloured_per_player_in_group, min_value: 1, effect: gain 1 coin, {E}}}
  - {{id: floor_3, group: tower, occupancy: one_coloured_per_player_in_group, min_value: 3, effect: gain 3 coin, {E}}}
  - {{id: harvest, capacity: null, effect: gain (value) grain, {E}}}
  - {{id: council, capacity: null, requires: value >= 2, effect: "for each other player: gain (value) coin", {E}}}
  - {{id: fair, capacity: null, min_value: 6, value_bonus: bonus, effect: "choose {{ gain (value) coin | score 1 }}", {E}}}
dice:
  - {{id: black, outcomes: [4, 4], {E}}}
  - {{id: white, outcomes: [1, 1], {E}}}
"""


def family(tmp_path, players: int = 1):
    rs = load_ruleset(make(tmp_path, FAMILY, MEMBERS, VALUE_RESOURCES))
    return new_game(rs, players, seed=0)


def holdings(g, seat: int = 0) -> dict:
    return g.state.players[seat].holdings


def test_a_piece_is_worth_its_value_and_a_boost_names_the_servants_spent(tmp_path):
    g = family(tmp_path)
    legal = g.legal_actions()
    # black is worth 4 (its die): the tower's floors take it; a boost is offered up to the servants held
    assert {"place black floor_1", "place black floor_3", "place black floor_3 boost 3"} <= set(legal)
    # white is worth 1: the third floor only with 2 servants or more
    assert "place white floor_3" not in legal and "place white floor_3 boost 1" not in legal
    assert {"place white floor_3 boost 2", "place white floor_3 boost 3", "place white floor_1"} <= set(legal)
    assert "place white floor_1 boost 4" not in legal  # 3 servants
    assert "place white council" not in legal and "place white council boost 1" in legal  # requires: value >= 2
    g.apply("place white floor_3 boost 2")
    assert holdings(g)["servant"] == 1 and holdings(g)["coin"] == 3
    assert g.state.spaces["floor_3"][0].piece == "white"


def test_the_space_effect_reads_the_value_with_its_boost(tmp_path):
    g = family(tmp_path)
    g.apply("place black harvest boost 2")
    assert holdings(g)["grain"] == 6 and holdings(g)["servant"] == 1
    g.apply("place white harvest")
    assert holdings(g)["grain"] == 7


def test_the_value_reaches_the_bodies_an_effect_starts_and_is_0_elsewhere(tmp_path):
    g = family(tmp_path, players=3)
    g.apply("place black council boost 1")  # worth 5: each other seat gains 5 coins
    assert [p.holdings["coin"] for p in g.state.players] == [0, 5, 5]
    for _ in range(3):
        g.apply("pass")  # `score value` outside a space's programs scores 0
    assert g.is_terminal() and all(p.breakdown.get("pass", 0) == 0 for p in g.state.players)


def test_a_neutral_piece_is_worth_its_value_and_ignored_by_the_coloured_rule(tmp_path):
    g = family(tmp_path)
    g.apply("place black floor_3")
    legal = g.legal_actions()
    assert not any(a.startswith("place white floor") for a in legal)  # one coloured piece per player in the tower
    assert "place neutral floor_1" not in legal and "place neutral floor_1 boost 1" in legal  # worth 0
    g.apply("place neutral floor_1 boost 1")
    assert holdings(g)["servant"] == 2 and [o.coloured for o in g.state.spaces["floor_1"]] == [False]


def test_a_space_bonus_is_a_permanent_modifier_the_player_holds(tmp_path):
    g = family(tmp_path)
    assert "place black fair boost 2" in g.legal_actions() and "place black fair boost 1" not in g.legal_actions()
    g.apply("train")  # 2 bonus, for the rest of the game
    assert "place black fair" in g.legal_actions()  # 4 + 2
    g.apply("place black fair")
    assert g.legal_actions() == ["choose 1", "choose 2"]
    saved = g.to_json()  # the value waits with the decision, through a save
    g2 = type(g).from_json(g.rules.ruleset, saved)
    g2.apply("choose 1")
    assert holdings(g2)["coin"] == 6


def test_the_boost_notation(tmp_path):
    from interpreter import IllegalActionError
    g = family(tmp_path)
    for bad in ("place black floor_1 boost 0", "place black floor_1 boost 01", "place black floor_1 boost x",
                "train boost 1", "place black floor_1 boost 9"):
        with pytest.raises(IllegalActionError):
            g.apply(bad)


def test_value_declarations_are_checked(tmp_path):
    flow = FAMILY.replace("      - {id: train, cost: 1 servant,", "      - {id: train, cost: 1 servant, boost: 1 coin,")
    path = make(tmp_path, flow, MEMBERS, VALUE_RESOURCES)
    lines = flow.splitlines()
    row = next(i for i, x in enumerate(lines) if "id: train" in x)
    assert errors(path) == [("E209", f"flow.yaml:{row + 4}:{lines[row].index('1 coin') + 1}")]
    plain = FAMILY.replace("boost: 1 servant, ", "").replace("value_bonus: bonus, ", "")
    path = make(tmp_path, plain, f"  - {{id: black, per_player: 1, {E}}}\n  - {{id: white, per_player: 1, {E}}}\n"
                                 f"  - {{id: neutral, per_player: 1, {E}}}", VALUE_RESOURCES)
    codes = errors(path)
    assert [c for c, _ in codes] == ["E209", "E209", "E209"]  # three spaces need a value nothing gives
