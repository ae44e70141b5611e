#!/usr/bin/env python3
"""How much faster the engine could get, and where that time is: the bounds behind issue 18's figures.

    python tools/bench_headroom.py [--games 300] [--rounds 5] [--sampled-games 3000]

Three measures, each in this one run:

* **Cernunos against each hand-written baseline** (game loop, seeded random games, medians of
  interleaved rounds): today's `tools/cernunos_baseline.py` (bit masks, options counted), and, read
  from the repository's history when it has it, the one of the issue's own description (integer
  tokens, flat lists, tables built at import, option lists made: commit fd6feda) and the first one
  (ccb83d4). All play the same games as the engine (tests/test_differential.py).
* **Where the engine's time goes**, by sampling (a timer on the CPU time, the innermost Python frame;
  no profiler's overhead per call): the rules' generated code, the language's built-ins, the
  engine's own Python (state, memo, moves, triggers, decisions, Game), the rest. If the engine's
  own Python cost nothing, a game would be at most 1 / (its other shares) times as fast.
* **Components as integers**: a comprehension as the generated code writes it (count the pieces of
  a clearing with an owner and a kind) over components, and over integers with tables of kinds and
  owners, as an integer-encoded state would read them.
"""
from __future__ import annotations

import argparse
import random
import signal
import statistics
import subprocess
import sys
import time
import timeit
import types
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]

from interpreter import Game, load  # noqa: E402

import cernunos_baseline  # noqa: E402
from bench import engine_loop  # noqa: E402

OLDER_BASELINES = {"the issue's form (fd6feda)": "fd6feda", "the first (ccb83d4)": "ccb83d4"}
SAMPLE_SECONDS = 0.001  # asked for; the kernel's timer may tick less often
MIDGAME_DECISIONS = 200  # the Root game whose fullest clearing is counted


def older_baseline(commit: str):
    """The baseline as it was at `commit`, or None where the history is not there (a shallow clone)."""
    shown = subprocess.run(["git", "show", f"{commit}:tools/cernunos_baseline.py"], cwd=ROOT, capture_output=True,
                           text=True)
    if shown.returncode:
        return None
    module = types.ModuleType(f"cernunos_baseline_{commit}")
    exec(compile(shown.stdout, f"cernunos_baseline@{commit}", "exec"), module.__dict__)
    return module


def against_baselines(games: int, rounds: int) -> None:
    ruleset, seeds = load(ROOT / "rulesets" / "cernunos"), range(games)
    baselines = {"today's (bit masks)": cernunos_baseline}
    for label, commit in OLDER_BASELINES.items():
        if (module := older_baseline(commit)) is not None:
            baselines[label] = module
    runs = {label: [] for label in ["engine", *baselines]}
    for _ in range(rounds):
        start = time.perf_counter()
        engine_loop(ruleset, seeds, None)
        runs["engine"].append(time.perf_counter() - start)
        for label, module in baselines.items():
            start = time.perf_counter()
            for seed in seeds:
                module.play_random_game(seed)
            runs[label].append(time.perf_counter() - start)
    engine = statistics.median(runs["engine"])
    print(f"\nCernunos game loop, {games} games, median of {rounds} interleaved rounds")
    print(f"{'run':<40}{'ms/game':>10}{'engine speed as a ratio of it':>32}")
    for label, seconds in runs.items():
        median = statistics.median(seconds)
        print(f"{label if label == 'engine' else 'baseline: ' + label:<40}{1000 * median / games:>10.3f}"
              f"{median / engine:>32.3f}")


def part_of(filename: str) -> str:
    if filename.startswith("<rules:"):
        return "rules' generated code"
    if filename.endswith("interpreter/language/builtins.py"):
        return "language built-ins"
    if "/interpreter/" in filename:
        return "engine's own Python"
    return "other (random, the library)"


def shares(label: str, run) -> None:
    samples: Counter = Counter()

    def sample(_signal, frame):
        samples[part_of(frame.f_code.co_filename)] += 1

    previous = signal.signal(signal.SIGPROF, sample)
    signal.setitimer(signal.ITIMER_PROF, SAMPLE_SECONDS, SAMPLE_SECONDS)
    try:
        run()
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, previous)
    total = sum(samples.values())
    engine = samples["engine's own Python"] / total
    parts = ", ".join(f"{part} {100 * n / total:.0f}%" for part, n in samples.most_common())
    print(f"{label}: {parts} ({total} samples); with the engine's own Python free, at most {1 / (1 - engine):.2f}x")


def where_the_time_goes(games: int) -> None:
    print("\nWhere the game loop's time goes (sampled)")
    cernunos, root = load(ROOT / "rulesets" / "cernunos"), load(ROOT / "rulesets" / "root")
    shares("Cernunos", lambda: engine_loop(cernunos, range(games), None))
    shares("Root, 2 players", lambda: engine_loop(root, range(games // 15), ["marquise", "eyrie"]))
    shares("Root, 4 players", lambda: engine_loop(root, range(games // 40),
                                                  ["marquise", "eyrie", "alliance", "vagabond"]))


def components_as_integers() -> None:
    game, rng = Game(load(ROOT / "rulesets" / "root"), seed=1, players=["marquise", "eyrie"]), random.Random(1)
    for _ in range(MIDGAME_DECISIONS):
        game.choose(rng.randrange(len(game.decision.options)))
    zones = game.state.zones
    clearing = max((zone for zone in game.runtime.board.locations), key=lambda zone: len(zones[zone]))
    pieces = zones[clearing]
    kinds, owners = sorted({c.kind for c in pieces}), sorted({str(c.owner) for c in pieces})
    kind_of = [kinds.index(c.kind) for c in pieces]
    owner_of = [owners.index(str(c.owner)) for c in pieces]
    names = {"pieces": pieces, "numbers": list(range(len(pieces))), "KIND": kind_of, "OWNER": owner_of,
             "kind": pieces[0].kind, "owner": pieces[0].owner, "k": kind_of[0], "o": owner_of[0]}
    tests = {"components (today)": "len([0 for x in pieces if x.owner == owner and x.kind == kind])",
             "integers with tables": "len([0 for x in numbers if OWNER[x] == o and KIND[x] == k])"}
    print(f"\nComponents as integers: a count over the {len(pieces)} pieces of {clearing}, best of 5")
    for label, code in tests.items():
        best = min(timeit.repeat(code, globals=names, number=200_000, repeat=5)) / 200_000
        print(f"{label:<24}{best * 1e9:>8.0f} ns")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="Cernunos games of each round.")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sampled-games", type=int, default=3000,
                        help="Cernunos games sampled (Root: a fifteenth of it with 2 players, a fortieth with 4).")
    args = parser.parse_args()
    against_baselines(args.games, args.rounds)
    where_the_time_goes(args.sampled_games)
    components_as_integers()


if __name__ == "__main__":
    main()
