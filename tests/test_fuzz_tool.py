"""tools/fuzz.py on 32 inputs: every game's file kinds, `serve` requests and `lsp` messages; no
crash, hang, code run, file read outside, or leak.

A bounded run of the fuzzer (well under a minute on two idle cores): the long runs are for the
command line (`python tools/fuzz.py --inputs 50000`, see its docstring). The first inputs of the
fuzzer's schedule take each (game, file kind), then `serve` and `lsp` on each game, once. The tool
runs as a separate process, as on the command line, so that its run-time limits (LUDOLEX_*
variables) apply before the engine is imported.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import processes

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from fuzz_mutations import shipped_games  # noqa: E402

INPUTS = 32
COLUMNS = {  # the report's key -> the table's header
    "inputs": "inputs", "clean": "clean", "diagnostics": "diagn", "validation_crashes": "v.crash",
    "validation_hangs": "v.hang", "games": "games", "finished": "finish", "game_errors": "g.err",
    "limit_stops": "limit", "scenarios": "scen", "requests": "reqs", "runtime_crashes": "r.crash",
    "runtime_hangs": "r.hang", "code_executions": "code", "file_accesses": "files", "leaks": "leaks",
    "checker_gaps": "gaps", "payloads": "payld",
}
FAILURES = ("validation_crashes", "validation_hangs", "runtime_crashes", "runtime_hangs", "code_executions",
            "file_accesses", "leaks")


def test_every_game_and_both_servers_neither_crash_nor_hang_nor_leak(tmp_path):
    report_file, findings = tmp_path / "report.json", tmp_path / "findings"
    command = [sys.executable, str(ROOT / "tools" / "fuzz.py"), "--inputs", str(INPUTS), "--seed", "1", "--jobs", "2",
               "--timeout", "10", "--report", str(report_file), "--findings", str(findings), "--progress", "1000"]
    run = processes.run(command, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(report_file.read_text(encoding="utf-8"))
    totals = report["totals"]

    header = run.stdout.splitlines()[0].split()
    assert set(COLUMNS.values()) <= set(header), header
    assert set(COLUMNS) <= set(totals) and all(set(COLUMNS) <= set(row) for row in report["rows"])

    assert totals["inputs"] == INPUTS
    tried = {(row["game"], row["kind"]) for row in report["rows"] if row["inputs"]}
    games = shipped_games()
    assert {"cernunos", "root", "wonderlands_war", "seventh_citadel"} <= set(games)
    assert {(game, "all") for game in games} <= tried, "a game of rulesets/ was not fuzzed"
    assert ("serve", "all") in tried and ("lsp", "all") in tried
    rows = {(row["game"], row["kind"]): row for row in report["rows"]}
    assert rows[("serve", "all")]["requests"] and rows[("lsp", "all")]["requests"]
    assert totals["clean"] and totals["diagnostics"] and totals["games"]  # the run did validate and play

    found = {key: totals[key] for key in FAILURES if totals[key]}
    assert not found, f"{found}; reproducers in {findings}:\n{run.stdout[-4000:]}"
