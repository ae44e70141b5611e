"""Shared and co-operative outcomes: `win [a, b]`, `win players`, `lose players`, `ties share`; the
result's winners, the records and the results database (old files too), the reports and `play`'s last line."""
import io
import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console
from toy import toy_folder

from interpreter import Game, LudolexError, load
from interpreter.diagnostics.errors import RuleRuntimeError
from interpreter.engine.runtime import Result
from interpreter.interfaces.cli import main
from interpreter.interfaces.display import result_sentence
from interpreter.reports.comparison import compare
from interpreter.reports.summary import render_summary, summarize, summary_sheets
from interpreter.scenarios.files import Expectation
from interpreter.scenarios.run import ScenarioFailure, check_expectation
from interpreter.simulation import results_db
from interpreter.simulation.results_db import APPLICATION_ID, DatabaseError, Results

CONTENT = """\
players: [red, blue, green]
board:
  grid: {columns: 3, rows: 1, connections: [orthogonal]}
"""

# red picks a square: a1 is a win for red and blue, b1 a defeat for all, c1 a victory for all
PICK = """\
play:
    turn red:
        choose spot in locations as pick
        if spot = a1:
            win [red, blue]
        elif spot = b1:
            lose players
        else:
            win players
"""


def make_game(folder: Path, rules: str, content: str = CONTENT) -> Path:
    return toy_folder(folder, content, toy=rules)


def ending(tmp_path, statement: str, players=None, extra: str = "") -> Result:
    """The result of a game whose `play:` is only `statement`."""
    game = Game(load(make_game(tmp_path, f"play:\n    {statement}\n{extra}")), players=players)
    assert game.finished
    return game.result


# The language -------------------------------------------------------------------------------------

def test_win_of_a_list_gives_every_named_player_the_win_and_the_others_lose(tmp_path):
    result = ending(tmp_path, "win [red, blue]")
    assert result.winners == ["red", "blue"] and result.winner is None
    assert result.reason == "red and blue win together" and result.scores == {}


def test_the_winners_come_in_seating_order_and_a_player_named_twice_counts_once(tmp_path):
    result = ending(tmp_path, "win [red, green, red]", players=["green", "blue", "red"])
    assert result.winners == ["green", "red"]


def test_win_players_is_a_co_operative_victory_and_lose_players_a_defeat_for_all(tmp_path):
    victory = ending(tmp_path, "win players")
    assert victory.winners == ["red", "blue", "green"] and victory.reason == "red, blue and green win together"
    defeat = ending(tmp_path, "lose players")
    assert defeat.winners == [] and defeat.winner is None and defeat.reason == "everybody loses"


def test_win_or_lose_of_one_player_or_a_list_of_one_keep_their_meaning(tmp_path):
    assert ending(tmp_path, "win blue").winners == ["blue"]
    assert ending(tmp_path, "win [blue]") == ending(tmp_path, "win blue") == Result("blue", {}, "blue wins")
    # with three players, a loser leaves no winner; with two, the other player wins
    assert ending(tmp_path, "lose red") == ending(tmp_path, "lose [red]") == Result(None, {}, "red loses")
    assert ending(tmp_path, "lose [red]", players=["red", "blue"]) == Result("blue", {}, "red loses")
    assert ending(tmp_path, "lose [red, green]") == Result("blue", {}, "red and green lose")
    assert ending(tmp_path, "draw") == Result(None, {}, "draw")


def test_win_or_lose_of_something_that_is_not_players_is_a_type_error(tmp_path):
    rules = "play:\n    win 3\n    lose \"red\"\n"
    with pytest.raises(LudolexError) as error:
        load(make_game(tmp_path, rules))
    found = [(d.code, d.position.line) for d in error.value.diagnostics if d.severity == "error"]
    assert found == [("LX323", 2), ("LX323", 3)]
    assert "a player or a list of players" in error.value.diagnostics[0].message


@pytest.mark.parametrize("statement, words", [("win []", "names nobody"),
                                              ("lose [red, none]", "names none, which is not a player")])
def test_an_empty_list_or_a_list_of_things_that_are_not_players_stops_the_game(tmp_path, statement, words):
    with pytest.raises(RuleRuntimeError) as error:
        ending(tmp_path, statement)
    assert words in str(error.value) and error.value.position.line == 2


RANKED = """\
function same(p) = 1
function seat(p) = if p = red then 2 else 1
"""


def test_ties_share_gives_a_full_tie_to_every_player_tied_first(tmp_path):
    shared = ending(tmp_path, "end game ranked by most same, ties share", extra=RANKED)
    assert shared.winners == ["red", "blue", "green"] and shared.reason == "ranking"
    assert shared.scores == {"red": 1, "blue": 1, "green": 1}
    draw = ending(tmp_path, "end game ranked by most same", extra=RANKED)
    assert draw.winners == [] and draw.reason == "draw"
    decided = ending(tmp_path, "end game ranked by most same, most seat, ties share", extra=RANKED)
    assert decided == Result("red", {"red": 1, "blue": 1, "green": 1}, "ranking", "most seat")
    two = ending(tmp_path, "end game ranked by fewest seat, ties share", extra=RANKED)
    assert two.winners == ["blue", "green"] and two.scores == {"red": 2, "blue": 1, "green": 1}


def test_a_scenario_expects_a_shared_win_by_its_players(tmp_path):
    game = Game(load(make_game(tmp_path, "play:\n    win [red, blue]\n")))
    check_expectation(game, Expectation(winner=["blue", "red"]))
    for wrong in ("draw", "red", ["red", "green"]):
        with pytest.raises(ScenarioFailure) as failure:
            check_expectation(game, Expectation(winner=wrong))
        assert "found red and blue" in str(failure.value)


# The result and its saved form --------------------------------------------------------------------

def test_a_result_keeps_its_old_form_for_one_winner_and_adds_winners_for_several():
    old_style = Result("purple", {"purple": 6}, "ranking", "most held")  # as callers made it before
    assert old_style.winners == ["purple"] and old_style.winner == "purple"
    assert old_style.to_json() == {"winner": "purple", "scores": {"purple": 6}, "reason": "ranking"}
    assert Result(None).winners == [] and Result(None).to_json() == {"winner": None, "scores": {}, "reason": ""}
    shared = Result(["red", "blue"], {}, "red and blue win together")
    assert shared.winner is None
    assert shared.to_json() == {"winner": None, "winners": ["red", "blue"], "scores": {}, "reason": "red and blue win together"}
    assert Result.from_json(json.loads(json.dumps(shared.to_json()))) == shared
    assert Result.from_json({"winner": "purple", "scores": {"purple": 6}, "reason": "ranking"}).winners == ["purple"]
    assert Result.from_json({"winner": None, "scores": {}, "reason": "draw"}).winners == []


# What `play` says at the end ----------------------------------------------------------------------

def test_result_sentence_of_shared_and_co_operative_endings():
    assert result_sentence(Result(["red", "blue"], {}, "red and blue win together"), 3) == \
        "red and blue win together, after 3 turns"
    assert result_sentence(Result([], {}, "everybody loses"), 1) == "everybody loses, after 1 turn"
    assert result_sentence(Result(["blue", "green"], {"red": 2, "blue": 1, "green": 1}, "ranking"), 9) == \
        "blue and green win together, tied at the top (blue 1, green 1, red 2), after 9 turns"


# the random bot of each seed picks c1, a1, b1
@pytest.mark.parametrize("seed, last", [(3, "red, blue and green win together, after 1 turn"),
                                        (5, "red and blue win together, after 1 turn"),
                                        (0, "everybody loses, after 1 turn")])
def test_play_ends_with_the_shared_result_in_the_games_words(tmp_path, seed, last):
    game = make_game(tmp_path, PICK)
    played = CliRunner().invoke(main, ["play", str(game), "--seed", str(seed)])
    assert played.exit_code == 0, played.output
    assert played.output.strip().splitlines()[-1] == f"result: {last}"


# Records, the results database, and the reports ---------------------------------------------------

OLD_SCHEMA = f"""
CREATE TABLE games (
    game TEXT NOT NULL, ruleset_hash TEXT NOT NULL, bots TEXT NOT NULL, seed INTEGER NOT NULL,
    players TEXT NOT NULL, winner TEXT, scores TEXT NOT NULL, turns INTEGER NOT NULL, decisions INTEGER NOT NULL,
    score_curve TEXT NOT NULL, reason TEXT, error TEXT, log TEXT NOT NULL,
    PRIMARY KEY (ruleset_hash, bots, seed)
);
CREATE INDEX games_by_game ON games (game, ruleset_hash);
PRAGMA application_id = {APPLICATION_ID};
PRAGMA user_version = 1;
"""


def old_database(path: Path, marked: bool = True) -> Path:
    """A results database as ludolex wrote it before shared wins (results format 1): a `winner` column only."""
    with sqlite3.connect(path) as connection:
        connection.executescript(OLD_SCHEMA if marked else OLD_SCHEMA.replace(str(APPLICATION_ID), "0").replace(
            "user_version = 1", "user_version = 0"))
        for seed, winner in [(1, "purple"), (2, "green"), (3, None), (4, "purple")]:
            connection.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               ("cernunos", "v1", "random", seed, json.dumps(["purple", "green"]), winner,
                                json.dumps({"purple": 5, "green": 4}), 10 + seed, 30, "[]",
                                "ranking" if winner else "draw", None, "[0, 1]"))
    connection.close()
    return path


def winners_by_seed(results: Results) -> dict[int, list[str]]:
    return {r["seed"]: r["winners"] for r in results.records("v1", "random")}


OLD_WINNERS = {1: ["purple"], 2: ["green"], 3: [], 4: ["purple"]}


def test_a_database_of_the_old_format_reads_read_only_as_it_is(tmp_path):
    db = old_database(tmp_path / "old.sqlite")
    before = db.read_bytes()
    results = Results(db, read_only=True)
    assert winners_by_seed(results) == OLD_WINNERS
    assert [r["winner"] for r in results.records("v1", "random")] == ["purple", "green", None, "purple"]
    results.close()
    report = CliRunner().invoke(main, ["report", str(db)])
    assert report.exit_code == 0, report.output
    assert "Results of 4 games" in report.output and "shared" not in report.output
    purple = next(line for line in report.output.splitlines() if "purple" in line and "%" in line)
    assert "50.0%" in purple
    assert db.read_bytes() == before  # reading never changes an old file


@pytest.mark.parametrize("marked", [True, False], ids=["format 1", "unmarked"])
def test_a_database_of_the_old_format_opened_to_store_games_gets_the_winners_column(tmp_path, marked):
    db = old_database(tmp_path / "old.sqlite", marked)
    results = Results(db)
    assert results.db.execute("PRAGMA user_version").fetchone()[0] == results_db.SCHEMA_VERSION == 6
    assert [row[1] for row in results.db.execute("PRAGMA table_info(games)")] == results_db.COLUMNS
    assert winners_by_seed(results) == OLD_WINNERS  # the old games keep their winner
    shared = {"seed": 5, "players": ["purple", "green"], "winner": None, "winners": ["purple", "green"],
              "scores": {}, "turns": 3, "decisions": 3, "score_curve": [], "reason": "purple and green win together",
              "error": None, "log": [1]}
    results.add("cernunos", "v1", "random", shared)
    results.close()
    again = Results(db)  # opened again: nothing more to do
    assert winners_by_seed(again) == {**OLD_WINNERS, 5: ["purple", "green"]}
    again.close()
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT winner, winners FROM games WHERE seed = 5").fetchone() == \
            (None, '["purple", "green"]')
        assert connection.execute("SELECT winners FROM games WHERE seed = 1").fetchone() == (None,)
    connection.close()


def test_a_newer_format_than_this_ludolex_knows_is_refused(tmp_path):
    db = old_database(tmp_path / "new.sqlite")
    with sqlite3.connect(db) as connection:
        connection.execute(f"PRAGMA user_version = {results_db.SCHEMA_VERSION + 1}")
    connection.close()
    with pytest.raises(DatabaseError, match="newer ludolex"):
        Results(db, read_only=True)


def test_simulated_shared_wins_are_stored_and_counted_for_each_winner(tmp_path):
    game, db = make_game(tmp_path, PICK), tmp_path / "r.sqlite"
    done = CliRunner().invoke(main, ["simulate", str(game), "--games", "30", "--jobs", "1", "--db", str(db),
                                     "--fixed-seats"])  # the winners are named in seating order: one order
    assert done.exit_code == 0, done.output
    results = Results(db, read_only=True)
    ((_, version, bots, count),) = results.versions()
    records = results.records(version, bots)
    results.close()
    assert count == 30
    outcomes = {r["reason"]: (r["winner"], r["winners"]) for r in records}
    assert outcomes == {"red and blue win together": (None, ["red", "blue"]), "everybody loses": (None, []),
                        "red, blue and green win together": (None, ["red", "blue", "green"])}
    together = sum(len(r["winners"]) == 3 for r in records)
    shared = sum(len(r["winners"]) > 1 for r in records)
    cells = [[cell.strip() for cell in line.strip("│").split("│")] for line in done.output.splitlines()]
    rows = {}
    for row in cells:  # the table of results, the first with rows like these
        if len(row) == 4 and "%" in row[3]:
            rows.setdefault(row[0], row[1:3])
    assert 0 < together < shared < 30
    assert rows.pop("(whoever moved first)") == ["30", str(shared)]  # red, in seat 1 of every game, moves first
    assert rows == {"red": [str(shared), "30"], "blue": [str(shared), "30"], "green": [str(together), "30"],
                    "(shared win)": [str(shared), "30"], "(all won together)": [str(together), "30"],
                    "(no winner)": [str(30 - shared), "30"]}


def test_a_shared_win_counts_for_each_winner_in_the_summary():
    def game(seed, winners, reason="ranking"):
        return {"seed": seed, "players": ["red", "blue", "green"], "winner": winners[0] if len(winners) == 1 else None,
                "winners": winners, "scores": {}, "turns": 5, "decisions": 5, "score_curve": [], "reason": reason}

    records = [game(1, ["red", "blue"]), game(2, ["red"]), game(3, ["blue", "green"]), game(4, [], "draw")]
    summary = summarize(records)
    assert {p: r.count for p, r in summary.wins.items()} == {"red": 2, "blue": 2, "green": 1}
    assert sum(r.rate for r in summary.wins.values()) == pytest.approx(5 / 4)  # more than 100%
    assert (summary.shared.count, summary.draws.count, summary.together.count, summary.cooperative) == (2, 1, 0, False)
    assert summary.first_player.count == 2  # red sits first: a shared win is a win of seat 0 too
    results = summary_sheets(summary)[0]
    assert ["(shared win)", "2", "4"] == results.rows[3][:3] and results.rows[-1][:2] == ["(no winner)", "1"]
    assert "more than 100%" in results.note
    single = summary_sheets(summarize([game(1, ["red"]), game(2, [], "draw")]))[0]
    assert not single.note and [row[0] for row in single.rows] == ["red", "blue", "green", "(no winner)"]


def test_a_co_operative_game_reports_how_often_the_players_won_together(tmp_path):
    def game(seed, won):
        return {"seed": seed, "players": ["ada", "bo"], "winner": None, "winners": ["ada", "bo"] if won else [],
                "scores": {}, "turns": 7, "decisions": 9, "score_curve": [],
                "reason": "ada and bo win together" if won else "everybody loses"}

    records = [game(1, True), game(2, False), game(3, False), game(4, True), game(5, False)]
    summary = summarize(records)
    assert (summary.together.count, summary.draws.count, summary.cooperative) == (2, 3, True)
    console = Console(record=True, width=160, file=io.StringIO())
    console.print(render_summary(summary))
    text = " ".join(console.export_text().split())
    assert "(all won together) │ 2 │ 5 │ 40.0%" in text and "(shared win)" not in text  # every shared win was all
    assert "co-operative: the players won together in 2 of 5 games (40.0%" in text
    assert "the win rates can add up to more than 100%" in text
    lost = summarize([game(1, False)])  # never won: still said
    assert lost.cooperative and summary_sheets(lost)[0].rows[-2][:2] == ["(all won together)", "0"]
    measures = [d.measure for d in compare(records, records).rows]
    assert "the shared-win rate" in measures and "the rate of winning all together" in measures
    plots = pytest.importorskip("interpreter.reports.plots", reason="the plots need matplotlib, an extra")
    page = plots.write_plots(records, tmp_path / "plots", "co-op")[-1].read_text()
    assert "(all won together)" in page and "co-operative: the players won together in 2 of 5 games" in page
