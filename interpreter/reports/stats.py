"""Small statistics over simulated games: intervals, tests and summaries of numbers.

Pure Python (`math` and `statistics`), so that `simulate`, `report` and `compare` need no extra;
each function gives the figures scipy and numpy give, to about twelve significant digits
(`tests/test_stats.py` checks them against values computed with scipy). Nothing here knows what a
game is.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval (no continuity correction) for a proportion `successes / n`.

    With no trials at all, nothing is known: (0.0, 1.0). The formulas are Newcombe's (1998), as in
    scipy's `binomtest(...).proportion_ci(method="wilson")`: with z the normal quantile of
    (1 + confidence) / 2, the interval is center -+ z / (2 (n + z^2)) sqrt(4 n p q + z^2), where
    center = (2 n p + z^2) / (2 (n + z^2)); a bound at 0 or n successes is exactly 0 or 1.
    """
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n ({n}), got {successes}")
    z = NormalDist().inv_cdf(0.5 + 0.5 * confidence)
    p = successes / n
    q = 1 - p
    denominator = 2 * (n + z ** 2)
    center = (2 * n * p + z ** 2) / denominator
    delta = z / denominator * math.sqrt(4 * n * p * q + z ** 2)
    low = 0.0 if successes == 0 else center - delta
    high = 1.0 if successes == n else center + delta
    return low, high


# The binomial distribution --------------------------------------------------------------------------
# Probabilities are computed in log space with Loader's saddle-point form ("Fast and accurate
# computation of binomial probabilities", 2000): for 0 < x < n,
#     log P(X = x) = stirlerr(n) - stirlerr(x) - stirlerr(n - x) - bd0(x, n p) - bd0(n - x, n q)
#                    - log(2 pi x (n - x) / n) / 2
# where stirlerr(m) = log(m!) - log(sqrt(2 pi m) (m / e)^m) and bd0(x, m) = x log(x / m) + m - x,
# each computed without cancellation. Nothing underflows, and each probability keeps nearly full
# precision even for n in the hundreds of thousands (log-gamma differences would lose five digits).

_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)
# stirlerr(m) for m = 0..15, from its definition with 50-digit decimals (m = 0: log(0!) - 0 ... the
# limit is not needed, P(X = 0) and P(X = n) have their own formulas).
_STIRLERR_SMALL = (0.0, 0.08106146679532726, 0.0413406959554093, 0.02767792568499834, 0.020790672103765093,
                   0.016644691189821193, 0.013876128823070748, 0.01189670994589177, 0.010411265261972096,
                   0.009255462182712733, 0.00833056343336287, 0.007573675487951841, 0.00694284010720953,
                   0.006408994188004207, 0.0059513701127588475, 0.005554733551962801)
# The Stirling series of stirlerr(m): B_2k / (2k (2k - 1) m^(2k - 1)), B the Bernoulli numbers.
_S1, _S3, _S5, _S7, _S9, _S11, _S13 = 1 / 12, 1 / 360, 1 / 1260, 1 / 1680, 1 / 1188, 691 / 360360, 1 / 156


def _stirling_tail(m: float) -> float:
    """log Gamma(m + 1) - log(sqrt(2 pi m) (m / e)^m) for m >= 10, by its Stirling series (error < 1e-17)."""
    mm = m * m
    return (_S1 - (_S3 - (_S5 - (_S7 - (_S9 - (_S11 - _S13 / mm) / mm) / mm) / mm) / mm) / mm) / m


def _stirlerr(m: int) -> float:
    return _STIRLERR_SMALL[m] if m <= 15 else _stirling_tail(m)


def _bd0(x: float, m: float) -> float:
    """x log(x / m) + m - x, the deviance term of the binomial, accurate when x is close to m."""
    if abs(x - m) < 0.1 * (x + m):
        v = (x - m) / (x + m)  # x log(x / m) + m - x = (x - m) v + 2 x (v^3 / 3 + v^5 / 5 + ...)
        total = (x - m) * v
        term = 2 * x * v
        v2 = v * v
        j = 1
        while True:
            term *= v2
            following = total + term / (2 * j + 1)
            if following == total:
                return total
            total, j = following, j + 1
    return x * math.log(x / m) + m - x


def _binomial_log_pmf(x: int, n: int, p: float, q: float) -> float:
    """log P(X = x) for X binomial(n, p), with 0 < p < 1 and q = 1 - p."""
    if x == 0:
        return n * math.log1p(-p)
    if x == n:
        return n * math.log(p)
    deviance = _stirlerr(n) - _stirlerr(x) - _stirlerr(n - x) - _bd0(x, n * p) - _bd0(n - x, n * q)
    return deviance - _HALF_LOG_2PI - 0.5 * (math.log(x) + math.log1p(-x / n))


def _binomial_tail(start: int, stop: int, step: int, n: int, p: float, q: float) -> float:
    """P(X = start) + P(X = start + step) + ... down to `stop` (inclusive), where P(X = x) does not grow
    along the way: the terms are summed from the largest until the rest cannot change the sum."""
    if (stop - start) * step < 0:
        return 0.0
    first = _binomial_log_pmf(start, n, p, q)
    terms = []
    total = 0.0
    for x in range(start, stop + step, step):
        term = math.exp(_binomial_log_pmf(x, n, p, q) - first)
        terms.append(term)
        total += term
        if term < 1e-20 * total:  # log-concave: the rest decreases at least geometrically
            break
    return math.exp(first) * math.fsum(terms)


def binomial_p_value(successes: int, n: int, expected: float) -> float:
    """Two-sided exact binomial test of `successes / n` against the rate `expected`; 1.0 with no trials.

    As scipy's `binomtest`: the p-value is the probability of the outcomes no more likely than the
    observed one, P(X = x) <= P(X = successes) (1 + 1e-7) (the relative tolerance keeps outcomes
    exactly as likely, such as the mirror image at a fair rate of one half, despite rounding). The
    observed side's tail is every outcome beyond `successes`; the other side's is found by a binary
    search from the mode, and each tail is summed from its largest term, so n = 100,000 takes
    milliseconds.
    """
    if n <= 0:
        return 1.0
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n ({n}), got {successes}")
    if not 0 <= expected <= 1:
        raise ValueError(f"the expected rate must be between 0 and 1, got {expected}")
    if successes == expected * n:
        return 1.0
    if expected == 0 or expected == 1:  # only successes == expected * n can happen
        return 0.0
    p, q = expected, 1 - expected
    threshold = _binomial_log_pmf(successes, n, p, q) + math.log(1 + 1e-7)
    if successes < expected * n:
        # the first x above the mean as unlikely as the observed: P(X = x) does not grow on [ceil(p n), n]
        low, high = math.ceil(expected * n), n + 1
        while low < high:
            middle = (low + high) // 2
            if _binomial_log_pmf(middle, n, p, q) <= threshold:
                high = middle
            else:
                low = middle + 1
        value = _binomial_tail(successes, 0, -1, n, p, q) + _binomial_tail(low, n, 1, n, p, q)
    else:
        # the last x below the mean as unlikely as the observed: P(X = x) does not shrink on [0, floor(p n)]
        low, high = -1, math.floor(expected * n)
        while low < high:
            middle = (low + high + 1) // 2
            if _binomial_log_pmf(middle, n, p, q) <= threshold:
                low = middle
            else:
                high = middle - 1
        value = _binomial_tail(low, 0, -1, n, p, q) + _binomial_tail(successes, n, 1, n, p, q)
    return min(1.0, value)


# The normal and Student's t distributions ----------------------------------------------------------

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
    return difference, math.erfc(abs(z) / math.sqrt(2))  # 2 P(Z > |z|), without cancellation


def _log_gamma_ratio(a: float, b: float) -> float:
    """log Gamma(a) - log Gamma(a + b) for a >= 10, b > 0, without the cancellation of two large log-gammas.

    Stirling's formula reads log Gamma(m) = (m - 1/2) log m - m + log(2 pi) / 2 + _stirling_tail(m);
    in the difference, (a - 1/2) log a - (a + b - 1/2) log(a + b) = -(a - 1/2) log(1 + b/a) - b log(a + b).
    """
    return -(a - 0.5) * math.log1p(b / a) - b * math.log(a + b) + b + _stirling_tail(a) - _stirling_tail(a + b)


def _log_beta(a: float, b: float) -> float:
    """log B(a, b) = log Gamma(a) + log Gamma(b) - log Gamma(a + b), for a, b > 0."""
    if a < b:
        a, b = b, a
    if b >= 10:  # both large: all three by Stirling, the large logarithms cancelled by hand
        return (_HALF_LOG_2PI - 0.5 * math.log(b) - (a - 0.5) * math.log1p(b / a) - b * math.log1p(a / b)
                + _stirling_tail(a) + _stirling_tail(b) - _stirling_tail(a + b))
    if a >= 10:
        return math.lgamma(b) + _log_gamma_ratio(a, b)
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


_TINY = 1e-300


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction 1 + d1 / (1 + d2 / (1 + ...)) of the incomplete beta function, where
        d(2m + 1) = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)),
        d(2m)     = m (b - m) x / ((a + 2m - 1)(a + 2m)),
    evaluated by the modified Lentz method (each step multiplies by C D, until that is 1 to rounding).
    It converges quickly for x < (a + 1) / (a + b + 2), in about sqrt(max(a, b)) steps at worst."""
    value, c, d = 1.0, 1.0, 0.0
    for m in range(100_000):
        for coefficient in (-(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
                            (m + 1) * (b - m - 1) * x / ((a + 2 * m + 1) * (a + 2 * m + 2))):
            d = 1 + coefficient * d
            d = 1 / (d if abs(d) > _TINY else _TINY)
            c = 1 + coefficient / c
            c = c if abs(c) > _TINY else _TINY
            value *= c * d
            if abs(c * d - 1) < 4e-16:
                return value
    return value


def _regularized_beta(a: float, b: float, x: float, y: float, log_x: float, log_y: float) -> float:
    """I_x(a, b), the regularized incomplete beta function, with y = 1 - x, log_x = log x and log_y = log y
    given separately (each accurate even where x or y is close to 1).

    I_x(a, b) = x^a y^b / (a B(a, b)) / (the continued fraction above), used where it converges fast,
    x < (a + 1) / (a + b + 2); elsewhere I_x(a, b) = 1 - I_y(b, a)."""
    if log_x == -math.inf:  # x = 0 (x may underflow to 0 while log_x still says how small it is)
        return 0.0
    if log_y == -math.inf:
        return 1.0
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _regularized_beta(b, a, y, x, log_y, log_x)
    front = math.exp(a * log_x + b * log_y - _log_beta(a, b)) / a
    return front / _beta_continued_fraction(a, b, x)


# The coefficients c(n) of (sinh(w/2) / (w/2))^(-1/2) = sum of c(n) w^(2n): the exponential of
# -1/2 log(sinh(w/2) / (w/2)) = -1/2 sum over k >= 1 of B(2k) w^(2k) / (2k (2k)!), B the Bernoulli numbers,
# computed with exact fractions (`tests/test_stats.py` does it again).
_HALF_SINHC_SERIES = (1.0, -0.020833333333333332, 0.000390625, -7.879670965608466e-06, 1.6967665791721782e-07,
                      -3.805064191721906e-09, 8.748377596315407e-11, -2.044523359411974e-12, 4.833351797967704e-14,
                      -1.152434101767386e-15, 2.76605204359937e-17, -6.67428195089166e-19, 1.61745507718158e-20,
                      -3.93397792009138e-22, 9.597634062586047e-24, -2.347690291162632e-25)


def _beta_half_large_a(a: float, w: float) -> float:
    """I_x(a, 1/2) for a >= 15 and x = exp(-w) with 0 < w <= 1: the region where x is close to 1, which the
    continued fraction resolves only to about a times the rounding of x.

    With t = exp(-v), I_x(a, b) B(a, b) = integral over v > w of exp(-a v) (1 - exp(-v))^(b - 1) dv, and
    1 - exp(-v) = exp(-v/2) v sinh(v/2) / (v/2); so for b = 1/2 and T = a - 1/4 the integrand is
    exp(-T v) v^(-1/2) (sum of c(n) v^(2n)), and term by term
        I_x(a, 1/2) = sum of c(n) Gamma(2n + 1/2, T w) / T^(2n + 1/2) / B(a, 1/2),
    an expansion in powers of 1/T (the series of c(n) converges for v < 2 pi; what lies beyond weighs
    about exp(-T (2 pi - w)) < 1e-30 of the result). Gamma(1/2, z) = sqrt(pi) erfc(sqrt(z)), and
    Gamma(s + 1, z) = s Gamma(s, z) + z^s exp(-z) adds only positive terms.
    """
    big_t = a - 0.25
    z = big_t * w
    fall = math.exp(-z) / big_t  # z^s exp(-z) / T^(s + 1) = w^s fall
    scaled = math.sqrt(math.pi / big_t) * math.erfc(math.sqrt(z))  # Gamma(s, z) / T^s for s = 1/2
    total, s = scaled, 0.5
    for coefficient in _HALF_SINHC_SERIES[1:]:
        for _ in range(2):  # Gamma(s + 1, z) / T^(s + 1) from Gamma(s, z) / T^s
            scaled = s / big_t * scaled + w ** s * fall
            s += 1
        term = coefficient * scaled
        total += term
        if abs(term) < 1e-17 * total:
            break
    return total * math.exp(-_log_beta(a, 0.5))


def student_t_two_sided(t: float, df: float) -> float:
    """2 P(T > |t|) for T Student's t with `df` degrees of freedom (df > 0): I_x(df/2, 1/2), x = df/(df+t^2).

    Computed from u = t^2 / df rather than from x, which rounds to 1 as df grows; the continued fraction
    serves where x is not close to 1 or df is small, an expansion in 1/df (above) elsewhere."""
    if math.isnan(t) or math.isnan(df):
        return math.nan
    s = abs(t) / math.sqrt(df)
    if s == 0:
        return 1.0
    if math.isinf(s):
        return 0.0
    a = df / 2
    if s > 1e150:  # s^2 would overflow: x = 1 / (1 + s^2) is about s^-2
        log_x = -2 * math.log(s)
        x = math.exp(log_x)
        return _regularized_beta(a, 0.5, x, 1.0, log_x, -x)
    u = s * s
    log_x, log_y = -math.log1p(u), -math.log1p(1 / u)
    if a >= 15 and -log_x <= 1:
        return _beta_half_large_a(a, -log_x)
    return _regularized_beta(a, 0.5, 1 / (1 + u), u / (1 + u), log_x, log_y)


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values)


def _sample_variance(values: Sequence[float], mean: float) -> float:
    """The sample variance (n - 1), by two passes (the second corrects the rounding of the mean)."""
    deviations = [v - mean for v in values]
    squares = math.fsum(d * d for d in deviations) - math.fsum(deviations) ** 2 / len(values)
    return max(0.0, squares) / (len(values) - 1)


def welch_test(values_a: Sequence[float], values_b: Sequence[float]) -> tuple[float, float]:
    """Compare two means without assuming equal variances: returns (mean_a - mean_b, two-sided p-value).

    Welch's t-test, as scipy.stats.ttest_ind with equal_var=False: t = (mean_a - mean_b) / sqrt(va/na + vb/nb)
    with the Welch-Satterthwaite degrees of freedom (va/na + vb/nb)^2 / ((va/na)^2/(na-1) + (vb/nb)^2/(nb-1)),
    1 where that is undefined (both variances 0). The p-value is 1.0 when the test is undefined: fewer
    than two values on a side, or both sides constant and equal (two different constants give 0.0). The
    difference is NaN when a side is empty.
    """
    if not values_a or not values_b:
        return math.nan, 1.0
    mean_a, mean_b = _mean(values_a), _mean(values_b)
    difference = mean_a - mean_b
    n_a, n_b = len(values_a), len(values_b)
    if n_a < 2 or n_b < 2:
        return difference, 1.0
    share_a = _sample_variance(values_a, mean_a) / n_a
    share_b = _sample_variance(values_b, mean_b) / n_b
    spread = share_a + share_b
    if spread == 0:
        return difference, 1.0 if difference == 0 else 0.0
    df = spread ** 2 / (share_a ** 2 / (n_a - 1) + share_b ** 2 / (n_b - 1))
    return difference, student_t_two_sided(difference / math.sqrt(spread), df)


# Numbers at a glance ---------------------------------------------------------------------------------

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


def percentile(ordered: Sequence[float], percent: float) -> float:
    """The `percent` percentile of the sorted, non-empty `ordered`, by linear interpolation between the two
    nearest ranks (numpy's default method): at rank h = (n - 1) percent / 100 (counted from 0), the value
    x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h])."""
    rank = (len(ordered) - 1) * percent / 100
    below = math.floor(rank)
    fraction = rank - below
    low = float(ordered[below])
    if fraction == 0:
        return low
    high = float(ordered[below + 1])
    # as numpy's lerp: from the nearer end, so that the result stays between the two values
    return high - (high - low) * (1 - fraction) if fraction >= 0.5 else low + (high - low) * fraction


def describe(values: Sequence[float]) -> Description:
    """Mean, standard deviation, minimum, quartiles (linear interpolation) and maximum of `values`."""
    if not values:
        return Description(0, *[math.nan] * 7)
    ordered = sorted(values)
    mean = _mean(ordered)
    sd = math.sqrt(_sample_variance(ordered, mean)) if len(ordered) > 1 else 0.0
    return Description(len(ordered), mean, sd, float(ordered[0]), percentile(ordered, 25), percentile(ordered, 50),
                       percentile(ordered, 75), float(ordered[-1]))


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


# Paired tests ----------------------------------------------------------------------------------------
# Two versions of a game played on the same seeds give pairs of games (A, B) that share their seed,
# seating and bots: what differs within a pair is the version. These tests compare within pairs.

def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Exact McNemar test of a yes-or-no outcome measured on pairs (a win in A, a win in B): the two-sided
    p-value that, among the discordant pairs (`a_only` pairs yes in A only, `b_only` in B only), each
    kind is equally likely. An exact binomial test of a_only out of a_only + b_only against one half;
    the pairs that agree say nothing of a difference. 1.0 without discordant pairs."""
    return binomial_p_value(a_only, a_only + b_only, 0.5)


def _ranks(values: Sequence[float]) -> list[float]:
    """The rank of each value among `values` (1 the smallest), ties given the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for i in order[start:end + 1]:
            ranks[i] = (start + end) / 2 + 1
        start = end + 1
    return ranks


EXACT_WILCOXON = 50  # up to this many non-zero differences without ties, the exact distribution


def wilcoxon_signed_rank(differences: Sequence[float]) -> tuple[float, float]:
    """Wilcoxon's signed-rank test that paired differences (B - A) are centred on zero: returns (W+,
    two-sided p-value), W+ the sum of the ranks of the positive differences among the non-zero |d|.

    As scipy.stats.wilcoxon with its defaults: zero differences are dropped (Wilcoxon's method); with
    at most 50 differences left and no tied |d|, the p-value is exact (2 min(P(W <= w), P(W >= w)),
    W+ counted over the 2^n equally likely signs); otherwise the normal approximation, mean
    n (n + 1) / 4 and variance n (n + 1) (2n + 1) / 24 less (t^3 - t) / 48 for each group of t tied
    |d|, without continuity correction. 1.0 when every difference is zero."""
    nonzero = [d for d in differences if d != 0]
    n = len(nonzero)
    if n == 0:
        return 0.0, 1.0
    ranks = _ranks([abs(d) for d in nonzero])
    w_plus = math.fsum(r for r, d in zip(ranks, nonzero) if d > 0)
    tied = [ranks.count(r) for r in set(ranks)]
    if n <= EXACT_WILCOXON and all(t == 1 for t in tied):
        ways = [1] + [0] * (n * (n + 1) // 2)  # ways[s]: the sets of ranks 1..n that sum to s
        for rank in range(1, n + 1):
            for total in range(len(ways) - 1, rank - 1, -1):
                ways[total] += ways[total - rank]
        w = round(w_plus)
        below, above = sum(ways[:w + 1]), sum(ways[w:])
        return w_plus, min(1.0, 2 * min(below, above) / 2 ** n)
    mean = n * (n + 1) / 4
    variance = n * (n + 1) * (2 * n + 1) / 24 - sum(t ** 3 - t for t in tied) / 48
    if variance <= 0:
        return w_plus, 1.0
    z = (w_plus - mean) / math.sqrt(variance)
    return w_plus, math.erfc(abs(z) / math.sqrt(2))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the order given: the k-th smallest of m is multiplied by
    m - k + 1, each kept at least as large as the one before it and at most 1. Compared with 0.05, they
    keep the chance of any false alarm among the m tests under 5%."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - k) * p_values[i]))
        adjusted[i] = running
    return adjusted
