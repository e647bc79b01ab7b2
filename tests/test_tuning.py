"""Tuning the bots' evaluation weights by self-play (interpreter/play/tuning.py, tools/tune_bots.py): the
weights as a vector, the objective as games played, the search, and the weights written back as content."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset, run_pipeline
from interpreter.play import tuning
from interpreter.play.bots import load_evaluation
from interpreter.runtime.game import new_game

ROOT = Path(__file__).resolve().parents[1]
PRAGA = ROOT / "content" / "praga"


@pytest.fixture(scope="module")
def start():
    return load_evaluation(new_game(load_ruleset(PRAGA), 1, seed=0).rules)


def test_the_weights_are_a_vector_and_back(start):
    space = tuning.WeightSpace.of(start)
    x = space.vector(start)
    assert space.names[0] == ("points", "") and ("holdings", "gold") in space.names and len(x) == len(space.names)
    assert space.evaluation(start, x) == start
    moved = space.evaluation(start, [w + 1 for w in x])
    assert moved.holdings["gold"] == start.holdings["gold"] + 1 and moved.opponents == start.opponents
    assert ("steps", "") not in space.names  # an evaluation without the term does not gain it


def test_the_shares_of_the_way_ahead_are_tuned_when_counted_and_never_negative(start):
    stepping = replace(start, final=1.0, steps=0.5, rewards_ahead=0.7)
    space = tuning.WeightSpace.of(stepping)
    assert space.names[:4] == (("points", ""), ("final", ""), ("steps", ""), ("rewards_ahead", ""))
    x = space.vector(stepping)
    assert x[2:4] == [0.5, 0.7] and space.evaluation(stepping, x) == stepping
    clipped = space.evaluation(stepping, [x[0], x[1], -0.3, -0.1] + x[4:])
    assert (clipped.steps, clipped.rewards_ahead) == (0.0, 0.0)  # a share of the way: clipped at 0


def test_the_objective_is_the_games_the_weights_play(start):
    x = tuple(tuning.WeightSpace.of(start).vector(start))
    solo = tuning.Task(str(PRAGA), (), 1, None, x, (0, 1))
    assert tuning.margin(solo) == tuning.margin(solo)  # the same seeds: the same games
    blind = tuning.Task(str(PRAGA), (), 1, None, (1.0,) + (0.0,) * (len(x) - 1), (0, 1))  # points only
    assert tuning.margin(blind) != tuning.margin(solo)
    duel = tuning.Task(str(PRAGA), (), 2, None, x, (3,))
    assert tuning.margin(duel) == 0  # the starting weights against themselves, in both seats: no margin
    against_random = tuning.Task(str(PRAGA), (), 2, None, x, (3,), against="random")
    assert tuning.margin(against_random) > 10  # the other seat plays the named bot: greedy beats random by far


def test_the_tuned_bot_is_the_planner_with_the_width_and_frontier_asked(start):
    x = tuple(tuning.WeightSpace.of(start).vector(start))
    assert type(tuning.Task(str(PRAGA), (), 1, None, x, (0,)).bot(start)).__name__ == "GreedyBot"
    planner = tuning.Task(str(PRAGA), (), 1, None, x, (0,), planner_width=5, planner_frontier="first_actions").bot(start)
    assert (planner.width, planner.frontier, planner.turns) == (5, "first_actions", 1)
    assert tuning.Task(str(PRAGA), (), 1, None, x, (0,), planner_width=5).bot(start).frontier == "top"


def test_a_short_search_reports_each_generation_and_checks_on_held_out_seeds(start):
    seen = []
    result = tuning.tune(1, 2, 4, 1, seed=5, pack=str(PRAGA), check_games=2, report=seen.append)
    assert [g.number for g in seen] == [1, 2] and all(g.best >= g.mean for g in seen)
    assert result.start == start and result.evaluation != start and result.check["n"] == 2
    assert result.check["low"] <= result.check["mean"] <= result.check["high"]


def test_weights_written_back_are_an_evaluation_of_the_pack(tmp_path, start):
    pack = tmp_path / "praga"
    shutil.copytree(PRAGA, pack)
    bots = pack / "bots.yaml"
    before = bots.read_text()
    space = tuning.WeightSpace.of(start)
    found = replace(space.evaluation(start, [w * 1.5 for w in space.vector(start)]), final=1.0, steps=0.25, rewards_ahead=2.0,
                    bonuses=4.0, bonus_prices={"gold_window": 2.5}, occupying=0.5, occupying_program="bonus")
    tuning.write_evaluation(bots, "house_weights", "tuned by self-play", found, "tools/tune_bots.py (test)")
    text = bots.read_text()
    assert text.startswith(before)  # the comments, settings and evaluations already there are kept as written
    assert run_pipeline(pack).errors == []
    rules = new_game(load_ruleset(pack), 1, seed=0).rules
    written = load_evaluation(rules, "house_weights")
    assert written.holdings["gold"] == round(start.holdings["gold"] * 1.5, 3)
    assert (written.final, written.steps, written.rewards_ahead) == (1.0, 0.25, 2.0)
    assert (written.bonuses, written.bonus_prices) == (4.0, {"gold_window": 2.5}) and written.action_places
    assert (written.occupying, written.occupying_program) == (0.5, "bonus") and written.occupying_programs
    assert load_evaluation(rules) == start  # greedy's own evaluation is unchanged
    tuning.write_evaluation(bots, "house_weights", "again", start, "tools/tune_bots.py (test)")  # replaced, not added
    assert bots.read_text().count("id: house_weights\n") == 1 and load_evaluation(new_game(load_ruleset(pack), 1, seed=0).rules,
                                                                         "house_weights") == start
