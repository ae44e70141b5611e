#!/usr/bin/env python3
"""Simulation speed of every game in the repo, against the hand-written baseline where there is one.

    python tools/bench.py [--game cernunos] [--games 300] [--rounds 5] [--command-games 1000] [--jobs 2]
    python tools/bench.py --memory [--game cernunos]

For each game, in the same run, rounds interleaved so that a busy machine slows every row alike
(each figure is the median over the rounds):

* the game loop: seeded random games played in this process, by the hand-written baseline
  (tools/<game>_baseline.py) and by the engine (`Game` + `random.Random(seed).randrange`: the same
  decisions as the baseline, tests/test_differential.py checks it); then the engine playing the
  same seeds as `simulate` does (bots, seating that turns, records, score curves), in 1 process
  and with --jobs; and random games in playout mode (`Game.play_out`: each `choose` draws its
  option without making the list; other draws than the game loop's, so other games), whose gain
  over the game loop is the speed-up a search bot's random playouts get;
* the whole command, in a child process: `ludolex simulate GAME --games N --jobs 1` into a new
  database against the baseline's own process on N games, with each process's peak memory.

Every row gives ms per game, decisions per second (in this process), peak memory (of a child
process), and its speed as a ratio to the baseline's (baseline time / row time: 1.0 is as fast,
0.5 half as fast). --players N seats the first N players (Root with 4), without the baseline.
--memory instead gives the peak memory of `ludolex simulate GAME --jobs 1` at 1,000 and at 10,000
games, and their ratio: about 1.0, as the report reads the games one at a time.
"""
from __future__ import annotations

import argparse
import importlib
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]

from interpreter import Game, load  # noqa: E402
from interpreter.simulation.local import run_local  # noqa: E402
from interpreter.simulation.runner import Table  # noqa: E402
from interpreter.validation.validate import ruleset_folders  # noqa: E402

LUDOLEX = Path(sys.executable).with_name("ludolex")
MEMORY_GAMES = (1000, 10000)  # --memory: the numbers of games whose peaks are compared


def engine_loop(ruleset, seeds, players) -> int:
    """Random games through the engine's public API; the decisions made."""
    decisions = 0
    for seed in seeds:
        game, rng = Game(ruleset, seed=seed, players=players), random.Random(seed)
        while not game.finished:
            game.choose(rng.randrange(len(game.decision.options)))
            decisions += 1
    return decisions


def engine_playout(ruleset, seeds, players) -> int:
    """Random games in playout mode (`Game.play_out`: no list of options made); the decisions made."""
    decisions = 0
    for seed in seeds:
        game = Game(ruleset, seed=seed, players=players)
        game.play_out(random.Random(seed))
        decisions += game.runtime.decisions
    return decisions


def baseline_loop(module, seeds) -> int:
    return sum(module.play_random_game(seed)["decisions"] for seed in seeds)


def engine_records(ruleset, seeds, players, jobs: int) -> int:
    return sum(r["decisions"] for r in run_local(ruleset, seeds, Table(players=players), jobs))


def timed(function, *args) -> tuple[float, int | None, float | None]:
    """(seconds, decisions, peak MiB: None, shared by everything this process does)."""
    start = time.perf_counter()
    decisions = function(*args)
    return time.perf_counter() - start, decisions, None


# A child's peak memory (ru_maxrss) counts the memory of the process that forked it, up to its exec:
# children are started from this small process, so that what this one holds is not counted.
MEASURE = """import os, subprocess, sys, time
start = time.perf_counter()
process = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
stderr = process.stderr.read()
_, status, usage = os.wait4(process.pid, 0)
print(time.perf_counter() - start, os.waitstatus_to_exitcode(status), usage.ru_maxrss)
sys.stderr.buffer.write(stderr[-500:])
"""


def child(command: list) -> tuple[float, None, float]:
    """(wall seconds, decisions: unknown, peak resident memory in MiB) of a command in a child process."""
    done = subprocess.run([sys.executable, "-c", MEASURE, *map(str, command)], cwd=ROOT, capture_output=True,
                          text=True)
    seconds, status, peak = done.stdout.split()
    if int(status):
        sys.exit(f"{' '.join(map(str, command))} failed ({status}): {done.stderr}")
    return float(seconds), None, int(peak) / 1024  # Linux: KiB


@dataclass
class Row:
    label: str
    games: int
    measure: Callable[[], tuple[float, int | None, float | None]]
    against: str | None  # the label of the baseline row it is compared with (None: the game has no baseline)
    runs: list = field(default_factory=list)

    def median(self, index: int) -> float | None:
        values = [run[index] for run in self.runs]
        return None if values[0] is None else statistics.median(values)


def rows_of(folder: Path, args, scratch: Path) -> list[Row]:
    ruleset = load(folder)
    players = list(ruleset.program.players[:args.players]) if args.players else None
    seeds, n = range(args.games), args.command_games or args.games
    try:
        baseline = None if players else importlib.import_module(f"{folder.name}_baseline")
    except ImportError:
        baseline = None
    loop, process = ("baseline, game loop", "baseline, whole process") if baseline else (None, None)
    databases = (scratch / f"{folder.name}-{i}.sqlite" for i in count())
    rows = [Row(loop, args.games, lambda: timed(baseline_loop, baseline, seeds), loop)] if baseline else []
    rows += [Row("engine, game loop", args.games, lambda: timed(engine_loop, ruleset, seeds, players), loop),
             Row("engine, playout mode", args.games, lambda: timed(engine_playout, ruleset, seeds, players), loop),
             Row("engine, records, 1 process", args.games,
                 lambda: timed(engine_records, ruleset, seeds, players, 1), loop),
             Row(f"engine, records, --jobs {args.jobs}", args.games,
                 lambda: timed(engine_records, ruleset, seeds, players, args.jobs), loop)]
    if baseline:
        rows.append(Row(process, n, lambda: child([sys.executable, ROOT / "tools" / f"{folder.name}_baseline.py",
                                                   "--games", n]), process))
    rows.append(Row("ludolex simulate --jobs 1", n, lambda: child(
        [LUDOLEX, "simulate", folder, "--games", n, "--jobs", 1, "--db", next(databases)]
        + (["--players", args.players] if players else [])), process))
    return rows


def bench(folder: Path, args, scratch: Path) -> None:
    rows = rows_of(folder, args, scratch)
    for _ in range(args.rounds):
        for row in rows:
            row.runs.append(row.measure())
    per_game = {row.label: row.median(0) / row.games for row in rows}
    players = f", {args.players} players" if args.players else ""
    print(f"\n{folder.name}{players}: game loop {args.games} games, whole process {args.command_games or args.games}"
          f" games; median of {args.rounds} interleaved rounds")
    print(f"{'run':<34}{'games':>7}{'ms/game':>10}{'decisions/s':>13}{'peak MiB':>10}{'vs baseline':>13}")
    for row in rows:
        seconds, decisions, peak = row.median(0), row.median(1), row.median(2)
        ratio = f"{per_game[row.against] / per_game[row.label]:.2f}" if row.against else "-"
        print(f"{row.label:<34}{row.games:>7}{1000 * seconds / row.games:>10.2f}"
              f"{'-' if decisions is None else f'{decisions / seconds:.0f}':>13}"
              f"{'-' if peak is None else f'{peak:.1f}':>10}{ratio:>13}")
    single, parallel = (per_game[f"engine, records, {jobs}"] for jobs in ("1 process", f"--jobs {args.jobs}"))
    print(f"speed-up of --jobs {args.jobs} over 1 process: {single / parallel:.2f}x")
    rates = {row.label: row.median(1) / row.median(0) for row in rows if row.label.startswith("engine, ")}
    print(f"speed-up of playout mode over the game loop, in decisions per second (its random games are "
          f"others, of other lengths): {rates['engine, playout mode'] / rates['engine, game loop']:.2f}x")


def memory(folder: Path, scratch: Path) -> None:
    """The whole command's peak memory at each of MEMORY_GAMES games, into new databases, and their ratio."""
    peaks = [child([LUDOLEX, "simulate", folder, "--games", n, "--jobs", 1, "--db",
                    scratch / f"{folder.name}-{n}.sqlite"])[2] for n in MEMORY_GAMES]
    shown = ", ".join(f"{peak:.1f} MiB at {n} games" for n, peak in zip(MEMORY_GAMES, peaks))
    print(f"{folder.name}: peak memory of `ludolex simulate --jobs 1`: {shown}; ratio {peaks[-1] / peaks[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="Only this game (repeatable).")
    parser.add_argument("--games", type=int, default=300, help="Games of each round of the game loop.")
    parser.add_argument("--command-games", type=int, default=None,
                        help="Games of each whole-process run [default: --games].")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--players", type=int, default=None,
                        help="Seat the first N players (no baseline rows: the baselines play the default table).")
    parser.add_argument("--memory", action="store_true",
                        help=f"Only the whole command's peak memory at {' and '.join(map(str, MEMORY_GAMES))} games.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ludolex-bench-") as scratch:
        for folder in ruleset_folders(ROOT / "rulesets"):
            if not args.game or folder.name in args.game:
                if args.memory:
                    memory(folder, Path(scratch))
                else:
                    bench(folder, args, Path(scratch))


if __name__ == "__main__":
    main()
