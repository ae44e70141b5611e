#!/usr/bin/env python3
"""Issue 33: Root (the four base factions) on the WebAssembly backend against the generated Python
backend, in one run; and the cost of copying a game at its decision `--at`.

    pip install -e '.[native]'
    python tools/bench_native_root.py --games 20 --rounds 3 --at 400

Games: what `simulate` plays, `runner.play_one` with random bots, the same seeds on each side (the
same games and records: tests/test_wasm_backend.py), in CPU seconds, rounds interleaved, the median
round; the module compiled beforehand. Copies: the game of seed 1 at its decision `--at`, copied by
replaying its choices (Game.clone) or by copying the module's memory (WasmGame.copy(into=...)), each
against one decision of its own backend.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import Game, load
from interpreter.backends.native import native_rules
from interpreter.backends.wasm.program import WasmGame
from interpreter.simulation.runner import Table, play_one


def cpu(function, *args) -> float:
    start = time.process_time()
    function(*args)
    return time.process_time() - start


def games(ruleset, seeds, native: bool) -> int:
    """The decisions of the games, played as `simulate` plays them."""
    os.environ["LUDOLEX_NATIVE"] = "1" if native else "0"
    try:
        return sum(play_one(ruleset, seed, Table())["decisions"] for seed in seeds)
    finally:
        del os.environ["LUDOLEX_NATIVE"]


def copies(ruleset, at: int) -> dict:
    players = list(ruleset.program.table)
    game, rng = Game(ruleset, seed=1), random.Random(1)
    wasm = WasmGame(native_rules(ruleset, players), seed=1, players=players)
    for _ in range(at):
        index = rng.randrange(len(game.decision.options))
        game.choose(index)
        wasm.choose(index)
    assert (wasm.decision.name, wasm.decision.player) == (game.decision.name, game.decision.player)
    clone = statistics.median(cpu(game.clone) for _ in range(5))
    scratch = WasmGame(wasm.rules, seed=2, players=players)
    copy = statistics.median(cpu(lambda: [wasm.copy(into=scratch) for _ in range(1000)]) / 1000 for _ in range(5))
    return {"clone": clone, "copy": copy}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--at", type=int, default=400, help="the decision at which a game is copied")
    args = parser.parse_args()
    ruleset = load("rulesets/root")
    if native_rules(ruleset, list(ruleset.program.table)) is None:
        sys.exit("the native backend is not available here (pip install -e '.[native]')")
    seeds = range(args.games)
    times: dict[str, list[float]] = {"generated Python backend": [], "WebAssembly backend": []}
    decisions = {}
    for _ in range(args.rounds):
        for name, native in (("generated Python backend", False), ("WebAssembly backend", True)):
            start = time.process_time()
            decisions[name] = games(ruleset, seeds, native)
            times[name].append(time.process_time() - start)
    assert decisions["generated Python backend"] == decisions["WebAssembly backend"], "the backends played apart"
    python = statistics.median(times["generated Python backend"])
    print(f"Root, 4 players, {args.games} games of random bots (runner.play_one), CPU seconds, median of "
          f"{args.rounds} interleaved rounds")
    print(f"{'':26} {'games/s':>9} {'decisions/s':>12} {'x Python':>9}")
    for name, measured in times.items():
        median = statistics.median(measured)
        print(f"{name:26} {args.games / median:9.2f} {decisions[name] / median:12.0f} {python / median:9.1f}")
    found = copies(ruleset, args.at)
    per_decision = {name: statistics.median(measured) / decisions[name] for name, measured in times.items()}
    print(f"\nA copy of the game of seed 1 at its decision {args.at}:")
    print(f"  generated Python backend, replayed (Game.clone): {found['clone'] * 1e6:10.1f} µs"
          f" = {found['clone'] / per_decision['generated Python backend']:7.1f} of its decisions")
    print(f"  WebAssembly, its memory copied (copy(into=)):    {found['copy'] * 1e6:10.1f} µs"
          f" = {found['copy'] / per_decision['WebAssembly backend']:7.1f} of its decisions")


if __name__ == "__main__":
    main()
