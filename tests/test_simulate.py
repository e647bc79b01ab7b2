"""Bots, simulation at scale and variant comparison (serial, process pool and Dask give the same games)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from collections import Counter

from interpreter.play.analysis import compare, content_keys, summarize, summary_text
from interpreter.play.bots import GreedyBot, MCTSBot, load_evaluation, make_bot
from interpreter.runtime.game import new_game
from interpreter.content.ruleset import load_ruleset
from interpreter.play.simulate import GameSpec, play_game, run_games, specs_for, without_timing

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def rs():
    return load_ruleset()


def _untimed(records: list[dict]) -> list[dict]:
    return [without_timing(r) for r in records]


def test_a_game_is_a_pure_function_of_its_spec():
    spec = GameSpec(2, ("greedy", "random"), 5)
    a, b = play_game(spec), play_game(spec)
    assert without_timing(a) == without_timing(b) and a["winner"] in (1, 2) and a["turns"] == 32
    assert sum(a["scores"]) > 0 and a["fired"] and a["performed"]


def test_the_process_pool_gives_the_same_records_as_a_serial_run():
    specs = specs_for(3, 4, ["random"], 11)
    assert _untimed(run_games(specs, workers=1)) == _untimed(run_games(specs, workers=2))


def test_a_dask_cluster_gives_the_same_records_as_a_serial_run():
    distributed = pytest.importorskip("distributed")
    specs = specs_for(2, 4, ["random", "greedy"], 3)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        on_cluster = run_games(specs, scheduler=cluster.scheduler_address)
    assert _untimed(on_cluster) == _untimed(run_games(specs, workers=1))


def test_greedy_beats_random_in_two_player_games():
    records = run_games(specs_for(2, 20, ["greedy", "random"], 100), workers=2)
    wins = sum(1 for r in records if r["winner"] == 1)
    assert wins >= 19, wins  # at least 95%


def test_the_dummy_bot_and_mcts_play_whole_games(rs):
    record = play_game(GameSpec(2, ("dummy", "mcts:8"), 1))
    assert record["turns"] == 32 and record["winner"] in (1, 2)


def test_mcts_never_reads_the_order_of_face_down_stacks(rs):
    """Two games that differ only in the order of hidden stacks get the same choice from the same bot."""
    g = new_game(rs, 2, seed=4)
    g.apply("take tile_upgrade_mines") if "take tile_upgrade_mines" in g.legal_actions() else None
    other = g.clone()
    for sid, stack in list(other.state.zones.items()):
        if sid not in g.rules.face_up:
            other.state.zones[sid] = tuple(reversed(stack))  # the copy's own order (the contents are shared tuples)
    assert other.state.zones != g.state.zones
    bot = MCTSBot(load_evaluation(g.rules), iterations=12)
    assert bot.choose(g, random.Random(7)) == bot.choose(other, random.Random(7))


def test_greedy_weights_come_from_content(rs):
    g = new_game(rs, 2, seed=0)
    bot = make_bot("greedy", g.rules)
    assert isinstance(bot, GreedyBot)
    bots = rs.single("bots")
    weights = next(e for e in bots.evaluations if e.id == bots.greedy)  # the evaluation the file names for greedy
    assert bot.evaluate.holdings == weights.holdings and bot.evaluate.points == weights.points
    assert bot.evaluate.rewards_ahead == weights.rewards_ahead
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("clever", g.rules)


def test_remembered_player_values_equal_fresh_ones(rs):
    """Greedy remembers players' values by object across the positions it compares; the values must
    equal a fresh evaluation of every position (a player changed by an action is a new object)."""
    game = new_game(rs, 3, seed=5)
    evaluate, rng = load_evaluation(game.rules), random.Random(5)
    for _ in range(120):
        seat, memo = game.current_player, {}
        for action in game.legal_actions():
            child = game.child(action)
            assert evaluate(child, seat, memo) == evaluate(child, seat)
        game.apply(rng.choice(game.legal_actions()))


def test_summary_and_paired_comparison(rs):
    base = run_games(specs_for(2, 6, ["greedy"], 0), workers=1)
    s = summarize(base, content_keys(rs))
    assert s["games"] == 6 and sum(r["wins"] for r in s["seats"]) == 6
    for seat in s["seats"]:
        assert seat["low"] <= seat["mean"] <= seat["high"] and 0 <= seat["win_low"] <= seat["win_rate"] <= seat["win_high"] <= 1
    mean_all = sum(r["mean"] for r in s["seats"]) / 2
    assert abs(sum(s["sources"].values()) - mean_all) < 1e-9  # the sources add up to the scores
    assert set(s["never_fired"]) <= set(content_keys(rs).values())
    same = compare(base, base)
    assert same["score"]["mean"] == 0 and all(x["diff"] == 0 for x in same["seats"])
    with pytest.raises(ValueError):
        compare(base, base[:-1])


def test_each_bots_cpu_time_per_move_and_the_seat_balance_are_reported():
    records = run_games(specs_for(2, 10, ["greedy", "random"], 7), workers=1)
    for r in records:
        t = r["timing"]
        assert sum(t["moves"]) == r["actions"] and all(0 <= slow <= total for slow, total in zip(t["slowest"], t["seconds"]))
    s = summarize(records)
    by_bot = {b["bot"]: b for b in s["bots"]}
    assert by_bot["greedy"]["moves"] == sum(r["timing"]["moves"][0] for r in records)
    assert by_bot["greedy"]["ms_per_move"] > 0 and by_bot["greedy"]["slowest_ms"] >= by_bot["greedy"]["ms_per_move"]
    balance = s["balance"]  # seat 1 greedy, seat 2 random: seat 1 far above the game's average
    assert [b["seat"] for b in balance] == [1, 2] and abs(balance[0]["advantage"] + balance[1]["advantage"]) < 1e-9
    want = sum(r["scores"][0] - r["scores"][1] for r in records) / len(records) / 2
    assert abs(balance[0]["advantage"] - want) < 1e-9 and balance[0]["low"] > 0
    text = summary_text(s)
    assert "seat balance" in text and "ms/move" in text and "score ladder" not in text
    old = summarize([without_timing(r) for r in records])  # records written before bots were timed
    assert all(b["ms_per_move"] is None for b in old["bots"]) and "ms/move" not in summary_text(old)


def test_solo_prints_the_score_ladder_instead_of_a_win_rate(rs):
    records = run_games(specs_for(1, 3, ["greedy"], 0), workers=1)
    s = summarize(records)
    ladder = s["ladder"]
    solo = rs.single("solo")
    titles = [max((r for r in solo.ladder if r.min <= rec["scores"][0]), key=lambda r: r.min).title for rec in records]
    assert ladder["titles"] == dict(Counter(titles).most_common()) and sum(ladder["titles"].values()) == 3
    assert ladder["good_score"] == 140 and ladder["good"] == sum(1 for rec in records if rec["scores"][0] > 140)
    assert s["balance"] == []
    text = summary_text(s)
    assert "score ladder: above 140" in text and "win rate" not in text
    assert summarize(run_games(specs_for(2, 2, ["random"], 0), workers=1))["ladder"] is None


def test_simulate_and_compare_from_the_command_line(tmp_path):
    caput = [sys.executable, "-m", "interpreter"]
    out = tmp_path / "games.jsonl"
    r = subprocess.run([*caput, "simulate", "--players", "2", "--games", "3", "--bots", "greedy,random", "--out", str(out),
                        "--workers", "1"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "win rate" in r.stdout and (tmp_path / "scores.png").stat().st_size > 1000
    lines = out.read_text().splitlines()
    assert len(lines) == 3 and json.loads(lines[0])["bots"] == ["greedy", "random"]
    csv = tmp_path / "games.csv"
    r = subprocess.run([*caput, "simulate", "-p", "1", "-n", "2", "--bots", "random", "--out", str(csv), "--json",
                        "--workers", "1"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["games"] == 2 and len(csv.read_text().splitlines()) == 3
    report = tmp_path / "cmp.md"
    r = subprocess.run([*caput, "compare", "--variant", "crane_b", "--games", "4", "--bots", "random", "--report",
                        str(report), "--workers", "1"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = report.read_text()
    assert "paired games" in r.stdout and "cmp_differences.png" in text and "cmp_sources.png" in text
    assert "| variant | crane_b (Action tiles side B: " in text and "| bots | random, random |" in text
    assert ("No change of the mean score" in text or "The variant raises" in text or "The variant lowers" in text)
    page = tmp_path / "sim.html"
    r = subprocess.run([*caput, "simulate", "--players", "2", "--games", "3", "--bots", "greedy,random", "--report",
                        str(page), "--workers", "1"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    html = page.read_text()
    assert html.startswith("<!doctype html>") and html.count("data:image/png;base64,") == 4  # scores, wins, sources, picks
    assert "<td>greedy, random</td>" in html and "greedy wins" in html
    bad = subprocess.run([*caput, "simulate", "--bots", "clever"], cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and "unknown bot" in bad.stderr
    # a bot the pack cannot make (an evaluation its bots file lacks) is told in one line, before any game
    bad = subprocess.run([*caput, "simulate", "--bots", "greedy:clever", "--workers", "1"], cwd=ROOT, capture_output=True,
                         text=True)
    assert bad.returncode == 2 and "no evaluation 'clever' in the bots file" in bad.stderr
    assert "Traceback" not in bad.stderr and "games" not in bad.stderr  # no progress bar: nothing was played
