"""Who moved first is read from the game (the player of its first turn), not from the seats: a report
says who it was and whether it helped, and calls a seat a seat."""
import io

from click.testing import CliRunner
from rich.console import Console
from test_honest_reports import ROOT, record
from toy import toy_folder

from interpreter.interfaces.cli import main
from interpreter.loading.stages import load_ruleset
from interpreter.reports.overview import RunContext, run_overview
from interpreter.reports.run_tally import RunTally
from interpreter.simulation.runner import Table, play_one

# x moves first whatever the seats (which turn every game); three marks in a line win.
TIC_TAC_TOE = {
    "content": """\
        players: [o, x]
        board:
          grid: {columns: 3, rows: 3}
        pieces:
          mark: {per_player: 5, starts_in: supply}
        """,
    "rules": """\
        zone supply per player
        variable current = x

        function owns(p, s) = top(s) != none and top(s).owner = p
        function line(p, a, b, c) = owns(p, a) and owns(p, b) and owns(p, c)
        function won(p) = (line(p, a1, b1, c1) or line(p, a2, b2, c2) or line(p, a3, b3, c3) or
                           line(p, a1, a2, a3) or line(p, b1, b2, b3) or line(p, c1, c2, c3) or
                           line(p, a1, b2, c3) or line(p, c1, b2, a3))

        play:
            repeat:
                turn current:
                    choose square in locations where top(square) = none as place
                    move top(supply(you)) to square
                if won(current):
                    win current
                if all(s in locations where top(s) != none):
                    draw
                set current = next(current)
        """}


def overview_of(records) -> str:
    console = Console(width=400, file=io.StringIO(), record=True)
    for line in run_overview(RunTally.of(records), RunContext("game")):
        console.print(line)
    return console.export_text()


def test_a_first_mover_advantage_shows_though_the_seats_turn(tmp_path):
    game = toy_folder(tmp_path, TIC_TAC_TOE["content"], ttt=TIC_TAC_TOE["rules"])
    done = CliRunner().invoke(main, ["simulate", str(game), "--games", "300", "--jobs", "1",
                                     "--db", str(tmp_path / "r.sqlite")], terminal_width=400)
    assert done.exit_code == 0, done.output
    said = " ".join(done.output.split())
    assert "games in which each sat in seat 1: o 150, x 150" in said  # the seats turned...
    assert "Who moved first (the player of the first turn): x in every game." in said  # ...but x always began
    assert "The player who moved first won" in said and ": a significant advantage (p < 0.001" in said
    assert "seat 1 (first)" not in said and "│ seat 1 │" in done.output  # a seat is called a seat


def test_cernunos_is_begun_by_green_whoever_sits_in_seat_1():
    cernunos = load_ruleset(ROOT / "rulesets" / "cernunos")
    records = [play_one(cernunos, seed, Table(max_turns=3)) for seed in range(4)]
    assert {r["players"][0] for r in records} == {"green", "purple"}  # the seating turns (CN-6)
    assert [r["first_mover"] for r in records] == ["green"] * 4
    assert "Who moved first (the player of the first turn): green in every game." in overview_of(records)


def test_rules_without_turns_are_begun_by_the_first_to_decide(tmp_path):
    game = toy_folder(tmp_path, "players: [red, blue]\nboard:\n  locations: {}\n", bid="""\
        play:
            choose n in [1, 2] as bid by blue
            choose n in [1, 2] as bid by red
            win blue
        """)
    kept = play_one(load_ruleset(game), 0)
    assert kept["error"] is None and kept["first_mover"] == "blue"


def test_games_stored_before_the_first_mover_was_recorded_speak_of_seat_1():
    old = [record(seed, ["red", "blue"][::1 - 2 * (seed % 2)], ["red"]) for seed in range(6)]
    said = overview_of(old)
    assert "Who moved first was not recorded" in said and "The player in seat 1 won 50.0%" in said
    mixed = old + [dict(record(9, ["red", "blue"], ["blue"]), first_mover="blue")]
    said = overview_of(mixed)
    assert "blue in every game (6 game(s) stored before it was recorded left out)" in said
