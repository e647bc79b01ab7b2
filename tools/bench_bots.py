"""How strong the bundled bots are: the strength targets of issue 17, measured by games.

Usage: python tools/bench_bots.py solo  [--pack DIR] [--variant FILE ...] [--bot best] [--games 50] [--seed S]
                                         [--workers W]
       python tools/bench_bots.py duel  [--pack DIR] [--bot best] [--against mcts:100] [--games 100] ...
       python tools/bench_bots.py usage [--pack DIR] [--bot best] [--players 2] [--games 200] ...

- solo:  the bot's solo games: mean score with its 95% interval, the share above the pack's good
         score, CPU milliseconds per move (mean and slowest).
- duel:  two-player games of the bot against another, half with the bot in seat 1 and half in seat 2
         (the same seeds both ways): the bot's win rate with its Wilson interval, per seat order too,
         the mean margin with its interval, and both bots' time per move.
- usage: self-play games of the bot: which cards, tiles and other records of the pack were never used
         (their program never ran and they were never picked), so the note can say why.

Every figure is printed; a benchmark, not a test: nothing here asserts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.content.ruleset import load_ruleset  # noqa: E402
from interpreter.play import analysis, stats  # noqa: E402
from interpreter.play.simulate import GameSpec, run_games  # noqa: E402


def _timing(records: list[dict], bot: str) -> str:
    seconds = moves = 0.0
    slowest = 0.0
    for r in records:
        for i, b in enumerate(r["bots"]):
            if b == bot:
                seconds += r["timing"]["seconds"][i]
                moves += r["timing"]["moves"][i]
                slowest = max(slowest, r["timing"]["slowest"][i])
    return f"{bot}: {1000 * seconds / max(moves, 1):.1f} ms/move over {int(moves)} moves, slowest {1000 * slowest:.0f} ms"


def _where(args) -> str:
    """The pack the games are of, with the variants laid over it."""
    return (args.pack or "bundled pack") + "".join(f" + {Path(v).name}" for v in args.variants)


def solo(args) -> None:
    specs = [GameSpec(1, (args.bot,), args.seed + i, args.variants, args.pack) for i in range(args.games)]
    records = run_games(specs, args.workers)
    scores = [r["scores"][0] for r in records]
    mean, low, high = stats.mean_ci(scores)
    print(f"{_where(args)} solo, {args.games} games of {args.bot} (seeds {args.seed}..{args.seed + args.games - 1})")
    print(f"  mean {mean:.1f}, 95% CI [{low:.1f}, {high:.1f}], sd {stats.mean_sd(scores)[1]:.1f}, "
          f"min {min(scores)}, max {max(scores)}")
    ladder = analysis.solo_ladder(records)
    if ladder:
        print(f"  above {ladder['good_score']} in {ladder['good']} games, {100 * ladder['good_rate']:.0f}% "
              f"[{100 * ladder['good_low']:.0f}%, {100 * ladder['good_high']:.0f}%]")
    print("  " + _timing(records, args.bot))
    sources = analysis.summarize(records)["sources"]
    print("  points by source: " + ", ".join(f"{k} {v:.1f}" for k, v in list(sources.items())[:12]))


def duel(args) -> None:
    seeds = [args.seed + i for i in range(args.games // 2)]
    first = run_games([GameSpec(2, (args.bot, args.against), s, args.variants, args.pack) for s in seeds], args.workers)
    second = run_games([GameSpec(2, (args.against, args.bot), s, args.variants, args.pack) for s in seeds], args.workers)
    print(f"{_where(args)}: {args.bot} against {args.against}, {len(seeds)} seeds in each seat order")
    total = 0
    margins = []
    for label, records, seat in (("as seat 1", first, 0), ("as seat 2", second, 1)):
        wins = sum(1 for r in records if r["winner"] == seat + 1)
        total += wins
        p, low, high = stats.wilson(wins, len(records))
        ms = [r["scores"][seat] - r["scores"][1 - seat] for r in records]
        margins += ms
        print(f"  {label}: won {wins} of {len(records)}, {100 * p:.0f}% [{100 * low:.0f}%, {100 * high:.0f}%]; "
              f"mean {stats.mean_sd([r['scores'][seat] for r in records])[0]:.1f} against "
              f"{stats.mean_sd([r['scores'][1 - seat] for r in records])[0]:.1f}")
    p, low, high = stats.wilson(total, 2 * len(seeds))
    mean, mlow, mhigh = stats.mean_ci(margins)
    print(f"  overall: won {total} of {2 * len(seeds)}, {100 * p:.1f}% [{100 * low:.1f}%, {100 * high:.1f}%]; "
          f"margin {mean:+.1f} [{mlow:+.1f}, {mhigh:+.1f}]")
    print("  " + _timing(first + second, args.bot))
    print("  " + _timing(first + second, args.against))


def usage(args) -> None:
    ruleset = load_ruleset(args.pack, args.variants)
    specs = [GameSpec(args.players, (args.bot,) * args.players, args.seed + i, args.variants, args.pack) for i in range(args.games)]
    records = run_games(specs, args.workers)
    summary = analysis.summarize(records, analysis.content_keys(ruleset))
    picked = set(summary["tiles"])
    never = [rid for rid in summary["never_fired"] if rid not in picked]
    print(f"{_where(args)}: {args.games} self-play games of {args.bot}, {args.players} players")
    print(f"  mean score {stats.mean_sd([s for r in records for s in r['scores']])[0]:.1f}; "
          f"{len(never)} records never used:")
    for rid in never:
        print(f"    {rid}")
    print("  " + _timing(records, args.bot))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("target", choices=("solo", "duel", "usage"))
    ap.add_argument("--pack", default=None, help="pack directory (default: the bundled pack)")
    ap.add_argument("--variant", action="append", default=[], help="overlay file (repeatable, in order)")
    ap.add_argument("--bot", default="best")
    ap.add_argument("--against", default="mcts:100")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=None, help="default: 50 solo, 100 duel, 200 usage")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=None)
    args = ap.parse_args()
    args.variants = tuple(args.variant)
    args.games = args.games or {"solo": 50, "duel": 100, "usage": 200}[args.target]
    {"solo": solo, "duel": duel, "usage": usage}[args.target](args)


if __name__ == "__main__":
    main()
