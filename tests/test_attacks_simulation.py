"""Attacks on `simulate`, its results database and the command line: whatever the rules, the
database file or the arguments, nothing hangs, nothing ends in a traceback, no stored game is lost.

Games that fail are made with small rulesets that validate clean (tmp_path); the signal tests run
the real command in a subprocess."""
import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import processes
import pytest
from click.testing import CliRunner
from processes import CEILING, started, wait_for

from interpreter.simulation import results_db
from interpreter.interfaces.cli import main
from interpreter.diagnostics.diagnostic import Position
from interpreter.safety.limits import LimitExceeded
from interpreter.simulation.results_db import Results

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-c", "from interpreter.interfaces.cli import main; main()"]
# The same command, each game made to last 50 ms more (or $SLOW_GAME_SECONDS): finished games come at a slow pace.
SLOW_CLI = [sys.executable, "-c", textwrap.dedent("""
    import os, time
    from interpreter.simulation import local as simulation
    play_one = simulation.play_one
    def slow(*args):
        time.sleep(float(os.environ.get("SLOW_GAME_SECONDS", 0.05)))
        return play_one(*args)
    simulation.play_one = slow
    from interpreter.interfaces.cli import main
    main()
""")]

CONTENT = """
players: [red, blue]
board:
  grid: {columns: 3, rows: 2, connections: [orthogonal]}
pieces:
  stone:
    per_player: 4
    starts_in: supply
"""
PLAY = """
play:
    turn red:
        choose s in locations where top(s) = none as put
        move first(x in pieces(supply(you))) to s
    end game ranked by most stones
function stones(p) = count(s in locations where top(s).owner = p)
"""
SETUP_FAILS = "zone supply per player\nsetup:\n    move first(x in pieces(supply(red))) to nth(locations, 99)\n" + PLAY
VARIABLE_FAILS = "zone supply per player\nvariable x = index(nth(locations, 99))\n" + PLAY
SCORE_FAILS = "zone supply per player\n" + PLAY + "function broken(p) = index(nth(locations, 99))\n"
GOOD = "zone supply per player\n" + PLAY


def toy(folder: Path, rules: str, score: str | None = None, bots: dict[str, str] | None = None) -> Path:
    """A small ruleset in `folder`, that validates clean; returns its folder."""
    (folder / "rules").mkdir(parents=True)
    (folder / "cards").mkdir()
    (folder / ".git").mkdir()  # the project: its manifest may name ../cards
    (folder / "rules" / "game.yaml").write_text("name: toy\ncontent: ../cards\n" + (f"score: {score}\n" if score else ""))
    (folder / "rules" / "toy.rules").write_text(rules)
    (folder / "cards" / "content.yaml").write_text(CONTENT)
    for name, text in (bots or {}).items():
        (folder / "rules" / "bots").mkdir(exist_ok=True)
        (folder / "rules" / "bots" / f"{name}.yaml").write_text(text)
    return folder / "rules"


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), \
        f"a traceback: {result.exception!r}\n{result.output}"
    assert "Traceback" not in result.output, result.output
    return result


def run_script(script: str, *args, timeout: float = CEILING) -> str:
    """A Python script in a subprocess (a hang fails the test instead of hanging it)."""
    done = processes.run([sys.executable, "-c", textwrap.dedent(script), *map(str, args)], cwd=ROOT,
                         capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done.stdout


def stored(db: Path, where: str = "1") -> int:
    with sqlite3.connect(db) as connection:
        return connection.execute(f"SELECT count(*) FROM games WHERE {where}").fetchone()[0]


def stored_so_far(db: Path) -> int:
    """Games stored by a run under way (none before it has made its table)."""
    try:
        return stored(db) if db.exists() else 0
    except sqlite3.OperationalError:
        return 0


# 3. A game or a worker that fails: recorded as data, the run goes on, the summary lists it.

@pytest.mark.parametrize("jobs", [1, 2])
def test_a_setup_that_fails_at_run_time_is_recorded_and_listed(tmp_path, jobs):
    db = tmp_path / "r.sqlite"
    result = run("simulate", toy(tmp_path, SETUP_FAILS), "--games", 14, "--jobs", jobs, "--db", db)
    assert result.exit_code == 1
    assert "14 game(s): 0 finished, 14 stopped on an error" in result.output
    assert "seed 0: error: " in result.output and "toy.rules:3:5: cannot move to nowhere" in result.output
    assert "... and 4 more" in result.output  # ten are listed
    assert stored(db, "error LIKE '%toy.rules:3:5: cannot move to nowhere%' AND reason = 'error'") == 14


@pytest.mark.parametrize("rules, score", [(VARIABLE_FAILS, None), (SCORE_FAILS, "broken")])
def test_a_variable_or_a_score_function_that_fails_is_recorded(tmp_path, rules, score):
    db = tmp_path / "r.sqlite"
    result = run("simulate", toy(tmp_path, rules, score), "--games", 3, "--jobs", 1, "--db", db)
    assert result.exit_code == 1 and "3 stopped on an error" in result.output
    assert "seed 2: error: " in result.output and stored(db, "error IS NOT NULL") == 3


def test_a_bot_value_that_fails_is_recorded(tmp_path):
    folder = toy(tmp_path, GOOD, bots={"broken": "all:\n  put: 'index(nth(locations, 99))'\n"})
    result = run("simulate", folder, "--games", 4, "--jobs", 2, "--bots", "broken", "--db", tmp_path / "r.sqlite")
    assert result.exit_code == 1 and "4 stopped on an error" in result.output and "seed 3: error: " in result.output


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_score_that_is_not_plain_data_is_recorded(tmp_path, jobs):
    folder = toy(tmp_path, GOOD + "function held(p) = first(x in pieces(supply(p)))\n", score="held")
    result = run("simulate", folder, "--games", 3, "--jobs", jobs, "--db", tmp_path / "r.sqlite")
    assert result.exit_code == 1 and "3 stopped on an error" in result.output
    assert "seed 0: error: the game's result is not plain data" in result.output


def test_a_limit_exceeded_is_recorded_as_a_game_stopped_by_the_limit(tmp_path, monkeypatch):
    def runaway(self, choice):
        raise LimitExceeded(Position("toy.rules", 5, 9), "more than 5,000,000 steps without a decision")

    monkeypatch.setattr("interpreter.play.game.Game.choose", runaway)
    db = tmp_path / "r.sqlite"
    result = run("simulate", toy(tmp_path, GOOD), "--games", 3, "--jobs", 1, "--db", db)
    assert result.exit_code == 1 and "3 game(s): 0 finished, 3 stopped by a limit" in result.output
    assert "seed 1: limit: toy.rules:5:9: LimitExceeded: more than 5,000,000 steps" in result.output
    assert stored(db, "reason = 'limit' AND error LIKE 'toy.rules:5:9: %'") == 3


def test_a_runaway_rule_is_stopped_by_the_engine_limit_and_recorded(tmp_path):
    rules = "zone supply per player\nvariable n = 0\nsetup:\n    while n >= 0:\n        set n = n + 1\n" + PLAY
    db = tmp_path / "r.sqlite"
    done = processes.run(CLI + ["simulate", str(toy(tmp_path, rules)), "--games", "3", "--jobs", "2", "--db", str(db)],
                         cwd=ROOT, capture_output=True, text=True,
                         env=dict(os.environ, LUDOLEX_STEPS_PER_DECISION="20000"))
    assert done.returncode == 1 and "3 game(s): 0 finished, 3 stopped by a limit" in done.stdout, done.stdout + done.stderr
    assert "seed 0: limit: " in done.stdout and "toy.rules:4:5: " in done.stdout
    assert stored(db, "reason = 'limit' AND error LIKE '%STEPS_PER_DECISION%'") == 3


def test_an_exception_that_cannot_cross_processes_does_not_hang_the_run():
    output = run_script("""
        import sys
        from interpreter.play import game
        from interpreter.simulation import local as simulation
        class Odd(Exception):
            def __init__(self, a, b):  # cannot be rebuilt from its args: the old pool's result thread died on it
                super().__init__(a)
        choose = game.Game.choose
        def odd_choose(self, choice):
            if self.seed == 3:
                raise Odd("odd", 1)
            return choose(self, choice)
        game.Game.choose = odd_choose
        records = list(simulation.run_local(sys.argv[1], range(6), simulation.Table(), 2))
        print(json.dumps(sorted([r["seed"], r["reason"], r["error"]] for r in records)))
    """.replace("import sys", "import json, sys"), ROOT / "rulesets" / "cernunos")
    records = json.loads(output)
    assert [seed for seed, _, _ in records] == list(range(6))
    assert records[3][1] == "error" and records[3][2].startswith("Odd: odd")
    assert all(error is None for seed, _, error in records if seed != 3)


def test_a_worker_that_dies_does_not_hang_the_run_and_its_game_is_played_again():
    output = run_script("""
        import json, os, sys
        from interpreter.simulation import local as simulation
        play_one = simulation.play_one
        def dying(ruleset, seed, table):
            if seed == 2:
                os._exit(3)
            return play_one(ruleset, seed, table)
        simulation.play_one = dying
        records = list(simulation.run_local(sys.argv[1], range(8), simulation.Table(), 2))
        print(json.dumps(sorted([r["seed"], r["reason"], r["error"]] for r in records)))
    """, ROOT / "rulesets" / "cernunos")
    records = json.loads(output)
    assert [seed for seed, _, _ in records] == list(range(8))
    assert records[2][1:] == ["worker", "the worker process died (exit code 3) during this game"]
    assert all(error is None for seed, _, error in records if seed != 2)


def test_a_worker_that_cannot_load_the_ruleset_answers_instead_of_dying(tmp_path):
    output = run_script("""
        import json, multiprocessing, sys
        from pathlib import Path
        from interpreter.simulation import local as simulation
        from interpreter.loading.stages import load_ruleset
        multiprocessing.get_all_start_methods = lambda: ["spawn"]  # workers load the ruleset from its files
        ruleset = load_ruleset(sys.argv[1])
        (Path(sys.argv[1]) / "toy.rules").write_text("this is not a rule\\n")
        records = list(simulation.run_local(ruleset, range(4), simulation.Table(), 2))
        print(json.dumps(sorted([r["seed"], r["reason"], r["error"]] for r in records)))
    """, toy(tmp_path, GOOD))
    records = json.loads(output)
    assert [seed for seed, _, _ in records] == list(range(4))
    assert all(reason == "worker" and error.startswith("the worker could not load the ruleset: ")
               for _, reason, error in records)


def test_a_game_lost_with_its_worker_is_played_again_by_the_next_run(tmp_path):
    results = Results(tmp_path / "r.sqlite")
    lost = {"seed": 1, "players": [], "winner": None, "scores": {}, "turns": 0, "decisions": 0,
            "score_curve": [], "reason": "worker", "error": "the worker process died", "log": []}
    results.add("toy", "v1", "random", dict(lost, seed=0, reason="error"))
    results.add("toy", "v1", "random", lost)
    assert results.seeds_done("v1", "random") == {0}
    results.close()


# 9. Data safety: every finished game kept, at once; one database for two runs; bad files refused.

def test_kill_9_loses_no_game_already_seen_stored(tmp_path):
    db = tmp_path / "r.sqlite"
    with started(SLOW_CLI + ["simulate", "cernunos", "--games", "100000", "--jobs", "1", "--db", str(db)],
                 cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as simulate:
        wait_for(lambda: stored_so_far(db) > 0, "a game stored", simulate)
        counts = [stored(db)]  # games stored, read while the run goes on, until it has grown three times
        wait_for(lambda: counts.append(stored(db)) or len(set(counts)) >= 4, "the games stored grown three times",
                 simulate)
        simulate.send_signal(signal.SIGKILL)
        simulate.wait()
    # games are committed one by one as they end (not in a batch at the end), and never go back
    assert len(set(counts)) >= 4 and counts == sorted(counts), counts
    kept = stored(db)
    assert kept >= counts[-1]
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    again = processes.run(CLI + ["simulate", "cernunos", "--games", str(kept + 5), "--jobs", "1", "--db", str(db)],
                          cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 0 and f"{kept} game(s) already in" in again.stderr and "5 to play" in again.stderr


def test_sigterm_keeps_the_finished_games_and_exits_non_zero(tmp_path):
    db = tmp_path / "r.sqlite"
    with started(SLOW_CLI + ["simulate", "cernunos", "--games", "100000", "--jobs", "2", "--db", str(db)],
                 cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as simulate:
        wait_for(lambda: stored_so_far(db) >= 10, "10 games stored", simulate)
        before = stored(db)
        simulate.send_signal(signal.SIGTERM)
        output, _ = simulate.communicate(timeout=CEILING)
    assert simulate.returncode == 143, output
    assert "stopped: the finished games are kept" in output and "Traceback" not in output
    kept = stored(db)
    assert kept >= before and f"cernunos: {kept} game(s): {kept} finished" in output


def test_resuming_asks_the_database_once_for_the_seeds_done(tmp_path, monkeypatch):
    db = tmp_path / "r.sqlite"
    assert run("simulate", "cernunos", "--games", 30, "--jobs", 1, "--db", db).exit_code == 0
    asked = []
    seeds_done = Results.seeds_done
    monkeypatch.setattr(Results, "seeds_done", lambda self, *args: asked.append(args) or seeds_done(self, *args))
    result = run("simulate", "cernunos", "--games", 40, "--jobs", 1, "--db", db)
    assert result.exit_code == 0 and "30 game(s) already in" in result.output and "10 to play" in result.output
    assert len(asked) == 1


def test_two_runs_on_one_database_both_finish(tmp_path):
    # Games of 0.1 s: a run that held its transaction open for many games made the other wait too long.
    db = tmp_path / "r.sqlite"
    with contextlib.ExitStack() as stack:
        runs = [stack.enter_context(started(
            SLOW_CLI + ["simulate", "cernunos", "--games", "120", "--seed", str(seed), "--jobs", "2", "--db", str(db)],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ, SLOW_GAME_SECONDS="0.1"))) for seed in (0, 1000)]
        errors = [r.communicate(timeout=CEILING)[1] for r in runs]
    assert [r.returncode for r in runs] == [0, 0], errors
    assert stored(db) == 240


def test_connections_opening_a_new_database_at_once_all_open_it(tmp_path):
    # Two races, each failing about one trial in ten before: the journal mode's change fails at once,
    # without SQLite's wait, while another connection opens the file; and the check read the mark
    # before the other wrote it and the schema's version after.
    failures = []

    def open_and_close(path, start):
        start.wait()
        try:
            Results(path).close()
        except Exception as error:  # noqa: BLE001: any failure is the test's
            failures.append(error)

    for trial in range(20):
        start = threading.Barrier(4)
        threads = [threading.Thread(target=open_and_close, args=(tmp_path / f"r{trial}.sqlite", start)) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert not failures, failures[0]


def test_a_database_in_use_for_too_long_is_said_in_one_line(tmp_path, monkeypatch):
    db = tmp_path / "r.sqlite"
    assert run("simulate", "cernunos", "--games", 3, "--jobs", 1, "--db", db).exit_code == 0
    monkeypatch.setattr(results_db, "BUSY_SECONDS", 0.3)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        result = run("simulate", "cernunos", "--games", 6, "--jobs", 1, "--db", db)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.exit_code == 1 and "in use by another program" in result.output


def a_results_database(folder: Path) -> Path:
    db = folder / "made.sqlite"
    assert run("simulate", "cernunos", "--games", 60, "--jobs", 1, "--db", db).exit_code == 0
    return db


def damaged(folder: Path) -> Path:
    db = a_results_database(folder)
    data = bytearray(db.read_bytes())
    data[4096:] = bytes(range(256)) * ((len(data) - 4096) // 256)  # every page but the first is garbage
    db.write_bytes(bytes(data))
    return db


def truncated(folder: Path) -> Path:
    db = a_results_database(folder)
    db.write_bytes(db.read_bytes()[: db.stat().st_size // 2])
    return db


def foreign(folder: Path) -> Path:
    db = folder / "accounts.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE people (name TEXT, balance INTEGER)")
        connection.execute("INSERT INTO people VALUES ('ada', 10)")
    connection.close()
    return db


def not_sqlite(folder: Path) -> Path:
    db = folder / "notes.txt"
    db.write_text("shopping list: bread, milk\n" * 100)
    return db


BAD_FILES = {"damaged": (damaged, 1, "damaged"), "truncated": (truncated, 1, "damaged"),
             "foreign": (foreign, 2, "not a ludolex results database"), "not sqlite": (not_sqlite, 2, "not an SQLite database")}


@pytest.mark.parametrize("kind", BAD_FILES)
def test_a_bad_database_file_is_refused_in_one_line_and_never_written(tmp_path, kind):
    make, status, words = BAD_FILES[kind]
    db = make(tmp_path)
    before = db.read_bytes()
    commands = [["simulate", "cernunos", "--games", 5, "--jobs", 1, "--db", db],
                ["report", db],
                ["replay", db, "--game", "cernunos", "--seed", 1],
                ["compare", "cernunos", "cernunos", "--games", 3, "--jobs", 1, "--db", db]]
    for command in commands:
        result = run(*command)
        assert result.exit_code == status and words in result.output, (command, result.output)
        assert len(result.output.strip().splitlines()) == 1, result.output
    assert db.read_bytes() == before


@pytest.fixture
def read_only(monkeypatch):
    """Makes a database file read-only (for root, chmod does not stop writes: SQLite then opens it read-only)."""
    def make(db: Path):
        if os.geteuid() != 0:
            db.chmod(0o444)
            return
        connect = sqlite3.connect
        monkeypatch.setattr(results_db.sqlite3, "connect", lambda path, **options: connect(
            path if str(path).startswith("file:") else f"{Path(path).resolve().as_uri()}?mode=ro", **{**options, "uri": True}))
    return make


def test_a_read_only_database_is_said_in_one_line_and_kept(tmp_path, read_only):
    db = a_results_database(tmp_path)
    before = stored(db)
    read_only(db)
    result = run("simulate", "cernunos", "--games", 80, "--jobs", 1, "--db", db)
    assert result.exit_code == 1 and "read-only" in result.output
    assert stored(db) == before
    assert run("report", db).exit_code == 0  # reading it still works


def test_a_full_disk_keeps_the_games_stored_before_and_is_said_in_one_line(tmp_path, monkeypatch):
    connect = sqlite3.connect

    def small_disk(*args, **options):  # SQLite's own "database or disk is full", after about 40 pages
        connection = connect(*args, **options)
        connection.execute("PRAGMA max_page_count = 40")
        return connection

    monkeypatch.setattr(results_db.sqlite3, "connect", small_disk)
    db = tmp_path / "r.sqlite"
    result = run("simulate", "cernunos", "--games", 2000, "--jobs", 2, "--db", db)
    assert result.exit_code == 1 and "the disk is full; the games stored before are kept" in result.output
    kept = stored(db)
    assert 20 < kept < 2000
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_database_made_before_the_mark_is_still_ours(tmp_path):
    db = tmp_path / "r.sqlite"
    assert run("simulate", "cernunos", "--games", 4, "--jobs", 1, "--db", db).exit_code == 0
    with sqlite3.connect(db) as connection:  # as an older ludolex left it
        connection.execute("PRAGMA application_id = 0")
        connection.execute("PRAGMA user_version = 0")
    connection.close()
    result = run("simulate", "cernunos", "--games", 6, "--jobs", 1, "--db", db)
    assert result.exit_code == 0 and "4 game(s) already in" in result.output


# 10. Arguments checked where they come in; misuse exits 2; no traceback anywhere.

@pytest.mark.parametrize("options", [
    ["--games", -5], ["--games", 0], ["--games", 10_000_001], ["--jobs", 0], ["--jobs", -3], ["--max-turns", 0],
    ["--seed", -1], ["--seed", 2**63 - 2], ["--seed", 2**64], ["--players", "²"]])
def test_a_bad_option_of_simulate_is_a_usage_error(tmp_path, options):
    result = run("simulate", "cernunos", "--games", 3, "--jobs", 1, "--db", tmp_path / "r.sqlite", *options)
    assert result.exit_code == 2, result.output
    assert "Invalid value" in result.output or "--players" in result.output
    assert not (tmp_path / "r.sqlite").exists() or stored(tmp_path / "r.sqlite") == 0


def test_a_huge_number_of_games_is_refused_at_once(tmp_path):
    done = processes.run(CLI + ["simulate", "cernunos", "--games", str(10**20), "--db", str(tmp_path / "r.sqlite")],
                         cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and "--games" in done.stderr and "Traceback" not in done.stderr


def test_the_largest_seed_plays(tmp_path):
    db = tmp_path / "r.sqlite"
    result = run("simulate", "cernunos", "--games", 3, "--seed", 2**62, "--jobs", 1, "--db", db)
    assert result.exit_code == 0 and stored(db, f"seed = {2**62 + 2}") == 1
    assert run("replay", db, "--game", "cernunos", "--seed", 2**62 + 1).exit_code == 0


def test_an_unknown_game_is_a_usage_error(tmp_path):
    for command in (["simulate", "no_such_game", "--db", tmp_path / "r.sqlite"], ["play", "no_such_game"],
                    ["compare", "cernunos", "no_such_game", "--db", tmp_path / "r.sqlite"], ["simulate", "a\0b"]):
        result = run(*command)
        assert result.exit_code == 2 and "no ruleset" in result.output, result.output


@pytest.fixture(scope="module")
def saved_game(tmp_path_factory) -> dict:
    path = tmp_path_factory.mktemp("saved") / "game.json"
    assert run("play", "cernunos", "--seed", 4, "--save", path).exit_code == 0
    return json.loads(path.read_text())


@pytest.mark.parametrize("change, status, words", [
    (lambda g: g["choices"].__setitem__(0, 999), 1, "choice 1 is option 999"),
    (lambda g: g["choices"].__setitem__(0, -1), 1, "choice 1 is option -1"),
    (lambda g: g["choices"].__setitem__(0, "x"), 2, "`choices` is not a list of whole numbers"),
    (lambda g: g["choices"].__setitem__(0, 1.5), 2, "`choices` is not a list of whole numbers"),
    (lambda g: g["choices"].__setitem__(0, True), 2, "`choices` is not a list of whole numbers"),
    (lambda g: g.__setitem__("choices", {"a": 1}), 2, "`choices` is not a list"),
    (lambda g: g.__setitem__("seed", "abc"), 2, "`seed` is not a whole number"),
    (lambda g: g.__setitem__("players", 5), 2, "`players` is not a list of names"),
    (lambda g: g.__setitem__("game", ["cernunos"]), 2, "`game` is not a text"),
    (lambda g: g.__setitem__("game", "no_such_game"), 2, "no ruleset"),
])
def test_a_saved_game_with_a_wrong_field_is_refused_in_one_line(tmp_path, saved_game, change, status, words):
    game = json.loads(json.dumps(saved_game))
    change(game)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game))
    result = run("replay", path)
    assert result.exit_code == status and words in result.output, result.output


@pytest.mark.parametrize("text", ["[" * 100_000, '{"seed": ' + "9" * 5000 + "}"], ids=["nested", "long number"])
def test_a_file_that_is_not_a_saved_game_is_a_usage_error(tmp_path, text):
    path = tmp_path / "game.json"
    path.write_text(text)
    result = run("replay", path)
    assert result.exit_code == 2 and "not a saved game" in result.output


def test_replaying_a_folder_is_a_usage_error(tmp_path):
    assert run("replay", tmp_path).exit_code == 2


def test_a_game_that_fails_on_the_table_ends_in_one_line(tmp_path):
    folder = toy(tmp_path, SETUP_FAILS)
    result = run("play", folder)
    assert result.exit_code == 1 and "error in the rules" in result.output and "toy.rules:3:5" in result.output
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps({"game": str(folder), "seed": 0, "choices": [0]}))
    result = run("replay", saved)
    assert result.exit_code == 1 and "the rules stopped on an error" in result.output
