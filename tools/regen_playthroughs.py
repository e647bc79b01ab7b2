"""Regenerate the golden playthroughs in tests/playthroughs/ (run after an intended behaviour change).

Each playthrough is a whole game: pack variants, player count, seed, and every action with a digest
of the state after it. tests/test_playthroughs.py replays them and fails at the first step whose
state differs, so any change in behaviour shows up with the action that caused it. The actions are
chosen uniformly at random from the legal ones with a fixed seed.

    .venv/bin/python tools/regen_playthroughs.py
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.runtime.game import new_game  # noqa: E402
from interpreter.paths import default_pack  # noqa: E402
from interpreter.content.ruleset import load_ruleset  # noqa: E402

OUT = ROOT / "tests" / "playthroughs"
GAMES = [
    {"name": "solo_seed_1", "players": 1, "seed": 1, "variants": []},
    {"name": "two_players_seed_2", "players": 2, "seed": 2, "variants": []},
    {"name": "three_players_variants_seed_3", "players": 3, "seed": 3,
     "variants": ["crane_b", "kings_road_tiles", "hunger_wall_tiers_a", "cathedral_tiers_a"]},
    {"name": "four_players_seed_4", "players": 4, "seed": 4, "variants": []},
]


def digest(state) -> str:
    return hashlib.sha256(state.to_json().encode()).hexdigest()[:16]


def record(spec: dict) -> dict:
    rs = load_ruleset(default_pack(), spec["variants"])
    game = new_game(rs, spec["players"], seed=spec["seed"])
    rng = random.Random(spec["seed"])
    steps = []
    while not game.is_terminal():
        action = rng.choice(game.legal_actions())
        game.apply(action)
        steps.append([action, digest(game.state)])
    return {**spec, "start": digest(new_game(rs, spec["players"], seed=spec["seed"]).state), "steps": steps,
            "scores": [s["score"] for s in game.scores()]}


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for spec in GAMES:
        data = record(spec)
        path = OUT / f"{spec['name']}.json"
        path.write_text(json.dumps(data, indent=0) + "\n", encoding="utf-8")
        print(f"{path.relative_to(ROOT)}: {len(data['steps'])} actions, scores {data['scores']}")


if __name__ == "__main__":
    main()
