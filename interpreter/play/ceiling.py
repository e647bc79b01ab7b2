"""The ceiling of a solo game: the best score a wide search over whole turns finds when it knows the draws.

A solo score ladder ("above 140 is a good score") and a bot's mean only say something next to what the
content allows. The ceiling is found on the real game, not on a guess of its hidden stacks: the search
knows every card or tile still to be drawn, which no player does, so it is an analysis of a deal and never
a bot. A beam over turns: from the position given, the ends of the player's turn the planner's turn search
reaches (planner.py) are kept, the ``width`` best by the evaluation and no two alike (the same state but
for the log, the chance seed included), then each is played on through the next turn, to the end of the
game; the best final score of every game the beam finished is the ceiling, with the actions that reach it.
The search is not exhaustive, so the ceiling is a score the deal allows: a wider beam may find more, and so
may another order of the positions the evaluation ties (``rng`` breaks the ties of the turn search).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Callable, Iterable, TypeVar

from interpreter.play.planner import Beam, PlannerBot
from interpreter.runtime.game import Game

T = TypeVar("T")


@dataclass(frozen=True)
class Ceiling:
    score: int
    line: tuple[str, ...]  # every action of the game that reaches it, from the position searched
    width: int  # ends of turn kept per turn


def ceiling(game: Game, evaluation, width: int = 40, turn_width: int = 6, rng: random.Random | None = None) -> Ceiling:
    """The ceiling of a solo game from its current position (the game itself is not changed)."""
    choosing = [i for i in range(len(game.state.players)) if i not in game.rules.automatic_seats]
    if len(choosing) != 1:
        raise ValueError(f"a ceiling is a solo game's: this game has {len(choosing)} seats that choose")
    if game.is_terminal():
        return Ceiling(_score(game, choosing[0]), (), width)
    seat, rng = choosing[0], rng or random.Random(0)
    search = PlannerBot(evaluation, turn_width)
    start = len(game.state.log)
    beam = [Beam(evaluation(game, seat), 0, game.clone())]
    best: Game | None = None
    stuck: list[Game] = []  # positions from which no further turn could be played (never in a sound pack)
    while beam:
        reached: list[Beam] = []
        for at in beam:
            for after in search.next_turn_ends(at, seat, rng):
                if after.end.is_terminal():
                    if best is None or _score(after.end, seat) > _score(best, seat):
                        best = after.end
                elif after.end is at.end:
                    stuck.append(at.end)
                else:
                    reached.append(after)
        beam = _distinct_best(reached, width)
    if best is None:  # no game was finished: the furthest position, valued by final scoring as if over
        furthest = max(stuck, key=lambda g: g.scores_if_over()[seat])
        return Ceiling(round(furthest.scores_if_over()[seat]), tuple(furthest.state.log[start:]), width)
    return Ceiling(_score(best, seat), tuple(best.state.log[start:]), width)


def _score(game: Game, seat: int) -> int:
    return next(s["score"] for s in game.scores() if s["seat"] == seat + 1)


def _distinct_best(reached: list[Beam], width: int) -> list[Beam]:
    """The ``width`` best positions by value, each position once (two lines reaching one position, such as
    the same two actions in either order, would fill the beam with one future)."""
    reached.sort(key=lambda b: -b.value)  # stable: ties keep the order they were reached in
    return first_distinct(reached, lambda b: position_key(b.end), width)


def first_distinct(items: Iterable[T], key: Callable[[T], str], limit: int) -> list[T]:
    """The first ``limit`` items in order, none with the key of an item kept before it."""
    seen: set[str] = set()
    kept: list[T] = []
    for item in items:
        k = key(item)
        if k not in seen:
            seen.add(k)
            kept.append(item)
            if len(kept) == limit:
                break
    return kept


def position_key(game: Game) -> str:
    """The game's whole state but the actions that led to it; the seed of its chance stays, so two
    positions alike in all but what is still to be drawn are two."""
    state = json.loads(game.state.to_json())
    state.pop("log", None)
    return json.dumps(state, sort_keys=True)
