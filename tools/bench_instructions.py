"""Machine instructions per action, counted by valgrind: a speed figure that load does not move.

Usage: python tools/bench_instructions.py [--games G] [--greedy] [--peer catanatron] [--tree OTHER_TREE ...]

Wall-clock rates on a shared machine vary by ±20% between runs of one build (tools/bench.py prints
every round for that reason). Instructions executed do not: valgrind's callgrind counts them, the
same to a few hundredths of a percent from run to run. Each workload runs in a fresh interpreter
under callgrind, with collection switched on only while the games are played (``functools.reduce``
wraps them and callgrind toggles on that function), so imports and content loading are left out:

- caput: G games (seeds 1..G, default 2) of random 4-player games of the bundled pack, as in
  tools/bench.py (``random.Random(seed)`` picking among the legal actions), in this tree and in each
  ``--tree`` (a checkout of another commit). A first game is played before the count, as for
  catanatron: it builds the 4-player rules and the pack's tables, once per process (about as many
  instructions as a whole game), which the rounds of `tools/bench.py --peer`, all in one process,
  pay once at most;
- ``--greedy``: instead, G 2-player games of greedy bots (tools/bench_compare.py's greedy workload;
  each greedy action tries every legal action on a determinized copy), per action;
- ``--peer catanatron``: G+1 random 4-player Catan games of catanatron, as tools/bench.py plays them,
  with the sorting of its actions into a canonical order left out (callgrind toggles off inside
  ``sorted``).

It prints instructions per action for each and the ratios (the other's count over this one's: above
1 means fewer instructions here). Fewer instructions is not the same as more actions per second (how
fast the processor runs them depends on caches and branches too), so this complements tools/bench.py
and does not replace it. A benchmark, not a test. Needs valgrind (``apt install valgrind``); about
two minutes per workload.

``--branches`` runs callgrind's branch prediction simulation (a simple model: 2-bit counters for
conditional branches, the last target for indirect ones, so the rates are worse than a modern
processor's, but they compare two workloads) and prints the share of conditional and indirect
branches mispredicted and mispredictions per action.

``--cache`` also runs callgrind's cache simulation (this machine's L1 sizes: 32 KiB, 8-way) and
prints each workload's L1 instruction and data miss rates and L1 misses per action: how well the
processor can run the instructions, which instruction counts alone do not say. About twice as slow.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CAPUT = r"""
import functools, random, sys
try:
    from interpreter import load_ruleset, make_bot, new_game
except ImportError:  # a checkout from before the package root's API
    from interpreter.ruleset import load_ruleset
    from interpreter.engine import new_game
    from interpreter.bots import make_bot
rs = load_ruleset()
games, players, bot = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
def play(first, last):
    n = 0
    for seed in range(first, last + 1):
        g = new_game(rs, players, seed)
        if bot == "random":  # as tools/bench.py plays them
            rng = random.Random(seed)
            while not g.is_terminal():
                g.apply(rng.choice(g.legal_actions()))
                n += 1
            continue
        bots = [make_bot(bot, g.rules) for _ in range(players)]  # as tools/bench_compare.py plays them
        rngs = [random.Random(seed * 1009 + s) for s in range(players)]
        while not g.is_terminal():
            seat = g.current_player
            g.apply(bots[seat].choose(g, rngs[seat]))
            n += 1
    return n
play(1, 1)  # its first game outside the count: it builds the rules for the player count and the pack's tables, once per process
print(functools.reduce(play, [1, games]))
"""

CATANATRON = r"""
import functools, sys
sys.path.insert(0, sys.argv[2])
import bench
bench.bench_catanatron(1)  # its imports and first game outside the count
games = int(sys.argv[1])
def play(_a, _b):
    r = bench.bench_catanatron(games)
    return round(r["actions_per_game"] * games)
print(functools.reduce(play, [0, 0]))
"""


@dataclass(frozen=True)
class Count:
    """What callgrind counted over one workload's collected part."""

    instructions: int
    actions: int
    events: dict[str, int]  # every event callgrind recorded (Ir, and with --cache Dr, Dw, I1mr, D1mr, D1mw, ...)

    def rate(self, misses: tuple[str, ...], refs: tuple[str, ...]) -> float:
        return sum(self.events[e] for e in misses) / max(1, sum(self.events[e] for e in refs))


def count(script: str, args: list[str], cwd: Path, toggles: list[str], cache: bool = False,
          branches: bool = False) -> Count:
    """What callgrind counts over one workload (its cache simulation too with ``cache``, its branch
    prediction simulation with ``branches``)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPATH"] = str(cwd)
        # a first run without valgrind writes the bytecode caches the counted run then reads
        subprocess.run([sys.executable, "-c", script, "1", *args[1:]], cwd=cwd, env=env, check=True,
                       capture_output=True)
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *(["--cache-sim=yes"] if cache else []),
               *(["--branch-sim=yes"] if branches else []),
               *(f"--toggle-collect={t}" for t in toggles), sys.executable, "-c", script, *args]
        done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=True)
    names = re.search(r"Events\s*: ([A-Za-z0-9 ]+)", done.stderr)
    collected = re.search(r"Collected : ([\d ]+)", done.stderr)
    if collected is None:
        raise SystemExit(f"callgrind printed no count:\n{done.stderr[-2000:]}")
    values = [int(v) for v in collected.group(1).split()]
    events = dict(zip(names.group(1).split(), values)) if names else {"Ir": values[0]}
    return Count(values[0], int(done.stdout.split()[-1]), events)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--peer", choices=["catanatron"])
    ap.add_argument("--tree", action="append", default=[], type=Path, help="a checkout of another commit")
    ap.add_argument("--cache", action="store_true", help="simulate the caches too: L1 miss rates (slower)")
    ap.add_argument("--branches", action="store_true",
                    help="simulate branch prediction too: mispredicted branches per action (slower)")
    ap.add_argument("--greedy", action="store_true",
                    help="2-player games of greedy bots instead of random 4-player ones (instructions per greedy action)")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("bench_instructions: valgrind is not installed (apt install valgrind)", file=sys.stderr)
        return 2
    rows: list[tuple[str, Count]] = []
    workload, label = (["2", "greedy"], "caput greedy 2p") if args.greedy else (["4", "random"], "caput")
    for name, tree in [(f"{label} (this tree)", ROOT), *((f"{label} ({t})", t.resolve()) for t in args.tree)]:
        rows.append((name, count(CAPUT, [str(args.games), *workload], tree, ["functools_reduce"], args.cache,
                                 args.branches)))
    if args.peer == "catanatron":
        rows.append(("catanatron", count(CATANATRON, [str(args.games + 1), str(ROOT / "tools")], ROOT,
                                         ["functools_reduce", "builtin_sorted"], args.cache, args.branches)))
    here = rows[0][1].instructions / rows[0][1].actions
    cache_head = f" {'I1 miss':>8} {'D1 miss':>8} {'L1 misses/action':>17}" if args.cache else ""
    cache_head += f" {'cond. mispredicted':>18} {'indirect mispredicted':>21} {'mispredicts/action':>18}" if args.branches else ""
    print(f"{'workload':<40} {'instructions':>14} {'actions':>8} {'per action':>11} {'ratio':>7}{cache_head}")
    for name, c in rows:
        per = c.instructions / c.actions
        line = f"{name:<40} {c.instructions:>14,} {c.actions:>8,} {per:>11,.0f} {per / here:>7.3f}"
        if args.cache:
            misses = sum(c.events[e] for e in ("I1mr", "D1mr", "D1mw")) / c.actions
            line += (f" {c.rate(('I1mr',), ('Ir',)):>8.2%} {c.rate(('D1mr', 'D1mw'), ('Dr', 'Dw')):>8.2%}"
                     f" {misses:>17,.0f}")
        if args.branches:
            mispredicts = (c.events["Bcm"] + c.events["Bim"]) / c.actions
            line += (f" {c.rate(('Bcm',), ('Bc',)):>18.2%} {c.rate(('Bim',), ('Bi',)):>21.2%}"
                     f" {mispredicts:>18,.0f}")
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
