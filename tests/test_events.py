"""Events on every move (`when moved`), simultaneous handlers ordered by a player (`emit ... ordered by`)
and by their `precedence`."""
import textwrap
from pathlib import Path

import pytest
from toy import toy_folder

from interpreter import Game, LudolexError, load

CONTENT = """
players: [red, blue]
board:
  grid: {columns: 3, rows: 1, connections: [orthogonal]}
pieces:
  stone: {per_player: 3, starts_in: supply}
"""

FLOW = """
zone supply per player
variable log = []
play:
    turn red:
        move top(supply(red)) to a1
        move pieces(supply(blue)) to b1
        move [top(a1), top(b1)] to c1
        choose s in [a1, b1] as last_move
        move top(c1) to s
        emit scored(red) ordered by blue
        draw
"""


def game_of(tmp_path: Path, rules: str) -> Game:
    return Game(load(toy_folder(tmp_path, CONTENT, flow=FLOW, listeners=SCORED + textwrap.dedent(rules))))


SCORED = """
when scored(p) as tally:
    set log = log + ["tally"]
"""


def test_every_move_announces_what_moved_where_from_and_where_to(tmp_path):
    game = game_of(tmp_path, """
        when moved(group, origin, target) if target != none:
            set log = log + [[size(group), origin, target]]
        """)
    assert game.evaluate("log") == [[1, "supply/red", "a1"], [3, "supply/blue", "b1"], [2, None, "c1"]]


def test_a_moved_rule_may_ask_for_a_decision_and_the_move_waits_for_it(tmp_path):
    game = game_of(tmp_path, """
        when moved(group, origin, target) if target = c1:
            choose s in [a1, b1] as send_back by blue
            move top(c1) to s
        """)
    assert (game.decision.name, game.decision.player) == ("send_back", "blue")
    game.choose("a1")
    assert game.decision.name == "last_move" and game.evaluate("size(a1)") == 1


def test_handlers_of_an_ordered_event_are_ordered_by_the_player_named(tmp_path):
    game = game_of(tmp_path, """
        when scored(p) as bonus:
            set log = log + ["bonus"]
        when scored(p) if p = blue as never:
            set log = log + ["never"]
        """)
    game.choose("a1")
    decision = game.decision
    assert (decision.name, decision.player, decision.labels()) == ("order_scored", "blue", ["tally", "bonus"])
    game.choose("bonus")
    assert game.evaluate("log") == ["bonus", "tally"] and game.result.reason == "draw"


def test_one_handler_whose_condition_holds_needs_no_ordering(tmp_path):
    game = game_of(tmp_path, """
        when scored(p) if p = blue as never:
            set log = log + ["never"]
        """)
    game.choose("b1")
    assert game.finished and game.evaluate("log") == ["tally"]


def test_a_higher_precedence_runs_first_whatever_the_file_order(tmp_path):
    folder = toy_folder(tmp_path, CONTENT, flow=FLOW, listeners=SCORED, zz_late="""
        when scored(p) as first_of_all precedence 2:
            set log = log + ["first"]
        when scored(p) as last_of_all precedence -1:
            set log = log + ["last"]
        """)
    game = Game(load(folder))
    game.choose("a1")  # one handler per precedence: nobody is asked to order them
    assert game.finished and game.evaluate("log") == ["first", "tally", "last"]


def test_the_player_ordering_an_event_chooses_among_the_highest_precedence_only(tmp_path):
    game = game_of(tmp_path, """
        when scored(p) as bonus:
            set log = log + ["bonus"]
        when scored(p) as cleanup precedence -1:
            set log = log + ["cleanup"]
        """)
    game.choose("a1")
    assert game.decision.labels() == ["tally", "bonus"]
    game.choose("bonus")
    assert game.finished and game.evaluate("log") == ["bonus", "tally", "cleanup"]


def test_moved_takes_three_values(tmp_path):
    with pytest.raises(LudolexError) as error:
        game_of(tmp_path, """
            when moved(group):
                pass
            """)
    assert [d.code for d in error.value.diagnostics] == ["LX307"]
    assert "3 values" in error.value.diagnostics[0].message
