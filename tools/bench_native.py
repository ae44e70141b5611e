#!/usr/bin/env python3
"""Issue 33: Cernunos on the WebAssembly backend against the generated Python backend and the
hand-written baseline, in one run; and the cost of copying a game in each.

    pip install -e '.[native]'     # wasmtime: a wheel, nothing compiled
    python tools/bench_native.py --games 500 --rounds 3

Games: the same seeds on each side, every decision drawn as `random.Random(seed).randrange` draws it
(they play the same games: tests/test_wasm_backend.py), in CPU seconds, rounds interleaved (A B C,
A B C...), the median round. "Inside the module" plays the games in a loop of the module's own
(`play_many`); "a call per game" starts and plays each from Python on one instance.

Copies: a game at its decision `--at`; the generated backend copies by replaying the choices so far
(Game.clone), the WebAssembly backend copies its memory into another game's instance
(WasmGame.copy(into=...)), each measured against one of its decisions.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cernunos_baseline as baseline

from interpreter import Game, load
from interpreter.backends.wasm.program import WasmGame, WasmProgram


def baseline_games(seeds):
    for seed in seeds:
        baseline.play_game(seed)


def engine_games(ruleset, seeds):
    for seed in seeds:
        game, rng = Game(ruleset, seed=seed), random.Random(seed)
        while not game.finished:
            game.choose(rng.randrange(len(game.decision.options)))


def wasm_games(game, seeds):
    for seed in seeds:
        game.restart(seed)
        game.play_random()


def wasm_games_inside(game, seeds):
    game.exports["play_many"](game.store, seeds.start, len(seeds))


def cpu(function, *args) -> float:
    start = time.process_time()
    function(*args)
    return time.process_time() - start


def copies(ruleset, rules, at: int) -> dict:
    """Seconds to copy a game at decision `at`, and of one decision, on each backend."""
    game, rng, wasm = Game(ruleset, seed=1), random.Random(1), WasmGame(rules, seed=1)
    for _ in range(at):
        index = rng.randrange(len(game.decision.options))
        game.choose(index)
        wasm.choose(index)
    assert wasm.decision.labels() == game.decision.labels(), "the backends went apart"
    clone = statistics.median(cpu(game.clone) for _ in range(30))
    scratch = WasmGame(rules, seed=2)
    copy = statistics.median(cpu(lambda: [wasm.copy(into=scratch) for _ in range(1000)]) / 1000 for _ in range(5))
    seeds = range(1000, 1100)
    decisions = sum(_decisions(Game(ruleset, seed=s)) for s in seeds)
    return {"clone": clone, "copy": copy, "python_decision": cpu(engine_games, ruleset, seeds) / decisions,
            "wasm_decision": cpu(wasm_games_inside, WasmGame(rules, seed=0), seeds) / decisions}


def _decisions(game) -> int:
    rng, count = random.Random(game.seed), 0
    while not game.finished:
        game.choose(rng.randrange(len(game.decision.options)))
        count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--at", type=int, default=30, help="the decision at which a game is copied")
    args = parser.parse_args()
    ruleset = load("rulesets/cernunos")
    rules = WasmProgram(ruleset).compile()
    player = WasmGame(rules, seed=0)
    seeds = range(args.games)
    sides = {"hand-written baseline (Python)": lambda: baseline_games(seeds),
             "generated Python backend": lambda: engine_games(ruleset, seeds),
             "WebAssembly backend, a call per game": lambda: wasm_games(player, seeds),
             "WebAssembly backend, inside the module": lambda: wasm_games_inside(player, seeds)}
    times: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(args.rounds):
        for name, run in sides.items():
            times[name].append(cpu(run))
    base = statistics.median(times["hand-written baseline (Python)"])
    width = max(map(len, times))
    print(f"Cernunos, {args.games} random games, CPU seconds, median of {args.rounds} interleaved rounds")
    print(f"{'':{width}} {'games/s':>9} {'x baseline':>11}")
    for name, measured in times.items():
        median = statistics.median(measured)
        print(f"{name:{width}} {args.games / median:9.0f} {base / median:11.2f}")
    found = copies(ruleset, rules, args.at)
    print(f"\nA copy of a game at its decision {args.at} (seed 1):")
    print(f"  generated Python backend, replayed (Game.clone): {found['clone'] * 1e6:9.1f} µs"
          f" = {found['clone'] / found['python_decision']:6.1f} of its decisions")
    print(f"  WebAssembly, its memory copied (copy(into=)):    {found['copy'] * 1e6:9.1f} µs"
          f" = {found['copy'] / found['wasm_decision']:6.1f} of its decisions")


if __name__ == "__main__":
    main()
