"""Tuning a pack's evaluation weights by self-play: CMA-ES (the `cma` package, `pip install 'caput[tune]'`)
searches the weights of one evaluation of the pack's bots file for the bot that scores best: the greedy
bot, or the planner (planner.py) with a given beam width and frontier.

The objective of a set of weights is measured by games of that bot playing by them: in solo its
mean score; with more players its mean margin over the same bot playing by the starting weights (or over
another bot named by its spec, such as `greedy`), the tuned bot taking every seat in turn (so no seat's
edge counts). Every candidate of a generation plays the
same seeds (common random numbers: their differences are the weights', not the deals'); each generation
plays new seeds. The best weights found are then measured on seeds no generation played, against the
starting ones, with a paired 95% interval. The command is tools/tune_bots.py; the result may be written
into the bots file as a new evaluation (`write_evaluation`), which `greedy:<id>` or `planner:<id>` plays by.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from multiprocessing import Pool
from pathlib import Path
from typing import Callable, Sequence

from interpreter.play import stats
from interpreter.play.bots import WEIGHT_GROUPS, Evaluation, GreedyBot, load_evaluation
from interpreter.play.planner import PlannerBot

GROUPS = WEIGHT_GROUPS  # the weights tuned, with the SCALARS counted; `early.<group>` for the early weights
SHARES = ("steps", "rewards_ahead", "bonuses", "occupying")  # shares of the way to a step or a reward, times a bonus or an occupied record counts: never negative
SCALARS = ("points", "final") + SHARES


@dataclass(frozen=True)
class WeightSpace:
    """The weights of an evaluation as a vector: (group, key) per coordinate, `points` first, then `final`,
    `steps`, `rewards_ahead` and `bonuses` when the evaluation counts them, its groups, and its early weights as
    (`early.<group>`, key)."""

    names: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, evaluation: Evaluation) -> "WeightSpace":
        names = [("points", "")] + [(s, "") for s in SCALARS[1:] if getattr(evaluation, s)]
        names += [(g, k) for g in GROUPS for k in getattr(evaluation, g)]
        names += [(f"early.{g}", k) for g in GROUPS for k in evaluation.early.get(g, {})]
        return cls(tuple(names))

    @staticmethod
    def _get(evaluation: Evaluation, group: str, key: str) -> float:
        if group in SCALARS:
            return getattr(evaluation, group)
        if group.startswith("early."):
            return evaluation.early[group[6:]][key]
        return getattr(evaluation, group)[key]

    @property
    def labels(self) -> list[str]:
        """Each weight's name as printed and saved: `points`, `holdings.<key>`, `early.tracks.<key>`."""
        return [f"{g}.{k}" if k else g for g, k in self.names]

    def vector(self, evaluation: Evaluation) -> list[float]:
        return [self._get(evaluation, g, k) for g, k in self.names]

    def evaluation(self, base: Evaluation, x: Sequence[float]) -> Evaluation:
        """The base evaluation with these weights (its opponents' weight, track starts and rounds kept)."""
        scalars = {s: getattr(base, s) for s in SCALARS}
        groups: dict[str, dict[str, float]] = {g: dict(getattr(base, g)) for g in GROUPS}
        early: dict[str, dict[str, float]] = {g: dict(w) for g, w in base.early.items()}
        for (g, k), w in zip(self.names, x):
            if g in scalars:
                scalars[g] = float(w)
            elif g.startswith("early."):
                early[g[6:]][k] = float(w)
            else:
                groups[g][k] = float(w)
        for share in SHARES:
            scalars[share] = max(0.0, scalars[share])
        return replace(base, **scalars, **groups, early=early)


@dataclass(frozen=True)
class Task:
    """Games of one candidate: the weights, the seeds, and where the rules come from."""

    pack: str | None
    variants: tuple[str, ...]
    players: int
    evaluation: str | None
    weights: tuple[float, ...]
    seeds: tuple[int, ...]
    planner_width: int = 0  # 0: the greedy bot plays by the weights; else the planner with this beam width
    against: str | None = None  # the other seats' bot spec; None: the same bot by the starting weights
    planner_frontier: str = "top"  # which sequences the planner's turn search keeps (bot_specs.FRONTIERS)

    def bot(self, evaluation: Evaluation):
        if not self.planner_width:
            return GreedyBot(evaluation)
        return PlannerBot(evaluation, self.planner_width, frontier=self.planner_frontier)


_RULES: dict = {}


def pack_rules(pack: str | None, variants: tuple[str, ...], players: int):
    """The ruleset and the game rules of a pack (with overlays) for a player count, loaded once per process."""
    from interpreter.content.ruleset import load_ruleset
    from interpreter.runtime.game import new_game

    key = (pack, variants, players)
    if key not in _RULES:
        rs = load_ruleset(pack, list(variants))
        _RULES[key] = (rs, new_game(rs, players, seed=0).rules)
    return _RULES[key]


def margin(task: Task) -> float:
    """The candidate's mean result over the task's seeds: its score in solo; else its score less the best
    other seat's, with the other seats played by the starting weights (or by the task's `against` bot), the
    candidate in every seat in turn."""
    from interpreter.play.bots import make_bot
    from interpreter.runtime.game import new_game

    rs, rules = pack_rules(task.pack, task.variants, task.players)
    base = load_evaluation(rules, task.evaluation)
    tuned = task.bot(WeightSpace.of(base).evaluation(base, task.weights))
    plain = make_bot(task.against, rules) if task.against else task.bot(base)
    results = []
    for seed in task.seeds:
        for seat in range(task.players):
            game = new_game(rs, task.players, seed=seed)
            bots = [tuned if i == seat else plain for i in range(task.players)]
            rngs = [random.Random(seed * 1009 + i) for i in range(task.players)]
            while not game.is_terminal():
                turn = game.current_player
                game.apply(bots[turn].choose(game, rngs[turn]))
            scores = [s["score"] for s in game.scores()]
            others = [s for i, s in enumerate(scores) if i != seat]
            results.append(scores[seat] - (max(others) if others else 0))
    return sum(results) / len(results)


@dataclass
class Generation:
    number: int
    best: float  # the best candidate's objective
    mean: float  # the generation's mean objective
    sigma: float  # CMA-ES's step size after the generation


@dataclass
class Tuned:
    evaluation: Evaluation  # the best weights found
    start: Evaluation
    generations: list[Generation]
    check: dict  # the paired comparison on held-out seeds: stats.paired_difference's fields
    check_games: int


def tune(players: int, generations: int, population: int, games: int, seed: int = 0, pack: str | None = None,
         variants: Sequence[str] = (), evaluation: str | None = None, sigma: float = 0.5, workers: int = 1,
         check_games: int = 0, report: Callable[[Generation], None] = lambda g: None,
         planner_width: int = 0, against: str | None = None, planner_frontier: str = "top") -> Tuned:
    """CMA-ES over the evaluation's weights (from the starting ones, step ``sigma``), ``population``
    candidates per generation each playing ``games`` seeds; then the best weights against the starting
    ones on ``check_games`` held-out seeds. With ``against`` (a bot spec) the other seats play that bot;
    with ``planner_width`` the planner plays, its turn search keeping that many sequences by
    ``planner_frontier``."""
    import cma  # the optional dependency: pip install 'caput[tune]'

    variants = tuple(variants)
    _, rules = pack_rules(pack, variants, players)
    start = load_evaluation(rules, evaluation)
    space = WeightSpace.of(start)
    x0 = space.vector(start)
    es = cma.CMAEvolutionStrategy(x0, sigma, {"popsize": population, "seed": seed + 1, "verbose": -9})
    history, best_x, best_f = [], list(x0), -float("inf")
    next_seed = seed
    with Pool(workers) if workers > 1 else SerialPool() as pool:
        for number in range(1, generations + 1):
            xs = es.ask()
            seeds = tuple(range(next_seed, next_seed + games))
            next_seed += games
            tasks = [Task(pack, variants, players, evaluation, tuple(float(v) for v in x), seeds, planner_width,
                          against, planner_frontier) for x in xs]
            fs = pool.map(margin, tasks)
            es.tell(xs, [-f for f in fs])  # CMA-ES minimises
            top = max(range(len(fs)), key=fs.__getitem__)
            if fs[top] > best_f:
                best_f, best_x = fs[top], list(xs[top])
            generation = Generation(number, fs[top], sum(fs) / len(fs), float(es.sigma))
            history.append(generation)
            report(generation)
        # the search's mean is its estimate of the best weights; the best single candidate was lucky too
        found = list(es.result.xfavorite) if generations else best_x
        check: dict = {}
        if check_games:
            held_out = tuple(range(next_seed + 10_000, next_seed + 10_000 + check_games))
            tuned, started = pool.map(_per_seed, [
                Task(pack, variants, players, evaluation, tuple(found), held_out, planner_width, against,
                     planner_frontier),
                Task(pack, variants, players, evaluation, tuple(x0), held_out, planner_width, against,
                     planner_frontier)])
            check = stats.paired_difference(started, tuned)  # found - start, per seed
    return Tuned(space.evaluation(start, found), start, history, check, check_games)


def _per_seed(task: Task) -> list[float]:
    return [margin(replace(task, seeds=(s,))) for s in task.seeds]


class SerialPool:
    """A pool of one: map in this process."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    @staticmethod
    def map(fn, items):
        return [fn(i) for i in items]


def write_evaluation(bots_file: Path, evaluation_id: str, name: str, evaluation: Evaluation, source: str,
                     digits: int = 3) -> None:
    """Add (or replace) an evaluation with these weights in a bots file, keeping the rest of the file (its
    comments and other evaluations) as written."""
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap

    # the round-trip loader builds only mappings, lists and scalars (never a tagged object), like the content
    # loader (content/source.py); it keeps the file's comments and layout
    yaml = YAML(typ="rt")
    yaml.indent(mapping=2, sequence=4, offset=2)  # the packs' style: list items indented under their key
    yaml.width = 4096  # no line folded
    data = yaml.load(bots_file.read_text(encoding="utf-8"))
    entry = CommentedMap()
    entry["id"] = evaluation_id
    entry["name"] = name
    entry["points"] = round(evaluation.points, digits)
    if evaluation.final:
        entry["final"] = round(evaluation.final, digits)
    for share in SHARES:
        if getattr(evaluation, share):
            entry[share] = round(getattr(evaluation, share), digits)

    def weights_of(groups: dict[str, dict[str, float]], into: CommentedMap) -> None:
        for group in GROUPS:
            if groups.get(group):
                flow = CommentedMap((k, round(v, digits)) for k, v in groups[group].items())
                flow.fa.set_flow_style()
                into[group] = flow

    weights_of({g: getattr(evaluation, g) for g in GROUPS}, entry)
    if evaluation.early:
        entry["early"] = CommentedMap()
        weights_of(evaluation.early, entry["early"])
    if evaluation.bonus_prices:
        prices = CommentedMap((k, round(v, digits)) for k, v in evaluation.bonus_prices.items())
        prices.fa.set_flow_style()
        entry["bonus_prices"] = prices
    if evaluation.occupying:
        entry["occupying_program"] = evaluation.occupying_program
    if evaluation.rounds:
        entry["rounds"] = evaluation.rounds
    entry["opponents"] = evaluation.opponents
    entry["provenance"] = "reconstructed"
    entry["source"] = source
    entries = data["evaluations"]
    at = next((i for i, e in enumerate(entries) if e.get("id") == evaluation_id), None)
    if at is None:
        entries.append(entry)
    else:
        entries[at] = entry
    with bots_file.open("w", encoding="utf-8") as fh:
        yaml.dump(data, fh)
