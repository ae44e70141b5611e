"""Small statistics over simulated games: intervals, tests and summaries of numbers.

Distributions come from scipy; nothing here knows what a game is.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from scipy import stats


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval (no continuity correction) for a proportion `successes / n`.

    With no trials at all, nothing is known: (0.0, 1.0).
    """
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n ({n}), got {successes}")
    interval = stats.binomtest(successes, n).proportion_ci(confidence_level=confidence, method="wilson")
    return float(interval.low), float(interval.high)


def binomial_p_value(successes: int, n: int, expected: float) -> float:
    """Two-sided exact binomial test of `successes / n` against the rate `expected`; 1.0 with no trials."""
    if n <= 0:
        return 1.0
    return float(stats.binomtest(successes, n, expected).pvalue)


def two_proportion_test(successes_a: int, n_a: int, successes_b: int, n_b: int) -> tuple[float, float]:
    """Compare two proportions: returns (rate_a - rate_b, two-sided p-value).

    The test is the classic z-test with pooled variance: under the null hypothesis both samples share
    the rate p = (successes_a + successes_b) / (n_a + n_b), so
    z = (rate_a - rate_b) / sqrt(p (1 - p) (1/n_a + 1/n_b)) and p-value = 2 P(Z > |z|) for a standard
    normal Z. It treats the two samples as independent. The normal approximation wants a handful of
    successes and failures on each side. When the test is undefined (an empty sample, or a pooled rate
    of exactly 0 or 1, where both samples agree perfectly) the p-value is 1.0.
    """
    rate_a = successes_a / n_a if n_a > 0 else 0.0
    rate_b = successes_b / n_b if n_b > 0 else 0.0
    difference = rate_a - rate_b
    if n_a <= 0 or n_b <= 0:
        return difference, 1.0
    pooled = (successes_a + successes_b) / (n_a + n_b)
    variance = pooled * (1 - pooled) * (1 / n_a + 1 / n_b)
    if variance <= 0:
        return difference, 1.0
    z = difference / math.sqrt(variance)
    return difference, float(2 * stats.norm.sf(abs(z)))


def welch_test(values_a: Sequence[float], values_b: Sequence[float]) -> tuple[float, float]:
    """Compare two means without assuming equal variances: returns (mean_a - mean_b, two-sided p-value).

    Welch's t-test (scipy.stats.ttest_ind with equal_var=False). The p-value is 1.0 when the test is
    undefined: fewer than two values on a side, or both sides constant and equal. The difference is
    NaN when a side is empty.
    """
    if not values_a or not values_b:
        return math.nan, 1.0
    difference = float(np.mean(values_a) - np.mean(values_b))
    if len(values_a) < 2 or len(values_b) < 2:
        return difference, 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        p_value = float(stats.ttest_ind(values_a, values_b, equal_var=False).pvalue)
    return difference, 1.0 if math.isnan(p_value) else p_value


@dataclass(frozen=True)
class Description:
    """A list of numbers at a glance. All fields but `n` are NaN for an empty list."""

    n: int
    mean: float
    sd: float  # sample standard deviation (n - 1); 0.0 for a single value
    min: float
    q1: float
    median: float
    q3: float
    max: float


def describe(values: Sequence[float]) -> Description:
    """Mean, standard deviation, minimum, quartiles (linear interpolation) and maximum of `values`."""
    if not values:
        return Description(0, *[math.nan] * 7)
    data = np.asarray(values, dtype=float)
    q1, median, q3 = np.percentile(data, [25, 50, 75])
    sd = float(data.std(ddof=1)) if len(data) > 1 else 0.0
    return Description(len(data), float(data.mean()), sd, float(data.min()), float(q1), float(median),
                       float(q3), float(data.max()))


@dataclass(frozen=True)
class Bin:
    """Values v with low <= v <= high (whole numbers), and how many there are."""

    low: int
    high: int
    count: int


def histogram(values: Sequence[float], bins: int = 10) -> list[Bin]:
    """Count whole-number values (turns, decisions) in at most `bins` bins of equal whole width."""
    if not values:
        return []
    low, high = math.floor(min(values)), math.floor(max(values))
    width = max(1, math.ceil((high - low + 1) / bins))
    counts = [0] * ((high - low) // width + 1)
    for value in values:
        counts[(math.floor(value) - low) // width] += 1
    return [Bin(low + i * width, low + (i + 1) * width - 1, c) for i, c in enumerate(counts)]
