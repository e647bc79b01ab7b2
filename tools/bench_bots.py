"""How strong the bundled bots are: the strength targets of issue 17, measured by games.

Usage: python tools/bench_bots.py solo  [--pack DIR] [--variant FILE ...] [--bot best] [--games 50] [--seed S]
                                         [--workers W]
       python tools/bench_bots.py duel  [--pack DIR] [--bot best] [--against mcts:100] [--games 100] ...
       python tools/bench_bots.py usage [--pack DIR] [--bot best] [--players 2] [--games 200] ...
       python tools/bench_bots.py milestones [--pack DIR] [--bot greedy] [--players 2] [--games 100] ...
       python tools/bench_bots.py worth [--pack DIR] [--bot best] [--players 2] [--games 100] ...
       python tools/bench_bots.py ceiling [--pack DIR] [--bot best] [--width 40] [--turn-width 6] [--games 20] ...
       python tools/bench_bots.py choices [--pack DIR] [--bot best] [--players 1] [--rollout BOT] [--ends 4]
                                          [--repeats 2] [--share 0.15] [--distinct position|first_action]
                                          [--out FILE.jsonl] [--games 40] ...

- solo:  the bot's solo games: mean score with its 95% interval, the share above the pack's good
         score, CPU milliseconds per move (mean and slowest).
- duel:  two-player games of the bot against another, half with the bot in seat 1 and half in seat 2
         (the same seeds both ways): the bot's win rate with its Wilson interval (a tie the pack shares
         counts as no win, and is shown apart from the losses), per seat order too,
         the mean margin with its interval, and both bots' time per move.
- usage: self-play games of the bot: which cards, tiles and other records of the pack were never used
         (their program never ran and they were never picked), so the note can say why.
- milestones: self-play games of the bot: in how many games each reward printed on a track was reached
         (a seal right at a track's end) and each action was performed by some seat (the extra action),
         with Wilson intervals: whether the bot ever goes for what a rule offers far ahead.
- worth: self-play games of the bot: for each record with a trigger (a permanent ability), the points it
         scored and the resources it gained its owner per whole game held, what that is worth by the bot's
         evaluation, and that worth less the mean of the records dealt into its zone (play/record_worth.py):
         the `records` weights an evaluation may carry.
- ceiling: for each solo seed, the best score a beam over whole turns (--width ends of turn kept, each
         turn searched by the planner's turn search keeping --turn-width sequences) finds when it knows
         the draws (play/ceiling.py: an analysis of the deal, not a bot), next to the bot's score on the
         same seed; the mean ceiling with its interval and the share of it the bot reaches.
         The beam values positions by the bot's evaluation (the pack's planner evaluation for other bots).
- choices: whether the choice among a planner bot's best ends of turn matters (play/turn_choices.py): at
         a share of the turn starts of its self-play games, its --ends best ends of turn (distinct positions,
         or with --distinct first_action the best of each way to begin the turn), each played to
         the end --repeats times by the --rollout bot (the bot itself by default) on new guesses of the
         hidden stacks; prints how much chance moves one end's outcome, how much the ends differ in
         expectation, how well the evaluation follows the outcomes, and what picking by the outcomes gains.

Every figure is printed; a benchmark, not a test: nothing here asserts.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.content.labels import Labels  # noqa: E402
from interpreter.content.ruleset import load_ruleset  # noqa: E402
from interpreter.runtime.game import new_game  # noqa: E402
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
    total = shared_total = 0
    margins = []
    for label, records, seat in (("as seat 1", first, 0), ("as seat 2", second, 1)):
        wins = sum(1 for r in records if r["winner"] == seat + 1)
        shared = sum(1 for r in records if r["winner"] is None)  # a tie the pack's `ties: shared` splits
        total += wins
        shared_total += shared
        p, low, high = stats.wilson(wins, len(records))
        ms = [r["scores"][seat] - r["scores"][1 - seat] for r in records]
        margins += ms
        print(f"  {label}: won {wins} of {len(records)}, {100 * p:.0f}% [{100 * low:.0f}%, {100 * high:.0f}%], "
              f"shared {shared}, lost {len(records) - wins - shared}; "
              f"mean {stats.mean_sd([r['scores'][seat] for r in records])[0]:.1f} against "
              f"{stats.mean_sd([r['scores'][1 - seat] for r in records])[0]:.1f}")
    p, low, high = stats.wilson(total, 2 * len(seeds))
    mean, mlow, mhigh = stats.mean_ci(margins)
    print(f"  overall: won {total} of {2 * len(seeds)}, {100 * p:.1f}% [{100 * low:.1f}%, {100 * high:.1f}%], "
          f"shared {shared_total}, lost {2 * len(seeds) - total - shared_total}; "
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


def milestones(args) -> None:
    ruleset = load_ruleset(args.pack, args.variants)
    specs = [GameSpec(args.players, (args.bot,) * args.players, args.seed + i, args.variants, args.pack) for i in range(args.games)]
    records = run_games(specs, args.workers)
    tables = new_game(ruleset, args.players, seed=args.seed).rules.tables
    labels = Labels.of(ruleset)
    found = analysis.milestones(records, analysis.track_rewards(tables, lambda tid: labels.names.get(tid, tid)))
    print(f"{_where(args)}: {args.games} self-play games of {args.bot}, {args.players} players "
          f"(seeds {args.seed}..{args.seed + args.games - 1})")
    for title, rows in (("track rewards reached", found["rewards"]), ("actions performed", found["performed"])):
        print(f"  {title} (games with it, 95% CI):")
        for x in rows:
            print(f"    {x['games']:>4}  {100 * x['share']:5.1f}% [{100 * x['low']:4.1f}%, {100 * x['high']:5.1f}%]  {x['label']}")
    print("  " + _timing(records, args.bot))


def worth(args) -> None:
    from interpreter.play.record_worth import dealt_from, record_worths

    ruleset = load_ruleset(args.pack, args.variants)
    game = new_game(ruleset, args.players, seed=args.seed)
    evaluation = _evaluation_of(args.bot, game.rules)
    specs = [GameSpec(args.players, (args.bot,) * args.players, args.seed + i, args.variants, args.pack) for i in range(args.games)]
    records = run_games(specs, args.workers)
    rows = record_worths(records, game.rules.tables, evaluation, dealt_from(game.state))
    print(f"{_where(args)}: {args.games} self-play games of {args.bot}, {args.players} player(s) (seeds "
          f"{args.seed}..{args.seed + args.games - 1}); records with triggers, by the bot's evaluation")
    print(f"  {'record':<28} {'zone':<16} {'games':>5} {'held':>5} {'points':>6} {'worth':>6} {'relative':>8}  gains")
    for w in rows:
        gains = ", ".join(f"{n:+.1f} {res}" for res, n in w.gains.items() if round(n, 1))
        print(f"  {w.record:<28} {w.zone:<16} {w.games:>5} {w.share_held:>5.2f} {w.points:>6.1f} {w.worth:>6.2f} "
              f"{w.relative:>+8.2f}  {gains}")
    unheld = sorted({rid for _, rid in game.rules.tables.triggers} - {w.record for w in rows})
    if unheld:
        print(f"  records with triggers no seat held ({len(unheld)}; not measured, so not weighed below): "
              + ", ".join(unheld))
    print("  as `early` weights of the evaluation (worth less the mean of its zone):")
    print("    records: {" + ", ".join(f"{w.record}: {w.relative:.2f}" for w in rows) + "}")
    print("  " + _timing(records, args.bot))


def _in_workers(fn, tasks: list, workers: int | None) -> list:
    """``fn`` of every task, in order, on a pool of ``workers`` processes (every core by default)."""
    from multiprocessing import Pool

    workers = workers or os.cpu_count() or 1
    if workers <= 1:
        return [fn(t) for t in tasks]
    with Pool(workers) as pool:
        return pool.map(fn, tasks, chunksize=1)


def _evaluation_of(bot: str, rules):
    """The evaluation ``bot`` plays by; for a bot without one (random, mcts, dummy), the pack's planner's."""
    from interpreter.play.bots import load_evaluation, make_bot

    evaluation = getattr(make_bot(bot, rules), "evaluate", None)
    if evaluation is None:
        bots = rules.ruleset.single("bots")
        evaluation = load_evaluation(rules, bots.planner if bots else None)
    return evaluation


def _ceiling_of(task: tuple) -> dict:
    """One seed's ceiling (run in a worker process)."""
    from interpreter.play.ceiling import ceiling

    pack, variants, bot, seed, width, turn_width = task
    game = new_game(load_ruleset(pack, variants), 1, seed=seed)
    evaluation = _evaluation_of(bot, game.rules)
    start = time.process_time()
    found = ceiling(game, evaluation, width=width, turn_width=turn_width, rng=random.Random(seed))
    return {"seed": seed, "score": found.score, "seconds": time.process_time() - start}


def ceiling_(args) -> None:
    seeds = [args.seed + i for i in range(args.games)]
    records = run_games([GameSpec(1, (args.bot,), s, args.variants, args.pack) for s in seeds], args.workers)
    tasks = [(args.pack, args.variants, args.bot, s, args.width, args.turn_width) for s in seeds]
    ceilings = _in_workers(_ceiling_of, tasks, args.workers)
    print(f"{_where(args)} solo, {args.games} seeds ({args.seed}..{seeds[-1]}): ceiling (beam of {args.width} "
          f"ends of turn, each turn searched {args.turn_width} wide, the draws known) and {args.bot}")
    for c, r in zip(ceilings, records):
        print(f"  seed {c['seed']}: ceiling {c['score']:>4}, {args.bot} {r['scores'][0]:>4}  ({c['seconds']:.0f} s)")
    tops, scores = [c["score"] for c in ceilings], [r["scores"][0] for r in records]
    mean, low, high = stats.mean_ci(tops)
    bot_mean, bot_low, bot_high = stats.mean_ci(scores)
    share = [s / t for s, t in zip(scores, tops) if t > 0]
    print(f"  ceiling: mean {mean:.1f}, 95% CI [{low:.1f}, {high:.1f}], min {min(tops)}, max {max(tops)}")
    print(f"  {args.bot}: mean {bot_mean:.1f} [{bot_low:.1f}, {bot_high:.1f}]; "
          f"{100 * sum(share) / max(len(share), 1):.0f}% of the ceiling on average; "
          f"above it on {sum(1 for s, t in zip(scores, tops) if s > t)} seeds")
    ladder = analysis.solo_ladder(records)
    if ladder:
        print(f"  ceilings above {ladder['good_score']}: {sum(1 for t in tops if t > ladder['good_score'])} of {len(tops)}")


@dataclass(frozen=True)
class ChoicesTask:
    """One game of `choices` (run in a worker process)."""

    pack: str | None
    variants: tuple[str, ...]
    players: int
    bot: str
    rollout: str
    seed: int
    ends: int
    repeats: int
    share: float
    distinct: str


def _choices_of(task: ChoicesTask) -> tuple[list, float]:
    from interpreter.play.bots import make_bot
    from interpreter.play.planner import PlannerBot
    from interpreter.play.turn_choices import choices_in_game

    game = new_game(load_ruleset(task.pack, task.variants), task.players, seed=task.seed)
    bot, rollout = make_bot(task.bot, game.rules), make_bot(task.rollout, game.rules)
    if not isinstance(bot, PlannerBot):  # choices() refuses such a bot before any worker starts
        raise ValueError(f"'{task.bot}' is not a planner bot")
    start = time.process_time()
    found = choices_in_game(game, bot, rollout, task.ends, task.repeats, task.share, task.seed,
                            task.distinct)
    return found, time.process_time() - start


def choices(args) -> None:
    from interpreter.play.bots import make_bot
    from interpreter.play.planner import PlannerBot
    from interpreter.play.turn_choices import spread

    rollout = args.rollout or args.bot
    rules = new_game(load_ruleset(args.pack, args.variants), args.players, seed=args.seed).rules
    try:
        bot = make_bot(args.bot, rules)
        make_bot(rollout, rules)
    except ValueError as exc:  # a bad spec, before any worker starts
        sys.exit(f"choices: {exc}")
    if not isinstance(bot, PlannerBot):
        sys.exit(f"choices: '{args.bot}' is not a planner bot; only a planner ranks the ends of its turn")
    tasks = [ChoicesTask(args.pack, args.variants, args.players, args.bot, rollout, args.seed + i, args.ends,
                         args.repeats, args.share, args.distinct) for i in range(args.games)]
    results = _in_workers(_choices_of, tasks, args.workers)
    found = [c for cs, _ in results for c in cs]
    if args.out:
        import dataclasses
        import json

        with open(args.out, "w", encoding="utf-8") as fh:
            for c in found:
                fh.write(json.dumps(dataclasses.asdict(c)) + "\n")
    if not found:
        sys.exit(f"choices: no choice of two ends or more was sampled in {args.games} games; raise --games or --share")
    s = spread(found)
    what = "final score" if args.players == 1 else "margin over the best other seat"
    print(f"{_where(args)}, {args.players} player(s), {args.bot}: {args.games} games (seeds {args.seed}.."
          f"{args.seed + args.games - 1}), {s.choices} choices sampled (turn starts, share {args.share}); the "
          f"{args.ends} best ends of each turn, distinct by {args.distinct.replace('_', ' ')}, played out "
          f"{args.repeats} times by {rollout} ({sum(t for _, t in results):.0f} s of CPU)")
    print(f"  {what} between repeats of one end (chance and the later play): sd {s.chance_sd:.2f}")
    print(f"  between the ends' expected outcomes: sd {s.between_sd:.2f} (variance estimate {s.between_variance:+.2f})")
    r = "n/a" if s.evaluation_r is None else f"{s.evaluation_r:+.3f}"
    print(f"  the evaluation's values against the ends' mean outcomes, within a choice: r = {r}")
    i = s.played_over_mean
    print(f"  the end played less the mean of its choice: {i.mean:+.2f} [{i.low:+.2f}, {i.high:+.2f}]")
    if s.picked_over_played is not None:
        i = s.picked_over_played
        print(f"  an end picked by one repeat's outcome, judged by the others, less the end played: "
              f"{i.mean:+.2f} [{i.low:+.2f}, {i.high:+.2f}]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("target", choices=("solo", "duel", "usage", "milestones", "worth", "ceiling", "choices"))
    ap.add_argument("--pack", default=None, help="pack directory (default: the bundled pack)")
    ap.add_argument("--variant", action="append", default=[], help="overlay file (repeatable, in order)")
    ap.add_argument("--bot", default="best")
    ap.add_argument("--against", default="mcts:100")
    ap.add_argument("--players", type=int, default=None, help="default: 2 (usage, milestones, worth), 1 (choices)")
    ap.add_argument("--games", type=int, default=None,
                    help="default: 50 solo, 100 duel, 200 usage, 100 milestones, 100 worth, 20 ceiling, "
                         "40 choices")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--width", type=int, default=40, help="ceiling: ends of turn the beam keeps")
    ap.add_argument("--turn-width", type=int, default=6, help="ceiling: sequences kept in the search of one turn")
    ap.add_argument("--rollout", default=None, help="choices: the bot that plays the ends out (default: --bot)")
    ap.add_argument("--ends", type=int, default=4, help="choices: best distinct ends of turn compared")
    ap.add_argument("--repeats", type=int, default=2, help="choices: times each end is played out")
    ap.add_argument("--share", type=float, default=0.15, help="choices: share of turn starts sampled")
    ap.add_argument("--out", default=None, help="choices: write every choice sampled, one JSON line each")
    ap.add_argument("--distinct", choices=("position", "first_action"), default="position",
                    help="choices: the ends compared differ as positions, or by the turn's first action")
    args = ap.parse_args()
    args.variants = tuple(args.variant)
    args.games = args.games or {"solo": 50, "duel": 100, "usage": 200, "milestones": 100, "worth": 100, "ceiling": 20,
                                "choices": 40}[args.target]
    args.players = args.players or (1 if args.target == "choices" else 2)
    {"solo": solo, "duel": duel, "usage": usage, "milestones": milestones, "worth": worth, "ceiling": ceiling_,
     "choices": choices}[args.target](args)


if __name__ == "__main__":
    main()
