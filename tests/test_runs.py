"""One database, several runs: `simulate --run NAME`, `ludolex runs DB`, and `report` and `replay`
choosing a run by its name, bots, players or version, through the real command line."""
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from interpreter.interfaces.cli import main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def two_runs(db: Path) -> None:
    first = run("simulate", "cernunos", "--games", 6, "--jobs", 1, "--db", db)
    assert first.exit_code == 0, first.output
    assert "run `random seats=rotating`" in first.output  # the default name: the run's key
    second = run("simulate", "cernunos", "--games", 4, "--jobs", 1, "--db", db, "--bots", "random,search:4",
                 "--run", "against search")
    assert second.exit_code == 0, second.output
    assert "run `against search`: 0 game(s) already" in second.output


def test_runs_lists_every_run_of_a_database(tmp_path):
    db = tmp_path / "r.sqlite"
    two_runs(db)
    listed = run("runs", db)
    assert listed.exit_code == 0, listed.output
    lines = [line for line in listed.output.splitlines() if "cernunos" in line]
    assert len(lines) == 2
    assert "random seats=rotating" in lines[0] and "green, purple" in lines[0] and " 6 " in lines[0]
    assert "against search" in lines[1] and "random,search:4" in lines[1] and " 4 " in lines[1]
    assert run("runs", tmp_path / "none.sqlite").exit_code == 2


def test_report_and_replay_choose_a_run_and_never_mix_them(tmp_path):
    db = tmp_path / "r.sqlite"
    two_runs(db)
    unchosen = run("report", db)
    assert unchosen.exit_code == 2
    assert "holds 2 runs: choose one with --run NAME" in unchosen.output
    assert "`random seats=rotating`" in unchosen.output and "`against search`" in unchosen.output
    by_name = run("report", db, "--run", "against search")
    assert by_name.exit_code == 0 and "run `against search`: 4 game(s)" in by_name.output
    assert "random vs search:4" in by_name.output
    by_bots = run("report", db, "--bots", "random")
    assert by_bots.exit_code == 0 and "run `random seats=rotating`: 6 game(s)" in by_bots.output
    assert run("report", db, "--players", "green,purple").exit_code == 2  # both runs have them
    nothing = run("report", db, "--run", "nope")
    assert nothing.exit_code == 2 and "no run with --run nope; its runs:" in nothing.output
    assert run("replay", db, "--seed", 2).exit_code == 2
    replayed = run("replay", db, "--seed", 2, "--run", "against search")  # the game: the run's own
    assert replayed.exit_code == 0 and "result:" in replayed.output
    other = run("replay", db, "--seed", 2, "--game", "cernunos", "--bots", "random")
    assert other.exit_code == 0 and other.output != replayed.output


def test_a_run_keeps_its_name(tmp_path):
    db = tmp_path / "r.sqlite"
    two_runs(db)
    resumed = run("simulate", "cernunos", "--games", 5, "--jobs", 1, "--db", db, "--bots", "random,search:4")
    assert resumed.exit_code == 0 and "run `against search`: 4 game(s) already" in resumed.output
    renamed = run("simulate", "cernunos", "--games", 5, "--jobs", 1, "--db", db, "--run", "other")
    assert renamed.exit_code == 2 and "are run `random seats=rotating`" in renamed.output
    taken = run("simulate", "cernunos", "--games", 2, "--jobs", 1, "--db", db, "--fixed-seats",
                "--run", "against search")
    assert taken.exit_code == 2 and "has a run of that name already" in taken.output


def test_a_database_from_before_runs_had_names(tmp_path):
    db = tmp_path / "r.sqlite"
    two_runs(db)
    with sqlite3.connect(db) as connection:
        connection.execute("DROP TABLE runs")
    listed = run("runs", db)
    assert listed.exit_code == 0 and "random,search:4 seats=rotating" in listed.output  # default names
    assert run("report", db, "--run", "random,search:4 seats=rotating").exit_code == 0
