"""Helpers the tests of the bundled packs share: random games of a pack played in fresh processes, so that
two hash seeds can be compared (set and dict orders must not reach the game)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_GAMES = """
import hashlib, random, sys
from interpreter import load_ruleset, new_game
rs = load_ruleset(sys.argv[1])
for players in map(int, sys.argv[2:]):
    g = new_game(rs, players, seed=players)
    rng = random.Random(players)
    while not g.is_terminal():
        g.apply(rng.choice(g.legal_actions()))
    print(players, len(g.state.log), [s["score"] for s in g.scores()], hashlib.sha256(g.to_json().encode()).hexdigest())
"""


def games_under_hash_seeds(pack: Path, players=(2, 3, 4), hash_seeds=("1", "2")) -> list[str]:
    """For each hash seed, what a process prints of one random game per player count (its length, scores
    and the hash of its final state)."""
    out = []
    for seed in hash_seeds:
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run([sys.executable, "-c", _GAMES, str(pack), *map(str, players)], capture_output=True,
                             text=True, env=env, cwd=ROOT)
        assert run.returncode == 0, run.stderr
        out.append(run.stdout)
    return out
