"""`because`: where the points came from. A statement (or a block) given a reason records, per player,
how the game's score changed over it (interpreter/engine/reasons.py); each simulated game keeps the
points by reason, with `other` for the rest of the score; the report breaks them down by faction."""
import re
import sqlite3
import sys
from pathlib import Path

import processes
import pytest
from toy import toy_folder

from interpreter.diagnostics.errors import RuleRuntimeError
from interpreter.loading.stages import load_ruleset
from interpreter.play.game import Game
from interpreter.reports.points import PointsTally
from interpreter.simulation import results_db
from interpreter.simulation.results_db import Results
from interpreter.simulation.runner import play_one
from interpreter.validation.validate import validate_ruleset

LUDOLEX = Path(sys.executable).with_name("ludolex")

CONTENT = """\
players: [red, blue]
board:
  grid: {columns: 3, rows: 2, connections: [orthogonal]}
pieces:
  stone: {per_player: 4, starts_in: supply}
"""
# Red's points: crafting 1, battle 2, penalty -2, stone 1, placing 1, and 3 with no reason (other).
# Blue's: ambush 1 (inside the battle: the innermost reason wins), penalty -1 (a score that stops
# at 0 loses only what it had), outer 2 (`because none` gives no reason of its own), final 4 (the
# game ends inside that block).
RULES = """\
zone supply per player
variable vp per player = 0
function points(p) = vp(p)

procedure score(p, n):
    set vp(p) = max(v in [0, vp(p) + n])

procedure battle():
    score(red, 2)
    score(blue, 1) because "ambush"

play:
    score(red, 1) because "crafting"
    battle() because "battle"
    score(red, 3)
    score(red, -2) because "penalty"
    score(blue, -5) because "penalty"
    because "outer":
        score(blue, 2) because none
    because first(x in pieces(supply(red))):
        score(red, 1)
    turn red:
        because "placing":
            choose s in locations where top(s) = none as put
            move first(x in pieces(supply(you))) to s
            score(you, 1)
    because "final":
        score(blue, 4)
        end game ranked by most points
"""
RED = {"crafting": 1, "battle": 2, "penalty": -2, "stone": 1, "placing": 1}
BLUE = {"ambush": 1, "penalty": -1, "outer": 2, "final": 4}


def line_of(text: str, fragment: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if fragment in line)


def toy(where: Path, rules: str = RULES, score: bool = True) -> Path:
    folder = toy_folder(where, CONTENT, toy=rules)
    if score:
        (folder / "game.yaml").write_text("name: toy\ncontent: ../cards\nscore: points\n")
    return folder


def test_each_reason_gets_the_change_of_score_over_its_statement_the_innermost_winning(tmp_path):
    game = Game(load_ruleset(toy(tmp_path)))
    game.choose("b1")  # the decision inside `because "placing":`
    assert game.result.scores == {"red": 6, "blue": 6}
    assert game.runtime.points_by_reason.by_player == {"red": RED, "blue": BLUE}


def test_a_simulated_game_keeps_its_points_by_reason_and_other_for_the_rest(tmp_path):
    record = play_one(load_ruleset(toy(tmp_path)), 0)
    assert record["error"] is None
    assert record["points_by_reason"] == {"red": {**RED, "other": 3}, "blue": BLUE}
    for player, reasons in record["points_by_reason"].items():  # the reasons add up to the final score
        assert sum(reasons.values()) == record["scores"][player]


def test_a_game_whose_manifest_names_no_score_warns_at_each_because_and_records_nothing(tmp_path):
    folder = toy(tmp_path, score=False)
    warnings = [d for d in validate_ruleset(folder) if d.code == "LX335"]
    assert len(warnings) == RULES.count("because") and all(d.severity == "warning" for d in warnings)
    first = warnings[0]
    assert (first.position.line, first.position.column) == (line_of(RULES, '"ambush"'), 28)  # at the reason
    assert "manifest names no `score`" in first.message and "score: NAME" in first.hint
    record = play_one(load_ruleset(folder), 0)
    assert record["error"] is None and record["points_by_reason"] == {}


def test_because_after_a_statement_that_scores_nothing_is_warned_and_win_is_told_to_use_by(tmp_path):
    rules = RULES.replace("        end game ranked by most points",
                          "        win red because \"dominance\"\n    let x = 1 because \"nothing\"")
    found = {(d.position.line, d.message, d.hint) for d in validate_ruleset(toy(tmp_path, rules)) if d.code == "LX335"}
    assert found == {
        (line_of(rules, "win red"), "`win` makes nobody score: `because` has no points to give a reason here",
         "to say how the game ended, write `by` in place of `because`"),
        (line_of(rules, "let x"), "`let` makes nobody score: `because` has no points to give a reason here", None)}


def test_a_reason_is_a_text_or_a_component(tmp_path):
    wrong = RULES.replace('score(red, 1) because "crafting"', "score(red, 1) because 3")
    errors = [d for d in validate_ruleset(toy(tmp_path / "static", wrong)) if d.severity == "error"]
    assert [(d.code, d.position.line, d.message) for d in errors] == [
        ("LX323", line_of(wrong, "because 3"), "the reason of `because` must be a text or a component, not a number")]
    # a value the checker cannot type (a variable) is checked when the statement runs
    hidden = RULES.replace('score(red, 1) because "crafting"', "score(red, 1) because why").replace(
        "function points", "variable why = 3\nfunction points")
    with pytest.raises(RuleRuntimeError) as raised:
        Game(load_ruleset(toy(tmp_path / "runtime", hidden)))
    assert raised.value.position.line == line_of(hidden, "because why")
    assert "a reason (`because`) is a text or a component, not 3" in raised.value.message


def test_a_database_of_format_4_is_read_without_points_and_gets_the_column_to_store_them(tmp_path):
    path = tmp_path / "old.sqlite"
    format_4 = results_db.COLUMNS[:results_db.COLUMNS.index("points_by_reason")]
    schema = results_db.SCHEMA.replace("    points_by_reason TEXT,\n    first_mover TEXT,\n    kinds_moved TEXT,\n", "").replace(
        f"user_version = {results_db.SCHEMA_VERSION}", "user_version = 4")
    with sqlite3.connect(path) as connection:
        connection.executescript(schema)
        connection.execute(f"INSERT INTO games ({', '.join(format_4)}) VALUES ({', '.join('?' * len(format_4))})",
                           ("toy", "v1", "random", 1, '["red", "blue"]', "red", "{}", 3, 3, "[]", "ranking", None,
                            "[0]", '["red"]', "", '["random", "random"]', "{}", None))
    connection.close()
    old = Results(path, read_only=True)
    (stored,) = old.records("v1")
    old.close()
    assert stored["points_by_reason"] == {}
    record = play_one(load_ruleset(toy(tmp_path)), 0)
    results = Results(path)
    results.add("toy", "v1", "random", record)
    new = next(r for r in results.records("v1") if r["seed"] == record["seed"])
    results.close()
    assert new["points_by_reason"] == record["points_by_reason"] and new["points_by_reason"]["blue"] == BLUE


def record(players, points):
    return {"players": players, "points_by_reason": points}


def test_the_table_gives_each_reason_per_game_and_player_other_last_then_the_total():
    records = [record(["red", "blue"], {"red": {"battle": 4, "other": 2}, "blue": {"turmoil": -2, "roosts": 6}}),
               record(["blue", "red"], {"red": {"battle": 2}, "blue": {"roosts": 4}})]
    sheet = PointsTally.of(records).sheet()
    assert sheet.title == "Where the points came from" and sheet.columns == ["Reason", "red", "blue"]
    assert sheet.rows == [["roosts", "—", "5.00 (125%)"],
                          ["battle", "3.00 (75%)", "—"],
                          ["turmoil", "—", "-1.00 (-25%)"],
                          ["other", "1.00 (25%)", "—"],
                          ["total", "4.00", "4.00"]]
    assert PointsTally.of([record(["red"], {"red": {"other": 3}})]).sheet() is None  # no reason given anywhere
    assert PointsTally.of([record(["red"], {})]).sheet() is None  # games stored before format 5


def ludolex(*args, cwd: Path):
    done = processes.run([str(LUDOLEX), *map(str, args)], capture_output=True, text=True, cwd=cwd,
                         env={"COLUMNS": "200", "PATH": ""})
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


def test_a_scenario_checks_the_points_of_each_reason_exactly(tmp_path):
    folder = toy(tmp_path)
    (folder / "tests").mkdir()
    (folder / "tests" / "points.yaml").write_text(
        "scenarios:\n"
        "  - name: right\n    rules: [X-1]\n    choices: [put: b1]\n"
        "    expect: {points: {red: {crafting: 1, battle: 2, penalty: -2, stone: 1, placing: 1}}}\n"
        "  - name: the battle's points taken for the ambush\n    rules: [X-1]\n    choices: [put: b1]\n"
        "    expect: {points: {blue: {battle: 1, penalty: -1, outer: 2, final: 4}}}\n")
    done = ludolex("test", folder, cwd=tmp_path)
    assert done.returncode == 1 and "1 passed, 1 failed" in done.stdout
    assert ("points of blue by reason: expected {'battle': 1, 'penalty': -1, 'outer': 2, 'final': 4}, found "
            "{'ambush': 1, 'penalty': -1, 'outer': 2, 'final': 4}") in done.stdout


ROOT_REASONS = {"battle", "building", "crafting", "roosts", "turmoil", "sympathy", "revolt", "infamy", "aid", "quests",
                "exploring", "strike", "despot", "other"}


def test_a_simulated_root_run_reports_where_the_points_came_from_in_the_terminal_and_the_page(tmp_path):
    simulated = ludolex("simulate", "root", "--games", 4, "--max-turns", 12, "--jobs", 1, "--db", "r.sqlite",
                        cwd=tmp_path)
    assert simulated.returncode == 0, simulated.stdout + simulated.stderr
    table = simulated.stdout[simulated.stdout.index("Where the points came from"):]
    assert re.search(r"Reason\s+┃\s+marquise\s+┃\s+eyrie\s+┃\s+alliance\s+┃\s+vagabond", table)
    reported = ludolex("report", "r.sqlite", "--plots", "plots", cwd=tmp_path)
    assert reported.returncode == 0
    page = (tmp_path / "plots" / "report.html").read_text(encoding="utf-8")
    section = page[page.index("<h2>Where the points came from</h2>"):]
    rows = re.findall(r"<tr><td class=text>([^<]+)</td>", section[:section.index("</table>")])
    assert rows[-1] == "total" and rows[:-1] and set(rows[:-1]) <= ROOT_REASONS | {"brutal_tactics", "royal_claim",
                                                                                "stand_and_deliver"}
    assert rows[0] in table  # the terminal shows the same rows
