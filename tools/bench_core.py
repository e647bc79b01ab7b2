"""Benchmark the generic core: how fast the packs whose turns are menus (Caylus, Lorenzo) play.

Usage: python tools/bench_core.py [--pack DIR ...] [--games G] [--rounds R] [--against REV]

For each pack, G two-player games of greedy bots (seeds 1..G): each greedy move tries every legal
action on a copy and values it, and every action settles the turn (is the next seat offered
anything?), which is the work a bot's search repeats. A round runs them in a fresh process and prints
the CPU seconds, the actions played and a digest of the games (their logs and scores).

With ``--against REV`` (a commit, branch or tag), the same games are played by that revision too,
checked out in a temporary git worktree: each round runs this checkout, then REV, in turn, so a slow
spell of the machine slows both of a pair. Every round is printed with its ratio (REV's seconds over
this checkout's), then the median ratio per pack, and whether both played the same games (the same
digest: a speed change that changed no game). Each side plays its own checkout's content.

A benchmark, not a test: nothing here asserts on timings.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKS = ("content/caylus_magna_carta", "content/lorenzo_il_magnifico")


def worker(root: str, pack: str, games: int) -> dict:
    """Play the games with the interpreter of ``root`` (imported from there) and time them."""
    sys.path.insert(0, root)
    import random

    from interpreter.content.ruleset import load_ruleset
    from interpreter.play.bots import make_bot
    from interpreter.runtime.game import new_game

    ruleset = load_ruleset(str(Path(root) / pack))
    digest = hashlib.sha256()
    actions = 0
    start = time.process_time()
    for seed in range(1, games + 1):
        game = new_game(ruleset, 2, seed=seed)
        bots = [make_bot("greedy", game.rules) for _ in range(2)]
        rng = random.Random(seed)
        while not game.is_terminal():
            game.apply(bots[game.current_player].choose(game, rng))
        actions += len(game.state.log)
        digest.update(repr((game.state.log, [s["score"] for s in game.scores()])).encode())
    return {"seconds": time.process_time() - start, "actions": actions, "digest": digest.hexdigest()[:16]}


def run_side(root: Path, pack: str, games: int) -> dict:
    """One round of one side, in a fresh interpreter (nothing warm carried over from another round)."""
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", str(root), "--pack", pack,
                          "--games", str(games)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def worktree(rev: str) -> Path:
    where = Path(tempfile.mkdtemp(prefix="caput-bench-"))
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(where), rev],
                   capture_output=True, text=True, check=True)
    return where


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pack", action="append", default=None, help=f"pack directory (repeatable; default {', '.join(PACKS)})")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--against", default=None, help="a revision to time side by side with this checkout")
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)  # the root a worker imports from
    args = ap.parse_args()
    packs = args.pack or list(PACKS)
    if args.worker:
        print(json.dumps(worker(args.worker, packs[0], args.games)))
        return
    other = worktree(args.against) if args.against else None
    try:
        sides = [("this checkout", ROOT)] + ([(args.against, other)] if other else [])
        for pack in packs:
            print(f"{pack}: {args.games} two-player greedy games (seeds 1..{args.games}), {args.rounds} rounds")
            ratios, digests = [], {name: set() for name, _ in sides}
            for n in range(1, args.rounds + 1):
                results = {}
                for name, root in sides:
                    r = results[name] = run_side(root, pack, args.games)
                    digests[name].add(r["digest"])
                    print(f"  round {n} {name:<14} {r['seconds']:7.2f} s CPU  {r['actions']:>5} actions  "
                          f"{r['actions'] / r['seconds']:7.1f} actions/s  digest {r['digest']}")
                if other:
                    ratios.append(results[args.against]["seconds"] / results["this checkout"]["seconds"])
                    print(f"  round {n} ratio {args.against} / this checkout: {ratios[-1]:.3f}")
            if other:
                same = digests["this checkout"] == digests[args.against] and len(digests["this checkout"]) == 1
                print(f"  median ratio {statistics.median(ratios):.3f} (this checkout is "
                      f"{statistics.median(ratios):.2f}x as fast); the same games on both: {'yes' if same else 'NO'}")
    finally:
        if other:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)],
                           capture_output=True, text=True)


if __name__ == "__main__":
    main()
