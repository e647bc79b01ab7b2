"""The designer's reports (issue 18): verdicts in one sentence, paired per-source changes, and the
Markdown and HTML writers (interpreter/play/report.py, analysis.source_changes), on made-up records."""

from __future__ import annotations

import math

from interpreter.play import analysis
from interpreter.play import report as R


def record(seed: int, scores: list[int], breakdown: list[dict], winner: int = 1) -> dict:
    return {"seed": seed, "scores": scores, "breakdown": breakdown, "winner": winner, "bots": ["greedy"] * len(scores),
            "turns": 10, "actions": 20, "performed": {}, "tiles": {}, "wheel": {}, "fired": [], "solo": None}


def test_source_changes_are_paired_game_by_game():
    base = [record(s, [10, 10], [{"coin": 10}, {"coin": 10}]) for s in range(5)]
    # the variant moves 2 points per player from coins to relics in every game, and 1 more relic in game 0
    variant = [record(s, [10, 10], [{"coin": 8, "relic": 2 + (s == 0)}, {"coin": 8, "relic": 2}]) for s in range(5)]
    changes = {c["source"]: c for c in analysis.source_changes(list(zip(base, variant)))}
    assert changes["coin"]["mean"] == -2.0 and changes["coin"]["low"] == changes["coin"]["high"] == -2.0  # no spread
    relic = changes["relic"]
    assert math.isclose(relic["mean"], 2.1) and relic["low"] < 2.1 < relic["high"]
    result = analysis.compare(base, variant)
    assert len(result["differences"]) == 5 and result["source_changes"][0]["source"] in ("coin", "relic")


def comparison(mean: float, low: float, high: float, seats=(), sources=()) -> dict:
    return {"games": 40, "score": {"mean": mean, "low": low, "high": high}, "seats": list(seats),
            "source_changes": list(sources)}


def test_compare_verdicts():
    up = R.compare_verdict(comparison(2.0, 1.0, 3.0, sources=[{"source": "relic", "mean": 1.5, "low": 1.0, "high": 2.0}]),
                           str.upper)
    assert up.startswith("The variant raises the mean score per player by 2.00 points (95% interval [+1.00, +3.00], 40")
    assert "the largest sure change is RELIC (+1.50 points per player)" in up
    down = R.compare_verdict(comparison(-2.0, -3.0, -1.0))
    assert down.startswith("The variant lowers the mean score per player by 2.00 points")
    none = R.compare_verdict(comparison(0.3, -0.8, 1.4, seats=[{"seat": 2, "diff": 0.12, "low": 0.02, "high": 0.2}]))
    assert none.startswith("No change of the mean score per player is detectable: +0.30 points")
    assert "a change larger than 1.40 points is unlikely" in none and "seat 2's win rate moves by +12% [+2%, +20%]" in none
    assert R.compare_verdict(comparison(1.0, math.nan, math.nan)) == "Too few games (40) to say anything."


def seat(n: int, bot: str, mean: float, rate: float) -> dict:
    return {"seat": n, "bot": bot, "mean": mean, "sd": 5.0, "low": mean - 1, "high": mean + 1, "wins": 0,
            "win_rate": rate, "win_low": rate - 0.1, "win_high": rate + 0.1}


def test_simulate_verdicts():
    solo = {"games": 50, "seats": [seat(1, "best", 108.1, 0.0)], "balance": [],
            "ladder": {"good_score": 140, "good_rate": 0.02, "good_low": 0.0, "good_high": 0.1}}
    assert R.simulate_verdict(solo) == ("best scores 108.1 points on average (95% interval [107.1, 109.1]) over 50 solo "
                                        "games; 2% of them [0%, 10%] are above the good score of 140.")
    duel = {"games": 100, "seats": [seat(1, "best", 60, 0.7), seat(2, "greedy", 50, 0.3)], "ladder": None,
            "bots": [{"bot": "best", "win_rate": 0.7, "win_low": 0.6, "win_high": 0.8},
                     {"bot": "greedy", "win_rate": 0.3, "win_low": 0.2, "win_high": 0.4}],
            "balance": [{"seat": 1, "advantage": 0.5, "low": -1.0, "high": 2.0},
                        {"seat": 2, "advantage": -0.5, "low": -2.0, "high": 1.0}]}
    text = R.simulate_verdict(duel)
    assert text.startswith("best wins 70% [60%, 80%] of the seats it plays; no seat's edge is detectable")
    duel["balance"][0].update(advantage=3.0, low=1.0, high=5.0)
    assert "seat 1 has an edge of +3.00 points over its game's average (95% interval [+1.00, +5.00])" in R.simulate_verdict(duel)


def test_markdown_and_html_say_the_same_blocks(tmp_path):
    png = tmp_path / "p_scores.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\nfake")
    blocks = [R.Heading("Scores"), R.Paragraph("A <verdict> & more."),
              R.Table(("source", "points"), (("a|b", "1.00"), ("<c>", "2.00"))), R.Image(png, "p scores")]
    md = R.markdown(blocks, "Title")
    assert md.startswith("# Title\n\n## Scores\n\nA <verdict> & more.")
    assert "| a\\|b | 1.00 |" in md and "![p scores](p_scores.png)" in md
    page = R.html(blocks, "Title")
    assert '<p class="verdict">A &lt;verdict&gt; &amp; more.</p>' in page and "<td>&lt;c&gt;</td>" in page
    assert "data:image/png;base64,iVBORw0KGgpmYWtl" in page
    assert R.write(blocks, "Title", tmp_path / "r.HTML").read_text().startswith("<!doctype html>")
    assert R.write(blocks, "Title", tmp_path / "r.md").read_text() == md
