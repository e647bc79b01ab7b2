"""Fitting the bots' evaluation weights by regression on simulated outcomes (interpreter/play/fitting.py,
tools/tune_bots.py --fit): the terms of a position, the least-squares fit, and the fit of real games."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.play import fitting
from interpreter.play.bots import load_evaluation, make_bot
from interpreter.play.tuning import WeightSpace
from interpreter.runtime.game import new_game

ROOT = Path(__file__).resolve().parents[1]
PRAGA = ROOT / "content" / "praga"


@pytest.fixture(scope="module")
def rules():
    return new_game(load_ruleset(PRAGA), 2, seed=0).rules


def test_widening_gives_every_plain_weight_an_early_one_and_back(rules):
    base = load_evaluation(rules, "lookahead")
    wide = fitting.widened(base)
    assert wide.early["holdings"]["gold"] == base.early["holdings"]["gold"]  # what was there is kept
    assert wide.tracks["gold_mine"] == base.tracks.get("gold_mine", 0.0)
    assert set(wide.early["owned"]) == set(base.early["owned"]) and wide.track_values["quarry"] == 0.0
    assert wide(new_game(load_ruleset(PRAGA), 2, seed=3), 0) == base(new_game(load_ruleset(PRAGA), 2, seed=3), 0)


def test_a_positions_terms_add_up_to_its_value_under_any_weights(rules):
    """The evaluation is linear in its weights: the value under weights w is the zero evaluation's plus the
    sum of w_i times term i, which is what makes a least-squares fit of the weights possible."""
    base = fitting.widened(load_evaluation(rules, "tuned_lookahead"))
    space = WeightSpace.of(base)
    zero, units = fitting.term_evaluations(space, base)
    game = new_game(load_ruleset(PRAGA), 2, seed=7)
    bots = [make_bot("greedy", game.rules)] * 2
    rng = random.Random(1)
    for _ in range(30):  # a position some way into the game, with holdings, tracks and final scoring moved
        game.apply(bots[game.current_player].choose(game, rng))
    weights = [random.Random(i).uniform(-2, 2) for i in range(len(space.names))]
    for seat in (0, 1):
        z = zero(game, seat)
        terms = [u(game, seat) - z for u in units]
        assert any(abs(t) > 0.5 for t in terms)
        assert space.evaluation(base, weights)(game, seat) == pytest.approx(z + sum(w * t for w, t in zip(weights, terms)))


def test_least_squares_finds_the_weights_behind_the_results():
    rng = random.Random(0)
    samples = []
    for _ in range(400):
        a, b, left = rng.uniform(0, 10), rng.uniform(-5, 5), rng.random()
        samples.append(fitting.Sample((a, b, 3.0), left, 2.0 * a - 3.0 * b + 7.0 - 4.0 * left))
    weights, explained = fitting.least_squares(samples, ridge=1e-9)
    assert weights == pytest.approx([2.0, -3.0, 0.0], abs=1e-6)  # a term that never varies gets no weight
    assert explained == pytest.approx(1.0)
    shrunk, _ = fitting.least_squares(samples, ridge=1.0)
    assert abs(shrunk[0]) < 2.0 * 0.75 and abs(shrunk[1]) < 3.0 * 0.75  # the penalty pulls toward zero
    check = [fitting.Sample((a, b, 3.0), 0.5, 2.0 * a - 3.0 * b + 5.0) for a, b in ((1, 2), (4, -1), (9, 3))]
    assert fitting.held_out_r2(samples, check, weights) == pytest.approx(1.0)


def test_the_results_are_the_score_alone_and_the_margin_over_the_best_other_seat():
    assert fitting._results([57.0], [0]) == {0: 57.0}
    assert fitting._results([40.0, 52.0, 45.0], [0, 1, 2]) == {0: -12.0, 1: 7.0, 2: -7.0}


def test_games_of_a_bot_fit_an_evaluation_of_the_pack():
    result = fitting.fit("greedy", games=5, players=2, seed=11, pack=str(PRAGA), evaluation="tuned_lookahead",
                         check_share=0.4)
    assert result.games == 5 and result.samples > 5 * 2 * 10  # both seats at every end of a turn
    assert 0.3 < result.r2 <= 1.0 and result.held_out_r2 is not None and result.held_out_r2 <= 1.0
    fitted = result.evaluation
    assert fitted.opponents == 1.0 and set(fitted.early["holdings"]) >= {"gold", "stone"}
    start = fitting.widened(load_evaluation(new_game(load_ruleset(PRAGA), 2, seed=0).rules, "tuned_lookahead"))
    assert WeightSpace.of(fitted).vector(fitted) != WeightSpace.of(start).vector(start)
    again = fitting.fit("greedy", games=5, players=2, seed=11, pack=str(PRAGA), evaluation="tuned_lookahead",
                        check_share=0.4)
    assert again.evaluation == fitted  # the same seeds: the same games, the same weights


def test_an_evaluation_with_rewards_ahead_is_refused(rules):
    with pytest.raises(ValueError, match="rewards_ahead"):
        fitting.fit("greedy", games=1, pack=str(PRAGA), evaluation="farsighted")


def test_the_penalty_may_pull_toward_the_starting_weights():
    rng = random.Random(2)
    samples = [fitting.Sample((a, b, 1.0), 0.5, 2.0 * a + rng.gauss(0, 1)) for a, b in
               ((rng.uniform(0, 10), rng.uniform(0, 10)) for _ in range(200))]
    free, _ = fitting.least_squares(samples, ridge=1e-9)
    assert free[0] == pytest.approx(2.0, abs=0.1) and abs(free[1]) < 0.1 and free[2] == 0.0
    held, _ = fitting.least_squares(samples, ridge=1e6, prior=[0.5, 4.0, 9.0])
    assert held == pytest.approx([0.5, 4.0, 9.0], abs=1e-3)  # a term that never varies keeps its prior too
    between, _ = fitting.least_squares(samples, ridge=0.05, prior=[0.5, 4.0, 9.0])
    assert 0.5 < between[0] < 2.0 and 0.0 < between[1] < 4.0


def test_samples_kept_in_a_file_fit_as_the_games_did(tmp_path):
    space, base = fitting.space_and_base(2, str(PRAGA), evaluation="tuned_lookahead")
    games = fitting.play("greedy", 2, players=2, seed=4, pack=str(PRAGA), evaluation="tuned_lookahead")
    path = tmp_path / "samples.jsonl"
    fitting.save_samples(path, space, games)
    assert fitting.load_samples(path, space) == games
    assert fitting.fit_samples(fitting.load_samples(path, space), space, base).evaluation == \
        fitting.fit_samples(games, space, base).evaluation
    other, _ = fitting.space_and_base(2, str(PRAGA), evaluation="default")
    with pytest.raises(ValueError, match="other terms"):
        fitting.load_samples(path, other)
    path.write_text("not json\n")
    with pytest.raises(ValueError, match="not a samples file"):
        fitting.load_samples(path, space)


def test_the_starting_weights_are_rescaled_to_the_results_before_they_pull():
    """A tuned evaluation ranks positions on a scale of its own: as a prior it is first brought to the
    results' scale, so that the penalty does not pull every weight off both."""
    rng = random.Random(3)
    samples = [fitting.Sample((a, b), left, 3.0 * (2.0 * a + b) + 10.0 - 5.0 * left)
               for a, b, left in ((rng.uniform(0, 5), rng.uniform(0, 5), rng.random()) for _ in range(100))]
    assert fitting._rescaled([2.0, 1.0], samples) == pytest.approx([6.0, 3.0])


def test_the_command_fits_saves_loads_and_writes_an_evaluation_that_plays(tmp_path):
    import shutil
    import subprocess
    import sys

    pack = tmp_path / "praga"
    shutil.copytree(PRAGA, pack)
    samples = tmp_path / "samples.jsonl"
    tool = [sys.executable, str(ROOT / "tools" / "tune_bots.py"), "--pack", str(pack), "--players", "2",
            "--evaluation", "tuned_lookahead", "--fit", "greedy", "--games", "3", "--seed", "8", "--workers", "1"]
    played = subprocess.run(tool + ["--save", str(samples)], capture_output=True, text=True, timeout=600)
    assert played.returncode == 0, played.stderr
    assert "3 games of greedy" in played.stdout and "holdings.gold " in played.stdout
    assert "early.holdings.gold " in played.stdout  # the widened terms
    again = subprocess.run(tool + ["--load", str(samples), "--write", "house_fit"], capture_output=True, text=True,
                           timeout=600)
    assert again.returncode == 0, again.stderr
    assert again.stdout.split("\nweights fitted:")[1].split("written:")[0] == \
        played.stdout.split("\nweights fitted:")[1]  # the samples kept fit as the games did
    rules = new_game(load_ruleset(pack), 2, seed=0).rules
    fitted = load_evaluation(rules, "house_fit")
    assert fitted.holdings["gold"] == pytest.approx(float(
        next(line.split()[1] for line in again.stdout.splitlines() if line.strip().startswith("holdings.gold "))))
    samples.write_text("{}\n")
    corrupt = subprocess.run(tool + ["--load", str(samples)], capture_output=True, text=True, timeout=600)
    assert corrupt.returncode == 1 and corrupt.stderr.startswith("error: ") and "not a samples file" in corrupt.stderr
    assert "Traceback" not in corrupt.stderr
    bot = make_bot("planner:house_fit:2", rules)
    game = new_game(load_ruleset(pack), 2, seed=1)
    assert bot.choose(game, random.Random(0)) in game.legal_actions()
