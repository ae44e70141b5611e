#!/usr/bin/env python3
"""How long `validate`'s text output takes for many diagnostics in one large file, against its JSON
output of the same diagnostics in the same run (which quotes no source line).

    python tools/bench_diagnostics.py [--diagnostics 20000] [--kilobytes 880] [--tree PATH]

--tree PATH measures the engine of another checkout (an earlier commit in a worktree), so that a
change is quoted as the ratio text / JSON before and after.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--diagnostics", type=int, default=20_000)
    parser.add_argument("--kilobytes", type=int, default=880, help="size of the file the diagnostics are in")
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    sys.path.insert(0, str(args.tree.resolve()))
    from interpreter.diagnostics.diagnostic import Diagnostic, Position, remember_text
    from interpreter.diagnostics.formats import render

    line = "    let unused_value = count(x in pieces(supply(you)) where x.kind = stone)\n"
    lines = args.kilobytes * 1000 // len(line)
    file = str(Path("bench.rules").resolve())
    remember_text(file, line * lines)
    rng = random.Random(1)
    diagnostics = [Diagnostic("LX325", "never used", Position(file, rng.randint(1, lines), 9, 12))
                   for _ in range(args.diagnostics)]
    seconds = {}
    for fmt in ("json", "text"):
        started = time.process_time()
        render(diagnostics, fmt)
        seconds[fmt] = time.process_time() - started
    print(f"{args.diagnostics:,} diagnostics in a file of {lines:,} lines ({args.kilobytes:,} KB), engine of {args.tree}:")
    print(f"  json: {seconds['json']:.2f} CPU s; text: {seconds['text']:.2f} CPU s; "
          f"ratio text / json: {seconds['text'] / max(seconds['json'], 1e-9):.2f}")


if __name__ == "__main__":
    main()
