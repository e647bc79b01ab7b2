"""Fitting a pack's evaluation weights by regression on simulated outcomes: what a position is worth is
learned from how games that passed through such positions ended.

A bot plays games; at every end of a turn (the positions the planner compares) each seat's position is
described by the evaluation's own terms: for each weight of the evaluation (WeightSpace), how much the
value moves when that weight is 1 instead of 0 (the evaluation is linear in its weights, so this is exact).
The weights are then those of the least-squares fit of each seat's final result (its score in solo, its
margin over the best other seat otherwise) on these terms: the evaluation becomes an estimate of the
final result from the position. A ridge penalty, on standardised terms, keeps weights of rarely varying
terms from running away; an intercept and the share of the game left are fitted too but not kept (they
move every position compared at one decision alike).

Fitted on the games of one bot, the evaluation values positions as that bot would go on from them, and a
bot searching by it would in theory play better than the bot it learned from (a step of policy iteration).
Measured, it need not: a forecast across games is mostly each deal's luck, while a search needs the
differences between the ends of one turn; on the bundled solo game the fitted weights played worse than
weights tuned by CMA-ES for the search's own results (README, Tuning the bots). The fit also reads out what
each holding, step and record goes with in final points in a bot's games. The command is
tools/tune_bots.py --fit.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from multiprocessing import Pool
from typing import Sequence

from interpreter.play.bots import WEIGHT_GROUPS, Evaluation, load_evaluation
from interpreter.play.tuning import SHARES, SerialPool, WeightSpace, pack_rules


@dataclass(frozen=True)
class Sample:
    """One seat's position at the end of a turn: its terms, the share of the game left, how the game ended."""

    terms: tuple[float, ...]
    left: float
    result: float


@dataclass(frozen=True)
class FitTask:
    """Games of one bot whose positions are described by an evaluation's terms."""

    pack: str | None
    variants: tuple[str, ...]
    players: int
    evaluation: str | None
    bot: str  # the spec of the bot that plays every seat
    seeds: tuple[int, ...]
    widen: bool = True  # the early weights of every plain key (and the plain of every early one) fitted too


@dataclass
class Fitted:
    evaluation: Evaluation
    space: WeightSpace
    samples: int
    games: int
    r2: float  # the share of the results' variance the fit explains, in the samples it was fitted on
    held_out_r2: float | None  # the same on the samples of games left out of the fit


def widened(evaluation: Evaluation) -> Evaluation:
    """The evaluation with a zero early weight for each of its plain keys and a zero plain weight for each
    early key it lacks: the terms the fit may give a weight to."""
    groups = {g: dict(getattr(evaluation, g)) for g in WEIGHT_GROUPS}
    early = {g: dict(evaluation.early.get(g, {})) for g in WEIGHT_GROUPS}
    for g in WEIGHT_GROUPS:
        for k in list(groups[g]) + list(early[g]):
            groups[g].setdefault(k, 0.0)
            early[g].setdefault(k, 0.0)
    early = {g: w for g, w in early.items() if w}
    return replace(evaluation, **groups, early=early)


def term_evaluations(space: WeightSpace, base: Evaluation) -> tuple[Evaluation, list[Evaluation]]:
    """The evaluation with every fitted weight 0, and one with each weight 1 and the others 0."""
    n = len(space.names)
    zero = space.evaluation(base, [0.0] * n)
    return zero, [space.evaluation(base, [1.0 if j == i else 0.0 for j in range(n)]) for i in range(n)]


def _space_and_base(rules, evaluation: str | None, widen: bool) -> tuple[WeightSpace, Evaluation]:
    base = load_evaluation(rules, evaluation)
    for term in ("rewards_ahead", "bonuses", "occupying"):
        if getattr(base, term):
            raise ValueError(f"an evaluation with {term} cannot be fitted: that term is not linear in the weights")
    if widen:
        base = widened(base)
    space = WeightSpace.of(base)
    return WeightSpace(tuple(n for n in space.names if n[0] not in SHARES)), base


def samples_of(task: FitTask) -> list[list[Sample]]:
    """The samples of each of the task's games, every seat at every end of a turn (and the game's start)."""
    from interpreter.play.bots import make_bot
    from interpreter.runtime.game import new_game

    rs, rules = pack_rules(task.pack, task.variants, task.players)
    space, base = _space_and_base(rules, task.evaluation, task.widen)
    zero, units = term_evaluations(space, base)
    bots = [make_bot(task.bot, rules) for _ in range(task.players)]
    out = []
    for seed in task.seeds:
        game = new_game(rs, task.players, seed=seed)
        rngs = [random.Random(seed * 1009 + i) for i in range(task.players)]
        seats = [s for s in range(task.players) if s not in game.rules.automatic_seats]
        positions = [_terms(game, seats, zero, units)]
        while not game.is_terminal():
            before = (game.state.turn, game.current_player)
            game.apply(bots[game.current_player].choose(game, rngs[game.current_player]))
            if game.is_terminal() or (game.state.turn, game.current_player) != before:
                positions.append(_terms(game, seats, zero, units))
        results = _results([game.state.players[s].score for s in seats], seats)
        out.append([Sample(terms, left, results[seat]) for left, by_seat in positions for seat, terms in by_seat.items()])
    return out


def _results(scores: list[float], seats: list[int]) -> dict[int, float]:
    """Each seat's final result: its score alone, or its margin over the best other seat."""
    if len(seats) == 1:
        return {seats[0]: float(scores[0])}
    return {s: float(score - max(o for j, o in enumerate(scores) if j != i)) for i, (s, score) in enumerate(zip(seats, scores))}


def _terms(game, seats: list[int], zero: Evaluation, units: list[Evaluation]) -> tuple[float, dict[int, tuple]]:
    left = zero.share_left(game)
    by_seat = {}
    for seat in seats:
        z = zero(game, seat)
        by_seat[seat] = tuple(u(game, seat) - z for u in units)
    return left, by_seat


def least_squares(samples: Sequence[Sample], ridge: float, prior: Sequence[float] | None = None) -> tuple[list[float], float]:
    """The weights of the terms fitting the results (with an intercept and the share left, not returned),
    ridge-penalised on standardised terms toward ``prior`` (zero unless given: with the starting weights as
    the prior, the data move only the weights they have something to say about); and the share of the
    results' variance explained."""
    import numpy as np  # offline work only, never on a bot's path

    x = np.array([s.terms + (s.left,) for s in samples], dtype=float)
    y = np.array([s.result for s in samples], dtype=float)
    mean, spread = x.mean(axis=0), x.std(axis=0)
    varies = spread > 1e-12
    z = np.zeros_like(x)
    z[:, varies] = (x[:, varies] - mean[varies]) / spread[varies]
    yc = y - y.mean()
    n, k = z.shape
    toward = np.zeros(k)
    if prior is not None:
        toward[:-1] = np.array(list(prior), dtype=float) * spread[:-1]
    a = z.T @ z + ridge * n * np.eye(k)
    coef = np.linalg.solve(a, z.T @ yc + ridge * n * toward)
    weights = np.zeros(k)
    weights[varies] = coef[varies] / spread[varies]
    if prior is not None:  # a term that never varied keeps its prior weight: the data say nothing of it
        weights[:-1][~varies[:-1]] = np.array(list(prior), dtype=float)[~varies[:-1]]
    explained = _r2(x, y, weights, y.mean() - mean @ weights)
    return [float(w) for w in weights[:-1]], explained


def _r2(x, y, weights, intercept) -> float:
    residual = y - (x @ weights + intercept)
    total = ((y - y.mean()) ** 2).sum()
    return float(1 - (residual ** 2).sum() / total) if total else 0.0


def held_out_r2(fit_on: Sequence[Sample], check: Sequence[Sample], weights: Sequence[float]) -> float:
    """How much of the variance of results in ``check`` the weights fitted on ``fit_on`` explain (the
    intercept and the weight of the share left fitted again on ``fit_on`` with the weights fixed)."""
    import numpy as np

    w = np.array(list(weights), dtype=float)
    x_fit = np.array([s.terms for s in fit_on], dtype=float)
    left = np.array([s.left for s in fit_on], dtype=float)
    rest = np.array([s.result for s in fit_on], dtype=float) - x_fit @ w
    design = np.column_stack([np.ones_like(left), left])
    (b0, b1), *_ = np.linalg.lstsq(design, rest, rcond=None)
    x = np.array([s.terms + (s.left,) for s in check], dtype=float)
    y = np.array([s.result for s in check], dtype=float)
    return _r2(x, y, np.append(w, b1), b0)


def play(bot: str, games: int, players: int = 1, seed: int = 0, pack: str | None = None,
         variants: Sequence[str] = (), evaluation: str | None = None, workers: int = 1,
         widen: bool = True) -> list[list[Sample]]:
    """The samples of ``games`` games of ``bot`` (every seat) from seed ``seed`` on, game by game, described
    by ``evaluation``'s terms."""
    variants = tuple(variants)
    seeds = list(range(seed, seed + games))
    chunks = [tuple(seeds[i::max(1, workers)]) for i in range(max(1, workers))]
    tasks = [FitTask(pack, variants, players, evaluation, bot, c, widen) for c in chunks if c]
    space_and_base(players, pack, variants, evaluation, widen)  # refused before any game is played
    with Pool(workers) if workers > 1 else SerialPool() as pool:
        by_chunk = pool.map(samples_of, tasks)
    by_seed = {}
    for task, games_of in zip(tasks, by_chunk):
        by_seed.update(zip(task.seeds, games_of))
    return [by_seed[s] for s in seeds]


def space_and_base(players: int = 1, pack: str | None = None, variants: Sequence[str] = (),
                   evaluation: str | None = None, widen: bool = True) -> tuple[WeightSpace, Evaluation]:
    """The weights fitted (their names) and the evaluation they are fitted into."""
    _, rules = pack_rules(pack, tuple(variants), players)
    return _space_and_base(rules, evaluation, widen)


def fit_samples(per_game: list[list[Sample]], space: WeightSpace, base: Evaluation, ridge: float = 1e-3,
                toward_start: bool = False, check_share: float = 0.2) -> Fitted:
    """The weights fitted to the samples of these games; ``check_share`` of the games are left out of a first
    fit to measure how well it predicts games it did not see, then every game is used for the weights
    returned. With ``toward_start`` the penalty pulls toward the base evaluation's weights (rescaled to the
    results), not toward 0."""
    every = [s for g in per_game for s in g]
    prior = _rescaled(space.vector(base), every) if toward_start else None
    check_games = int(len(per_game) * check_share)
    held = None
    if check_games:
        fit_on = [s for g in per_game[check_games:] for s in g]
        check = [s for g in per_game[:check_games] for s in g]
        first, _ = least_squares(fit_on, ridge, prior)
        held = held_out_r2(fit_on, check, first)
    weights, r2 = least_squares(every, ridge, prior)
    return Fitted(space.evaluation(base, weights), space, len(every), len(per_game), r2, held)


def _rescaled(weights: list[float], samples: Sequence[Sample]) -> list[float]:
    """The weights times the factor that best turns their value into the results: a tuned evaluation
    ranks positions but need not count in points, and a prior on another scale would pull every weight
    off both."""
    import numpy as np

    w = np.array(weights, dtype=float)
    value = np.array([s.terms for s in samples], dtype=float) @ w
    left = np.array([s.left for s in samples], dtype=float)
    y = np.array([s.result for s in samples], dtype=float)
    (factor, _, _), *_ = np.linalg.lstsq(np.column_stack([value, np.ones_like(left), left]), y, rcond=None)
    return [float(factor) * x for x in weights]


def fit(bot: str, games: int, players: int = 1, seed: int = 0, pack: str | None = None,
        variants: Sequence[str] = (), evaluation: str | None = None, ridge: float = 1e-3, workers: int = 1,
        check_share: float = 0.2, widen: bool = True, toward_start: bool = False) -> Fitted:
    """``evaluation``'s weights fitted to the results of ``games`` games of ``bot`` (play, then fit_samples)."""
    per_game = play(bot, games, players, seed, pack, variants, evaluation, workers, widen)
    space, base = space_and_base(players, pack, variants, evaluation, widen)
    return fit_samples(per_game, space, base, ridge, toward_start, check_share)


def save_samples(path, space: WeightSpace, per_game: list[list[Sample]]) -> None:
    """The samples as JSON lines: the terms' names first, then one line per game."""
    import json

    with open(path, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"terms": space.labels}) + "\n")
        for game in per_game:
            fh.write(json.dumps([[list(s.terms), s.left, s.result] for s in game]) + "\n")


def load_samples(path, space: WeightSpace) -> list[list[Sample]]:
    """Samples saved by save_samples, for the same terms (a clear error if they were saved for others)."""
    import json

    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    try:
        names = json.loads(lines[0])["terms"]
        games = [[Sample(tuple(float(t) for t in terms), float(left), float(result)) for terms, left, result in
                  json.loads(line)] for line in lines[1:] if line.strip()]
    except (IndexError, KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{path}: not a samples file of tools/tune_bots.py --fit ({exc})") from None
    wanted = space.labels
    if names != wanted:
        raise ValueError(f"{path}: its samples describe other terms than this evaluation's "
                         f"({len(names)} terms, {len(wanted)} wanted)")
    if any(len(s.terms) != len(wanted) for g in games for s in g):
        raise ValueError(f"{path}: a sample with the wrong number of terms")
    return games
