"""Rules that change how, not only how much: `instead of` a procedure, `override` a function's value.
A faction's file says what is its own; the core procedure it replaces names no faction."""
from pathlib import Path

import pytest
from toy import toy_folder

from interpreter import Game, LudolexError, load

CONTENT = """
players: [red, blue]
board:
  grid: {columns: 2, rows: 1, connections: [orthogonal]}
pieces:
  stone: {per_player: 3, starts_in: supply}
  keep: {per_player: {red: 1}, starts_in: supply}
"""

CORE = """
zone supply per player
variable log = []
function bonus(p) = 1
procedure return_piece(x):
    set log = log + ["core"]
    move x to supply(x.owner)
play:
    turn red:
        move pieces(supply(red)) + pieces(supply(blue)) to a1
        for each x in pieces(a1) where x is keep or x.kind = stone and x.owner = blue:
            return_piece(x)
        end game ranked by most bonus
"""


def game_of(tmp_path: Path, faction: str, core: str = CORE) -> Game:
    return Game(load(toy_folder(tmp_path, CONTENT, core=core, faction=faction)))


def test_instead_of_replaces_a_procedure_only_where_its_condition_holds(tmp_path):
    game = game_of(tmp_path, """
        instead of return_piece(x) if x is keep:
            move x to box
        """)
    assert [c.id for c in game.state.zones["box"]] == ["red-keep-1"]
    assert game.evaluate("log") == ["core"] * 3  # the three blue stones went the core's way
    assert game.evaluate("size(supply(blue))") == 3


def test_proceed_runs_the_replaced_procedure_and_the_player_acting_orders_several_rules(tmp_path):
    game = game_of(tmp_path, """
        instead of return_piece(x) if x.owner = blue as tithe:
            set log = log + ["tithe"]
            proceed
        instead of return_piece(x) if x.owner = blue as echo:
            set log = log + ["echo"]
            proceed
        """)
    decision = game.decision
    assert (decision.name, decision.player, decision.labels()) == ("replace_return_piece", "red", ["tithe", "echo"])
    game.choose("echo")  # the keep went first, the core's way; then the first blue stone
    assert game.evaluate("log") == ["core", "echo", "tithe", "core"]  # each rule once, then the procedure itself
    assert game.decision.name == "replace_return_piece"  # the next blue stone


def test_a_rule_that_does_not_proceed_stops_the_chain(tmp_path):
    game = game_of(tmp_path, """
        instead of return_piece(x) if x.owner = blue:
            set log = log + ["kept"]
        """)
    assert game.evaluate("log") == ["core", "kept", "kept", "kept"]
    assert game.evaluate("size(a1)") == 6  # the blue stones stayed


def test_an_override_gives_another_value_where_its_condition_holds_the_first_declared_first(tmp_path):
    game = game_of(tmp_path, """
        override bonus(p) = 5 if p = blue
        override bonus(p) = 9 if p = blue
        modify bonus(p) by 1
        """)
    assert game.evaluate("bonus(red)") == 2 and game.evaluate("bonus(blue)") == 5
    assert game.result.winner == "blue"


def overrides_in_two_files(tmp_path: Path, first: str, second: str) -> Game:
    return Game(load(toy_folder(tmp_path, CONTENT, core=CORE, faction=first, other_faction=second)))


def test_overrides_of_two_files_that_may_both_hold_must_say_which_wins(tmp_path):
    with pytest.raises(LudolexError) as error:
        overrides_in_two_files(tmp_path, "override bonus(p) = 5 if p = blue\n",
                               "override bonus(p) = 9 if p != red\n")
    [found] = error.value.diagnostics
    assert (found.code, Path(found.position.file).name, found.position.line) == ("LX339", "other_faction.rules", 1)
    assert "faction.rules, line 1" in found.message and "precedence" in found.hint


def test_the_higher_precedence_wins_across_files_whatever_their_order(tmp_path):
    game = overrides_in_two_files(tmp_path, "override bonus(p) = 5 if p = blue\n",
                                  "override bonus(p) = 9 if p != red precedence 1\n")
    assert game.evaluate("bonus(blue)") == 9 and game.evaluate("bonus(red)") == 1


def test_overrides_whose_conditions_exclude_each_other_need_no_precedence(tmp_path):
    game = overrides_in_two_files(tmp_path, "override bonus(p) = 5 if p = blue\n",
                                  "override bonus(p) = 9 if p = red\n")
    assert game.evaluate("bonus(blue)") == 5 and game.evaluate("bonus(red)") == 9


def test_mistakes_in_replacement_rules_are_reported_where_they_are(tmp_path):
    with pytest.raises(LudolexError) as error:
        game_of(tmp_path, """
            instead of return_pieces(x):
                pass
            override bonus(p, q) = 2
            procedure helper():
                proceed
            """, core=CORE + "    helper()\n")
    found = sorted((d.code, d.position.line) for d in error.value.diagnostics if d.severity == "error")
    assert found == [("LX307", 4), ("LX319", 2), ("LX331", 6)]
    assert "did you mean `return_piece`" in str(error.value)
