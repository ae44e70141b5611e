"""tools/fuzz.py on 40 mutated inputs (both games, every kind of file): no crash, no hang, no code run.

A bounded run of the fuzzer (about 15 s on two cores): the long runs are for the command line
(`python tools/fuzz.py --inputs 50000`, see its docstring). The tool runs as a separate process,
as on the command line, so that its run-time limits (LUDOLEX_* variables) apply before the
engine is imported.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INPUTS = 40
FAILURES = ("validation_crashes", "validation_hangs", "runtime_crashes", "runtime_hangs", "code_executions")


def test_forty_mutated_inputs_neither_crash_nor_hang_the_engine(tmp_path):
    report_file, findings = tmp_path / "report.json", tmp_path / "findings"
    command = [sys.executable, str(ROOT / "tools" / "fuzz.py"), "--inputs", str(INPUTS), "--seed", "1", "--jobs", "2",
               "--timeout", "10", "--report", str(report_file), "--findings", str(findings), "--progress", "1000"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(report_file.read_text(encoding="utf-8"))
    totals = report["totals"]
    assert totals["inputs"] == INPUTS
    tried = {(row["game"], row["kind"]) for row in report["rows"] if row["inputs"]}
    assert {("cernunos", k) for k in ("rules", "content", "manifest", "scenario")} <= tried
    assert {("root", k) for k in ("rules", "content", "manifest", "scenario", "bot")} <= tried
    assert totals["clean"] and totals["diagnostics"] and totals["games"]  # the run did validate and play
    found = {key: totals[key] for key in FAILURES if totals[key]}
    assert not found, f"{found}; reproducers in {findings}:\n{run.stdout[-4000:]}"
