"""Simultaneous phases (runtime/simultaneous.py): every seat chooses without seeing the others'
choices, which apply once all have chosen, in the order made; observations hide pending choices.
A small invented pack, written inline."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_ruleset, new_game
from interpreter.content.ruleset import run_pipeline
from interpreter.runtime.game import Game
from interpreter.runtime.simultaneous import HIDDEN, PENDING

import inline_pack

E = "provenance: exact, source: test"

PACK = f"""\
kind: pack
id: together
name: Together
version: 0.0.1
players: {{min: 1, max: 4}}
include: [flow.yaml, scoring.yaml]
resources:
  - {{id: coin, name: coin, plural: coins, {E}}}
  - {{id: grain, name: grain, {E}}}
pieces:
  - {{id: worker, per_player: 1, {E}}}
actions:
  - {{id: rest, name: Rest, effect: gain 0 coin, {E}}}
"""
FLOW = f"""\
kind: flow
provenance: exact
source: test
setup: "for each player: gain 2 coin"
rounds: 2
phases:
  - {{id: plan, menu: plan, simultaneous: true}}
  - {{id: tally, kind: automatic, run: "for each player: gain 1 grain"}}
menus:
  - id: plan
    provenance: exact
    source: test
    entries:
      - {{id: place, from: spaces, piece: worker, ends_turn: true, {E}}}
      - {{id: save, effect: gain 1 coin, ends_turn: true, {E}}}
      - {{id: pick, cost: 1 coin, effect: "choose {{ gain 3 grain | gain 2 coin }}", ends_turn: true, {E}}}
spaces:
  - {{id: well, effect: gain 3 grain, {E}}}
"""
SCORING = f"""\
kind: scoring
final:
  - {{id: coins, effect: "score coin", {E}}}
"""


def make(tmp_path: Path, flow: str = FLOW) -> Path:
    return inline_pack.write_pack(tmp_path, {"pack.yaml": PACK, "flow.yaml": flow, "scoring.yaml": SCORING})


@pytest.fixture()
def rs(tmp_path):
    return load_ruleset(make(tmp_path))


def holdings(g) -> list[dict]:
    return [dict(p.holdings) for p in g.state.players]


def test_a_choice_waits_for_the_others_and_they_choose_in_the_same_state(rs):
    g = new_game(rs, 3, seed=0)
    start = holdings(g)
    first = g.legal_actions()
    g.apply("place well")
    assert holdings(g) == start and g.state.spaces.get("well", ()) == ()  # chosen, not applied
    assert g.current_player == 1 and g.legal_actions() == first  # the well looks free to seat 2
    g.apply("save")
    assert holdings(g) == start
    g.apply("place well")  # the last choice: all apply, in the order made
    after = holdings(g)
    assert after[0] == {"coin": 2, "grain": 3 + 1} and after[1] == {"coin": 3, "grain": 1}
    assert after[2] == {"coin": 2, "grain": 1}  # its well was taken by seat 1's choice: it stops
    assert any("place well (seat 3)" in note for note in g.state.table["stopped"])
    assert g.state.players[2].pieces_free["worker"] == 1 and PENDING not in g.state.table


def test_observations_hide_the_pending_choices_of_other_seats(rs):
    g = new_game(rs, 3, seed=0)
    g.apply("save")
    g.apply("place well")
    assert g.observation(0)["log"] == ["save", HIDDEN]
    assert g.observation(1)["log"] == [HIDDEN, "place well"]
    assert g.observation(-1)["log"] == [HIDDEN, HIDDEN]
    g.apply("save")
    assert g.observation(2)["log"] == ["save", "place well", "save"]  # applied: public again


def test_a_decision_inside_a_chosen_action_pauses_before_the_next_applies(rs):
    g = new_game(rs, 2, seed=0)
    g.apply("pick")
    g.apply("save")
    assert g.state.decision is not None and g.state.decision.player == 0 and holdings(g)[1]["coin"] == 2
    saved = Game.from_json(rs, g.to_json())
    assert saved.state == g.state
    g.apply("choose 2")
    assert holdings(g)[0]["coin"] == 2 - 1 + 2 and holdings(g)[1]["coin"] == 3  # then seat 2's choice
    assert g.state.flow.round == 2


def test_a_whole_game_ends_and_replays(rs):
    import random
    g = new_game(rs, 2, seed=1)
    rng = random.Random(4)
    while not g.is_terminal():
        g.apply(rng.choice(g.legal_actions()))
    replay = new_game(rs, 2, seed=1)
    for action in g.state.log:
        replay.apply(action)
    assert replay.state == g.state


@pytest.mark.parametrize("edit, message", [
    (("  - {id: plan, menu: plan, simultaneous: true}", "  - {id: plan, menu: plan, simultaneous: true, until: all_passed}"),
     "its seats take `turns_each` turns"),
    (("      - {id: save, effect: gain 1 coin, ends_turn: true,", "      - {id: save, effect: gain 1 coin,"),
     "entry 'save' of menu 'plan' does not end the turn"),
    (('run: "for each player: gain 1 grain"}', 'run: "for each player: gain 1 grain", simultaneous: true}'),
     "takes no turns: drop `simultaneous`"),
])
def test_simultaneous_declarations_are_checked(tmp_path, edit, message):
    flow = FLOW.replace(*edit)
    if "all_passed" in edit[1]:
        flow = flow.replace("      - {id: save,", "      - {id: stop, passes: true, ends_turn: true, " + E + "}\n      - {id: save,")
    errors = [e for e in run_pipeline(make(tmp_path, flow)).errors if e.code == "E209"]
    assert len(errors) == 1 and message in errors[0].message, [e.message for e in errors]
    assert Path(errors[0].span.path).name == "flow.yaml"
