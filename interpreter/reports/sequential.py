"""A sequential test over paired games: play pairs until the evidence decides (`compare --until-decided`).

Each pair (one seed played on A and on B) gives, for each measure (a player's win), a difference
d = won in B - won in A, which is -1, 0 or +1. The pairs are independent, the differences of one
measure identically distributed: a trinomial with P(d = -1), P(d = 0), P(d = +1). Working with d
keeps the pairing: its variance is that of the difference of two correlated wins, and pairs that end
the same on both sides (most of them when the change is small) count as zeros.

The hypotheses, for a change `effect` (0.03: 3 points of win rate):
- H0: no measure moves, the mean of d is 0 for every measure;
- H1: some measure moves by `effect` or more, up or down.

The test, as fishtest's and OpenBench's: one sequential probability ratio test per measure and
direction (2k tests for k measures), each of mean = 0 against mean = +effect (or -effect), with
Wald's bounds. The distribution of d is not known beyond its mean, so each test is a generalized SPRT
(GSPRT): the likelihood under each hypothesis is the largest any trinomial with that mean gives the
counts seen (the maximum-likelihood distribution under the constraint), and the LLR is the difference
of the two logarithms. This form is chosen over the normal approximation
n mu1 (2 mean - mu1) / (2 var) because:
- it needs no variance estimate, so no floor: pairs that all end the same give LLR = n log(1 - effect)
  exactly (the likeliest distribution with mean `effect` puts `effect` on +1, and no distribution with
  mean `effect` gives n zeros a higher chance), so H0 is accepted after lower / log(1 - effect)
  identical pairs (98 at the defaults), and that is an honest guard: under any effect of `effect`, n
  identical pairs have a chance of at most (1 - effect)^n <= exp(lower) = beta / (1 - a), about beta;
- it stays close to the true likelihood ratio while discordant pairs are few, where the normal
  approximation, with a variance estimated from a handful of them, swings: five pairs of +1 give the
  normal form (variance floored at effect (1 - effect)) an LLR over the upper bound, this form 5 log 1.03.
  Looking after every pair, one one-sided test (3000 simulated tests each) kept its false alarms under
  its alpha and its power at 94.8-95.3% with this form, while the normal form lost power (92.2% at 5% of
  pairs discordant) and went over its alpha (1.5% for 1.25% at 20%);
- the two agree when there are many discordant pairs, as they should.
`tools/sprt_check.py` measures the family's error rates by simulation.

The family: alpha is split evenly over the 2k one-sided tests (Bonferroni), each run at alpha / (2k)
and beta, with Wald's bounds lower = log(beta / (1 - a)) and upper = log((1 - beta) / a), a = alpha / (2k):
- a test whose LLR reaches its lower bound has accepted its null (no move of `effect` that way) and
  stops there, as Wald's test does; its LLR is kept as it was;
- H1 ("an effect") as soon as one test reaches its upper bound: it names the measure and direction;
  the family's chance of a false alarm is at most the sum over the tests, alpha (to Wald's
  approximation, which the simulation checks);
- H0 ("no effect of `effect` or more") once every test has stopped at its lower bound: an effect of
  `effect` on one measure is missed only if that measure's test in that direction stopped low, a chance
  of at most beta (to Wald's approximation again);
- "undecided" at the cap of pairs, with the estimates.

A look (`state()`) may come after every pair or every batch: Wald's bounds are made for a look after
every pair; batches make each crossing overshoot its bound a little, which lowered both error rates
a little in the simulations (tools/sprt_check.py looks every 50 pairs).
The 95% intervals shown are fixed-sample intervals for a display, not part of the decision.

Pure Python (`math` only), as `stats.py`; nothing here knows what a game is.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

_Z95 = 1.959963984540054  # the normal quantile of 0.975
DIRECTION_WORDS = {1: "higher in B", -1: "lower in B"}


def _xlogy(count: int, p: float) -> float:
    return count * math.log(p) if count else 0.0


def constrained_log_likelihood(down: int, same: int, up: int, mean: float) -> float:
    """The largest log-likelihood that a distribution on {-1, 0, +1} with this `mean` gives the counts
    (`down` differences of -1, `same` of 0, `up` of +1); 0.0 with no counts.

    With P(-1) = x, P(+1) = x + mean, P(0) = 1 - 2x - mean (mean >= 0; a negative mean mirrors the
    counts), the log-likelihood is concave in x and its derivative vanishes where
    2n x^2 - b x - down mean (1 - mean) = 0, b = down (1 - 3 mean) + up (1 - mean) - 2 same mean:
    x is the root that is not negative (taken without cancellation), kept in [0, (1 - mean) / 2].
    """
    if mean < 0:
        down, up, mean = up, down, -mean
    n = down + same + up
    if n == 0:
        return 0.0
    b = down * (1 - 3 * mean) + up * (1 - mean) - 2 * same * mean
    c = down * mean * (1 - mean)
    root = math.sqrt(b * b + 8 * n * c)
    x = (b + root) / (4 * n) if b >= 0 else 2 * c / (root - b)
    x = min(max(x, 0.0), (1 - mean) / 2)
    return _xlogy(down, x) + _xlogy(same, max(1 - 2 * x - mean, 0.0)) + _xlogy(up, x + mean)


def log_likelihood_ratio(down: int, same: int, up: int, mean: float) -> float:
    """The GSPRT's LLR of mean = `mean` against mean = 0 for the counts of differences -1, 0, +1."""
    return constrained_log_likelihood(down, same, up, mean) - constrained_log_likelihood(down, same, up, 0.0)


def wald_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's (lower, upper) bounds of an SPRT's LLR: log(beta / (1 - alpha)), log((1 - beta) / alpha)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def paired_interval(down: int, same: int, up: int) -> tuple[float, float]:
    """A 95% interval for the mean difference: Agresti and Min's (2005) for a paired difference of
    proportions, the Wald interval after adding half a pair to each cell of the 2 x 2 table (one pair in
    all to `same`), so that it keeps a width when no pair differs yet."""
    n = down + same + up + 2
    p_up, p_down = (up + 0.5) / n, (down + 0.5) / n
    center = p_up - p_down
    half = _Z95 * math.sqrt(max(p_up + p_down - center * center, 0.0) / n)
    return max(center - half, -1.0), min(center + half, 1.0)


@dataclass(frozen=True)
class MeasureState:
    """A measure's differences so far: how many pairs went down, stayed, went up; mean and 95% interval."""

    measure: str
    down: int
    same: int
    up: int
    mean: float
    low: float
    high: float


@dataclass(frozen=True)
class OneSidedTest:
    """One of the 2k tests: a move of the measure by `effect` in `direction` (+1 up in B, -1 down)."""

    measure: str
    direction: int
    llr: float
    lower: float
    upper: float
    stopped: str | None  # None while it runs; "H0" once its LLR reached the lower bound; "H1": the upper
    stopped_at: int | None  # the pairs seen when it stopped

    @property
    def to_upper(self) -> float:
        """How far the LLR is under its upper bound (0 or less: crossed)."""
        return self.upper - self.llr

    @property
    def to_lower(self) -> float:
        """How far the LLR is over its lower bound (0 or less: crossed)."""
        return self.llr - self.lower

    @property
    def name(self) -> str:
        return f"{self.measure} {DIRECTION_WORDS[self.direction]}"


@dataclass(frozen=True)
class State:
    """The test after a look: the pairs seen, the estimates, the tests and the decision (None: go on)."""

    pairs: int
    max_pairs: int
    effect: float
    measures: tuple[MeasureState, ...]
    tests: tuple[OneSidedTest, ...]
    outcome: str | None  # "H1", "H0" or "undecided" (at the cap); None while going on
    decision: str | None  # the outcome in plain words
    decided_at: int | None  # the pairs seen at the look that decided
    found: OneSidedTest | None  # under H1, the test that crossed its upper bound


class SequentialTest:
    """The sequential test over paired differences; see the module's docstring.

    `add` one pair's differences (or `count` pairs alike) at a time, and call `state()` after each batch:
    it looks, stops the tests that crossed a bound, and decides. The decision is final: pairs added
    afterwards change the estimates, not the decision nor the tests.
    """

    def __init__(self, measures: Sequence[str], effect: float = 0.03, alpha: float = 0.05, beta: float = 0.05,
                 max_pairs: int = 30_000):
        if not measures or len(set(measures)) != len(measures):
            raise ValueError(f"the measures must be distinct and at least one, got {list(measures)}")
        if not 0 < effect < 1:
            raise ValueError(f"the effect must be between 0 and 1 (a share of games), got {effect}")
        if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
            raise ValueError(f"alpha and beta must be between 0 and 1, with a sum under 1: {alpha}, {beta}")
        if max_pairs < 1:
            raise ValueError(f"the cap of pairs must be at least 1, got {max_pairs}")
        self.measures = list(measures)
        self.effect, self.alpha, self.beta, self.max_pairs = effect, alpha, beta, max_pairs
        self.lower, self.upper = wald_bounds(alpha / (2 * len(self.measures)), beta)
        self.pairs = 0
        self._counts = {m: [0, 0, 0] for m in self.measures}  # pairs with d = -1, 0, +1
        self._keys = [(m, direction) for m in self.measures for direction in (1, -1)]
        self._llr = dict.fromkeys(self._keys, 0.0)
        self._stopped: dict[tuple[str, int], tuple[str, int]] = {}
        self._outcome: str | None = None
        self._decided_at: int | None = None
        self._found: tuple[str, int] | None = None

    def add(self, differences: Mapping[str, int], count: int = 1) -> None:
        """Record `count` pairs whose differences B - A are `differences`: each measure's -1, 0 or +1."""
        if set(differences) != set(self.measures):
            raise ValueError(f"a pair needs a difference for each measure {self.measures}, got {sorted(differences)}")
        if count < 0:
            raise ValueError(f"the count of pairs must not be negative, got {count}")
        for measure, d in differences.items():
            if d not in (-1, 0, 1):
                raise ValueError(f"a difference is -1, 0 or +1, got {d!r} for {measure}")
            self._counts[measure][d + 1] += count
        self.pairs += count

    def state(self) -> State:
        """Look at the evidence (unless decided already) and return the state; see the class's docstring."""
        if self._outcome is None:
            self._look()
        return self._snapshot()

    def _look(self) -> None:
        crossed = []
        for key in self._keys:
            if key in self._stopped:
                continue
            measure, direction = key
            llr = log_likelihood_ratio(*self._counts[measure], direction * self.effect)
            self._llr[key] = llr
            if llr >= self.upper:
                crossed.append(key)
            elif llr <= self.lower:
                self._stopped[key] = ("H0", self.pairs)
        if crossed:
            self._found = max(crossed, key=lambda key: self._llr[key])
            for key in crossed:
                self._stopped[key] = ("H1", self.pairs)
            self._outcome = "H1"
        elif len(self._stopped) == len(self._keys):
            self._outcome = "H0"
        elif self.pairs >= self.max_pairs:
            self._outcome = "undecided"
        if self._outcome is not None:
            self._decided_at = self.pairs

    def _measure_state(self, measure: str) -> MeasureState:
        down, same, up = self._counts[measure]
        n = down + same + up
        return MeasureState(measure, down, same, up, (up - down) / n if n else 0.0, *paired_interval(down, same, up))

    def _test_state(self, key: tuple[str, int]) -> OneSidedTest:
        stopped, stopped_at = self._stopped.get(key, (None, None))
        return OneSidedTest(key[0], key[1], self._llr[key], self.lower, self.upper, stopped, stopped_at)

    def _snapshot(self) -> State:
        measures = tuple(self._measure_state(m) for m in self.measures)
        tests = tuple(self._test_state(key) for key in self._keys)
        found = self._test_state(self._found) if self._found else None
        return State(self.pairs, self.max_pairs, self.effect, measures, tests, self._outcome,
                     self._words(measures, found), self._decided_at, found)

    def _words(self, measures: tuple[MeasureState, ...], found: OneSidedTest | None) -> str | None:
        points = f"{100 * self.effect:g} points"
        if self._outcome == "H1":
            m = next(m for m in measures if m.measure == found.measure)
            return (f"an effect: {found.name} by {points} or more is accepted after {self._decided_at} pairs "
                    f"(mean difference {_points(m.mean)}, 95% interval {_points(m.low)} to {_points(m.high)})")
        if self._outcome == "H0":
            return (f"no effect of {points} or more on any of the {len(measures)} measures, "
                    f"accepted after {self._decided_at} pairs")
        if self._outcome == "undecided":
            estimates = "; ".join(f"{m.measure} {_points(m.mean)} ({_points(m.low)} to {_points(m.high)})"
                                  for m in measures)
            return f"undecided at the cap of {self._decided_at} pairs: {estimates}"
        return None


def _points(value: float) -> str:
    return f"{100 * value:+.1f} points"
