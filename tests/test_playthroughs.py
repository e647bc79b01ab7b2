"""Golden playthroughs: whole recorded games replayed step by step against a digest of the state.

Any behaviour change shows as the first action whose resulting state differs. When the change is
intended, regenerate with `python tools/regen_playthroughs.py` and review the diff of scores.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from interpreter.runtime.game import new_game
from interpreter.paths import default_pack
from interpreter.content.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from regen_playthroughs import digest  # noqa: E402

FILES = sorted((ROOT / "tests" / "playthroughs").glob("*.json"))


def test_there_are_playthroughs_for_every_player_count():
    counts = {json.loads(p.read_text())["players"] for p in FILES}
    assert counts == {1, 2, 3, 4}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_playthrough_replays_to_the_same_states(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    game = new_game(load_ruleset(default_pack(), data["variants"]), data["players"], seed=data["seed"])
    assert digest(game.state) == data["start"], "the set-up differs"
    for n, (action, want) in enumerate(data["steps"], 1):
        game.apply(action)
        assert digest(game.state) == want, f"step {n} ({action}) leads to a different state"
    assert game.is_terminal()
    assert [s["score"] for s in game.scores()] == data["scores"]
