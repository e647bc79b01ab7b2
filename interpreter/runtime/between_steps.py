"""Stepped values read between their steps, for bots' forecasts of final scoring.

A scoring table (3 sets give 4 points, 4 give 10, 6 give 18) and a track's printed values (a multiplier
that rises every few spaces) pay only on reaching a step; one set short of a step looks worth nothing.
Read between the steps, a count partway from one step to the next is worth the same part of the points
between them: 5 sets, halfway from 4 to 6, are worth 14. Bots count that, in proportion to the game left
(bots.Evaluation.steps), as the value of the way toward the next step. The rules never read it.
"""

from __future__ import annotations

from interpreter.runtime.tables import TrackTable

BETWEEN_STEPS = "@between_steps"  # state.table key of a scoring copy: how much of the way between steps counts


def between(steps: tuple[tuple[int, int], ...], n: int) -> float:
    """The points of the steps ((min, points), ascending mins) at ``n``, plus the part of the rise to the next
    step that ``n`` has covered from the start of its own; below the first step and past the last, as they pay."""
    for (lo, pts), (hi, nxt) in zip(steps, steps[1:]):
        if lo <= n < hi:
            return pts + (n - lo) * (nxt - pts) / (hi - lo)
    if steps and n >= steps[-1][0]:
        return steps[-1][1]
    return 0


def track_steps(track: TrackTable) -> tuple[tuple[int, int], ...]:
    """A track's printed values as steps: each space whose value differs from the space before it."""
    out: list[tuple[int, int]] = []
    for n in track.positions:
        v = track.values.get(n)
        if v is not None and (not out or out[-1][1] != v):
            out.append((n, v))
    return tuple(out)


def blended(exact: int, stepped: float, share: float) -> float:
    """The exact value, moved ``share`` of the way toward its value between the steps."""
    return exact + share * (stepped - exact)
