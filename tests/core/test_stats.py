"""Intervals, differences and sample sizes against known values."""

import math
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.core import stats


def test_wilson_interval_known_value():
    # Wilson 95 % interval for 480/1000 (Newcombe 1998 formula): [0.4492, 0.5110]
    est = stats.rate(480, 1000)
    assert est.value == 0.48 and est.n == 1000
    assert est.lo == pytest.approx(0.44917, abs=1e-4)
    assert est.hi == pytest.approx(0.51098, abs=1e-4)


@pytest.mark.parametrize("k,n", [(0, 10), (1, 7), (480, 1000), (99_999, 100_000), (3, 3)])
def test_wilson_interval_agrees_with_statsmodels(k, n):
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(k, n, alpha=0.05, method="wilson")
    est = stats.rate(k, n)
    assert (est.lo, est.hi) == (pytest.approx(lo, abs=1e-12), pytest.approx(hi, abs=1e-12))


def test_wilson_interval_at_zero_stays_in_unit_interval():
    est = stats.rate(0, 50)
    assert est.lo == pytest.approx(0.0, abs=1e-12) and 0 < est.hi < 0.1


@pytest.mark.parametrize("n", [50, 300, 4000])
def test_wilson_interval_ends_exactly_at_zero_and_one(n):
    """0 of n: the interval starts at 0 exactly, not at a rounding error above the estimate (a skill-curve
    figure drew a negative error bar from lo = 8.7e-19 > 0); n of n ends at 1."""
    assert stats.rate(0, n).lo == 0.0 and stats.rate(n, n).hi == 1.0


def test_mean_interval_matches_t_interval():
    rng = np.random.default_rng(0)
    x = rng.normal(3.0, 2.0, 400)
    est = stats.mean(x)
    half = 1.9659 * x.std(ddof=1) / math.sqrt(x.size)
    assert est.value == pytest.approx(x.mean())
    assert est.hi - est.value == pytest.approx(half, rel=1e-3)


def test_rate_difference_detects_a_clear_difference_and_not_noise():
    clear = stats.rate_difference(4000, 10000, 4400, 10000)
    assert clear.p_value < 1e-6 and clear.lo > 0
    noise = stats.rate_difference(4000, 10000, 4010, 10000)
    assert noise.p_value > 0.5 and noise.lo < 0 < noise.hi


@pytest.mark.filterwarnings("error")
def test_rate_difference_at_rates_of_zero_and_one_is_quiet_and_honest():
    """A card nobody played (0 of n on both sides) is no difference (p = 1), silently; a rate of 0
    against a positive rate is still tested."""
    for none in (stats.rate_difference(0, 10, 0, 12), stats.rate_difference(10, 10, 12, 12)):
        assert none.p_value == 1.0 and none.diff == 0 and none.lo < 0 < none.hi
    some = stats.rate_difference(0, 500, 30, 500)
    assert some.p_value < 1e-6 and some.lo > 0


def test_paired_difference_is_narrower_for_correlated_games():
    rng = np.random.default_rng(1)
    x = (rng.random(20000) < 0.5).astype(float)
    flip = rng.random(20000) < 0.05
    y = np.where(flip, 1 - x, x)
    diff, narrowing = stats.paired_difference(x.size, x.sum(), y.sum(), (x * x).sum(), (y * y).sum(), (x * y).sum())
    assert narrowing < 0.5
    assert diff.lo <= diff.diff <= diff.hi
    assert diff.diff == pytest.approx(y.mean() - x.mean())


def test_holm_keeps_only_strong_results_among_many():
    assert stats.holm([0.001, 0.04, 0.3]) == [True, False, False]
    assert stats.holm([]) == []


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.floats(0, 1), st.sampled_from([0.0, 0.01, 0.0125, 0.025, 0.05, 1.0])), max_size=12),
       st.sampled_from([0.01, 0.05, 0.1]))
def test_holm_agrees_with_statsmodels(p_values, alpha):
    """The step-down written in stats.holm rejects exactly what statsmodels' multipletests(method="holm")
    rejects, ties and p-values on a threshold included."""
    from statsmodels.stats import multitest

    with mock.patch("gc.collect", lambda *args: 0):  # its cost (multipletests collects), not its answer
        expected = multitest.multipletests(p_values, alpha=alpha, method="holm")[0].tolist() if p_values else []
    assert stats.holm(p_values, alpha) == expected


def test_games_needed_for_one_point_at_even_odds():
    # two-sided 5 % test, 80 % power: 2 * (1.96 + 0.8416)^2 * 0.25 / 0.01^2 ≈ 39,240
    assert stats.games_needed(0.5, 0.01) == 39240
    assert stats.games_needed(0.5, 0.02) < stats.games_needed(0.5, 0.01)
