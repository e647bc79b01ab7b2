"""Does the choice among a bot's best ends of turn matter? The spread of what they lead to, by play.

A planner bot (planner.py) ranks the ends of its turn by its evaluation and plays the first. When its
scores fall short of a target, the gap may be its evaluation's (other ends lead to more points and it
cannot see it) or chance's (the draws still to come decide, and no end is better in expectation). This
tells them apart. In games of the bot, at a share of its turn starts drawn at random, its turn search
gives its ``ends`` best distinct ends of turn (distinct positions, or distinct first actions: ways to
begin the turn); each is played to the end of the game ``repeats`` times by a rollout bot, every repeat
on a new guess of the hidden stacks (Game.determinized: the end was reached in a guess, and the real
stacks are never read). The outcome is the seat's final score in solo, else its margin over the best
other seat.

From the outcomes (``spread``): how much a repeat of one end varies (chance and the later play), how much
the ends' expected outcomes differ (the variance of their mean outcomes, with what each repeat's shared
seeds do to every end alike taken out, and less what chance alone explains), how well the evaluation's
values follow the outcomes within a choice, and what choosing by the outcomes would gain over the end
the bot plays: an end picked by one repeat, judged by the others, so the pick's own luck does not count.
Every choice's ends share their rollouts' random seeds (common random numbers).
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass

from interpreter.play import stats
from interpreter.play.ceiling import first_distinct, position_key
from interpreter.play.planner import Plan, PlannerBot
from interpreter.runtime.game import Game


@dataclass(frozen=True)
class End:
    rank: int  # its place among the ends by the evaluation: 0 is the one the bot would play (in this guess)
    value: float  # the evaluation's value of it
    first: str  # the first action of the turn's plan that reaches it
    outcomes: tuple[float, ...]  # one per repeat: the final score (solo) or margin it was played out to


@dataclass(frozen=True)
class Choice:
    seed: int  # the game's
    turn: int  # the game's turn counter at the choice
    seat: int
    ends: tuple[End, ...]


@dataclass(frozen=True)
class Interval:
    mean: float
    low: float
    high: float


@dataclass(frozen=True)
class Spread:
    choices: int  # choices with two ends or more (the others tell nothing)
    chance_sd: float  # sd of the outcome between repeats of one end
    between_variance: float  # the variance of the ends' expected outcomes within a choice (an estimate: may be < 0)
    evaluation_r: float | None  # within a choice, the correlation of the evaluation's values and the ends' mean outcomes
    played_over_mean: Interval  # the end played less the mean of its choice's ends (mean outcomes)
    picked_over_played: Interval | None  # an end picked by one repeat less the one played, both judged by the other repeats

    @property
    def between_sd(self) -> float:
        return math.sqrt(max(0.0, self.between_variance))


def outcome(game: Game, seat: int) -> float:
    """The seat's final score in solo, else its margin over the best other seat that chooses."""
    scores = {s["seat"] - 1: s["score"] for s in game.scores()}
    others = [v for s, v in scores.items() if s != seat]
    return scores[seat] - (max(others) if others else 0)


DISTINCT = ("position", "first_action")


def best_ends(plans: list[Plan], ends: int, distinct: str = "position") -> list[Plan]:
    """The ``ends`` best of a turn search's plans (best first), no two alike: as positions, or, with
    ``first_action``, by the turn's first action (the best plan of each way to begin the turn: which tile,
    card or space is taken), which compares ways to play the turn rather than variants of one."""
    if distinct not in DISTINCT:
        raise ValueError(f"distinct: {distinct!r} is not one of {', '.join(DISTINCT)}")
    if distinct == "position":
        return first_distinct(plans, lambda p: position_key(p.end), ends)
    return first_distinct(plans, lambda p: p.actions[0], ends)


def sample_choice(game: Game, bot: PlannerBot, rollout, ends: int, repeats: int, seed: int,
                  distinct: str = "position") -> Choice | None:
    """The ``ends`` best distinct ends (best_ends) of the acting seat's turn from ``game``, each played out
    ``repeats`` times by ``rollout`` (every seat); None when the turn search finds fewer than two."""
    seat = game.current_player
    rng = random.Random(f"{seed}:{game.state.turn}:ends")
    world = game.determinized(seat, rng)
    found = best_ends(bot.turn_ends(world, seat, rng), ends, distinct)
    if len(found) < 2:
        return None
    played = []
    for rank, end in enumerate(found):
        outcomes = []
        for repeat in range(repeats):
            r = random.Random(f"{seed}:{game.state.turn}:{repeat}")  # the same for every end of the choice
            g = end.end.determinized(seat, r)
            while not g.is_terminal():
                g.apply(rollout.choose(g, r))
            outcomes.append(outcome(g, seat))
        played.append(End(rank, end.value, end.actions[0], tuple(outcomes)))
    return Choice(seed, game.state.turn, seat, tuple(played))


def choices_in_game(game: Game, bot: PlannerBot, rollout, ends: int, repeats: int, share: float,
                    seed: int, distinct: str = "position") -> list[Choice]:
    """Plays ``game`` to its end by ``bot`` in every seat; at each turn start, with probability ``share``
    (drawn from ``seed``), samples the choice there (sample_choice). The game is played on."""
    play, draw = random.Random(seed * 1009), random.Random(f"{seed}:sample")
    out, seen = [], None
    while not game.is_terminal():
        if game.state.turn != seen:
            seen = game.state.turn
            if draw.random() < share:
                choice = sample_choice(game, bot, rollout, ends, repeats, seed, distinct)
                if choice is not None:
                    out.append(choice)
        game.apply(bot.choose(game, play))
    return out


def spread(choices: list[Choice]) -> Spread:
    """What the outcomes say (the module's docstring): pure, from the choices sampled."""
    usable = [c for c in choices if len(c.ends) >= 2]
    within, between, played_over, picked_over = [], [], [], []
    values, means = [], []
    for c in usable:
        rows = [e.outcomes for e in c.ends]
        repeats = min(len(r) for r in rows)
        rows = [r[:repeats] for r in rows]
        mean_of = [sum(r) / len(r) for r in rows]
        if repeats >= 2:
            within.append(sum(statistics.variance(r) for r in rows) / len(rows))
        between.append(_between_variance(rows))
        centre = sum(mean_of) / len(mean_of)
        played_over.append(mean_of[0] - centre)
        v_centre = sum(e.value for e in c.ends) / len(c.ends)
        values += [e.value - v_centre for e in c.ends]
        means += [m - centre for m in mean_of]
        if repeats >= 2:
            gains = []
            for j in range(repeats):
                pick = max(range(len(rows)), key=lambda k: (rows[k][j], -k))  # ties: the higher ranked
                judge = [r for r in range(repeats) if r != j]
                gains.append(sum(rows[pick][r] - rows[0][r] for r in judge) / len(judge))
            picked_over.append(sum(gains) / len(gains))
    return Spread(
        choices=len(usable),
        chance_sd=math.sqrt(sum(within) / len(within)) if within else 0.0,
        between_variance=sum(between) / len(between) if between else 0.0,
        evaluation_r=_correlation(values, means),
        played_over_mean=Interval(*stats.mean_ci(played_over)),
        picked_over_played=Interval(*stats.mean_ci(picked_over)) if picked_over else None,
    )


def _between_variance(rows: list[tuple[float, ...]]) -> float:
    """The variance of the ends' expected outcomes, estimated from a table of ends by repeats whose
    repeats share their random seeds across ends (common random numbers): what a repeat does to every end
    alike is taken out before the ends are compared (two-way analysis of variance without replication:
    (mean square of the ends - mean square of the residuals) / repeats). With one repeat, the variance of
    the outcomes, chance included."""
    ends, repeats = len(rows), len(rows[0])
    mean_of = [sum(r) / repeats for r in rows]
    if repeats < 2:
        return statistics.variance(mean_of)
    grand = sum(mean_of) / ends
    column = [sum(r[j] for r in rows) / ends for j in range(repeats)]
    ends_square = repeats * sum((m - grand) ** 2 for m in mean_of) / (ends - 1)
    residual = sum((r[j] - m - column[j] + grand) ** 2 for r, m in zip(rows, mean_of) for j in range(repeats))
    return (ends_square - residual / ((ends - 1) * (repeats - 1))) / repeats


def _correlation(xs: list[float], ys: list[float]) -> float | None:
    sxy = sum(x * y for x, y in zip(xs, ys))  # both centred within their choice already
    sxx, syy = sum(x * x for x in xs), sum(y * y for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else None
