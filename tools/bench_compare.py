"""Compare the engine's speed at two commits side by side, in interleaved rounds.

Usage: python tools/bench_compare.py OTHER_TREE [--rounds R] [--games G] [--pack DIR] [--only WORKLOAD ...]

OTHER_TREE is a checkout of another commit (e.g. ``git worktree add /tmp/old <commit>``). Each
round runs, in fresh processes and alternating which tree goes first, the same workloads in this
tree and in OTHER_TREE:

- random 4 players: G games of random bots (seeds 1..G), actions/s over the whole games;
- greedy 2 players: G/4 games of two greedy bots, games/s (each greedy move tries every legal action
  on a copy and values it: the work of a bot's search);
- cold load: a fresh interpreter importing the package and loading the pack, ms.

The pack is the bundled one, or ``--pack DIR`` (a path inside each tree, so that each side plays its
own copy: ``--pack content/lorenzo_il_magnifico``). ``--only`` runs some of the workloads.

Every round is printed, then per workload the median of the per-round ratios (this tree / other;
for the load, other / this, so above 1 is faster here too), and whether both trees played the same
games (a digest of every game's actions and scores): a change meant only to be faster must say yes.
A benchmark, not a test: nothing here asserts on timings.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Runs inside the tree under test; both the package-root API and the older module paths are tried.
WORKLOAD = r"""
import json, random, sys, time
t0 = time.perf_counter()
try:
    from interpreter import load_ruleset, make_bot, new_game
except ImportError:
    from interpreter.ruleset import load_ruleset
    from interpreter.engine import new_game
    from interpreter.bots import make_bot
import hashlib
kind, games, pack = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rs = load_ruleset(pack) if pack else load_ruleset()
load_ms = (time.perf_counter() - t0) * 1000
if kind == "load":
    print(json.dumps({"value": load_ms, "digest": ""})); raise SystemExit
players, bot = (4, "random") if kind == "random" else (2, "greedy")
actions, start, chosen = 0, time.perf_counter(), hashlib.sha256()
for seed in range(1, games + 1):
    g = new_game(rs, players, seed=seed)
    bots = [make_bot(bot, g.rules) for _ in range(players)]
    rngs = [random.Random(seed * 1009 + s) for s in range(players)]
    while not g.is_terminal():
        seat = g.current_player
        action = bots[seat].choose(g, rngs[seat])
        g.apply(action)
        chosen.update(f"{seat}:{action};".encode())
        actions += 1
    chosen.update(repr([p.score for p in g.state.players]).encode())
elapsed = time.perf_counter() - start
print(json.dumps({"value": (actions if kind == "random" else games) / elapsed, "digest": chosen.hexdigest()[:16]}))
"""

UNITS = {"random": "actions/s", "greedy": "games/s", "load": "ms"}


def run(tree: Path, kind: str, games: int, pack: str) -> dict:
    """One workload in a fresh interpreter of ``tree``: its figure (``value``) and its games' ``digest``."""
    out = subprocess.run([sys.executable, "-c", WORKLOAD, kind, str(games), pack], cwd=tree, capture_output=True,
                         text=True, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("other", type=Path, help="a checkout of the commit to compare with")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--pack", default="", help="a pack directory inside each tree (default: the bundled pack)")
    ap.add_argument("--only", action="append", choices=tuple(UNITS), help="run this workload (repeatable; default all)")
    args = ap.parse_args()
    sizes = {k: v for k, v in {"random": args.games, "greedy": max(1, args.games // 4), "load": 0}.items()
             if not args.only or k in args.only}
    ratios: dict[str, list[float]] = {k: [] for k in sizes}
    digests: dict[str, set[tuple[str, str]]] = {k: set() for k in sizes}  # (tree, digest)
    print(f"this tree: {ROOT}\nother tree: {args.other.resolve()}\npack: {args.pack or 'the bundled pack'}\n")
    print(f"{'round':>5} {'workload':>8} {'this':>12} {'other':>12} {'ratio':>7}")
    for r in range(1, args.rounds + 1):
        for kind, games in sizes.items():
            pair = [(ROOT, "this"), (args.other, "other")]
            if r % 2 == 0:
                pair.reverse()  # alternate which goes first
            results = {name: run(tree, kind, games, args.pack) for tree, name in pair}
            values = {name: r["value"] for name, r in results.items()}
            digests[kind] |= {(name, r["digest"]) for name, r in results.items()}
            ratio = values["other"] / values["this"] if kind == "load" else values["this"] / values["other"]
            ratios[kind].append(ratio)
            print(f"{r:>5} {kind:>8} {values['this']:>12.2f} {values['other']:>12.2f} {ratio:>7.3f}  {UNITS[kind]}")
    print("\nmedian of the paired ratios (above 1: this tree is faster):")
    for kind, rs in ratios.items():
        print(f"  {kind:>8}: {statistics.median(rs):.3f}  (rounds: {', '.join(f'{x:.3f}' for x in rs)})")
    played = [k for k in sizes if k != "load"]
    if played:
        print("the same games in both trees: " + ", ".join(
            f"{k} {'yes' if len({d for _, d in digests[k]}) == 1 else 'NO'}" for k in played))


if __name__ == "__main__":
    main()
