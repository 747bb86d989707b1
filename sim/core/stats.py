"""Honest statistics: every rate with its interval and n, every comparison with a p-value.

Distributions come from scipy and statsmodels; nothing here re-derives them. The intervals every
run prints use the quantile functions of ``scipy.special`` (a quarter of a second to import);
statsmodels (over a second, with pandas) is imported only by the comparisons that need it, so a
short `sim run` starts fast. Tests check the Wilson interval against statsmodels'.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtri, stdtr, stdtrit

CONFIDENCE = 0.95


@dataclass(frozen=True)
class Estimate:
    """A rate or a mean with its 95 % interval and sample size."""

    value: float
    lo: float
    hi: float
    n: int

    def __str__(self) -> str:
        return f"{self.value:.4f} [{self.lo:.4f}, {self.hi:.4f}] (n={self.n:,})"

    def pct(self) -> str:
        return f"{100 * self.value:5.2f}% [{100 * self.lo:5.2f}, {100 * self.hi:5.2f}] (n={self.n:,})"

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2


def rate(successes: int, n: int, confidence: float = CONFIDENCE) -> Estimate:
    """A proportion with its Wilson score interval (Wilson 1927)."""
    if n == 0:
        return Estimate(math.nan, 0.0, 1.0, 0)
    z = float(ndtri(0.5 + confidence / 2))
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # at 0 (or n) successes the interval ends at 0 (or 1) exactly; centre - half leaves a rounding error there
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return Estimate(p, lo, hi, int(n))


def rates(successes: np.ndarray, n: np.ndarray | int, confidence: float = CONFIDENCE) -> list[Estimate]:
    """Wilson intervals for an array of counts (``n`` shared or per entry)."""
    successes = np.asarray(successes)
    n_arr = np.broadcast_to(np.asarray(n), successes.shape)
    return [rate(int(k), int(m), confidence) for k, m in zip(successes.ravel(), n_arr.ravel(), strict=True)]


def mean_from_sums(total: float, total_sq: float, n: int, confidence: float = CONFIDENCE) -> Estimate:
    """A mean with its t interval, from the sum and the sum of squares of n values."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = total / n
    if n == 1:
        return Estimate(mean, -math.inf, math.inf, 1)
    var = max(total_sq - n * mean * mean, 0.0) / (n - 1)
    half = float(stdtrit(n - 1, 0.5 + confidence / 2)) * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, int(n))


def mean(values: np.ndarray, confidence: float = CONFIDENCE) -> Estimate:
    values = np.asarray(values, dtype=np.float64)
    return mean_from_sums(float(values.sum()), float((values * values).sum()), values.size, confidence)


@dataclass(frozen=True)
class Difference:
    """Variant minus base, its interval, and the p-value of 'no difference'."""

    base: Estimate
    variant: Estimate
    diff: float
    lo: float
    hi: float
    p_value: float


def rate_difference(k_base: int, n_base: int, k_var: int, n_var: int,
                    confidence: float = CONFIDENCE) -> Difference:
    """Two independent rates: Newcombe (Wilson) interval of the difference and a score test."""
    from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

    lo, hi = confint_proportions_2indep(k_var, n_var, k_base, n_base, method="newcomb",
                                        compare="diff", alpha=1 - confidence)
    # statsmodels also forms the ratio and odds ratio of the two rates, unused here: a rate of 0 or 1
    # divides by zero there. When both rates are 0 (or both 1) the score statistic is 0/0: no
    # difference to test, p = 1.
    with np.errstate(divide="ignore", invalid="ignore"):
        res = test_proportions_2indep(k_var, n_var, k_base, n_base, method="score", compare="diff")
    p = float(res.pvalue) if np.isfinite(res.pvalue) else 1.0
    return Difference(rate(k_base, n_base), rate(k_var, n_var), k_var / n_var - k_base / n_base,
                      float(lo), float(hi), p)


def paired_difference(n: int, sum_x: float, sum_y: float, sum_xx: float, sum_yy: float, sum_xy: float,
                      kind: str = "rate", confidence: float = CONFIDENCE) -> tuple[Difference, float]:
    """Variant (y) minus base (x) over n paired games (common random numbers).

    Uses the per-game differences d = y - x (a paired t interval). Also returns the ratio of the
    paired interval's width to the width independent runs of the same size would give.
    """
    mx, my = sum_x / n, sum_y / n
    var_x = max(sum_xx - n * mx * mx, 0.0) / (n - 1)
    var_y = max(sum_yy - n * my * my, 0.0) / (n - 1)
    cov = (sum_xy - n * mx * my) / (n - 1)
    var_d = max(var_x + var_y - 2 * cov, 0.0)
    se = math.sqrt(var_d / n)
    tcrit = float(stdtrit(n - 1, 0.5 + confidence / 2))
    diff = my - mx
    if se > 0:
        p = float(2 * stdtr(n - 1, -abs(diff) / se))
    else:
        p = 1.0 if diff == 0 else 0.0
    estimate = (lambda s, ss: rate(int(round(s)), n, confidence)) if kind == "rate" else (
        lambda s, ss: mean_from_sums(s, ss, n, confidence))
    independent_se = math.sqrt((var_x + var_y) / n)
    narrowing = se / independent_se if independent_se > 0 else 1.0
    return Difference(estimate(sum_x, sum_xx), estimate(sum_y, sum_yy), diff, diff - tcrit * se,
                      diff + tcrit * se, p), narrowing


def holm(p_values: list[float], alpha: float = 1 - CONFIDENCE) -> list[bool]:
    """Which p-values stay significant after Holm's correction for the number of metrics: sorted
    ascending, the k-th smallest (from 0) is significant while it and every smaller one are at most
    alpha / (m - k). The step-down is written here, not taken from statsmodels' ``multipletests``, whose
    Holm branch runs ``gc.collect()`` on every call (half a second in a process holding many objects: 113
    calls took 62 of 712 s in one profiled run of the test suite); tests/core/test_stats.py checks it
    against ``multipletests``."""
    p = np.asarray(p_values, dtype=float)
    m = p.size
    order = np.argsort(p, kind="stable")
    within = p[order] <= alpha / (m - np.arange(m))
    significant = m if within.all() else int(np.argmin(within))  # the step-down stops at the first miss
    reject = np.zeros(m, dtype=bool)
    reject[order[:significant]] = True
    return reject.tolist()


def games_needed(p: float, delta: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Games per arm to detect a change of ``delta`` in a rate near ``p`` (two-sided test).

    >>> games_needed(0.5, 0.01)  # "how many games to see a 1-point change"
    39240
    """
    from statsmodels.stats.proportion import samplesize_proportions_2indep_onetail

    n = samplesize_proportions_2indep_onetail(diff=delta, prop2=p, power=power, ratio=1,
                                               alpha=alpha, alternative="two-sided")
    return int(math.ceil(n))
