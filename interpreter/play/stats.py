"""Small statistics for reporting simulated games and comparing rule variants.

Pure standard library (``math`` and ``statistics``): no numpy/scipy, so the
engine's reports stay dependency-free and deterministic.  Intervals are
two-sided; ``level`` is the confidence level (0.95 means alpha = 0.05).

Conventions: a paired comparison reports ``b - a`` (the variant minus the
baseline, played on the same seeds); a two-proportion comparison reports
``p2 - p1``.
"""

from __future__ import annotations

import math
import statistics
from bisect import bisect_right
from collections.abc import Iterable

__all__ = [
    "betainc",
    "games_for_mdd",
    "histogram",
    "mean_ci",
    "mean_sd",
    "paired_difference",
    "t_quantile",
    "t_sf",
    "two_proportions",
    "wilson",
    "z_quantile",
]

_NORMAL = statistics.NormalDist()
_NAN = float("nan")
# Above this many degrees of freedom the t quantile comes from the normal
# quantile plus a Cornish-Fisher correction (exact to ~1e-12 there).
_LARGE_DF = 1000


# --- distributions ---------------------------------------------------------------------------


def _check_level(level: float) -> None:
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be strictly between 0 and 1, got {level!r}")


def z_quantile(p: float) -> float:
    """Standard normal quantile (inverse CDF); the large-sample limit of the t quantile."""
    return _NORMAL.inv_cdf(p)


_TINY = 1e-300


def _lentz(aa: float, c: float, d: float) -> tuple[float, float, float]:
    """One step of the modified Lentz method: the new c, d and their product (the factor for h)."""
    d = 1.0 + aa * d
    d = 1.0 / (d if abs(d) >= _TINY else _TINY)
    c = 1.0 + aa / c
    c = c if abs(c) >= _TINY else _TINY
    return c, d, c * d


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction for the incomplete beta function (modified Lentz, Numerical Recipes ``betacf``)."""
    eps = 1e-15
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d, h = _lentz(-qab * x / qap, 1.0, 1.0)
    c, h = 1.0, d
    for m in range(1, 10_000):
        m2 = 2 * m
        c, d, delta = _lentz(m * (b - m) * x / ((qam + m2) * (a + m2)), c, d)
        h *= delta
        c, d, delta = _lentz(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)), c, d)
        h *= delta
        if abs(delta - 1.0) < eps:
            return h
    raise ArithmeticError(f"betacf did not converge for a={a}, b={b}, x={x}")


def betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta function I_x(a, b); the t distribution's tail is built on it."""
    if a <= 0 or b <= 0:
        raise ValueError("betainc needs a > 0 and b > 0")
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(log_front)
    # The continued fraction converges fast on this side of the mean; use symmetry on the other.
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_sf(t: float, df: float) -> float:
    """Upper tail P(T > t) of Student's t with ``df`` degrees of freedom (two-sided p = 2 * t_sf(|t|))."""
    if df <= 0:
        raise ValueError(f"df must be positive, got {df!r}")
    if math.isnan(t):
        return _NAN
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    t2 = t * t
    if t2 < df:
        # Near 0, x = df / (df + t^2) rounds to 1; use P(|T| < |t|) = I_y(1/2, df/2), y = t^2 / (df + t^2).
        half_two_sided = 0.5 - 0.5 * betainc(0.5, 0.5 * df, t2 / (df + t2))
    else:
        # P(|T| > |t|) = I_x(df/2, 1/2): computed directly, so small tails keep their precision.
        half_two_sided = 0.5 * betainc(0.5 * df, 0.5, df / (df + t2))
    return half_two_sided if t >= 0 else 1.0 - half_two_sided


def _t_pdf(t: float, df: float) -> float:
    log_c = math.lgamma(0.5 * (df + 1.0)) - math.lgamma(0.5 * df) - 0.5 * math.log(df * math.pi)
    return math.exp(log_c - 0.5 * (df + 1.0) * math.log1p(t * t / df))


def _cornish_fisher(z: float, df: float) -> float:
    """t quantile from the normal quantile by the Cornish-Fisher expansion (Abramowitz & Stegun 26.7.5)."""
    z2 = z * z
    g1 = (z2 + 1.0) * z / 4.0
    g2 = ((5.0 * z2 + 16.0) * z2 + 3.0) * z / 96.0
    g3 = (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) * z / 384.0
    g4 = ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) * z / 92160.0
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def t_quantile(p: float, df: float) -> float:
    """Quantile (inverse CDF) of Student's t: the critical value for t intervals.

    Exact closed forms for df 1 and 2; for df > 1000 the Cornish-Fisher expansion
    around ``statistics.NormalDist`` (error far below 1e-9 there); otherwise
    safeguarded Newton iteration on ``t_sf``, started from the same expansion.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be strictly between 0 and 1, got {p!r}")
    if df <= 0:
        raise ValueError(f"df must be positive, got {df!r}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    if math.isinf(df):
        return z_quantile(p)
    if df == 1:  # Cauchy: tan(pi (p - 1/2)), written as a cotangent to stay accurate near p = 1
        return 1.0 / math.tan(math.pi * (1.0 - p))
    if df == 2:
        return (2.0 * p - 1.0) / math.sqrt(2.0 * p * (1.0 - p))
    z = z_quantile(p)
    guess = _cornish_fisher(z, df)
    if df > _LARGE_DF:
        return guess
    q = 1.0 - p  # target upper tail
    lo, hi = 0.0, max(2.0 * guess, 1.0)
    while t_sf(hi, df) > q:
        lo, hi = hi, 2.0 * hi
    t = guess if lo < guess < hi else 0.5 * (lo + hi)
    for _ in range(200):
        f = t_sf(t, df) - q  # decreasing in t
        if f > 0:
            lo = t
        else:
            hi = t
        step = f / _t_pdf(t, df)
        candidate = t + step
        if not lo < candidate < hi:
            candidate = 0.5 * (lo + hi)
        if abs(candidate - t) <= 1e-13 * max(1.0, abs(t)):
            return candidate
        t = candidate
    return t


def _two_sided_crit(level: float, df: float | None = None) -> float:
    _check_level(level)
    p = 1.0 - (1.0 - level) / 2.0
    return z_quantile(p) if df is None else t_quantile(p, df)


# --- summaries -------------------------------------------------------------------------------


def mean_sd(xs: Iterable[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (n - 1); sd is 0.0 below two values, both NaN when empty."""
    values = list(xs)
    if not values:
        return _NAN, _NAN
    mean = float(statistics.mean(values))  # exact summation: equal values give exactly that value
    sd = statistics.stdev(values) if len(values) >= 2 else 0.0
    return mean, sd


def mean_ci(xs: Iterable[float], level: float = 0.95) -> tuple[float, float, float]:
    """Mean with a two-sided Student t confidence interval: (mean, low, high).

    Needs two values for an interval: one value gives (x, nan, nan), none gives all NaN.
    """
    _check_level(level)
    values = list(xs)
    n = len(values)
    mean, sd = mean_sd(values)
    if n < 2:
        return mean, _NAN, _NAN
    half = _two_sided_crit(level, n - 1) * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def wilson(successes: int, n: int, level: float = 0.95) -> tuple[float, float, float]:
    """Proportion with its Wilson score interval: (p, low, high).

    Unlike the normal (Wald) interval it stays inside [0, 1] and behaves at 0 or n
    successes, which is common for rare events in simulated games.  n == 0 gives (nan, 0, 1).
    """
    _check_level(level)
    if n < 0 or not 0 <= successes <= max(n, 0):
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return _NAN, 0.0, 1.0
    z = _two_sided_crit(level)
    p = successes / n
    z2n = z * z / n
    denom = 1.0 + z2n
    centre = (p + z2n / 2.0) / denom
    half = z / denom * math.sqrt(p * (1.0 - p) / n + z2n / (4.0 * n))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return p, low, high


# --- comparisons -----------------------------------------------------------------------------


def paired_difference(a: Iterable[float], b: Iterable[float], level: float = 0.95) -> dict:
    """Compare two variants played on the same seeds via the differences ``b - a``.

    Returns ``mean``, ``low``/``high`` (t interval), ``sd`` (of the differences), ``n``,
    ``effect_size`` (Cohen's d_z = mean / sd) and ``p_value`` (two-sided paired t-test).
    Pairing removes the seed-to-seed variance, so far fewer games are needed than with
    independent samples.  With sd 0 the interval collapses to the mean and the test is
    decided: d_z and p are 0 and 1 for a zero mean, +-inf and 0 otherwise.  Fewer than
    two pairs give NaN for everything but ``mean`` and ``n``.
    """
    _check_level(level)
    xs, ys = list(a), list(b)
    if len(xs) != len(ys):
        raise ValueError(f"paired samples need equal lengths, got {len(xs)} and {len(ys)}")
    diffs = [y - x for x, y in zip(xs, ys)]
    n = len(diffs)
    mean, sd = mean_sd(diffs)
    result = {"mean": mean, "low": _NAN, "high": _NAN, "sd": _NAN, "n": n, "effect_size": _NAN, "p_value": _NAN}
    if n < 2:
        return result
    result["sd"] = sd
    if sd == 0.0:
        result.update(
            low=mean,
            high=mean,
            effect_size=0.0 if mean == 0 else math.copysign(math.inf, mean),
            p_value=1.0 if mean == 0 else 0.0,
        )
        return result
    se = sd / math.sqrt(n)
    half = _two_sided_crit(level, n - 1) * se
    t = mean / se
    result.update(
        low=mean - half,
        high=mean + half,
        effect_size=mean / sd,
        p_value=min(1.0, 2.0 * t_sf(abs(t), n - 1)),
    )
    return result


def two_proportions(x1: int, n1: int, x2: int, n2: int, level: float = 0.95) -> dict:
    """Difference of two independent proportions ``p2 - p1`` with Newcombe's hybrid Wilson interval.

    Newcombe (1998), method 10: combines the two Wilson intervals, so it keeps good
    coverage near 0 and 1 where the Wald difference interval fails.  Keys ``p1``, ``p2``,
    ``diff``, ``low``, ``high``.  If either sample is empty the difference is NaN and the
    interval is the uninformative (-1, 1).
    """
    p1, l1, u1 = wilson(x1, n1, level)
    p2, l2, u2 = wilson(x2, n2, level)
    if n1 == 0 or n2 == 0:
        return {"p1": p1, "p2": p2, "diff": _NAN, "low": -1.0, "high": 1.0}
    diff = p2 - p1
    low = diff - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    high = diff + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return {"p1": p1, "p2": p2, "diff": diff, "low": max(-1.0, low), "high": min(1.0, high)}


def games_for_mdd(sd_diff: float, mdd: float, level: float = 0.95, power: float = 0.8) -> int:
    """Paired games needed to detect a true mean difference ``mdd`` (two-sided, normal approximation).

    n = ceil(((z_{1-alpha/2} + z_power) * sd_diff / mdd)^2), at least 2; ``sd_diff`` is the
    standard deviation of the per-seed differences (e.g. from a pilot ``paired_difference``).
    The normal approximation slightly understates n when the result is small (under ~30).
    """
    _check_level(level)
    if mdd <= 0:
        raise ValueError(f"mdd must be positive, got {mdd!r}")
    if sd_diff < 0:
        raise ValueError(f"sd_diff must not be negative, got {sd_diff!r}")
    if not 0.0 < power < 1.0:
        raise ValueError(f"power must be strictly between 0 and 1, got {power!r}")
    n = ((_two_sided_crit(level) + z_quantile(power)) * sd_diff / mdd) ** 2
    return max(2, math.ceil(n - 1e-9))  # tolerance: float noise must not add a game to an exact integer


# --- reports ---------------------------------------------------------------------------------


def histogram(xs: Iterable[float], bins: int) -> list[tuple[float, float, int]]:
    """Equal-width histogram for text reports: [(low, high, count), ...] over min..max.

    Bins are half-open [low, high) except the last, which includes the maximum.
    Empty input gives []; if all values are equal there is a single bin (v, v, n).
    """
    if bins < 1:
        raise ValueError(f"bins must be at least 1, got {bins!r}")
    values = list(xs)
    if not values:
        return []
    if not all(math.isfinite(v) for v in values):
        raise ValueError("histogram values must be finite")
    lo, hi = float(min(values)), float(max(values))
    if lo == hi:
        return [(lo, hi, len(values))]
    edges = [lo + (hi - lo) * i / bins for i in range(bins)] + [hi]
    counts = [0] * bins
    for v in values:
        counts[min(bisect_right(edges, v) - 1, bins - 1)] += 1
    return [(edges[i], edges[i + 1], counts[i]) for i in range(bins)]
