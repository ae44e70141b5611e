"""The statistics of the reports (`interpreter.reports.stats`, pure Python) against known values.

The values were computed with scipy 1.17.1 and numpy 2.4.6 (`stats.binomtest`, its `proportion_ci(method=
"wilson")`, `2 * stats.norm.sf`, `stats.ttest_ind(equal_var=False)`, `2 * stats.t.sf`, `special.betainc`,
`np.percentile`), except where scipy itself is off in its last digits: there the value is exact (integer
arithmetic, a closed form, or an 80-digit evaluation), and the comment says so.
"""
import math
from fractions import Fraction

import pytest

from interpreter.reports import stats
from interpreter.reports.stats import (
    binomial_p_value,
    describe,
    student_t_two_sided,
    two_proportion_test,
    welch_test,
    wilson_interval,
)

# (successes, n, confidence, low, high)
WILSON = [
    (0, 10, 0.95, 0.0, 0.27753279986288926),
    (10, 10, 0.95, 0.7224672001371109, 1.0),
    (50, 100, 0.95, 0.4038315303659956, 0.5961684696340044),
    (1, 3, 0.95, 0.06149194472039626, 0.7923403991979523),
    (520, 1000, 0.95, 0.48901772465751897, 0.5508292050030588),
    (520, 1000, 0.9, 0.49399445666970765, 0.5458976136007021),
    (520, 1000, 0.99, 0.47930745509503414, 0.5604288983088296),
    (5000, 10000, 0.95, 0.49020206181540477, 0.5097979381845952),
    (1, 10000, 0.95, 1.765267360112231e-05, 0.0005662688974013381),
    (0, 10000, 0.95, 0.0, 0.00038399837067659573),
    (10000, 10000, 0.95, 0.9996160016293234, 1.0),
    (99999, 100000, 0.95, 0.9999433529034095, 0.9999982347522695),
]


@pytest.mark.parametrize("successes, n, confidence, low, high", WILSON)
def test_wilson_interval_as_scipy(successes, n, confidence, low, high):
    assert wilson_interval(successes, n, confidence) == pytest.approx((low, high), rel=1e-13, abs=1e-15)
    if successes == 0:
        assert wilson_interval(successes, n, confidence)[0] == 0.0
    if successes == n:
        assert wilson_interval(successes, n, confidence)[1] == 1.0


def test_wilson_interval_without_trials_or_with_impossible_counts():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


# (successes, n, expected rate, p-value): at the fair rate, none, all, mirror images, n up to 100,000
BINOMIAL = [
    (3, 4, 0.5, 0.625),
    (0, 1, 0.5, 1.0),
    (1, 1, 0.5, 1.0),
    (5, 10, 0.5, 1.0),
    (0, 10, 0.5, 0.001953125),
    (10, 10, 0.5, 0.001953125),
    (6, 10, 0.5, 0.75390625),
    (1, 3, 0.3333333333333333, 1.0),
    (2, 3, 0.3333333333333333, 0.2592592592592592),
    (0, 3, 0.3333333333333333, 0.5555555555555555),
    (520, 1000, 0.5, 0.2174482932041415),
    (480, 1000, 0.5, 0.2174482932041415),
    (340, 1000, 0.3333333333333333, 0.6628427138339266),
    (300, 1000, 0.3333333333333333, 0.02678905546950116),
    (200, 1000, 0.16666666666666666, 0.005769570401852678),
    (150, 1000, 0.16666666666666666, 0.16161454403816605),
    (260, 1000, 0.25, 0.4652752577529),
    (5100, 10000, 0.5, 0.04658552770494645),
    (4900, 10000, 0.5, 0.04658552770494645),
    (5000, 10000, 0.5, 1.0),
    (3400, 10000, 0.3333333333333333, 0.15834102569252184),
    (3333, 10000, 0.3333333333333333, 1.0),
    (0, 10000, 0.5, 0.0),
    (1, 10000, 0.5, 0.0),
    (49000, 100000, 0.5, 2.5887160383468943e-10),
    (49990, 100000, 0.5, 0.952089349813629),
    (50210, 100000, 0.5, 0.1851727520027071),
    (33000, 100000, 0.3333333333333333, 0.025493544410416513),
    (0, 10, 0.0, 1.0),
    (3, 10, 0.0, 0.0),
    (10, 10, 1.0, 1.0),
    (3, 10, 1.0, 0.0),
    (1, 100, 0.01, 1.0),
    (5, 100, 0.01, 0.0034323215877545207),
    (44931, 100000, 0.5, 7.482431092582173e-226),  # exact (integers); scipy: 7.482431092594888e-226
]


@pytest.mark.parametrize("successes, n, expected, p_value", BINOMIAL)
def test_exact_binomial_test_as_scipy(successes, n, expected, p_value):
    assert binomial_p_value(successes, n, expected) == pytest.approx(p_value, rel=1e-12, abs=1e-300)


def exact_binomial_p_value(successes: int, n: int, expected: Fraction) -> Fraction:
    """scipy's definition with exact fractions: outcomes at most (1 + 1e-7) times as likely as the observed one,
    on the observed side from it outwards, on the other side of the mean wherever they are."""
    r, s = expected.numerator, expected.denominator
    weights = [math.comb(n, x) * r ** x * (s - r) ** (n - x) for x in range(n + 1)]
    limit = weights[successes] * (1 + Fraction(1e-7))
    mean = expected * n
    if successes == mean:
        return Fraction(1)
    if successes < mean:
        chosen = list(range(successes + 1)) + [x for x in range(math.ceil(mean), n + 1) if weights[x] <= limit]
    else:
        chosen = list(range(successes, n + 1)) + [x for x in range(math.floor(mean) + 1) if weights[x] <= limit]
    return min(Fraction(1), Fraction(sum(weights[x] for x in chosen), s ** n))


@pytest.mark.parametrize("n, expected", [(1, Fraction(1, 2)), (7, Fraction(1, 2)), (20, Fraction(1, 4)),
                                         (36, Fraction(1, 6)), (101, Fraction(1, 2)), (300, Fraction(1, 3))])
def test_exact_binomial_test_at_every_count_against_exact_arithmetic(n, expected):
    for successes in range(n + 1):
        exact = float(exact_binomial_p_value(successes, n, expected))
        assert binomial_p_value(successes, n, float(expected)) == pytest.approx(exact, rel=1e-12), successes


def test_exact_binomial_test_for_100000_trials():
    # the fair count itself is never significant, a count 1% off the fair share already is
    assert binomial_p_value(50000, 100000, 0.5) == pytest.approx(1.0)
    assert binomial_p_value(49990, 100000, 0.5) > 0.9
    assert binomial_p_value(49500, 100000, 0.5) < 0.01 and binomial_p_value(50500, 100000, 0.5) < 0.01
    assert binomial_p_value(0, 100000, 0.5) == binomial_p_value(100000, 100000, 0.5) < 1e-300


def test_exact_binomial_test_without_trials_or_with_bad_arguments():
    assert binomial_p_value(0, 0, 0.5) == 1.0
    with pytest.raises(ValueError):
        binomial_p_value(5, 4, 0.5)
    with pytest.raises(ValueError):
        binomial_p_value(1, 4, 1.5)


# (successes_a, n_a, successes_b, n_b, p-value)
TWO_PROPORTIONS = [
    (45, 100, 55, 100, 0.15729920705028497),
    (600, 1000, 400, 1000, 3.744097384202925e-19),
    (1, 10, 9, 10, 0.0003466193511346662),
    (5000, 10000, 5100, 10000, 0.15727845115653802),
    (3, 7, 2, 9, 0.3770264208582481),
    (50000, 100000, 49000, 100000, 7.736119961824452e-06),
    (0, 10, 1, 10, 0.3049017881787883),
]


@pytest.mark.parametrize("successes_a, n_a, successes_b, n_b, p_value", TWO_PROPORTIONS)
def test_two_proportion_test_as_scipy(successes_a, n_a, successes_b, n_b, p_value):
    difference, p = two_proportion_test(successes_a, n_a, successes_b, n_b)
    assert difference == successes_a / n_a - successes_b / n_b
    assert p == pytest.approx(p_value, rel=1e-12)


def test_two_proportion_test_where_undefined():
    assert two_proportion_test(500, 1000, 500, 1000) == (0.0, 1.0)
    assert two_proportion_test(0, 10, 0, 20)[1] == 1.0 and two_proportion_test(10, 10, 20, 20)[1] == 1.0
    assert two_proportion_test(3, 10, 0, 0) == (0.3, 1.0) and two_proportion_test(0, 0, 0, 0) == (0.0, 1.0)


WELCH_SAMPLES = {
    "equal": ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]),
    "unequal": ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [20, 22, 19, 25, 30]),
    "tiny": ([1, 2], [3, 4]),
    "one constant": ([1, 2], [5, 5]),
    "three": ([1, 2, 3], [4, 5, 7]),
    "spread": ([10.5, 9.25, 11.0, 10.0], [8.0, 14.5, 3.25, 12.0, 9.5, 11.75]),
    "large": ([i % 7 for i in range(10000)], [(3 * i) % 11 - 1.9 for i in range(8000)]),
    "large close": ([i % 7 for i in range(10000)], [(i % 7) + (0.05 if i % 2 else 0) for i in range(12000)]),
}
# name: (mean_a - mean_b, p-value, Welch's degrees of freedom), from scipy.stats.ttest_ind(equal_var=False)
WELCH = {
    'equal': (-1.0, 0.34659350708733416, 8.0),
    'unequal': (-17.7, 0.00021032430753524132, 5.93498819876278),
    'tiny': (-2.0, 0.10557280900008414, 2.0),
    'one constant': (-3.5, 0.0903344706017331, 1.0),
    'three': (-3.333333333333333, 0.041914517471454034, 3.4482758620689653),
    'spread': (0.3541666666666661, 0.8372097259574253, 5.530669301170132),
    'large': (-0.09985000000000088, 0.013984159614879484, 12881.853826818331),
    'large close': (-0.025183333333333113, 0.35244858004721963, 21289.42755682212),
}


@pytest.mark.parametrize("name", WELCH)
def test_welch_test_as_scipy(name):
    difference, p = welch_test(*WELCH_SAMPLES[name])
    assert difference == pytest.approx(WELCH[name][0], rel=1e-12)
    assert p == pytest.approx(WELCH[name][1], rel=1e-12)


def test_welch_test_where_undefined_or_certain():
    assert welch_test([3, 3, 3], [3, 3, 3]) == (0.0, 1.0)  # scipy: NaN
    assert welch_test([3, 3, 3], [4, 4, 4]) == (-1.0, 0.0)  # as scipy: two different constants
    assert welch_test([1], [1, 2]) == (-0.5, 1.0)
    assert math.isnan(welch_test([], [1, 2])[0]) and welch_test([], [1, 2])[1] == 1.0


# (t, degrees of freedom, 2 P(T > t))
STUDENT_T = [
    (0.001, 1.5, 0.9993185302267198),
    (0.7, 1.5, 0.5764382408826868),
    (1.96, 1.5, 0.2296598973467142),
    (3.1, 1.5, 0.12776977657068014),
    (8, 1.5, 0.03291835094090683),
    (40, 1.5, 0.002979624390931245),
    (0.001, 2.5, 0.9992763827207849),
    (0.7, 2.5, 0.543404943189548),
    (1.96, 2.5, 0.16294756447281405),
    (3.1, 2.5, 0.06778837832492031),
    (8, 2.5, 0.007656644131043447),
    (40, 2.5, 0.0001419563429049338),
    (0.001, 3, 0.9992648949694609),
    (0.7, 3, 0.5343269983047636),
    (1.96, 3, 0.14485220856485365),
    (3.1, 3, 0.05329554461433608),
    (8, 3, 0.004076577587785466),
    (40, 3, 3.4380680789158506e-05),
    (0.001, 4.7, 0.9992431582436442),
    (0.7, 4.7, 0.5170438903950613),
    (1.96, 4.7, 0.11094669139783679),
    (3.1, 4.7, 0.029165614221150736),
    (8, 4.7, 0.0006550245824730537),
    (40, 4.7, 3.8918611107283634e-07),
    (0.001, 9, 0.9992239303259733),
    (0.7, 9, 0.501619039216145),
    (1.96, 9, 0.08164440546041664),
    (3.1, 9, 0.01272245597820195),
    (8, 9, 2.2134816809400155e-05),
    (40, 9, 1.8982998449339822e-11),
    (0.001, 17.3, 0.9992135564876677),
    (0.7, 17.3, 0.49323392394304955),
    (1.96, 17.3, 0.06630644618346498),
    (3.1, 17.3, 0.00640217064994822),
    (8, 17.3, 3.2323016961033186e-07),
    (40, 17.3, 1.7052854047608347e-18),
    (0.001, 29, 0.9992089629783623),
    (0.7, 29, 0.48950514861448374),
    (1.96, 29, 0.05966779551959133),
    (3.1, 29, 0.00427818237355557),
    (8, 29, 8.012575649631688e-09),
    (40, 29, 6.346877329729342e-27),
    (0.001, 31, 0.9992085231464964),
    (0.7, 31, 0.48914757731076364),
    (1.96, 31, 0.059037994721611725),
    (3.1, 31, 0.004097787813196817),
    (8, 31, 4.940263701903391e-09),
    (40, 31, 3.0181419244420594e-28),
    (0.001, 60.5, 0.9992054056652976),
    (0.7, 60.5, 0.48661037809417745),
    (1.96, 60.5, 0.054606295216593805),
    (3.1, 60.5, 0.0029364557890814626),
    (8, 60.5, 4.641357000860899e-11),
    (40, 60.5, 3.1837495589430253e-45),
    (0.001, 250, 0.9992029130562022),
    (0.7, 250, 0.48457817131141334),
    (1.96, 250, 0.0511066202253732),
    (3.1, 250, 0.002156740203381359),
    (8, 250, 4.652801518917548e-14),
    (40, 250, 1.2017878326588399e-110),
    (0.001, 1999.5, 0.9992022153264976),
    (0.7, 1999.5, 0.48400873729759464),
    (1.96, 1999.5, 0.05013449587722556),
    (3.1, 1999.5, 0.001962179083529667),
    (8, 1999.5, 2.0867007143912645e-15),
    (40, 1999.5, 1.480049276550069e-257),
    (0.001, 15000, 0.9992021288701498),
    (0.7, 15000, 0.4839381603373856),
    (1.96, 15000, 0.050014276683845386),
    (3.1, 15000, 0.0019387899005460247),
    (8, 15000, 1.3346559001984899e-15),
    (40, 15000, 0.0),
    (0.001, 250000, 0.9992021163700624),
    (0.7, 250000, 0.4839279558073573),
    (1.96, 250000, 0.049996899453032824),
    (3.1, 250000, 0.0019354213309611362),
    (8, 250000, 1.2494566935592185e-15),
    (40, 250000, 0.0),
    (1.96, 1e6, 0.04999606758526979),  # the three below: 80-digit evaluations, scipy agrees to 1e-15
    (2.5, 1e7, 0.01241934653657847),
    (10, 1e5, 1.5633015300207278e-23),
]


@pytest.mark.parametrize("t, df, p_value", STUDENT_T)
def test_student_t_as_scipy(t, df, p_value):
    assert student_t_two_sided(t, df) == pytest.approx(p_value, rel=1e-12, abs=1e-300)
    assert student_t_two_sided(-t, df) == student_t_two_sided(t, df)


@pytest.mark.parametrize("t", [1e-12, 1e-8, 1e-4, 0.01, 0.1, 0.5, 1, 1.5, 2, 3, 5, 10, 30, 100, 1e4, 1e8, 1e20, 1e160])
def test_student_t_against_its_closed_forms(t):
    # df = 1 (Cauchy): 2 / pi atan(1 / t); df = 2: 2 / (r (r + t)), r = sqrt(2 + t^2).  (scipy is off by 3e-9 at
    # t = 1e-8, df = 1.)
    assert student_t_two_sided(t, 1) == pytest.approx(2 / math.pi * math.atan(1 / t), rel=1e-14)
    r = math.hypot(math.sqrt(2), t)
    assert student_t_two_sided(t, 2) == pytest.approx(2 / (r * (r + t)), rel=1e-13)


def test_student_t_at_the_edges():
    assert student_t_two_sided(0, 5) == 1.0 and student_t_two_sided(math.inf, 5) == 0.0
    assert math.isnan(student_t_two_sided(math.nan, 5))
    assert 0 < student_t_two_sided(1e200, 1) == pytest.approx(2 / math.pi / 1e200, rel=1e-12)


# (a, b, x, I_x(a, b)), from scipy.special.betainc
BETA = [
    (0.5, 0.5, 0.3, 0.36901011956554536),
    (2.5, 0.5, 0.9, 0.48958974456442755),
    (3, 7, 0.2, 0.26180249600000016),
    (7, 3, 0.9, 0.947027862),
    (30, 0.5, 0.99, 0.43933436890525074),
    (0.5, 30, 0.01, 0.560665631094749),
    (100, 100, 0.48, 0.2859671528122592),
    (1, 1, 0.37, 0.37),
    (12.5, 4.5, 0.77, 0.59560737104901),
]


@pytest.mark.parametrize("a, b, x, value", BETA)
def test_regularized_incomplete_beta_as_scipy(a, b, x, value):
    assert stats._regularized_beta(a, b, x, 1 - x, math.log(x), math.log1p(-x)) == pytest.approx(value, rel=1e-13)


def test_the_series_coefficients_of_the_large_df_expansion():
    """c(n) in (sinh(w/2) / (w/2))^(-1/2) = sum of c(n) w^(2n), again from the Bernoulli numbers."""
    count = len(stats._HALF_SINHC_SERIES)
    bernoulli, a = [], [Fraction(0)] * (2 * count + 1)
    for m in range(2 * count + 1):  # the Akiyama-Tanigawa algorithm
        a[m] = Fraction(1, m + 1)
        for j in range(m, 0, -1):
            a[j - 1] = j * (a[j - 1] - a[j])
        bernoulli.append(a[0])
    log_terms = [Fraction(0)] + [-bernoulli[2 * k] / (2 * k * math.factorial(2 * k)) / 2 for k in range(1, count)]
    c = [Fraction(1)]
    for n in range(1, count):
        c.append(sum(k * log_terms[k] * c[n - k] for k in range(1, n + 1)) / n)
    assert list(stats._HALF_SINHC_SERIES) == [float(v) for v in c]


@pytest.mark.parametrize("values", [[1, 2, 3, 4, 5], [7], [1, 2], [3, 1, 4, 1, 5, 9, 2, 6], [0.5, 2.25, 10, -3],
                                    [(i * 37) % 101 for i in range(1001)], [i % 5 for i in range(10)]])
def test_describe_as_numpy(values):
    expected = DESCRIBE[len(values)]
    d = describe(values)
    assert (d.n, d.mean, d.sd, d.min, d.q1, d.median, d.q3, d.max) == pytest.approx(expected, rel=1e-14)


# by length: (n, mean, sd (ddof 1), min, q1, median, q3, max), from numpy (np.percentile, linear)
DESCRIBE = {row[0]: row for row in [
    (5, 3.0, 1.5811388300841898, 1.0, 2.0, 3.0, 4.0, 5.0),
    (1, 7.0, 0.0, 7.0, 7.0, 7.0, 7.0, 7.0),
    (2, 1.5, 0.7071067811865476, 1.0, 1.25, 1.5, 1.75, 2.0),
    (8, 3.875, 2.748376143938713, 1.0, 1.75, 3.5, 5.25, 9.0),
    (4, 2.4375, 5.493841248768176, -3.0, -0.375, 1.375, 4.1875, 10.0),
    (1001, 49.994005994005995, 29.183933320167178, 0.0, 25.0, 50.0, 75.0, 100.0),
    (10, 2.0, 1.4907119849998598, 0.0, 1.0, 2.0, 3.0, 4.0),
]}


def test_describe_of_nothing():
    d = describe([])
    assert d.n == 0 and all(math.isnan(v) for v in (d.mean, d.sd, d.min, d.q1, d.median, d.q3, d.max))
