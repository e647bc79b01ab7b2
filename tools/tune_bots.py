"""Tune a pack's evaluation weights for its greedy or planner bot by self-play with CMA-ES (interpreter/play/tuning.py).

Usage: python tools/tune_bots.py [--pack DIR] [--variant FILE ...] [--players N] [--evaluation ID]
                                 [--generations G] [--population P] [--games K] [--check C] [--seed S]
                                 [--workers W] [--planner WIDTH [--frontier top|first_actions]]
                                 [--against BOT] [--write ID]
       python tools/tune_bots.py --fit BOT [--pack DIR] [--players N] [--evaluation ID] [--games K] [--seed S]
                                 [--ridge R] [--toward-start] [--save FILE | --load FILE] [--write ID]

Each generation's candidates play K seeds each (the same seeds for all of them): in solo the objective is
the mean score, with more players the mean margin over the same bot playing by the starting weights
(or over the bot --against names, e.g. greedy), in every seat in turn. Every generation is printed (best, mean, step size); then the weights found
(the search's mean), and their games on C held-out seeds against the starting weights: the paired mean
difference with its 95% interval. With --write ID the weights go into the pack's bots.yaml as the
evaluation ID (`caput simulate --bots greedy:ID`, or `planner:ID` after --planner, plays by it). Needs the `cma` package:
pip install 'caput[tune]'.

With --fit BOT the weights are fitted instead by regression on simulated outcomes (interpreter/play/fitting.py):
K games of BOT in every seat, each seat's position at every end of a turn described by the evaluation's terms
(its early weights widened to every key), and the least-squares weights that forecast each seat's final
score (its margin with more players), ridge-penalised (--ridge) toward 0 or, with --toward-start, toward the
starting weights rescaled to points. It prints the share of the results' variance the fit explains, on the
games fitted and on a fifth of them left out of a first fit, and every weight: what each holding, track step
and record at the end of a turn is worth in final points in that bot's games. --save keeps the positions'
terms so that --load fits them again (another --ridge) without playing. A tuning run, not a test: nothing
here asserts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.content.bot_specs import FRONTIERS  # noqa: E402
from interpreter.play.fitting import fit_samples, load_samples, play, save_samples, space_and_base  # noqa: E402
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
    ap.add_argument("--fit", default=None, metavar="BOT",
                    help="instead of CMA-ES: fit the weights by regression on the results of --games games of BOT "
                         "(interpreter/play/fitting.py)")
    ap.add_argument("--ridge", type=float, default=1e-3, help="with --fit: the ridge penalty on standardised terms")
    ap.add_argument("--toward-start", action="store_true",
                    help="with --fit: the penalty pulls toward the starting weights instead of toward 0")
    ap.add_argument("--save", default=None, metavar="FILE", help="with --fit: keep the games' samples in FILE")
    ap.add_argument("--load", default=None, metavar="FILE",
                    help="with --fit: fit the samples kept in FILE instead of playing games")
    args = ap.parse_args()
    if args.fit:
        if args.save and args.load:
            ap.error("--save and --load: the samples are either played and kept, or loaded")
        try:
            return fit_main(args)
        except (OSError, ValueError) as exc:  # a missing or corrupt samples file, an evaluation that cannot be fitted
            sys.exit(f"error: {exc}")
    if args.frontier != "top" and not args.planner:
        ap.error("--frontier needs --planner WIDTH: only the planner searches its turn")

    def report(g: Generation) -> None:
        print(f"generation {g.number:>3}: best {g.best:8.2f}  mean {g.mean:8.2f}  step {g.sigma:.3f}", flush=True)

    result = tune(args.players, args.generations, args.population, args.games, args.seed, args.pack, args.variant,
                  args.evaluation, args.sigma, args.workers, args.check, report, args.planner, args.against,
                  args.frontier)
    space = WeightSpace.of(result.start)
    print("\nweights (start -> found):")
    for label, a, b in zip(space.labels, space.vector(result.start), space.vector(result.evaluation)):
        print(f"  {label:<32}{a:>8.3f} -> {b:8.3f}")
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


def fit_main(args) -> None:
    """--fit: the evaluation's weights by least squares on the results of games of one bot."""
    space, base = space_and_base(args.players, args.pack, args.variant, args.evaluation)
    if args.load:
        per_game = load_samples(args.load, space)
    else:
        per_game = play(args.fit, args.games, args.players, args.seed, args.pack, args.variant, args.evaluation,
                        args.workers)
        if args.save:
            save_samples(args.save, space, per_game)
    result = fit_samples(per_game, space, base, args.ridge, args.toward_start)
    print(f"{result.games} games of {args.fit}, {result.samples} positions at the end of a turn")
    print(f"share of the results' variance explained: {result.r2:.3f} on the games fitted"
          + (f", {result.held_out_r2:.3f} on the fifth of the games left out of a first fit"
             if result.held_out_r2 is not None else ""))
    print("\nweights fitted:")
    for label, w in zip(result.space.labels, result.space.vector(result.evaluation)):
        print(f"  {label:<32}{w:8.3f}")
    if args.write:
        pack = Path(args.pack) if args.pack else default_pack()
        source = (f"tools/tune_bots.py --fit {args.fit} --players {args.players} --games {args.games} --seed {args.seed}"
                  + (f" --evaluation {args.evaluation}" if args.evaluation else "")
                  + (f" --ridge {args.ridge}" if args.ridge != 1e-3 else "")
                  + (" --toward-start" if args.toward_start else "")
                  + f" (regression on simulated outcomes; not a game component); variance explained "
                  f"{result.r2:.2f}" + (f", held out {result.held_out_r2:.2f}" if result.held_out_r2 is not None else ""))
        what = "final score" if args.players == 1 else "final margin"
        write_evaluation(pack / "bots.yaml", args.write, f"fitted to the {what} of games of {args.fit}",
                         result.evaluation, source)
        print(f"written: {pack / 'bots.yaml'} evaluation {args.write!r} (play it: --bots planner:{args.write})")


if __name__ == "__main__":
    main()
