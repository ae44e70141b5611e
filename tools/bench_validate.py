#!/usr/bin/env python3
"""How long `ludolex validate` takes on each ruleset of the repo (the largest first).

Two figures per ruleset: the whole command as a user runs it (a new Python process: start-up,
imports, grammar, checks) and the checks alone in a warm process (best of several runs).

    python tools/bench_validate.py [--runs 5]
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.validation.validate import ruleset_folders, validate_ruleset  # noqa: E402


def size(folder: Path) -> int:
    """Bytes of the ruleset's own files and its content."""
    from interpreter.loading.stages import load_ruleset

    ruleset = load_ruleset(folder)
    files = list(folder.rglob("*.rules")) + list(folder.rglob("*.yaml")) + ruleset.content.files
    return sum(f.stat().st_size for f in set(files))


def best(runs: int, action) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    folders = sorted(ruleset_folders(ROOT / "rulesets"), key=size, reverse=True)
    command = [sys.executable, "-m", "interpreter", "validate"]
    print(f"{'ruleset':<14}{'bytes':>8}{'command (s)':>14}{'checks only (s)':>18}")
    for folder in folders:
        whole = best(args.runs, lambda: subprocess.run(command + [str(folder)], check=True, capture_output=True, cwd=ROOT))
        warm = best(args.runs, lambda: validate_ruleset(folder))
        print(f"{folder.name:<14}{size(folder):>8}{whole:>14.3f}{warm:>18.3f}")


if __name__ == "__main__":
    main()
