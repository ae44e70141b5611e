#!/usr/bin/env python3
"""Decisions per second of random games, this tree against an earlier commit, side by side.

    python tools/bench_commits.py COMMIT [--rounds 3]

The commit is checked out in a temporary git worktree. Each tree plays in its own child process,
with PYTHONPATH set to it, rounds interleaved so that a busy machine slows both alike; each figure
is the median over the rounds. The games are seeded random games through `Game` (the same as
tools/bench.py's game loop): 300 of Cernunos, 40 of Root with 2 players, 12 with 4. How issue 18's
figures are measured against its start (`python tools/bench_commits.py fd6feda^`).
"""
from __future__ import annotations

import argparse
import inspect
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tools")]

from bench import engine_loop  # noqa: E402

WORKLOADS = [("cernunos", 300, None), ("root", 40, "marquise,eyrie"), ("root", 12, "marquise,eyrie,alliance,vagabond")]

# Run in the child, from the tree on its PYTHONPATH: tools/bench.py's game loop (its source), then
# the decisions per second it made.
PLAY = """import random, sys, time
from interpreter import Game, load
{engine_loop}
ruleset = load(sys.argv[1])
players = sys.argv[3].split(",") if len(sys.argv) > 3 else None
engine_loop(ruleset, range(2), players)
start = time.perf_counter()
decisions = engine_loop(ruleset, range(int(sys.argv[2])), players)
print(decisions / (time.perf_counter() - start))
""".format(engine_loop=inspect.getsource(engine_loop))


def rate(tree: Path, game: str, games: int, players: str | None) -> float:
    command = [sys.executable, "-c", PLAY, str(tree / "rulesets" / game), str(games)] + ([players] if players else [])
    done = subprocess.run(command, cwd=tempfile.gettempdir(), env={"PYTHONPATH": str(tree)}, capture_output=True,
                          text=True)
    if done.returncode:
        sys.exit(f"{tree}: {done.stderr[-500:]}")
    return float(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("commit")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ludolex-commit-") as scratch:
        earlier = Path(scratch) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(earlier), args.commit], cwd=ROOT, check=True)
        try:
            runs = {(tree, workload): [] for tree in (earlier, ROOT) for workload in WORKLOADS}
            for _ in range(args.rounds):
                for tree, workload in runs:
                    runs[tree, workload].append(rate(tree, *workload))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(earlier)], cwd=ROOT, check=True)
    print(f"decisions/s, median of {args.rounds} interleaved rounds")
    print(f"{'game':<34}{args.commit:>14}{'this tree':>14}{'ratio':>8}")
    for workload in WORKLOADS:
        game, games, players = workload
        before, after = (statistics.median(runs[tree, workload]) for tree in (earlier, ROOT))
        label = f"{game}, {games} games" + (f", {players.count(',') + 1} players" if players else "")
        print(f"{label:<34}{before:>14,.0f}{after:>14,.0f}{after / before:>8.2f}")


if __name__ == "__main__":
    main()
