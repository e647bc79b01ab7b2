"""Tune a pack's evaluation weights for its greedy or planner bot by self-play with CMA-ES (interpreter/play/tuning.py).

Usage: python tools/tune_bots.py [--pack DIR] [--variant FILE ...] [--players N] [--evaluation ID]
                                 [--generations G] [--population P] [--games K] [--check C] [--seed S]
                                 [--workers W] [--planner WIDTH [--frontier top|first_actions]]
                                 [--against BOT] [--write ID]

Each generation's candidates play K seeds each (the same seeds for all of them): in solo the objective is
the mean score, with more players the mean margin over the same bot playing by the starting weights
(or over the bot --against names, e.g. greedy), in every seat in turn. Every generation is printed (best, mean, step size); then the weights found
(the search's mean), and their games on C held-out seeds against the starting weights: the paired mean
difference with its 95% interval. With --write ID the weights go into the pack's bots.yaml as the
evaluation ID (`caput simulate --bots greedy:ID`, or `planner:ID` after --planner, plays by it). Needs the `cma` package:
pip install 'caput[tune]'. A tuning run, not a test: nothing here asserts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.content.bot_specs import FRONTIERS  # noqa: E402
from interpreter.play.tuning import Generation, WeightSpace, tune, write_evaluation  # noqa: E402
from interpreter.paths import default_pack  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pack", default=None, help="pack directory (default: the bundled pack)")
    ap.add_argument("--variant", action="append", default=[], help="overlay file (repeatable)")
    ap.add_argument("--players", type=int, default=1)
    ap.add_argument("--evaluation", default=None, help="the evaluation to start from (default: greedy's)")
    ap.add_argument("--generations", type=int, default=15)
    ap.add_argument("--population", type=int, default=12)
    ap.add_argument("--games", type=int, default=16, help="seeds each candidate plays per generation")
    ap.add_argument("--check", type=int, default=100, help="held-out seeds for the final comparison")
    ap.add_argument("--sigma", type=float, default=0.5, help="CMA-ES's first step size, in points per unit")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--planner", type=int, default=0, metavar="WIDTH",
                    help="tune for the planner bot with this beam width (default: the greedy bot)")
    ap.add_argument("--frontier", choices=FRONTIERS, default="top",
                    help="with --planner: which sequences its turn search keeps (default: top)")
    ap.add_argument("--against", default=None, metavar="BOT",
                    help="the other seats' bot (default: the same bot by the starting weights)")
    ap.add_argument("--write", default=None, metavar="ID", help="write the weights found as evaluation ID")
    args = ap.parse_args()
    if args.frontier != "top" and not args.planner:
        ap.error("--frontier needs --planner WIDTH: only the planner searches its turn")

    def report(g: Generation) -> None:
        print(f"generation {g.number:>3}: best {g.best:8.2f}  mean {g.mean:8.2f}  step {g.sigma:.3f}", flush=True)

    result = tune(args.players, args.generations, args.population, args.games, args.seed, args.pack, args.variant,
                  args.evaluation, args.sigma, args.workers, args.check, report, args.planner, args.against,
                  args.frontier)
    space = WeightSpace.of(result.start)
    print("\nweights (start -> found):")
    for (group, key), a, b in zip(space.names, space.vector(result.start), space.vector(result.evaluation)):
        print(f"  {group + ('.' + key if key else ''):<32}{a:>8.3f} -> {b:8.3f}")
    what = ("mean score" if args.players == 1
            else f"mean margin over {args.against}" if args.against else "mean margin over the starting weights")
    if result.check:
        c = result.check
        print(f"\nheld-out check, {result.check_games} seeds ({what}): found - start = {c['mean']:+.2f}, "
              f"95% CI [{c['low']:+.2f}, {c['high']:+.2f}]")
    if args.write:
        pack = Path(args.pack) if args.pack else default_pack()
        source = (f"tools/tune_bots.py --players {args.players} --generations {args.generations} --population "
                  f"{args.population} --games {args.games} --seed {args.seed}"
                  + (f" --planner {args.planner}" if args.planner else "")
                  + (f" --frontier {args.frontier}" if args.frontier != "top" else "")
                  + (f" --evaluation {args.evaluation}" if args.evaluation else "")
                  + (f" --against {args.against}" if args.against else "")
                  + " (CMA-ES by self-play; not a game component)")
        if result.check:
            source += f"; held-out {result.check_games} seeds: {result.check['mean']:+.2f} [{result.check['low']:+.2f}, {result.check['high']:+.2f}]"
        write_evaluation(pack / "bots.yaml", args.write, f"tuned by self-play ({what})", result.evaluation, source)
        bot = (f"planner:{args.write}:{args.planner}:1:{args.frontier}" if args.planner else f"greedy:{args.write}")
        print(f"written: {pack / 'bots.yaml'} evaluation {args.write!r} (play it: --bots {bot})")


if __name__ == "__main__":
    main()
