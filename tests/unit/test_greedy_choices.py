"""The greedy bot in a game whose turns are menus of content entries judges an action that stops at a
choice of the same player by its best way through that choice, not halfway (interpreter/play/bots.py
GreedyBot.THROUGH_CHOICES): otherwise an action whose reward comes after a choice never looks worth it."""

from __future__ import annotations

import random

from interpreter import load_ruleset, make_bot, new_game

import inline_pack

E = "provenance: exact, source: test"
PACK = f"""\
kind: pack
id: choicetest
name: Choice test
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
rounds: 1
phases:
  - {{id: work, menu: work}}
menus:
  - id: work
    provenance: exact
    source: test
    entries:
      - {{id: sell, effect: gain 2 coin, ends_turn: true, {E}}}
      - {{id: harvest, effect: "choose {{ gain 1 coin | gain 5 grain }}", ends_turn: true, {E}}}
"""
SCORING = f"""\
kind: scoring
final:
  - {{id: coins, effect: score coin, {E}}}
"""
BOTS = f"""\
kind: bots
greedy: default
mcts: default
evaluations:
  - {{id: default, holdings: {{coin: 1.0, grain: 1.0}}, opponents: 0, {E}}}
"""


def test_greedy_sees_what_an_action_gives_after_its_own_choice(tmp_path):
    root = inline_pack.write_pack(tmp_path, {"pack.yaml": PACK, "flow.yaml": FLOW, "scoring.yaml": SCORING,
                                             "bots.yaml": BOTS})
    g = new_game(load_ruleset(root), 1, seed=0)
    bot = make_bot("greedy", g.rules)
    assert sorted(g.legal_actions()) == ["harvest", "sell"]
    assert bot.choose(g, random.Random(0)) == "harvest"  # 5 grain after the choice beats 2 coins now
    g.apply("harvest")
    assert bot.choose(g, random.Random(0)) == "choose 2"
    bot.THROUGH_CHOICES = 0  # judged halfway, the choice gives nothing yet: selling looks better
    assert bot.choose(new_game(load_ruleset(root), 1, seed=0), random.Random(0)) == "sell"
