#!/usr/bin/env python3
"""Issue 33: the WebAssembly backend against the generated Python backend, game by game. Seeded random
games of a game at a table, each played on both, decision for decision: the same decision, player and
options (every component shown by its id), then the same result, or the same error.

    python tools/differential.py root --games 1000 --players marquise,eyrie,alliance,vagabond
    python tools/differential.py cernunos --games 1000

Prints the games that went apart (seed, decision, what each side asked) and a summary line.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import Game, load
from interpreter.backends.errors import NotCompiled
from interpreter.backends.wasm.program import WasmGame, WasmProgram
from interpreter.diagnostics.errors import RuleRuntimeError
from interpreter.engine.decisions import EVERYTHING


def compare(ruleset, rules, seed: int, players) -> str | None:
    """None if the game of `seed` is the same on both backends, else where they went apart."""
    rng = random.Random(seed)
    try:
        python = Game(ruleset, seed=seed, players=players)
    except (RuleRuntimeError, ValueError) as error:
        python = error
    try:
        wasm = WasmGame(rules, seed, players)
    except (RuleRuntimeError, ValueError) as error:
        wasm = error
    step = 0
    while True:
        if isinstance(python, Exception) or isinstance(wasm, Exception):
            same = type(python) is type(wasm) and str(python) == str(wasm)
            return None if same else f"decision {step}: Python {python!r:.200} / module {wasm!r:.200}"
        if python.finished or wasm.finished:
            if python.finished and wasm.finished and vars(python.result) == vars(wasm.result):
                return None
            return f"the end: Python {python.result} / module {wasm.result or wasm.decision}"
        asked = (python.decision.name, python.decision.player, python.decision.labels(EVERYTHING))
        offered = (wasm.decision.name, wasm.decision.player, wasm.decision.labels())
        if asked != offered:
            return f"decision {step}: Python {asked!r:.300} / module {offered!r:.300}"
        index = rng.randrange(len(python.decision.options))
        for side in (python, wasm):
            try:
                side.choose(index)
            except (RuleRuntimeError, ValueError) as error:
                if side is python:
                    python = error
                else:
                    wasm = error
        step += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    parser.add_argument("--players", help="the table, in seating order (default: the game's)")
    args = parser.parse_args()
    ruleset = load(f"rulesets/{args.game}")
    players = args.players.split(",") if args.players else None
    try:
        rules = WasmProgram(ruleset, players).compile()
    except NotCompiled as error:
        sys.exit(f"{args.game}: {error}")
    start, apart = time.time(), 0
    for seed in range(args.first, args.first + args.games):
        found = compare(ruleset, rules, seed, players)
        if found is not None:
            apart += 1
            print(f"seed {seed}: {found}", flush=True)
    table = ",".join(players or ruleset.program.table)
    print(f"{args.game} [{table}]: {args.games} games (seeds {args.first}..{args.first + args.games - 1}), "
          f"{args.games - apart} the same on both backends, {apart} apart; {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
