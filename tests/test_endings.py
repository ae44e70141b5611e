"""How a game ended, in the rules' words: `win p by "dominance"`, `lose p by ...`, `draw by ...`; kept in
the result, saves, records and the results database (an older file gets the column), counted by the reports."""
import json
import sqlite3

import pytest
from click.testing import CliRunner
from toy import toy_folder

from interpreter import Game, LudolexError, load
from interpreter.engine.runtime import Result
from interpreter.interfaces.cli import main
from interpreter.interfaces.display import result_sentence
from interpreter.reports.summary import summarize, summary_sheets
from interpreter.simulation import results_db
from interpreter.simulation.results_db import Results

CONTENT = """\
players: [red, blue]
board:
  grid: {columns: 3, rows: 1, connections: [orthogonal]}
"""

# red picks a square: a1 a knockout for red, b1 red gives up, c1 a stalemate
PICK = """\
procedure finish(p, how):
    win p by how

play:
    turn red:
        choose spot in locations as pick
        if spot = a1:
            finish(red, "knockout")
        elif spot = b1:
            lose red by "resignation"
        else:
            draw by "stalemate"
"""


def played(tmp_path, choice: str) -> Result:
    game = Game(load(toy_folder(tmp_path, CONTENT, toy=PICK)))
    game.choose(choice)
    assert game.finished
    return game.result


@pytest.mark.parametrize("choice, winners, ending", [("a1", ["red"], "knockout"), ("b1", ["blue"], "resignation"),
                                                      ("c1", [], "stalemate")])
def test_win_lose_and_draw_name_how_the_game_ended(tmp_path, choice, winners, ending):
    result = played(tmp_path, choice)
    assert result.winners == winners and result.ending == ending
    assert Result.from_json(json.loads(json.dumps(result.to_json()))) == result  # a save keeps it


def test_an_ending_that_is_not_a_text_is_refused_where_it_is_written(tmp_path):
    with pytest.raises(LudolexError) as error:
        load(toy_folder(tmp_path, CONTENT, toy="play:\n    win red by 3\n"))
    assert [(d.code, d.position.line, d.position.column) for d in error.value.diagnostics] == [("LX323", 2, 16)]


def test_without_by_there_is_no_ending(tmp_path):
    game = Game(load(toy_folder(tmp_path, CONTENT, toy="play:\n    win red\n")))
    assert game.result.ending == "" and "ending" not in game.result.to_json()


def record(seed: int, winners: list[str], ending: str, reason: str = "") -> dict:
    return {"seed": seed, "players": ["red", "blue"], "winner": winners[0] if len(winners) == 1 else None,
            "winners": winners, "scores": {}, "turns": 5, "decisions": 9, "score_curve": [],
            "reason": reason or " and ".join(winners) + " wins", "error": None, "log": [0], "ending": ending}


def test_the_report_counts_the_games_each_ending_ended_and_who_won_them():
    records = [record(1, ["red"], "knockout"), record(2, ["red"], "knockout"), record(3, ["blue"], "resignation"),
               record(4, ["red", "blue"], "knockout"), record(5, [], "", "turn limit")]
    sheet = next(s for s in summary_sheets(summarize(records)) if s.title == "How games ended")
    assert sheet.columns == ["", "knockout", "resignation", "turn limit"]
    assert sheet.rows == [["games", "3 (60.0%)", "1 (20.0%)", "1 (20.0%)"], ["won by several", "1", "0", "0"],
                          ["won by red", "3", "0", "0"], ["won by blue", "1", "1", "0"]]


def test_a_game_whose_rules_name_no_ending_shows_no_table_of_endings():
    records = [record(1, ["red"], ""), record(2, [], "", "ranking")]
    assert "How games ended" not in [s.title for s in summary_sheets(summarize(records))]


FORMAT_2 = """
CREATE TABLE games (
    game TEXT NOT NULL, ruleset_hash TEXT NOT NULL, bots TEXT NOT NULL, seed INTEGER NOT NULL,
    players TEXT NOT NULL, winner TEXT, scores TEXT NOT NULL, turns INTEGER NOT NULL, decisions INTEGER NOT NULL,
    score_curve TEXT NOT NULL, reason TEXT, error TEXT, log TEXT NOT NULL, winners TEXT,
    PRIMARY KEY (ruleset_hash, bots, seed)
);
PRAGMA application_id = %d;
PRAGMA user_version = 2;
""" % results_db.APPLICATION_ID


def test_a_database_of_format_2_is_read_as_it_is_and_gets_the_ending_column_when_written(tmp_path):
    db = tmp_path / "old.sqlite"
    with sqlite3.connect(db) as connection:
        connection.executescript(FORMAT_2)
        connection.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           ("toy", "v1", "random", 1, '["red", "blue"]', "red", "{}", 3, 3, "[]", "red wins", None,
                            "[0]", '["red"]'))
    connection.close()
    before = db.read_bytes()
    old = Results(db, read_only=True)
    assert [r["ending"] for r in old.records("v1")] == [""]
    old.close()
    assert db.read_bytes() == before
    results = Results(db)
    assert [row[1] for row in results.db.execute("PRAGMA table_info(games)")] == results_db.COLUMNS
    results.add("toy", "v1", "random", record(2, ["blue"], "resignation"))
    assert [(r["seed"], r["ending"]) for r in results.records("v1")] == [(1, ""), (2, "resignation")]
    results.close()


def test_simulate_shows_how_the_games_ended(tmp_path):
    folder = toy_folder(tmp_path, CONTENT, toy=PICK)
    run = CliRunner().invoke(main, ["simulate", str(folder), "--games", "30", "--jobs", "1",
                                    "--db", str(tmp_path / "r.sqlite")])
    assert run.exit_code == 0, run.output
    table = run.output[run.output.index("How games ended"):]
    for ending in ("knockout", "resignation", "stalemate"):
        assert ending in table


@pytest.mark.parametrize("choice, sentence", [("a1", "red wins by knockout, after 1 turn"),
                                              ("b1", "blue wins by resignation (red loses), after 1 turn"),
                                              ("c1", "a draw by stalemate, after 1 turn")])
def test_the_last_line_of_a_game_names_its_ending(tmp_path, choice, sentence):
    assert result_sentence(played(tmp_path, choice), 1) == sentence
