"""Ctrl-C during `ludolex simulate`: the run stops cleanly, every finished game is kept, the exit status says so."""
import signal
import sqlite3
import subprocess
import sys

import processes
from processes import CEILING, started, wait_for

CLI = [sys.executable, "-c", "from interpreter.interfaces.cli import main; main()"]


def stored_games(db) -> int:
    try:
        with sqlite3.connect(db) as connection:
            return connection.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_ctrl_c_stops_the_run_and_keeps_the_finished_games(tmp_path):
    db = tmp_path / "results.sqlite"
    command = CLI + ["simulate", "cernunos", "--games", "1000000", "--jobs", "2", "--db", str(db)]
    with started(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as run:
        wait_for(lambda: stored_games(db) >= 200, "200 games stored", run)  # each game is committed as it ends
        run.send_signal(signal.SIGINT)
        output, _ = run.communicate(timeout=CEILING)
    assert run.returncode == 130, output
    assert "stopped: the finished games are kept" in output
    kept = stored_games(db)
    assert 200 <= kept < 1_000_000
    # the same command resumes: the seeds already played are not played again
    with sqlite3.connect(db) as connection:
        done = connection.execute("SELECT count(*) FROM games WHERE seed < 300").fetchone()[0]
    again = processes.run(CLI + ["simulate", "cernunos", "--games", "300", "--jobs", "1", "--db", str(db)],
                          capture_output=True, text=True)
    assert f"{done} game(s) already in" in again.stderr and f"{300 - done} to play" in again.stderr
