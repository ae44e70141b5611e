#!/usr/bin/env python3
"""Simulation speed of every game in the repo, in one run: games/s and decisions/s in one process
and with --jobs, next to the hand-written baseline (tools/<game>_baseline.py) where there is one.

    python tools/bench.py [--games 400] [--jobs 2] [--game root]

Decisions/s is the figure to compare across games (a Root game is far longer than a Cernunos
one); each game's rows are measured in the same run, the first row being the reference.
"""
from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]

from interpreter.simulation.runner import Table  # noqa: E402
from interpreter.simulation.local import run_local  # noqa: E402
from interpreter.validation.validate import ruleset_folders  # noqa: E402


def engine(folder: Path, games: int, jobs: int) -> tuple[float, int]:
    start = time.perf_counter()
    decisions = sum(r["decisions"] for r in run_local(folder, range(games), Table(), jobs))
    return time.perf_counter() - start, decisions


def baseline(name: str, games: int) -> tuple[float, int] | None:
    try:
        module = importlib.import_module(f"{name}_baseline")
    except ImportError:
        return None
    start = time.perf_counter()
    decisions = sum(module.play_random_game(seed)["decisions"] for seed in range(games))
    return time.perf_counter() - start, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--game", action="append", help="Only this game (repeatable).")
    args = parser.parse_args()
    print(f"{'game':<18}{'run':<24}{'games/s':>9}{'ms/game':>9}{'decisions/s':>13}{'vs first row':>14}")
    for folder in ruleset_folders(ROOT / "rulesets"):
        if args.game and folder.name not in args.game:
            continue
        rows = [("hand-written baseline", baseline(folder.name, args.games)),
                ("engine, 1 process", engine(folder, args.games, 1)),
                (f"engine, --jobs {args.jobs}", engine(folder, args.games, args.jobs))]
        reference = rows[0][1]
        for label, measured in rows:
            if measured is None:
                continue
            seconds, decisions = measured
            reference = reference or measured
            ratio = f"{reference[0] / seconds:.2f}x"
            print(f"{folder.name:<18}{label:<24}{args.games / seconds:>9.0f}{1000 * seconds / args.games:>9.1f}"
                  f"{decisions / seconds:>13.0f}{ratio:>14}")
        single, parallel = rows[1][1][0], rows[2][1][0]
        print(f"{'':<18}speed-up of --jobs {args.jobs} over 1 process: {single / parallel:.2f}x")


if __name__ == "__main__":
    main()
