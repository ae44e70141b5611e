"""A report read one game at a time: the games streamed from the results database, each added to small
tallies (counts, sums, a few numbers per game), make the same report as the list of every game; and the
database gives its games one row at a time, so that nothing holds them all."""
import gc
import io
import pickle
import sqlite3
import weakref
from contextlib import closing
from pathlib import Path

import pytest
from rich.console import Console

from interpreter.reports.document import html_body, render_report, report_of
from interpreter.reports.failures import Failures
from interpreter.reports.overview import RunContext
from interpreter.reports.run_tally import RunTally
from interpreter.reports.stats import describe
from interpreter.simulation.local import run_local
from interpreter.simulation.results_db import DatabaseError, Results
from interpreter.simulation.runner import LIMIT, Table, failed_record

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"
TWO_BOTS = Table(bots=("random", "rule_of_thumb"))
CONTEXT = RunContext("a game", "v1", "a run", "ludolex report r.sqlite", "2030-01-02 10:00 UTC",
                     "ludolex replay r.sqlite --seed {seed}")


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    """300 Cernunos games between two bots (and 3 stopped by a limit), 20 Root games."""
    path = tmp_path_factory.mktemp("streamed") / "r.sqlite"
    with closing(Results(path)) as results:
        for record in run_local(RULESETS / "cernunos", range(300), TWO_BOTS, jobs=1):
            results.add("cernunos", "v1", TWO_BOTS.key(), record)
        for seed in (300, 301, 302):
            stopped = failed_record(seed, TWO_BOTS.seating(seed, ["green", "purple"]), LIMIT, f"too many steps {seed}")
            results.add("cernunos", "v1", TWO_BOTS.key(), stopped)
        for record in run_local(RULESETS / "root", range(20), Table(), jobs=1):
            results.add("root", "v1", Table().key(), record)
    return path


RUNS = [("v1", TWO_BOTS.key()), ("v1", Table().key())]


def text_and_page(report) -> tuple[str, str]:
    console = Console(record=True, width=200, file=io.StringIO())
    console.print(render_report(report))
    return console.export_text(), html_body(report)


@pytest.mark.parametrize("run", RUNS)
def test_the_report_of_the_games_read_one_at_a_time_is_the_report_of_the_list_of_games(db, run):
    with closing(Results(db, read_only=True)) as results:
        listed = report_of(RunTally.of(results.records(*run, with_log=False)), CONTEXT)
        streamed = report_of(RunTally.of(results.iter_records(*run, with_log=False)), CONTEXT)
    assert "How often each option was chosen" in [s.title for s in listed.sheets]  # every part of the report
    assert text_and_page(streamed) == text_and_page(listed)


def test_the_tallies_count_what_the_list_of_games_says(db):
    with closing(Results(db, read_only=True)) as results:
        games = results.records(*RUNS[0], with_log=False)
        run = RunTally.of(results.iter_records(*RUNS[0], with_log=False), True, 2)
    ended = [g for g in games if g["error"] is None]
    summary = run.summary.summary()
    assert summary.games == len(ended) == 300 and run.failures.failed == 3
    for player in ("green", "purple"):
        assert summary.wins[player].count == sum(player in g["winners"] for g in ended)
        assert summary.scores[player] == describe([g["scores"][player] for g in ended if player in g["scores"]])
    assert summary.turns == describe([g["turns"] for g in ended])
    assert [s.wins.count for s in run.ended.seat_rates()] == \
        [sum(g["players"][seat] in g["winners"] for g in ended) for seat in (0, 1)]
    for bot, rate in run.ended.bot_rates().items():
        seats = [(p, b) for g in ended for p, b in zip(g["players"], g["seat_bots"]) if b == bot]
        assert rate.n == len(seats) == 300  # each bot plays one seat of every game
    assert run.failures.header_line("cernunos") == "cernunos: 303 game(s): 300 finished, 3 stopped by a limit"
    assert run.failures.lines(2) == ["  seed 300: limit: too many steps 300",
                                     "  seed 301: limit: too many steps 301",
                                     "  ... and 1 more, each kept in the database with its error (the page of "
                                     "`ludolex report DB --plots DIR` lists them all)"]
    assert run.failures.lines(2) == Failures.of(games).lines(2)


def test_the_tallies_keep_a_few_numbers_per_game_and_none_of_the_games(db):
    class Game(dict):  # a record that a weak reference can follow
        pass

    kept = []

    def games(count: int):
        with closing(Results(db, read_only=True)) as results:
            for record in results.iter_records(*RUNS[0], seeds=range(count), with_log=False):
                kept.append(weakref.ref(game := Game(record)))
                yield game

    small, large = RunTally.of(games(100)), RunTally.of(games(300))
    gc.collect()
    assert len(kept) == 400 and not any(ref() for ref in kept)
    # the tallies grow by the lengths, scores and margin of each game (8 bytes each), not by the games
    with closing(Results(db, read_only=True)) as results:
        (game,) = results.records(*RUNS[0], seeds=range(1), with_log=False)
    growth = (len(pickle.dumps(large)) - len(pickle.dumps(small))) / 200
    assert growth < 60 < len(pickle.dumps(game)) / 10


def test_stored_games_are_read_one_row_at_a_time(db, tmp_path):
    damaged = tmp_path / "damaged.sqlite"
    with closing(sqlite3.connect(db)) as source, closing(sqlite3.connect(damaged)) as target:
        source.backup(target)
        target.execute("UPDATE games SET scores = 'not json' WHERE seed = 299 AND bots = ?", (TWO_BOTS.key(),))
        target.commit()
    with closing(Results(damaged, read_only=True)) as results:
        with pytest.raises(DatabaseError, match="the game of seed 299 is not readable"):
            results.records(*RUNS[0])
        games = results.iter_records(*RUNS[0])
        assert next(games)["seed"] == 0  # read before the damaged row is
        with pytest.raises(DatabaseError, match="the game of seed 299 is not readable"):
            list(games)
