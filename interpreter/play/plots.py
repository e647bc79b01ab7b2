"""The designer's plots of simulated games, as PNG files (matplotlib's Agg backend: files only, nothing on screen).

simulate: the scores per seat, the win rates per seat with their intervals (the score ladder in solo),
the points by source and the records picked most. compare: the game-by-game differences of the
variant's mean score from the base's with their mean and interval, and the change of each source of
points with its interval. Every plot takes the display names of sources and records (labels.Labels).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

TOP = 15  # sources or records shown at most in one plot


def _figure(width: float = 7, height: float = 4):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(width, height), dpi=100)
    return plt, fig, ax


def _save(plt, fig, path: Path) -> Path:
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path


def scores(groups: dict[str, list[float]], path: Path, title: str) -> Path:
    """Histograms of scores, one colour per group (e.g. per seat)."""
    plt, fig, ax = _figure()
    values = [x for xs in groups.values() for x in xs]
    lo, hi = (min(values), max(values)) if values else (0, 1)
    step = max(1, (int(hi) - int(lo)) // 30 or 1)
    bins = list(range(int(lo) - 1, int(hi) + 3, step))
    for label, xs in groups.items():
        ax.hist(xs, bins=bins, alpha=0.55, label=label)
    ax.set_xlabel("final score")
    ax.set_ylabel("players")
    ax.set_title(title)
    ax.legend()
    return _save(plt, fig, path)


def seat_groups(records: list[dict]) -> dict[str, list[int]]:
    seats = max((len(r["scores"]) for r in records), default=0)
    return {f"seat {i + 1} ({records[0]['bots'][i]})": [r["scores"][i] for r in records] for i in range(seats)}


def win_rates(summary: dict, path: Path) -> Path:
    """Each seat's win rate with its Wilson interval, and the rate of an even share."""
    plt, fig, ax = _figure(6, 3.5)
    seats = summary["seats"]
    xs = [f"seat {r['seat']}\n{r['bot']}" for r in seats]
    ys = [100 * r["win_rate"] for r in seats]
    errors = [[100 * (r["win_rate"] - r["win_low"]) for r in seats], [100 * (r["win_high"] - r["win_rate"]) for r in seats]]
    ax.bar(xs, ys, yerr=errors, capsize=6, color="#6a8fc7")
    ax.axhline(100 / max(1, len(seats)), color="#888", linestyle="--", label="an even share")
    ax.set_ylabel("games won, % (95% interval)")
    ax.set_title(f"win rate per seat, {summary['games']} games")
    ax.legend()
    return _save(plt, fig, path)


def _bars(items: list[tuple[str, float]], path: Path, title: str, xlabel: str,
          intervals: list[tuple[float, float]] | None = None) -> Path:
    """Horizontal bars, the first item on top; with intervals, error bars (a forest plot)."""
    plt, fig, ax = _figure(7, 0.9 + 0.32 * max(1, len(items)))
    labels = [k for k, _ in items][::-1]
    values = [v for _, v in items][::-1]
    if intervals is None:
        ax.barh(labels, values, color="#6a8fc7")
    else:
        lows = [v - lo for v, (lo, _) in zip(values, intervals[::-1])]
        highs = [hi - v for v, (_, hi) in zip(values, intervals[::-1])]
        colours = ["#c0504d" if hi < 0 else "#4f9a5c" if lo > 0 else "#888888" for lo, hi in intervals[::-1]]
        for label, value, low, high, colour in zip(labels, values, lows, highs, colours):
            ax.errorbar([value], [label], xerr=[[low], [high]], fmt="o", color=colour, capsize=4)
        ax.axvline(0, color="#444", linewidth=0.8)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    return _save(plt, fig, path)


def sources(summary: dict, path: Path, name: Callable[[str], str] = str) -> Path:
    """Mean points per player from each source, the largest first."""
    items = [(name(k), v) for k, v in list(summary["sources"].items())[:TOP]]
    return _bars(items, path, "where the points come from", "points per player (mean)")


def picks(summary: dict, path: Path, name: Callable[[str], str] = str) -> Path:
    """How often each record is picked per game, the most picked first."""
    items = [(name(k), v) for k, v in list(summary["tiles"].items())[:TOP]]
    return _bars(items, path, "the records picked most", "picks per game")


def differences(result: dict, path: Path) -> Path:
    """The game-by-game differences of the variant's mean score from the base's, their mean and 95% interval."""
    plt, fig, ax = _figure()
    ds = result["differences"]
    d = result["score"]
    lo, hi = (min(ds), max(ds)) if ds else (0, 1)
    ax.hist(ds, bins=max(5, min(40, len(ds) // 3 or 1)), range=(lo - 0.5, hi + 0.5), color="#9bb3d9")
    if d["low"] == d["low"]:  # not NaN: at least two games
        ax.axvspan(d["low"], d["high"], color="#c0504d", alpha=0.25, label=f"95% interval [{d['low']:+.2f}, {d['high']:+.2f}]")
    ax.axvline(d["mean"], color="#c0504d", label=f"mean {d['mean']:+.2f}")
    ax.axvline(0, color="#444", linestyle="--", linewidth=0.8, label="no change")
    ax.set_xlabel("variant less base, mean score per player (one game per seed)")
    ax.set_ylabel("games")
    ax.set_title(f"paired differences, {result['games']} games")
    ax.legend()
    return _save(plt, fig, path)


def source_changes(result: dict, path: Path, name: Callable[[str], str] = str) -> Path:
    """Each source's change of points per player with its 95% interval (green: up, red: down, grey: unsure)."""
    changes = [c for c in result["source_changes"] if c["low"] == c["low"]][:TOP]
    items = [(name(c["source"]), c["mean"]) for c in changes]
    return _bars(items, path, "change of the points from each source", "points per player, variant less base (95% interval)",
                 [(c["low"], c["high"]) for c in changes])
