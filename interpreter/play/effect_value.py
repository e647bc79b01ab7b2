"""What an effect is worth to an evaluation, read off its text without playing it: for the rewards a
track still holds ahead of a player's marker (bots.Evaluation.rewards_ahead).

Only what the weights can price is counted: resources gained (the `holdings` weights), points scored
(`points`) and track advances (`tracks`), each with a number written out; an optional payment counts as
its body less its cost when that is worth it, a choice as its best option. Whatever else an effect does
(a card drawn, a move on a grid, an amount the game computes) counts for nothing here: the estimate
errs low, never high.
"""

from __future__ import annotations

from typing import Mapping

from interpreter.dsl import ast as A
from interpreter.dsl.resolve import constant_value


def effect_value(node, points: float, holdings: Mapping[str, float], tracks: Mapping[str, float]) -> float:
    """The value of an effect's program (or statement) to weights of points, holdings and track advances."""

    def amounts(items) -> float:
        total = 0.0
        for a in items:
            n = constant_value(a.value) if isinstance(a, A.Amount) else None
            if n is not None:
                total += n * holdings.get(a.name.text, 0.0)
        return total

    def value(n) -> float:
        if isinstance(n, A.Program):
            return sum(value(item) for item in n.items)
        if isinstance(n, A.Block):
            return sum(value(s) for s in n.body)
        if isinstance(n, A.Gain):
            return amounts(n.amounts)
        if isinstance(n, A.Score):
            pts = constant_value(n.points)
            return pts * points if pts is not None else 0.0
        if isinstance(n, A.Advance):
            times = constant_value(n.times) if n.times is not None else 1
            return (times or 0) * tracks.get(n.track.text, 0.0)
        if isinstance(n, A.Choose):
            return max((value(o) for o in n.options), default=0.0)
        if isinstance(n, A.MayPay):
            return max(0.0, value(n.body) - amounts(n.cost))
        if isinstance(n, A.May):
            return max(0.0, value(n.body))
        if isinstance(n, A.Later):
            return value(n.body)
        return 0.0  # a draw, a move, a trigger, a condition: not priced by these weights

    return value(node)
