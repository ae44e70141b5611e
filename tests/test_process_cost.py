"""What a command costs its process beyond its work: the libraries it imports, the times it loads
the ruleset. Heavy libraries stay out of the commands that do not use them (statistics are pure
Python; networkx is imported where a board is built)."""
import os
import sys
from pathlib import Path

import processes
from click.testing import CliRunner

from interpreter.interfaces.cli import main
from interpreter.loading import stages

ROOT = Path(__file__).resolve().parent.parent
LUDOLEX = Path(sys.executable).with_name("ludolex")
HEAVY = {"numpy", "scipy", "matplotlib"}


def imported_by(*args) -> set[str]:
    """Every module the real `ludolex ARGS...` imports, from Python's own import log (-X importtime)."""
    done = processes.run([LUDOLEX, *map(str, args)], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1"})
    assert done.returncode == 0, done.stderr[-2000:]
    return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}


def packages(modules: set[str]) -> set[str]:
    return {module.split(".")[0] for module in modules}


def test_simulate_report_and_compare_import_neither_numpy_nor_scipy(tmp_path):
    db = tmp_path / "r.sqlite"
    simulated = imported_by("simulate", "cernunos", "--games", "5", "--jobs", "1", "--db", db)
    assert "interpreter.reports.stats" in simulated  # the closing summary's statistics were computed
    assert not packages(simulated) & HEAVY
    assert not packages(imported_by("report", db)) & HEAVY
    compared = imported_by("compare", "cernunos", "cernunos", "--games", "3", "--jobs", "1", "--db", db)
    assert "interpreter.reports.paired" in compared and not packages(compared) & HEAVY


def test_commands_that_build_no_board_do_not_import_networkx(tmp_path):
    db = tmp_path / "r.sqlite"
    assert "networkx" in packages(imported_by("simulate", "cernunos", "--games", "2", "--jobs", "1", "--db", db))
    for args in (["report", db], ["runs", db], ["--help"]):
        assert "networkx" not in packages(imported_by(*args)), args


def test_simulate_in_one_process_loads_the_ruleset_once(tmp_path, monkeypatch):
    loads = []

    def counted(name_or_path, backend=None):
        loads.append(name_or_path)
        return run_stages(name_or_path, backend)

    run_stages = stages.run_stages
    monkeypatch.setattr(stages, "run_stages", counted)
    result = CliRunner().invoke(main, ["simulate", "cernunos", "--games", "3", "--jobs", "1", "--db",
                                       str(tmp_path / "r.sqlite")])
    assert result.exit_code == 0, result.output
    assert loads == ["cernunos"]
