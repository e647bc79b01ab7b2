"""Statistics for simulated-game reports, checked against published reference values (scipy / textbook tables)."""

from __future__ import annotations

import math

import pytest

from interpreter.play.stats import (
    betainc,
    games_for_mdd,
    histogram,
    mean_ci,
    mean_sd,
    paired_difference,
    t_quantile,
    t_sf,
    two_proportions,
    wilson,
    z_quantile,
)

# --- distributions ---------------------------------------------------------------------------

# Student t quantiles (scipy.stats.t.ppf / standard tables), rounded to 4 decimals.
T_975 = {1: 12.7062, 2: 4.3027, 3: 3.1824, 5: 2.5706, 10: 2.2281, 30: 2.0423, 100: 1.9840, 1000: 1.9623}
T_995 = {1: 63.6567, 2: 9.9248, 5: 4.0321, 10: 3.1693, 30: 2.7500, 100: 2.6259}


@pytest.mark.parametrize(("df", "expected"), sorted(T_975.items()))
def test_t_quantile_975(df, expected):
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize(("df", "expected"), sorted(T_995.items()))
def test_t_quantile_995(df, expected):
    assert t_quantile(0.995, df) == pytest.approx(expected, abs=1e-4)


def test_t_quantile_symmetry_and_centre():
    assert t_quantile(0.5, 7) == 0.0
    for df in (1, 3, 12, 2000):
        assert t_quantile(0.025, df) == pytest.approx(-t_quantile(0.975, df), rel=1e-12)


def test_t_quantile_closed_forms():
    # df 1 is the Cauchy distribution, df 2 has t = (2p - 1) / sqrt(2p(1 - p)).
    assert t_quantile(0.75, 1) == pytest.approx(1.0, rel=1e-12)
    assert t_quantile(0.9, 2) == pytest.approx(0.8 / math.sqrt(0.18), rel=1e-12)


def test_t_quantile_inverts_the_tail():
    for df in (1, 1.5, 2, 3, 4, 7, 20, 50, 200, 999):
        for p in (0.6, 0.9, 0.975, 0.995, 0.9999):
            assert t_sf(t_quantile(p, df), df) == pytest.approx(1 - p, rel=1e-9)


def test_t_quantile_large_df_approaches_normal_smoothly():
    # Across the switch to the Cornish-Fisher expansion (df > 1000) the quantile stays continuous.
    assert t_quantile(0.975, 1000) == pytest.approx(1.962339, abs=1e-6)
    assert t_quantile(0.975, 1001) == pytest.approx(t_quantile(0.975, 1000), abs=1e-5)
    assert t_quantile(0.975, 10**7) == pytest.approx(z_quantile(0.975), abs=1e-6)
    assert t_quantile(0.975, math.inf) == z_quantile(0.975)


def test_t_quantile_rejects_bad_arguments():
    for p in (0.0, 1.0, -0.1, 1.5):
        with pytest.raises(ValueError):
            t_quantile(p, 5)
    with pytest.raises(ValueError):
        t_quantile(0.9, 0)


def test_z_quantile():
    assert z_quantile(0.975) == pytest.approx(1.959964, abs=1e-6)
    assert z_quantile(0.8) == pytest.approx(0.841621, abs=1e-6)


def test_t_sf_reference_values():
    assert 2 * t_sf(2.0, 10) == pytest.approx(0.0734, abs=1e-4)
    assert 2 * t_sf(2.0, 10) == pytest.approx(0.073388, abs=1e-6)
    assert t_sf(0.0, 4) == pytest.approx(0.5, abs=1e-15)
    assert t_sf(1.0, 1) == pytest.approx(0.25, abs=1e-15)  # Cauchy: 1/2 - atan(1)/pi
    assert t_sf(-2.0, 10) == pytest.approx(1 - t_sf(2.0, 10), abs=1e-15)
    assert t_sf(math.inf, 3) == 0.0 and t_sf(-math.inf, 3) == 1.0


def test_t_sf_matches_closed_form_for_df_3():
    for t in (1e-9, 0.1, 0.5, 1.0, math.sqrt(3), 2.0, 5.0, 20.0, 200.0):
        closed = 0.5 - (t / (math.sqrt(3) * (1 + t * t / 3)) + math.atan(t / math.sqrt(3))) / math.pi
        assert t_sf(t, 3) == pytest.approx(closed, rel=1e-10, abs=1e-15)


def test_t_sf_precise_near_zero():
    # P(0 < T < t) ~ pdf(0) * t for tiny t: the tail must not collapse to exactly 0.5.
    t = 1e-7
    pdf0 = math.exp(math.lgamma(500.5) - math.lgamma(500)) / math.sqrt(1000 * math.pi)
    assert 0.5 - t_sf(t, 1000) == pytest.approx(pdf0 * t, rel=1e-6)


def test_betainc_known_values():
    assert betainc(1, 1, 0.3) == pytest.approx(0.3)  # uniform
    assert betainc(2, 3, 0.4) == pytest.approx(0.5248)  # 1 - binomial(4, 0.4) cdf at 1
    assert betainc(0.5, 0.5, 0.5) == pytest.approx(0.5)
    assert betainc(3, 5, 0.0) == 0.0 and betainc(3, 5, 1.0) == 1.0
    with pytest.raises(ValueError):
        betainc(0, 1, 0.5)


# --- mean and sd -----------------------------------------------------------------------------


def test_mean_sd():
    mean, sd = mean_sd([2, 4, 4, 4, 5, 5, 7, 9])
    assert mean == 5.0
    assert sd == pytest.approx(math.sqrt(32 / 7))  # sample (n - 1) sd


def test_mean_sd_edges():
    m, s = mean_sd([])
    assert math.isnan(m) and math.isnan(s)
    assert mean_sd([3.5]) == (3.5, 0.0)
    assert mean_sd([0.1, 0.1, 0.1]) == (0.1, 0.0)
    assert mean_sd(x for x in (1, 3)) == (2.0, pytest.approx(math.sqrt(2)))  # any iterable


def test_mean_ci():
    xs = [1, 2, 3, 4, 5, 6]  # mean 3.5, sd sqrt(3.5), df 5
    mean, low, high = mean_ci(xs)
    half = 2.570582 * math.sqrt(3.5) / math.sqrt(6)
    assert mean == 3.5
    assert low == pytest.approx(3.5 - half, abs=1e-5)
    assert high == pytest.approx(3.5 + half, abs=1e-5)
    _, low99, high99 = mean_ci(xs, level=0.99)
    assert low99 < low and high99 > high


def test_mean_ci_edges():
    assert all(math.isnan(v) for v in mean_ci([]))
    mean, low, high = mean_ci([4.0])
    assert mean == 4.0 and math.isnan(low) and math.isnan(high)
    assert mean_ci([2.0, 2.0, 2.0]) == (2.0, 2.0, 2.0)
    with pytest.raises(ValueError):
        mean_ci([1, 2, 3], level=1.0)


# --- proportions -----------------------------------------------------------------------------


def test_wilson_reference_values():
    p, low, high = wilson(8, 10)
    assert p == 0.8
    assert (low, high) == (pytest.approx(0.4902, abs=1e-4), pytest.approx(0.9433, abs=1e-4))
    assert wilson(0, 10) == (0.0, 0.0, pytest.approx(0.2775, abs=1e-4))
    assert wilson(10, 10) == (1.0, pytest.approx(0.7225, abs=1e-4), 1.0)


def test_wilson_edges():
    p, low, high = wilson(0, 0)
    assert math.isnan(p) and (low, high) == (0.0, 1.0)
    for bad in ((-1, 10), (11, 10), (0, -1)):
        with pytest.raises(ValueError):
            wilson(*bad)


def test_wilson_narrows_with_n_and_widens_with_level():
    _, l1, h1 = wilson(50, 100)
    _, l2, h2 = wilson(500, 1000)
    _, l3, h3 = wilson(50, 100, level=0.99)
    assert h2 - l2 < h1 - l1 < h3 - l3


def test_two_proportions_newcombe_reference():
    # Newcombe (1998), Stat Med 17:873, method 10: 56/70 - 48/80 -> (0.0524, 0.3339); 9/10 - 3/10 -> (0.1705, 0.8090).
    r = two_proportions(48, 80, 56, 70)
    assert r["p1"] == 0.6 and r["p2"] == 0.8
    assert r["diff"] == pytest.approx(0.2)
    assert r["low"] == pytest.approx(0.0524, abs=1e-4)
    assert r["high"] == pytest.approx(0.3339, abs=1e-4)
    r = two_proportions(3, 10, 9, 10)
    assert (r["low"], r["high"]) == (pytest.approx(0.1705, abs=1e-4), pytest.approx(0.8090, abs=1e-4))


def test_two_proportions_sign_and_symmetry():
    forward = two_proportions(48, 80, 56, 70)
    backward = two_proportions(56, 70, 48, 80)
    assert backward["diff"] == pytest.approx(-forward["diff"])
    assert backward["low"] == pytest.approx(-forward["high"])
    assert backward["high"] == pytest.approx(-forward["low"])
    same = two_proportions(30, 60, 30, 60)
    assert same["diff"] == 0.0 and same["low"] == pytest.approx(-same["high"])


def test_two_proportions_empty_sample():
    r = two_proportions(0, 0, 5, 10)
    assert math.isnan(r["diff"]) and (r["low"], r["high"]) == (-1.0, 1.0)


# --- paired comparison -----------------------------------------------------------------------


def test_paired_difference_values_and_sign():
    a = [1, 2, 3, 4]
    b = [2, 4, 5, 7]  # b - a = [1, 2, 2, 3]: mean 2, sd sqrt(2/3), t = 2 / (sd / 2) = 4.899, df 3
    r = paired_difference(a, b)
    sd = math.sqrt(2 / 3)
    assert r["n"] == 4 and r["mean"] == 2.0
    assert r["sd"] == pytest.approx(sd)
    assert r["effect_size"] == pytest.approx(2 / sd)
    half = 3.182446 * sd / 2
    assert (r["low"], r["high"]) == (pytest.approx(2 - half, abs=1e-5), pytest.approx(2 + half, abs=1e-5))
    t = 2 / (sd / 2)
    closed = 1 - 2 * (t / (math.sqrt(3) * (1 + t * t / 3)) + math.atan(t / math.sqrt(3))) / math.pi
    assert r["p_value"] == pytest.approx(closed, rel=1e-9)
    assert r["p_value"] == pytest.approx(0.01628, abs=1e-5)

    swapped = paired_difference(b, a)
    assert swapped["mean"] == -2.0 and swapped["effect_size"] == pytest.approx(-r["effect_size"])
    assert swapped["low"] == pytest.approx(-r["high"]) and swapped["p_value"] == pytest.approx(r["p_value"])


def test_paired_difference_p_value_reference():
    # 2 +- sqrt(11) (five each) and one 2: mean 2, sd sqrt(11), n = 11 -> t = 2.0 with df = 10 -> p = 0.0734.
    diffs = [2 + math.sqrt(11) * (1 if i % 2 else -1) for i in range(10)] + [2.0]
    r = paired_difference([0.0] * 11, diffs)
    t = r["mean"] / (r["sd"] / math.sqrt(11))
    assert t == pytest.approx(2.0)
    assert r["p_value"] == pytest.approx(0.0734, abs=1e-4)


def test_paired_difference_zero_sd():
    same = paired_difference([1, 2, 3], [1, 2, 3])
    assert same["mean"] == 0.0 and same["sd"] == 0.0
    assert same["effect_size"] == 0.0 and same["p_value"] == 1.0
    assert (same["low"], same["high"]) == (0.0, 0.0)
    up = paired_difference([1, 2, 3], [2, 3, 4])
    assert up["effect_size"] == math.inf and up["p_value"] == 0.0 and up["low"] == up["high"] == 1.0
    down = paired_difference([1, 2, 3], [0, 1, 2])
    assert down["effect_size"] == -math.inf


def test_paired_difference_too_few_pairs():
    empty = paired_difference([], [])
    assert empty["n"] == 0 and math.isnan(empty["mean"]) and math.isnan(empty["p_value"])
    one = paired_difference([1.0], [3.0])
    assert one["n"] == 1 and one["mean"] == 2.0
    assert all(math.isnan(one[k]) for k in ("low", "high", "sd", "effect_size", "p_value"))
    with pytest.raises(ValueError):
        paired_difference([1, 2], [1, 2, 3])


# --- planning --------------------------------------------------------------------------------


def test_games_for_mdd_reference():
    # ((1.95996 + 0.84162) * 10 / 2)^2 = 196.2 -> 197
    assert games_for_mdd(10, 2) == 197
    assert games_for_mdd(10, 2, level=0.99, power=0.9) == math.ceil(((2.575829 + 1.281552) * 5) ** 2)


def test_games_for_mdd_monotone():
    counts = [games_for_mdd(10, mdd) for mdd in (5, 2, 1, 0.5)]
    assert counts == sorted(counts) and len(set(counts)) == len(counts)  # smaller mdd -> more games
    assert games_for_mdd(20, 2) > games_for_mdd(10, 2)
    assert games_for_mdd(10, 2, power=0.9) > games_for_mdd(10, 2)
    assert games_for_mdd(10, 2, level=0.99) > games_for_mdd(10, 2)


def test_games_for_mdd_edges():
    assert games_for_mdd(0, 1) == 2
    assert games_for_mdd(1, 100) == 2  # at least two games
    for mdd in (0, -1):
        with pytest.raises(ValueError):
            games_for_mdd(10, mdd)
    with pytest.raises(ValueError):
        games_for_mdd(-1, 1)
    with pytest.raises(ValueError):
        games_for_mdd(10, 1, power=1.0)


# --- histogram -------------------------------------------------------------------------------


def test_histogram():
    bins = histogram(range(11), 5)
    assert [(lo, hi) for lo, hi, _ in bins] == [(0, 2), (2, 4), (4, 6), (6, 8), (8, 10)]
    assert [c for *_, c in bins] == [2, 2, 2, 2, 3]  # the last bin holds the maximum
    assert sum(c for *_, c in histogram([0.1, 0.2, 0.25, 0.9, 1.7], 3)) == 5


def test_histogram_edges():
    assert histogram([], 4) == []
    assert histogram([3, 3, 3], 4) == [(3.0, 3.0, 3)]
    assert histogram([1, 2], 1) == [(1.0, 2.0, 2)]
    with pytest.raises(ValueError):
        histogram([1, 2], 0)
    with pytest.raises(ValueError):
        histogram([1, math.nan], 2)
