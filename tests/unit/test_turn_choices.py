"""Whether the choice among a planner's best ends of turn matters (interpreter/play/turn_choices.py): the
spread's figures computed by hand on invented outcomes, and the ends played out on the invented pack of the
ceiling's tests, where selling looks best to an evaluation that counts coins only and planting wins."""

from __future__ import annotations

import math

import pytest

from interpreter import load_ruleset, make_bot, new_game
from interpreter.play.planner import Plan
from interpreter.play.turn_choices import Choice, End, best_ends, choices_in_game, sample_choice, spread

import inline_pack
from test_ceiling import BOTS, FLOW, PACK, SCORING

GRANARY = BOTS + "  - {id: granary, holdings: {grain: 5.0, coin: 1.0}, opponents: 0, provenance: exact, source: test}\n"


def test_the_spread_of_invented_outcomes_is_what_the_hand_computes():
    a = Choice(1, 1, 0, (End(0, 2.0, "x", (10, 12)), End(1, 1.0, "y", (4, 6))))
    b = Choice(2, 1, 0, (End(0, 1.0, "x", (8, 8)), End(1, 0.5, "y", (9, 11))))
    alone = Choice(3, 1, 0, (End(0, 1.0, "x", (5, 7)),))  # one end: nothing to compare, not counted
    s = spread([a, b, alone])
    assert s.choices == 2
    assert s.chance_sd == pytest.approx(math.sqrt((2 + 1) / 2))  # variances between repeats: 2 and 2, 0 and 2
    # the repeats share their seeds across ends: in a the ends differ by 6 in both (no residual: the variance
    # of 11 and 5, 18); in b by 1 and 3 (ends' mean square 4, residual 1: (4 - 1) / 2)
    assert s.between_variance == pytest.approx((18 + 1.5) / 2)
    assert s.between_sd == pytest.approx(math.sqrt(9.75))
    assert s.evaluation_r == pytest.approx(2.5 / math.sqrt(0.625 * 20))
    assert s.played_over_mean.mean == pytest.approx((3 - 1) / 2)
    # in a, either repeat picks the end played (gain 0); in b, the second end, 3 and 1 better by the other repeat
    assert s.picked_over_played.mean == pytest.approx((0 + 2) / 2)


def test_ends_alike_in_expectation_show_chance_and_no_difference():
    same = [Choice(i, 1, 0, (End(0, 1.0, "x", (i, i + 4)), End(1, 0.0, "y", (i + 4, i)))) for i in range(5)]
    s = spread(same)
    assert s.between_variance < 0 and s.between_sd == 0.0  # chance explains all the ends' difference
    assert s.chance_sd == pytest.approx(math.sqrt(8))
    assert s.played_over_mean.mean == 0.0
    assert s.evaluation_r is None  # the ends' mean outcomes do not differ: nothing to follow
    assert s.picked_over_played.mean == -2.0  # a pick by one repeat is the other repeat's worse end here


def test_ends_distinct_by_first_action_keep_the_best_plan_of_each_way_to_begin_the_turn():
    plans = [Plan(9.0, ("take a", "place 1"), None), Plan(8.0, ("take a", "place 2"), None),
             Plan(7.0, ("take b", "place 1"), None), Plan(6.0, ("take c",), None)]
    assert best_ends(plans, 2, "first_action") == [plans[0], plans[2]]
    assert best_ends(plans, 5, "first_action") == [plans[0], plans[2], plans[3]]
    with pytest.raises(ValueError, match="'tile' is not one of position, first_action"):
        best_ends(plans, 2, "tile")


@pytest.fixture
def game(tmp_path):
    root = inline_pack.write_pack(tmp_path, {"pack.yaml": PACK, "flow.yaml": FLOW, "scoring.yaml": SCORING,
                                             "bots.yaml": GRANARY})
    return new_game(load_ruleset(root), 1, seed=0)


def test_played_out_by_a_bot_that_plants_the_end_the_evaluation_ranks_last_wins(game):
    coins = make_bot("planner:coins:4", game.rules)
    planting = make_bot("planner:granary:4", game.rules)
    choice = sample_choice(game, coins, planting, ends=4, repeats=2, seed=0)
    sell, plant = choice.ends  # the two ends of the first turn, selling first by the coins it holds
    assert (sell.rank, sell.value, sell.first, plant.rank, plant.value, plant.first) == (0, 2.0, "sell", 1, 0.0, "plant")
    assert sample_choice(game, coins, planting, ends=4, repeats=2, seed=0, distinct="first_action") == choice
    assert sell.outcomes == (2, 2)  # sold, then planted twice: 2 coins, 2 grain (short of the granary's 3)
    assert plant.outcomes == (10, 10)  # planted three times: the granary's step
    s = spread([choice])
    assert s.chance_sd == 0.0 and s.between_variance == 32.0  # no chance in this pack: ends 2 and 10
    assert s.evaluation_r == -1.0 and s.picked_over_played.mean == 8.0
    assert game.state.log == []  # the game the choice was sampled in is unchanged


def test_a_game_sampled_at_every_turn_start_is_played_to_its_end(game):
    coins = make_bot("planner:coins:4", game.rules)
    found = choices_in_game(game, coins, coins, ends=2, repeats=1, share=1.0, seed=0)
    assert len(found) == 3 and len({c.turn for c in found}) == 3  # three turns, each a choice of two ends
    assert game.is_terminal() and game.scores()[0]["score"] == 6  # the bot sold every turn
    # played out by the same bot, selling is always 2 better than planting, and the evaluation says so
    assert [[e.outcomes for e in c.ends] for c in found] == [[(6,), (4,)], [(6,), (4,)], [(6,), (4,)]]
    s = spread(found)
    # the values' differences: 2, 2, then 4 at the end (score and coins held): pooled, 8 / sqrt(12 * 6)
    assert s.evaluation_r == pytest.approx(8 / math.sqrt(72))
    assert s.played_over_mean.mean == 1.0 and s.picked_over_played is None  # one repeat: no pick
