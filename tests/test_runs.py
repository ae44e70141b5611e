"""One database, several runs: `simulate --run NAME`, `ludolex runs DB`, and `report` and `replay`
choosing a run by its name, bots, players or version, through the real command line."""
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from contextlib import closing
from pathlib import Path

import processes
import pytest
from click.testing import CliRunner

from interpreter.interfaces.cli import main

REPO = Path(__file__).resolve().parent.parent


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


# --- a database on read-only media ------------------------------------------------------------

NOBODY = 65534


def reader(folder: Path):
    """`ludolex ARGS` run by someone who may read `folder` and not write it: this user once the
    folder is made read-only, or nobody (`setpriv`) when the tests run as root, whom no
    permission stops. Returns the function that runs it."""
    as_nobody = os.geteuid() == 0
    if as_nobody:
        if not shutil.which("setpriv"):
            pytest.skip("running as root, who writes anywhere, and without setpriv to read as someone else")
        probe = processes.run(["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", sys.executable,
                               "-c", "import interpreter"], capture_output=True, cwd=REPO)
        if probe.returncode != 0:  # a checkout or a Python in a folder only root may enter (/root)
            pytest.skip("running as root, and nobody else may run this checkout's Python to read as someone else")
        os.chown(folder, NOBODY, NOBODY)  # nobody's own folder: chmod then stops nobody too
        for path in folder.iterdir():
            os.chown(path, NOBODY, NOBODY)
    for path in folder.iterdir():
        path.chmod(0o444)
    folder.chmod(0o555)

    def ludolex(*args) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "interpreter", *map(str, args)]
        if as_nobody:
            command = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *command]
        return processes.run(command, capture_output=True, text=True, cwd=REPO,
                             env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    return ludolex


@pytest.fixture
def shelf():
    """A folder anyone may look into (pytest's own are the user's only), made writable again after."""
    folder = Path(tempfile.mkdtemp())
    folder.chmod(0o755)
    yield folder
    for path in (folder, *folder.rglob("*")):
        path.chmod(0o755)
    shutil.rmtree(folder)


def test_a_database_on_read_only_media_is_read(shelf):
    """Before, SQLite refused to read a WAL database where it could not make its `-shm` file:
    `runs`, `report` and `replay` said "read-only" and exited 1."""
    db = shelf / "media" / "r.sqlite"
    db.parent.mkdir()
    assert run("simulate", "cernunos", "--games", 2, "--jobs", 1, "--db", db).exit_code == 0
    assert sorted(p.name for p in db.parent.iterdir()) == ["r.sqlite"]  # closed: every game in the file itself
    ludolex = reader(db.parent)
    listed = ludolex("runs", db)
    assert listed.returncode == 0 and "random seats=rotating" in listed.stdout, listed.stdout + listed.stderr
    reported = ludolex("report", db)
    assert reported.returncode == 0 and "2 game(s)" in reported.stdout, reported.stdout + reported.stderr
    replayed = ludolex("replay", db, "--seed", 1)
    assert replayed.returncode == 0 and "result:" in replayed.stdout, replayed.stdout + replayed.stderr
    assert sorted(p.name for p in db.parent.iterdir()) == ["r.sqlite"]  # nothing written beside it


def test_a_database_copied_with_its_write_ahead_log_only_says_what_to_do(shelf):
    """A `-wal` file holds games the database file does not: read as immutable, they would be
    missing; SQLite cannot read it there without a `-shm` file. A clear error, not a wrong report."""
    db = shelf / "r.sqlite"
    assert run("simulate", "cernunos", "--games", 2, "--jobs", 1, "--db", db).exit_code == 0
    media = shelf / "media"
    media.mkdir()
    with closing(sqlite3.connect(db)) as writer:
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("UPDATE games SET turns = turns")
        writer.commit()
        for name in ("r.sqlite", "r.sqlite-wal"):
            shutil.copy(shelf / name, media / name)
    listed = reader(media)("runs", media / "r.sqlite")
    assert listed.returncode == 1
    assert "its last games are in r.sqlite-wal" in listed.stderr + listed.stdout
    assert "Traceback" not in listed.stderr
