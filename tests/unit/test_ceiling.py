"""The ceiling of a solo game (interpreter/play/ceiling.py): the best score a beam over whole turns finds on
the real deal. On an invented pack whose best line takes three turns of sowing, and on the bundled pack,
where the line found must replay to the same score on a fresh game of the same seed (the real draws)."""

from __future__ import annotations

import random

import pytest

from interpreter import load_ruleset, make_bot, new_game
from interpreter.play.bots import load_evaluation
from interpreter.play.ceiling import ceiling

import inline_pack

E = "provenance: exact, source: test"
PACK = f"""\
kind: pack
id: ceilingtest
name: Ceiling test
version: 0.0.1
players: {{min: 1, max: 2}}
include: [flow.yaml, scoring.yaml, bots.yaml]
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
final_choices: most_points
phases:
  - {{id: work, menu: work}}
menus:
  - id: work
    provenance: exact
    source: test
    entries:
      - {{id: sell, effect: gain 2 coin, ends_turn: true, {E}}}
      - {{id: plant, effect: gain 1 grain, ends_turn: true, {E}}}
"""
SCORING = f"""\
kind: scoring
tables:
  - {{id: granary, steps: [{{min: 0, points: 0}}, {{min: 3, points: 10}}], {E}}}
final:
  - {{id: coins, effect: score coin, {E}}}
  - {{id: granary, effect: "score table(granary, grain)", {E}}}
"""
BOTS = f"""\
kind: bots
greedy: coins
mcts: coins
planner: coins
evaluations:
  - {{id: coins, holdings: {{coin: 1.0}}, opponents: 0, {E}}}
"""


@pytest.fixture
def rules_and_game(tmp_path):
    root = inline_pack.write_pack(tmp_path, {"pack.yaml": PACK, "flow.yaml": FLOW, "scoring.yaml": SCORING,
                                             "bots.yaml": BOTS})
    game = new_game(load_ruleset(root), 1, seed=0)
    return game.rules, game


def test_the_ceiling_finds_the_line_the_evaluation_cannot_see(rules_and_game):
    rules, game = rules_and_game
    coins = load_evaluation(rules, "coins")  # grain is worth nothing to it: selling looks best every turn
    planner = make_bot("planner:coins:4", rules)
    played = game.clone()
    while not played.is_terminal():
        played.apply(planner.choose(played, random.Random(0)))
    assert played.scores()[0]["score"] == 6  # three sales
    found = ceiling(game, coins, width=3)  # after two turns: 4 coins, 2 coins and a grain (sold and planted in
    # either order: one position, kept once), 2 grain
    assert found.score == 10 and found.line == ("plant", "plant", "plant")  # the granary's step
    assert game.state.log == [] and not game.is_terminal()  # the game searched is unchanged
    assert ceiling(game, coins, width=1).score == 6  # a beam of one follows the evaluation alone


def test_a_ceiling_is_a_solo_games(rules_and_game):
    rules, _ = rules_and_game
    duo = new_game(rules.ruleset, 2, seed=0)
    with pytest.raises(ValueError, match="solo game's: this game has 2 seats that choose"):
        ceiling(duo, load_evaluation(rules, "coins"))


def test_the_line_found_on_the_bundled_pack_replays_to_its_score_on_the_same_deal():
    ruleset = load_ruleset()
    game = new_game(ruleset, 1, seed=3)
    found = ceiling(game, load_evaluation(game.rules, "tuned_lookahead"), width=1, turn_width=2)
    replay = new_game(ruleset, 1, seed=3)
    for action in found.line:
        replay.apply(action)
    assert replay.is_terminal() and replay.scores()[0]["score"] == found.score > 0
