#!/usr/bin/env python3
"""Games per second of Cernunos: the engine running rulesets/cernunos against the hand-written
baseline (tools/cernunos_baseline.py), both with the same random bots, in the same run.

Rounds alternate between the two so that a busy machine slows both alike; each side's best
round is reported, and the ratio engine / baseline.

    python tools/bench_cernunos.py [--games 200] [--rounds 5]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]

import cernunos_baseline as baseline  # noqa: E402

from interpreter import Game, load  # noqa: E402


def engine_games(ruleset, seeds) -> int:
    decisions = 0
    for seed in seeds:
        game, rng = Game(ruleset, seed=seed), random.Random(seed)
        while not game.finished:
            game.choose(rng.randrange(len(game.decision.options)))
            decisions += 1
    return decisions


def baseline_games(seeds) -> int:
    return sum(baseline.play_random_game(seed)["decisions"] for seed in seeds)


def timed(function, *args) -> tuple[float, int]:
    start = time.perf_counter()
    decisions = function(*args)
    return time.perf_counter() - start, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    ruleset = load(ROOT / "rulesets" / "cernunos")
    best = {"engine": None, "baseline": None}
    for round_number in range(args.rounds):
        seeds = range(round_number * args.games, (round_number + 1) * args.games)
        for name, run in (("engine", lambda: engine_games(ruleset, seeds)), ("baseline", lambda: baseline_games(seeds))):
            seconds, decisions = timed(run)
            if best[name] is None or seconds < best[name][0]:
                best[name] = (seconds, decisions)
    print(f"{'implementation':<16}{'games/s':>10}{'decisions/s':>14}")
    for name, (seconds, decisions) in best.items():
        print(f"{name:<16}{args.games / seconds:>10.0f}{decisions / seconds:>14.0f}")
    ratio = best["baseline"][0] / best["engine"][0]
    print(f"ratio engine/baseline: {ratio:.2f} (games of {args.games}, best of {args.rounds} rounds each)")


if __name__ == "__main__":
    main()
