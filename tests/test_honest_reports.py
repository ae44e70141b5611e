"""Reports that cannot mislead: seats and bots turned and measured, the bots' strength compared, every
game that did not end listed and replayed to its error, the options each player chose, and a summary in
plain words at the top."""
import io
import os
import re
import sqlite3
import sys
from collections import Counter
from pathlib import Path

import processes
import pytest
from rich.console import Console
from toy import toy_folder

from interpreter.engine.decisions import PASS
from interpreter.engine.state import Component
from interpreter.reports.document import render_report, report_of
from interpreter.reports.failures import Failures
from interpreter.reports.overview import RunContext, run_overview
from interpreter.reports.run_tally import RunTally
from interpreter.reports.seats import FairShare, SeatTally
from interpreter.reports.usage import UsageTally
from interpreter.simulation import results_db
from interpreter.simulation.results_db import Results
from interpreter.simulation.runner import Table, options_of_key, play_one
from interpreter.simulation.usage import option_words

ROOT = Path(__file__).resolve().parent.parent
LUDOLEX = Path(sys.executable).with_name("ludolex")

CONTENT = """\
players: [red, blue, green]
board:
  grid: {columns: 3, rows: 1, connections: [orthogonal]}
"""
# Each player in turn picks a square; a1 scores a point, the most points win (a tie: nobody wins).
# green picking c1 stops the game on an error.
RULES = """\
variable points per player = 0
variable broken = 0

play:
    for each p in players:
        turn p:
            choose spot in locations as pick
            if spot = a1:
                set points(you) = points(you) + 1
            elif spot = c1 and you = green:
                set broken = index(nth(locations, 99))
    end game ranked by most score

function score(p) = points(p)
"""


def toy_game(where: Path) -> Path:
    """The toy above, with a bot that always picks a1 (`greedy`)."""
    folder = toy_folder(where, CONTENT, toy=RULES)
    (folder / "bots").mkdir(exist_ok=True)
    (folder / "bots" / "greedy.yaml").write_text("all:\n  pick: 'if spot = a1 then 1 else 0'\n")
    return folder


def record(seed, players, winners, bots=None, counts=None, error=None, reason=""):
    return {"seed": seed, "players": players, "winner": winners[0] if len(winners) == 1 else None,
            "winners": winners, "scores": {}, "turns": 3, "decisions": 3, "score_curve": [],
            "reason": reason, "error": error, "ending": "", "seat_bots": bots or ["random"] * len(players),
            "option_counts": counts or {}}


def text_of(renderable) -> str:
    console = Console(record=True, width=200, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


# The seating ----------------------------------------------------------------------------------------

def test_over_n_by_n_games_each_player_sits_in_each_seat_and_meets_each_bot_equally_often():
    table = Table(bots=("a", "b", "c"), players=("red", "blue", "green"))
    seats, bots = Counter(), Counter()
    for seed in range(5, 5 + 9):  # any nine games in a row
        players, seat_bots = table.seating(seed), table.seat_bots(seed, 3)
        seats.update((p, i) for i, p in enumerate(players))
        bots.update(zip(players, seat_bots))
    assert set(seats.values()) == {3} and len(seats) == 9
    assert set(bots.values()) == {3} and len(bots) == 9


def test_fixed_seats_keep_one_order_and_each_run_names_its_seating():
    table = Table(bots=("a", "b"), players=("red", "blue"), fixed_seats=True)
    assert {tuple(table.seating(s)) for s in range(6)} == {("red", "blue")}
    assert {tuple(table.seat_bots(s, 2)) for s in range(6)} == {("a", "b")}
    assert table.key() == "a,b players=red,blue seats=fixed"
    assert Table(options=(("map", "winter"),)).key() == "random seats=rotating map=winter"
    assert options_of_key("a,b players=red,blue max_turns=9 seats=rotating map=winter") == [("map", "winter")]


def test_without_named_players_every_player_of_the_game_takes_turns_in_the_first_seat(cernunos):
    firsts = {play_one(cernunos, seed, Table())["players"][0] for seed in range(4)}
    assert firsts == {"green", "purple"}


def test_a_record_says_the_bot_of_each_seat_and_counts_the_options_chosen(tmp_path):
    from interpreter import load

    game = load(toy_game(tmp_path))
    one = play_one(game, 2, Table(bots=("greedy", "random"), players=("red", "blue")))
    assert one["players"] == ["red", "blue"] and one["seat_bots"] == ["random", "greedy"]  # the bots turn at seed 2
    assert one["option_counts"]["blue"] == {"pick": {"a1": 1}}  # greedy picks a1, a place counted by its name
    assert sum(n for options in one["option_counts"].values() for counts in options.values()
               for n in counts.values()) == one["decisions"]


def test_an_option_counts_under_its_kind_or_its_first_word_that_is_not_a_place():
    places = {"a1", "b2"}
    card = Component("plot-7", "plot", None, "hand/red")
    assert option_words((card,), places) == "plot"
    assert option_words(("b2", "tree"), places) == "tree"
    assert option_words(("a1", "b2"), places) == "a1"
    assert option_words((3,), places) == "3"
    assert option_words(PASS, places) == "pass"


# Seats, bots and the fair share ---------------------------------------------------------------------

def test_the_fair_share_leaves_out_draws_so_many_draws_do_not_look_like_a_disadvantage():
    # seat 1 and seat 2 each win 10 games; 80 are draws: nobody is favoured
    seatings = [["x", "y"] if i % 2 else ["y", "x"] for i in range(100)]
    games = [record(i, seating, [seating[i // 2 % 2]] if i < 20 else []) for i, seating in enumerate(seatings)]
    assert FairShare.of(games).share == pytest.approx(0.1)
    first, second = SeatTally.of(games).seat_rates()
    assert (first.wins.count, first.fair, first.p_value) == (10, pytest.approx(0.1), 1.0)
    assert second.p_value == 1.0


def test_bots_of_unequal_strength_are_measured_and_said():
    games = [record(i, ["x", "y"] if i % 2 else ["y", "x"], ["x" if i % 2 else "y"] if i % 4 < 2 else
                    ["y" if i % 2 else "x"], ["strong", "weak"] if (i // 2) % 2 else ["weak", "strong"])
             for i in range(40)]
    # the strong bot wins every game: the games where it sat first and those where it sat second
    for r in games:
        r["winners"] = [p for p, b in zip(r["players"], r["seat_bots"]) if b == "strong"]
    (duel,) = SeatTally.of(games).bot_duels()
    assert (duel.a, duel.a_only, duel.b_only) == ("weak", 0, 40) and duel.p_value < 0.001
    lines = run_overview(RunTally.of(games), RunContext("toy"))
    assert any(line.startswith("The bots are of unequal strength: weak won 0 and strong 40") for line in lines)
    assert any("each bot played each player about equally often" in line for line in lines)


def test_equal_bots_are_not_flagged_and_three_bots_are_compared_in_pairs_with_a_correction():
    games = [record(i, ["x", "y", "z"], [["x", "y", "z"][i % 3]], [["a", "b", "c"][(i + k) % 3] for k in range(3)])
             for i in range(30)]
    duels = SeatTally.of(games).bot_duels()
    assert [(d.a, d.b) for d in duels] == [("a", "b"), ("a", "c"), ("b", "c")]
    assert not any(d.significant for d in duels)
    assert "do not differ significantly" in " ".join(run_overview(RunTally.of(games), RunContext("toy")))


def test_the_seating_is_said_as_measured_from_the_games():
    fixed = [record(i, ["x", "y"], ["x"], ["a", "b"]) for i in range(4)]
    said = " ".join(SeatTally.of(fixed).seating_sentences())
    assert "The seats were fixed: x seat 1, y seat 2" in said
    assert "Each player was always played by the same bot (x by a, y by b)" in said
    by_seat = [record(i, ["x", "y"] if i % 2 else ["y", "x"], ["x"], ["a", "b"]) for i in range(4)]
    said = " ".join(SeatTally.of(by_seat).seating_sentences())
    assert "The seating turned" in said and "Each bot kept its seat (seat 1 by a, seat 2 by b)" in said
    assert "cannot tell their strength" in " ".join(run_overview(RunTally.of(by_seat), RunContext("toy")))
    one_bot = [record(i, ["x", "y"] if i % 2 else ["y", "x"], ["x"]) for i in range(4)]
    assert "Every seat was played by the same bot, random" in " ".join(SeatTally.of(one_bot).seating_sentences())


# Games that did not end, and the options chosen -----------------------------------------------------

def test_every_game_that_did_not_end_is_counted_and_listed_with_its_seed_and_error():
    games = [record(1, ["x", "y"], ["x"]), record(2, ["x", "y"], [], error="toy.rules:3:5: boom", reason="error"),
             record(3, ["x", "y"], [], error="too many steps", reason="limit")]
    assert Failures.of(games, 0).header_line("toy") == "toy: 3 game(s): 1 finished, 1 stopped by a limit, 1 stopped on an error"
    sheet = Failures.of(games).sheet("ludolex replay r.sqlite --game toy --seed {seed}")
    assert sheet.rows == [["2", "error", "toy.rules:3:5: boom", "ludolex replay r.sqlite --game toy --seed 2"],
                          ["3", "limit", "too many steps", "ludolex replay r.sqlite --game toy --seed 3"]]
    assert "2 game(s) did not end" in " ".join(run_overview(RunTally.of(games), RunContext("toy")))


def test_the_options_chosen_are_counted_per_game_and_by_share_of_the_decision():
    games = [record(1, ["x", "y"], ["x"], counts={"x": {"act": {"build": 3, "march": 1}}, "y": {"act": {"march": 2}}}),
             record(2, ["y", "x"], ["y"], counts={"x": {"act": {"build": 1}}, "y": {"act": {"recruit": 2}}})]
    sheet = UsageTally.of(games).sheet()
    assert sheet.columns == ["Decision", "Option", "x", "y"]
    assert sheet.rows == [["act", "build", "2.00 (80%)", "—"], ["", "march", "0.50 (20%)", "1.00 (50%)"],
                          ["", "recruit", "—", "1.00 (50%)"]]
    capped = UsageTally.of(games).sheet(1)
    assert capped.rows[-1] == ["", "(2 other options)", "0.50 (20%)", "2.00 (100%)"]
    assert UsageTally.of([record(1, ["x"], ["x"])]).sheet() is None  # games stored before the options were counted


def test_the_report_opens_with_its_context_and_a_glossary():
    games = [record(i, ["y", "x"] if i % 2 else ["x", "y"], ["x"], counts={"x": {"act": {"build": 1}}})
             for i in range(6)]
    context = RunContext("toy", "abc123", "random seats=rotating", "ludolex report r.sqlite", "2030-01-02 10:00 UTC")
    report = report_of(RunTally.of(games), context)
    assert report.title == "toy: random in every seat"
    assert report.overview[0].startswith("toy (version abc123): 6 games (6 finished) between x, y, played by random")
    assert "`ludolex report r.sqlite`" in report.overview[1] and "2030-01-02 10:00 UTC" in report.overview[1]
    text = text_of(render_report(report))
    assert "Glossary:" in text and "fair share:" in text and "How often each option was chosen" in text
    assert text.index("Glossary:") < text.index("Results of 6 games")


# A database written before the bots turned ------------------------------------------------------------

FORMAT_3 = """
CREATE TABLE games (
    game TEXT NOT NULL, ruleset_hash TEXT NOT NULL, bots TEXT NOT NULL, seed INTEGER NOT NULL,
    players TEXT NOT NULL, winner TEXT, scores TEXT NOT NULL, turns INTEGER NOT NULL, decisions INTEGER NOT NULL,
    score_curve TEXT NOT NULL, reason TEXT, error TEXT, log TEXT NOT NULL, winners TEXT, ending TEXT,
    PRIMARY KEY (ruleset_hash, bots, seed)
);
PRAGMA application_id = %d;
PRAGMA user_version = 3;
""" % results_db.APPLICATION_ID


def test_a_game_stored_before_format_4_gets_the_bots_of_its_run_seat_by_seat(tmp_path):
    db = tmp_path / "old.sqlite"
    with sqlite3.connect(db) as connection:
        connection.executescript(FORMAT_3)
        connection.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           ("toy", "v1", "a,b players=red,blue,green", 1, '["blue", "green", "red"]', "red", "{}", 3,
                            3, "[]", "red wins", None, "[0]", '["red"]', ""))
    connection.close()
    old = Results(db, read_only=True)
    (stored,) = old.records("v1")
    old.close()
    assert stored["seat_bots"] == ["a", "b", "a"]  # the bots of seats 1, 2, 3: they did not turn then
    assert stored["option_counts"] == {} and stored["finished_at"] is None


# The command, as a designer runs it ---------------------------------------------------------------------

def ludolex(*args, cwd: Path):
    wide = dict(os.environ, COLUMNS="250")  # sentences on one line each
    done = processes.run([str(LUDOLEX), *map(str, args)], capture_output=True, text=True, cwd=cwd, env=wide)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


def test_simulate_report_and_replay_tell_the_whole_story(tmp_path):
    game = toy_game(tmp_path)
    simulated = ludolex("simulate", game, "--games", 45, "--bots", "random,greedy", "--jobs", 1, "--db", "r.sqlite",
                        cwd=tmp_path)
    assert simulated.returncode == 1  # some games stopped on an error
    counted = re.search(r"toy: 45 game\(s\): (\d+) finished, (\d+) stopped on an error", simulated.stdout)
    assert counted, simulated.stdout
    failed_seeds = re.findall(r"^  seed (\d+): error: ", simulated.stdout, re.MULTILINE)
    assert failed_seeds and "toy.rules:11:17" in simulated.stdout
    assert "random,greedy seats=rotating" in simulated.stderr
    assert "The bots are of unequal strength: random won" in simulated.stdout
    assert "Win rate by bot" in simulated.stdout and "Win rate by player and bot" in simulated.stdout
    assert "Win rate by seat" in simulated.stdout

    report = ludolex("report", "r.sqlite", cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    assert "How often each option was chosen" in report.stdout and "`ludolex report r.sqlite`" in report.stdout

    replayed = ludolex("replay", "r.sqlite", "--game", game, "--seed", failed_seeds[0], cwd=tmp_path)
    assert replayed.returncode == 1
    assert "the rules stopped on an error at choice" in replayed.stderr and "toy.rules:11:17" in replayed.stderr
    assert "pick: c1" in replayed.stdout.splitlines()[-1]  # the choice that stopped it is the last one shown


def test_the_report_page_lists_every_game_that_did_not_end_and_names_the_game_and_bots(tmp_path):
    pytest.importorskip("matplotlib", reason="the plots need matplotlib, an extra")
    game = toy_game(tmp_path)
    ludolex("simulate", game, "--games", 45, "--bots", "random,greedy", "--jobs", 1, "--db", "r.sqlite", cwd=tmp_path)
    done = ludolex("report", "r.sqlite", "--plots", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    results = Results(tmp_path / "r.sqlite", read_only=True)
    ((_, version, run, _),) = results.versions()
    failed = [r for r in results.records(version, run, with_log=False) if r["error"]]
    results.close()
    assert f"Games that did not end ({len(failed)})" in page
    for r in failed:
        assert f"--seed {r['seed']}</td>" in page
    assert "<title>toy: random vs greedy</title>" in page and version not in page.split("<body>")[0]
    assert page.index("Glossary") < page.index("<img") < page.index("Results of")


def test_plots_label_rates_above_their_intervals_and_keep_the_score_band_above_zero():
    plots = pytest.importorskip("interpreter.reports.plots", reason="the plots need matplotlib, an extra")
    from interpreter.reports.summary import rate

    figure = plots._figure()
    axes = figure.add_subplot()
    rates = [("x", rate(3, 10)), ("y", rate(0, 10))]
    plots._rate_bars(axes, rates, ["C0", "C1"], 0.5)
    for text, (_, r) in zip(axes.texts, rates):
        assert text.xy[1] == pytest.approx(100 * r.high) and text.get_position()[1] > 0  # above the interval
    assert axes.get_ylim()[0] == 0
    scores = [[[1, {"x": 0}], [2, {"x": s}]] for s in (0, 0, 0, 10)]  # mean 2.5, sd 5: mean - sd is below 0
    curves = plots.mean_score_curves([{"players": ["x"], "score_curve": c} for c in scores])
    assert min(curves["x"].q1s) >= 0
