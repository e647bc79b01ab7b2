"""`run F of this` / `run F of R` (runtime/record_effects.py): a record's effect field run as a program,
on a small invented pack: a road of cards whose spaces run a card's first effect for the worker's
owner and its second for the card's owner, an automatic phase that runs the cards in road order,
a named record's field, a decision inside a run field, and the resolve checks."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter import load_ruleset, new_game
from interpreter.content.ruleset import run_pipeline

import inline_pack

E = "provenance: exact, source: test"

PACK = f"""\
kind: pack
id: road_test
name: Road test
version: 0.0.1
players: {{min: 1, max: 4}}
include: [kinds.yaml, cards.yaml, flow.yaml, scoring.yaml]
resources:
  - {{id: coin, name: coin, plural: coins, {E}}}
  - {{id: grain, name: grain, {E}}}
pieces:
  - {{id: worker, per_player: 1, {E}}}
actions:
  - {{id: rest, name: Rest, effect: gain 0 coin, {E}}}
zones:
  - {{id: deck, holds: card, start: all, {E}}}
  - {{id: hand, holds: card, per: player, {E}}}
  - {{id: road, holds: card, {E}}}
"""
KINDS = """\
kind: record_kinds
kinds:
  - id: card
    doc: A card of the road.
    file: cards
    list: cards
    fields:
      primary: {type: effect, doc: For the worker's owner.}
      secondary: {type: effect, required: false, doc: For the card's owner.}
"""
CARDS = f"""\
kind: cards
cards:
  - {{id: farm, primary: gain 2 grain, secondary: gain 1 coin, {E}}}
  - {{id: mill, primary: score 2, {E}}}
  - {{id: inn, primary: "choose {{ gain 3 coin | gain 3 grain }}", secondary: score 1, {E}}}
"""
FLOW = f"""\
kind: flow
provenance: exact
source: test
setup: |
  for each player: draw 1 from deck to hand
rounds: 1
phases:
  - {{id: build, menu: build}}
  - {{id: work, menu: work}}
  - {{id: activate, kind: automatic, run: "for each in road: as owner: run primary of this"}}
  - {{id: bonus, kind: automatic, run: "run secondary of farm; run secondary of mill"}}
menus:
  - id: build
    provenance: exact
    source: test
    entries:
      - {{id: build, from: hand, effect: move this to road at end, ends_turn: true, {E}}}
  - id: work
    provenance: exact
    source: test
    entries:
      - {{id: place, from: spaces, piece: worker, ends_turn: true, {E}}}
      - {{id: rest, ends_turn: true, {E}}}
spaces:
  - {{id: card, on: road, effect: "run primary of this; as owner: run secondary of this", {E}}}
"""
SCORING = f"""\
kind: scoring
final:
  - {{id: coins, effect: "score coin", {E}}}
"""


def make(tmp_path: Path, flow: str = FLOW, cards: str = CARDS) -> Path:
    return inline_pack.write_pack(tmp_path, {"pack.yaml": PACK, "kinds.yaml": KINDS, "cards.yaml": cards,
                                             "flow.yaml": flow, "scoring.yaml": SCORING})


def hold(g, seat: int) -> dict:
    return g.state.players[seat].holdings


def test_a_space_on_a_card_runs_its_first_effect_for_the_worker_and_its_second_for_the_card_owner(tmp_path):
    g = new_game(load_ruleset(make(tmp_path)), 2, seed=0)
    assert g.state.zones["hand@0"] == ("farm",) and g.state.zones["hand@1"] == ("mill",)
    g.apply("build farm")
    g.apply("build mill")
    assert g.state.zones["road"] == ("farm", "mill") and g.state.owners == {"farm": 0, "mill": 1}
    assert g.legal_actions() == ["place farm", "place mill", "rest"]
    g.apply("place mill")  # seat 0's worker on seat 1's mill: 2 points for seat 0; mill has no secondary
    assert g.state.players[0].breakdown == {"mill": 2} and hold(g, 1) == {"coin": 0, "grain": 0}
    g.apply("place farm")  # seat 1's worker on seat 0's farm: 2 grain for seat 1, a coin for seat 0
    assert hold(g, 1)["grain"] == 2
    # then activate: each card's primary for its owner, in road order; then the named records' secondaries
    assert hold(g, 0)["grain"] == 2 and g.state.players[1].breakdown["mill"] == 2
    assert hold(g, 0)["coin"] == 1 + 1  # the farm's secondary twice: its space, then `run secondary of farm`
    assert hold(g, 1)["coin"] == 0 and g.is_terminal()


def test_a_decision_inside_a_run_field_is_the_acting_players_and_this_is_the_record(tmp_path):
    flow = FLOW.replace("for each player: draw 1 from deck to hand", "for each player: draw 1 from deck to hand\n  move all from deck to road")
    g = new_game(load_ruleset(make(tmp_path, flow=flow)), 1, seed=0)
    assert g.state.zones["road"] == ("mill", "inn")  # the farm went to the hand
    g.apply("build farm")
    g.apply("place inn")  # the inn is nobody's: its primary asks the worker's owner
    assert g.state.decision is not None and g.state.decision.player == 0 and g.legal_actions() == ["choose 1", "choose 2"]
    g.apply("choose 2")
    assert g.is_terminal()
    assert hold(g, 0)["grain"] == 3 + 2  # the inn's 3 grain, then the farm's own primary in the activation
    assert "inn" not in g.state.players[0].breakdown  # the inn has no owner: its secondary is skipped
    assert hold(g, 0)["coin"] == 1  # `run secondary of farm`


@pytest.mark.parametrize("effect, code, what", [
    ("run primary of this", "E311", "belong to a record"),  # an automatic phase has no `this`
    ("run primary of fram", "E301", "did you mean 'farm'"),
    ("run secondry of farm", "E308", "'card' has no effect field 'secondry'"),
    ("for each in road: run primery of this", "E308", "it has: primary, secondary"),
])
def test_run_is_resolved(tmp_path, effect, code, what):
    flow = FLOW.replace('run: "run secondary of farm; run secondary of mill"', f'run: "{effect}"')
    errors = run_pipeline(make(tmp_path, flow=flow)).errors
    assert [e.code for e in errors] == [code] and what in errors[0].message, [e.message for e in errors]
    assert Path(errors[0].span.path).name == "flow.yaml" and errors[0].span.line == 11


def test_a_field_that_runs_itself_is_a_cycle(tmp_path):
    cards = CARDS.replace("primary: score 2,", "primary: run primary of this,")
    errors = run_pipeline(make(tmp_path, cards=cards)).errors
    assert [e.code for e in errors] == ["E230"] and Path(errors[0].span.path).name == "cards.yaml"
