"""The sequential test of `compare --until-decided` (interpreter/reports/sequential.py): its LLR and bounds
on cases worked by hand, its decisions, and one bounded check of its false alarms by simulation
(tools/sprt_check.py measures the error rates at length)."""
import math
import random

import pytest
from sprt_check import pair_types, run_one

from interpreter.reports.sequential import (
    SequentialTest,
    constrained_log_likelihood,
    log_likelihood_ratio,
    paired_interval,
    wald_bounds,
)

E = 0.03
SAME = {"red": 0, "blue": 0}


def test_llr_on_cases_worked_by_hand():
    # n zeros: the likeliest distribution with mean 0 is all on 0; with mean e, e on +1 and 1 - e on 0
    assert log_likelihood_ratio(0, 100, 0, E) == pytest.approx(100 * math.log(1 - E), rel=1e-12)
    assert log_likelihood_ratio(0, 100, 0, -E) == pytest.approx(100 * math.log(1 - E), rel=1e-12)
    # n times +1: P(+1) = 1/2 under mean 0 (P(-1) = 1/2), (1 + e)/2 under mean e
    assert log_likelihood_ratio(0, 0, 5, E) == pytest.approx(5 * math.log(1 + E), rel=1e-12)
    assert log_likelihood_ratio(0, 0, 5, -E) == pytest.approx(5 * math.log(1 - E), rel=1e-12)
    # one 0 and one +1: (1/2, 1/4) under mean 0; ((1 + e)/2, (1 + e)/4) under mean e (d/dx of the log = 0)
    assert constrained_log_likelihood(0, 1, 1, 0.0) == pytest.approx(math.log(1 / 8), rel=1e-12)
    assert log_likelihood_ratio(0, 1, 1, E) == pytest.approx(2 * math.log(1 + E), rel=1e-12)
    # symmetric counts: mean 0 fits exactly (the empirical distribution), a move either way loses alike
    assert constrained_log_likelihood(10, 80, 10, 0.0) == pytest.approx(20 * math.log(0.1) + 80 * math.log(0.8))
    assert log_likelihood_ratio(10, 80, 10, E) == pytest.approx(log_likelihood_ratio(10, 80, 10, -E), rel=1e-12)
    assert log_likelihood_ratio(10, 80, 10, E) < 0
    assert log_likelihood_ratio(0, 0, 0, E) == 0.0


def test_constrained_likelihood_is_the_maximum():
    """The closed form against a search over P(-1) on a fine grid, on counts drawn at random."""
    rng = random.Random(3)
    for _ in range(40):
        down, same, up = rng.randrange(6), rng.randrange(60), rng.randrange(6)
        mean = rng.choice([0.0, E, -E, 0.3])
        low, high = max(0.0, -mean), (1 - mean) / 2  # P(-1) = x, P(+1) = x + mean, P(0) = 1 - 2x - mean
        grid = [low + (high - low) * i / 20000 for i in range(1, 20000)]
        best = max(down * math.log(x) + same * math.log(1 - 2 * x - mean) + up * math.log(x + mean)
                   for x in grid if x > 0 and x + mean > 0 and 1 - 2 * x - mean > 0)
        found = constrained_log_likelihood(down, same, up, mean)
        assert best - 1e-6 <= found <= best + 1e-3 * (1 + abs(best))


def test_wald_bounds_split_over_the_tests():
    test = SequentialTest(["red", "blue"])  # 2 measures: 4 one-sided tests at 0.05 / 4
    assert (test.lower, test.upper) == wald_bounds(0.0125, 0.05)
    assert test.lower == pytest.approx(math.log(0.05 / 0.9875))
    assert test.upper == pytest.approx(math.log(0.95 / 0.0125))  # log 76


def test_identical_pairs_accept_no_effect_in_about_a_hundred_pairs():
    test = SequentialTest(["red", "blue"])
    expected = math.ceil(test.lower / math.log(1 - E))  # n log(1 - e) <= lower: 98 pairs
    assert expected == 98
    for n in range(1, 2000):
        test.add(SAME)
        state = test.state()
        if state.outcome:
            break
    assert (state.outcome, state.pairs, state.decided_at) == ("H0", expected, expected)
    assert state.decision == "no effect of 3 points or more on any of the 2 measures, accepted after 98 pairs"
    assert all(t.stopped == "H0" and t.to_lower <= 0 for t in state.tests)


def test_a_clear_effect_names_the_measure_and_direction():
    for direction, words in ((1, "blue higher in B"), (-1, "blue lower in B")):
        test = SequentialTest(["red", "blue", "green"], max_pairs=5000)
        for n in range(5000):
            moved = n % 4 == 0  # a quarter of the pairs move a win to (or from) blue, from a draw
            test.add({"red": 0, "blue": direction if moved else 0, "green": 0})
            if n % 50 == 49 and test.state().outcome:
                break
        state = test.state()
        assert state.outcome == "H1" and state.found.name == words
        assert state.found.to_upper <= 0 and state.pairs < 1000
        assert state.decision.startswith(f"an effect: {words} by 3 points or more is accepted after")
        blue = state.measures[1]
        assert blue.mean == pytest.approx(0.25 * direction) and blue.low < blue.mean < blue.high


def test_the_cap_leaves_it_undecided():
    test = SequentialTest(["red", "blue"], max_pairs=200)
    while test.state().outcome is None:  # half the pairs move a win one way or the other: no mean, much noise
        test.add({"red": 1, "blue": -1}, 25)
        test.add({"red": -1, "blue": 1}, 25)
        test.add(SAME, 50)
    state = test.state()
    assert (state.outcome, state.pairs, state.found) == ("undecided", 200, None)
    assert state.decision.startswith("undecided at the cap of 200 pairs: red +0.0 points")
    assert all(t.lower < t.llr < t.upper for t in state.tests if t.stopped is None)


def test_the_decision_is_final_and_the_inputs_are_checked():
    test = SequentialTest(["red", "blue"])
    test.add(SAME, 100)
    decided = test.state()
    test.add({"red": 1, "blue": -1}, 1000)
    later = test.state()
    assert later.outcome == "H0" and later.decided_at == 100 and later.tests == decided.tests
    assert later.pairs == 1100 and later.measures[0].up == 1000
    with pytest.raises(ValueError):
        test.add({"red": 2, "blue": 0})
    with pytest.raises(ValueError):
        test.add({"red": 0})
    with pytest.raises(ValueError):
        SequentialTest(["red", "red"])


def test_the_interval_has_a_width_before_any_pair_differs():
    low, high = paired_interval(0, 100, 0)
    assert low < 0 < high and high - low < 0.06
    low, high = paired_interval(5, 900, 95)  # mean +0.09, sd about 0.3: about 0.09 -+ 0.019
    assert low == pytest.approx(0.09 - 0.019, abs=0.003) and high == pytest.approx(0.09 + 0.019, abs=0.003)


def test_false_alarms_with_no_effect_stay_few():
    """200 tests with no effect (2 players, 20% of pairs discordant): about 4% false alarms expected, at most
    alpha = 5% in the long run; 16 or more of 200 (8%) would be a chance under 1% if the rate were 5%."""
    types, chances = pair_types(2, 0.2, 0.0)
    rng = random.Random(7)
    runs = [run_one(rng, types, chances, E, 0.05, 0.05, 50, 20_000) for _ in range(200)]
    alarms = sum(outcome == "H1" for outcome, _, _ in runs)
    assert alarms < 16
    assert all(outcome == "H0" for outcome, _, _ in runs if outcome != "H1")
