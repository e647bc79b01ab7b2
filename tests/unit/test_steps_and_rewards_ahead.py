"""What bots see ahead on tables and tracks. Stepped values read between their steps
(runtime/between_steps.py): what a count partway to the next step of a scoring table, or a marker partway
to the next printed value of a track, is worth to a bots' forecast of final scoring
(Game.scores_if_over(between_steps=...), the evaluation's `steps`); the rules themselves never read
between the steps. The way toward the next reward printed on a track (the evaluation's `rewards_ahead`),
the reward priced from its text (play/effect_value.py). On an invented pack."""

from __future__ import annotations

import random

import pytest

from interpreter import load_ruleset, make_bot, new_game
from interpreter.dsl.parse import parse
from interpreter.play.bots import load_evaluation
from interpreter.play.effect_value import effect_value
from interpreter.runtime.between_steps import between, blended, track_steps
from interpreter.runtime.tables import TrackTable

import inline_pack

E = "provenance: exact, source: test"
PACK = f"""\
kind: pack
id: stepstest
name: Steps test
version: 0.0.1
players: {{min: 1, max: 1}}
include: [flow.yaml, scoring.yaml, tracks.yaml, bots.yaml]
resources:
  - {{id: coin, name: coin, plural: coins, {E}}}
  - {{id: grain, name: grain, {E}}}
  - {{id: medal, name: medal, {E}}}
actions:
  - {{id: rest, name: Rest, effect: gain 0 coin, {E}}}
"""
FLOW = f"""\
kind: flow
provenance: exact
source: test
rounds: 6
final_choices: most_points
phases:
  - {{id: work, menu: work}}
menus:
  - id: work
    provenance: exact
    source: test
    entries:
      - {{id: sell, effect: gain 2 coin, ends_turn: true, {E}}}
      - {{id: farm, effect: gain 1 grain, ends_turn: true, {E}}}
      - {{id: study, effect: advance school, ends_turn: true, {E}}}
"""
TRACKS = f"""\
kind: tracks
tracks:
  - id: school
    name: school
    start: 0
    provenance: exact
    source: test
    spaces: [{{n: 0, value: 0}}, {{n: 1, value: 0}}, {{n: 2, value: 0}}, {{n: 3, value: 1}},
             {{n: 4, value: 1, on_reach: gain 1 medal}}, {{n: 5, value: 2}}]
"""
SCORING = f"""\
kind: scoring
tables:
  - {{id: granary, steps: [{{min: 0, points: 0}}, {{min: 3, points: 10}}], {E}}}
final:
  - {{id: coins, effect: score coin, {E}}}
  - {{id: granary, effect: "score table(granary, grain)", {E}}}
  - {{id: diploma, effect: "score value(school) * 6", {E}}}
"""
BOTS = f"""\
kind: bots
greedy: exact
mcts: exact
evaluations:
  - {{id: exact, final: 1.0, opponents: 0, {E}}}
  - {{id: stepping, final: 1.0, steps: 1.0, opponents: 0, {E}}}
  - {{id: coins_and_medals, holdings: {{coin: 1.0, medal: 12.0}}, opponents: 0, {E}}}
  - {{id: reaching, holdings: {{coin: 1.0, medal: 12.0}}, rewards_ahead: 1.0, opponents: 0, {E}}}
  - {{id: eager, holdings: {{coin: 1.0, medal: 30.0}}, rewards_ahead: 1.0, opponents: 0, {E}}}
"""


@pytest.fixture
def pack(tmp_path):
    return inline_pack.write_pack(tmp_path, {"pack.yaml": PACK, "flow.yaml": FLOW, "scoring.yaml": SCORING,
                                             "tracks.yaml": TRACKS, "bots.yaml": BOTS})


def test_a_count_between_two_steps_is_worth_its_part_of_the_rise():
    steps = ((0, 0), (3, 4), (4, 10), (6, 18))  # a table that pays 4 for 3, 10 for 4, 18 for 6 or more
    assert [between(steps, n) for n in range(8)] == pytest.approx([0, 4 / 3, 8 / 3, 4, 10, 14, 18, 18])
    assert between(((2, 5),), 1) == 0 and between(((2, 5),), 2) == 5  # below the first step, as it pays
    assert blended(10, 14, 0.25) == 11  # a quarter of the way from the exact value


def test_a_tracks_printed_values_are_steps_where_they_change():
    track = TrackTable("t", (0, 1, 2, 3, 4, 5), {0: 0, 1: 0, 2: 0, 3: 1, 4: 1, 5: 2}, None, (), {}, {}, None)
    assert track_steps(track) == ((0, 0), (3, 1), (5, 2))
    unprinted = TrackTable("u", (0, 1, 2), {}, None, (), {}, {}, None)
    assert track_steps(unprinted) == ()


def test_final_scoring_forecast_reads_tables_and_track_values_between_steps(pack):
    g = new_game(load_ruleset(pack), 1, seed=0)
    for action in ("farm", "farm", "study", "study"):  # 2 grain of the 3 a step needs; school on 2, value 0
        g = g.child(action)
    assert g.scores_if_over() == [0]
    assert g.scores_if_over(between_steps=1.0) == [pytest.approx(10 * 2 / 3 + 6 * 2 / 3)]
    assert g.scores_if_over(between_steps=0.5) == [pytest.approx((10 * 2 / 3 + 6 * 2 / 3) / 2)]
    assert g.state.players[0].score == 0 and g.scores_if_over() == [0]  # the game is unchanged, the rules exact


def test_the_steps_weight_values_the_way_to_a_step_while_there_is_time(pack):
    g = new_game(load_ruleset(pack), 1, seed=0)
    exact, stepping = load_evaluation(g.rules, "exact"), load_evaluation(g.rules, "stepping")
    assert make_bot("greedy:exact", g.rules).choose(g, random.Random(0)) == "sell"  # 2 coins; 1 grain is nothing yet
    assert make_bot("greedy:stepping", g.rules).choose(g, random.Random(0)) == "farm"  # a third of 10, 5/6 of the game left
    after = g.child("farm")
    assert exact(after, 0) == 0
    assert stepping(after, 0) == pytest.approx(10 / 3 * 5 / 6)
    late = g
    for action in ("sell", "sell", "sell", "sell", "farm"):
        late = late.child(action)  # the last round: a sixth of the game left, 1 grain
    assert stepping(late, 0) == pytest.approx(8 + 10 / 3 / 6)
    assert make_bot("greedy:stepping", late.rules).choose(late, random.Random(0)) == "sell"  # too late for the step


def test_an_effect_is_priced_by_what_the_weights_can_price():
    holdings, tracks = {"gold": 2.0, "stone": 1.0, "egg": 3.0}, {"road": 4.0}
    assert effect_value(parse("gain 2 gold, 1 stone\nscore 3\nadvance road 2"), 0.5, holdings, tracks) == 4 + 1 + 1.5 + 8
    assert effect_value(parse("later: may pay 1 egg: choose { gain 2 gold | gain 2 stone }"), 1, holdings, tracks) == 4 - 3
    assert effect_value(parse("may pay 1 egg: gain 1 stone"), 1, holdings, tracks) == 0  # not worth its cost: declined
    assert effect_value(parse("draw 3 from pile keep 1"), 1, holdings, tracks) == 0  # a card drawn: not priced


def test_the_way_to_a_tracks_next_reward_counts_while_there_is_time(pack):
    g = new_game(load_ruleset(pack), 1, seed=0)
    plain, reaching = load_evaluation(g.rules, "coins_and_medals"), load_evaluation(g.rules, "reaching")
    assert make_bot("greedy:coins_and_medals", g.rules).choose(g, random.Random(0)) == "sell"  # 2 coins; a step is nothing
    assert make_bot("greedy:reaching", g.rules).choose(g, random.Random(0)) == "study"  # a quarter of the way to a medal
    after = g.child("study")  # school on 1 of the 4 spaces to the medal, 5/6 of the game left
    assert plain(after, 0) == 0
    assert reaching(after, 0) == pytest.approx(5 / 6 * 12 / 4)
    there = after
    for action in ("study", "study", "study"):
        there = there.child(action)  # on space 4: the medal is held, no reward lies ahead
    assert there.state.players[0].holdings.get("medal") == 1
    assert reaching(there, 0) == plain(there, 0) == 12


def test_milestones_count_the_games_in_which_a_track_reward_was_reached(pack):
    from interpreter.play.analysis import milestones, track_rewards
    from interpreter.play.simulate import GameSpec, play_game

    tables = new_game(load_ruleset(pack), 1, seed=0).rules.tables
    rewards = track_rewards(tables)
    assert list(rewards.values()) == ["school, space 4: gain 1 medal"]
    found = {}
    for bot in ("greedy:coins_and_medals", "greedy:eager"):
        records = [play_game(GameSpec(1, (bot,), seed, pack=str(pack))) for seed in range(4)]
        found[bot] = milestones(records, rewards)
    plain, reaching = found["greedy:coins_and_medals"], found["greedy:eager"]
    assert [(x["label"], x["games"]) for x in plain["rewards"]] == [("school, space 4: gain 1 medal", 0)]
    assert reaching["rewards"][0]["games"] == 4 and reaching["rewards"][0]["share"] == 1.0
    assert reaching["rewards"][0]["low"] < 1.0 == reaching["rewards"][0]["high"]  # a Wilson interval, 4 games
    # actions: each performed one by some seat, with its games; a verb of several actions also as "any"
    assert {x["label"]: x["games"] for x in plain["performed"]} == {"sell": 4}
    assert {x["label"]: x["games"] for x in reaching["performed"]} == {"study": 4, "sell": 4}


def test_milestones_group_a_reward_printed_on_several_tracks_and_the_actions_of_one_verb():
    from interpreter.play.analysis import milestones

    rewards = {"a/on_reach": "mine, space 9: gain 1 right", "b/on_reach": "quarry, space 8: gain 1 right"}
    records = [{"fired": ["a/on_reach"], "performed": {"extra mines": 1, "act mines": 2}},
               {"fired": ["b/on_reach"], "performed": {"extra wall": 1, "act mines": 1}},
               {"fired": [], "performed": {"act mines": 3, "extra wall": 0}}]
    found = milestones(records, rewards)
    assert {x["label"]: x["games"] for x in found["rewards"]} == {
        "mine, space 9: gain 1 right": 1, "quarry, space 8: gain 1 right": 1, "any track: gain 1 right": 2}
    assert {x["label"]: x["games"] for x in found["performed"]} == {
        "act mines": 3, "extra (any)": 2, "extra mines": 1, "extra wall": 1}
    assert [x["label"] for x in found["performed"]][:2] == ["act mines", "extra (any)"]  # most games first


def test_a_games_record_lists_the_programs_of_the_moves_played_not_of_those_a_bot_only_tried(pack):
    from interpreter.play.simulate import GameSpec, play_game

    record = play_game(GameSpec(1, ("greedy:coins_and_medals",), 0, pack=str(pack)))
    assert record["performed"] == {"sell": 6}  # greedy tried farm and study at every move, and sold
    assert "flow/menus/work/entries/sell/effect" in record["fired"]
    assert not {"flow/menus/work/entries/farm/effect", "flow/menus/work/entries/study/effect"} & set(record["fired"])
