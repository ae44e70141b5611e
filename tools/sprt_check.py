"""The error rates of `compare --until-decided`'s sequential test (interpreter/reports/sequential.py), by
simulation on synthetic pairs.

    python tools/sprt_check.py                                  # 1000 tests per setting: a few minutes
    python tools/sprt_check.py --tests 200 --players 4 --discordance 0.05 --effect 0.03 --cap 20000

For each number of players k and discordance rate (the share of pairs where some player's difference is
not 0), it runs `--tests` sequential tests with no effect and as many with an effect of exactly
`--effect` on the first player, each looking after every batch of `--batch` pairs up to `--cap` pairs,
and prints: the false-alarm rate (H1 accepted with no effect; it should be at most alpha) and the power
(H1 accepted under the effect; at least 1 - beta), each with its 95% Wilson interval; under the effect,
the share of tests that named the first player going up (`p1 up`) and the share that named a move the
effect does not make (`wrong`: the first player going down, another going up; another going down is
true, if smaller, as the first player's wins come from the others); the share undecided at the cap; the median
and 90th percentile of the pairs to a decision (the cap for those undecided).

The synthetic pairs: a game's outcome is one of the k players winning or nobody (a draw side, weighted
`--draw-weight` against a player's 1). A pair is identical with probability 1 - discordance; otherwise
the win moves from outcome x in A to outcome y in B, x != y. With no effect the move is symmetric,
P(x, y) proportional to w(x) w(y), so every player's mean difference is 0. Under the effect a share
effect / discordance of the discordant pairs instead move the win to the first player (from x drawn in
proportion to w(x)), which makes that player's mean difference exactly `effect` (and lowers the others'
a little).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.reports.sequential import SequentialTest
from interpreter.reports.stats import wilson_interval


def pair_types(players: int, discordance: float, effect: float, draw_weight: float = 0.5):
    """The kinds of pair (each player's difference) and their chances: (list of dicts, list of floats)."""
    if not 0 < discordance <= 1 or not 0 <= effect <= discordance:
        raise ValueError(f"need 0 < discordance <= 1 and 0 <= effect <= discordance: {discordance}, {effect}")
    names = [f"p{i + 1}" for i in range(players)]
    outcomes = [*names, None]  # None: nobody wins
    weight = {**dict.fromkeys(names, 1.0), None: draw_weight}
    moves = [(x, y) for x in outcomes for y in outcomes if x != y]
    symmetric = sum(weight[x] * weight[y] for x, y in moves)
    to_first = sum(weight[x] for x in outcomes if x != names[0])
    share = effect / discordance
    types = [dict.fromkeys(names, 0)]
    chances = [1 - discordance]
    for x, y in moves:
        chance = (1 - share) * weight[x] * weight[y] / symmetric
        if y == names[0]:
            chance += share * weight[x] / to_first
        types.append({n: (n == y) - (n == x) for n in names})
        chances.append(discordance * chance)
    return types, chances


def run_one(rng: random.Random, types, chances, effect: float, alpha: float, beta: float, batch: int,
            cap: int) -> tuple[str, int, str | None]:
    """One sequential test on fresh pairs: (outcome, pairs at the decision, the test named under H1)."""
    test = SequentialTest(list(types[0]), effect=effect, alpha=alpha, beta=beta, max_pairs=cap)
    indices = range(len(types))
    while True:
        drawn = Counter(rng.choices(indices, chances, k=min(batch, cap - test.pairs)))
        for index, count in drawn.items():
            test.add(types[index], count)
        state = test.state()
        if state.outcome:
            return state.outcome, state.pairs, state.found.name if state.found else None


def percentile(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rate(hits: int, n: int) -> str:
    low, high = wilson_interval(hits, n)
    return f"{100 * hits / n:5.1f}% [{100 * low:4.1f}, {100 * high:4.1f}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", type=int, default=1000, help="sequential tests per setting and hypothesis")
    parser.add_argument("--players", default="2,4", help="numbers of players (measures), comma-separated")
    parser.add_argument("--discordance", default="0.05,0.2,0.6", help="shares of pairs that differ")
    parser.add_argument("--effect", type=float, default=0.03)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--batch", type=int, default=50, help="pairs between two looks")
    parser.add_argument("--cap", type=int, default=20_000, help="pairs at most per test")
    parser.add_argument("--draw-weight", type=float, default=0.5, help="nobody winning, against a player's 1")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print(f"{args.tests} tests per row and hypothesis; effect {args.effect}, alpha {args.alpha}, beta {args.beta}, "
          f"a look every {args.batch} pairs, cap {args.cap} pairs")
    print(f"{'k':>2} {'disc':>5} | {'false alarms [95% CI]':<22} {'undec':>6} {'median':>6} {'p90':>6} | "
          f"{'power [95% CI]':<22} {'p1 up':>6} {'wrong':>6} {'undec':>6} {'median':>6} {'p90':>6} | {'seconds':>7}")
    started = time.perf_counter()
    for players in (int(p) for p in args.players.split(",")):
        for discordance in (float(d) for d in args.discordance.split(",")):
            row_started = time.perf_counter()
            cells = []
            for true_effect in (0.0, args.effect):
                types, chances = pair_types(players, discordance, true_effect, args.draw_weight)
                wrong_ways = {"p1 lower in B", *(f"p{i + 1} higher in B" for i in range(1, players))}
                rng = random.Random(f"{args.seed}-{players}-{discordance}-{true_effect}")
                runs = [run_one(rng, types, chances, args.effect, args.alpha, args.beta, args.batch, args.cap)
                        for _ in range(args.tests)]
                accepted = sum(outcome == "H1" for outcome, _, _ in runs)
                undecided = sum(outcome == "undecided" for outcome, _, _ in runs)
                pairs = [n for _, n, _ in runs]
                right = sum(found == "p1 higher in B" for _, _, found in runs)
                wrong = sum(found in wrong_ways for _, _, found in runs)
                cells.append((rate(accepted, args.tests), f"{100 * right / args.tests:5.1f}%",
                              f"{100 * wrong / args.tests:5.1f}%",
                              f"{100 * undecided / args.tests:5.1f}%", statistics.median(pairs),
                              percentile(pairs, 0.9)))
            (alarms, _, _, undecided0, median0, p90_0), (power, right, wrong, undecided1, median1, p90_1) = cells
            print(f"{players:>2} {discordance:>5.2f} | {alarms:<22} {undecided0:>6} {median0:>6.0f} {p90_0:>6} | "
                  f"{power:<22} {right:>6} {wrong:>6} {undecided1:>6} {median1:>6.0f} {p90_1:>6} | "
                  f"{time.perf_counter() - row_started:>7.1f}", flush=True)
    print(f"{time.perf_counter() - started:.0f} seconds in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
