"""The checker: bad rules are reported with a code, a file, a line and a column, all at once."""
import textwrap
from pathlib import Path

import pytest

from interpreter import LudolexError, load

CONTENT = """\
players: [red, blue]
board:
  grid: {columns: 3, rows: 2, connections: [orthogonal]}
pieces:
  stone:
    per_player: 4
    starts_in: supply
    traits: [heavy]
"""

FLOW = """\
zone supply per player
play:
    turn red:
        choose s in locations where top(s) = none as put
        move first(x in pieces(supply(you))) to s
    end game ranked by most stones
function stones(p) = count(s in locations where top(s).owner = p)
"""


def make_game(tmp_path: Path, rules: str, content: str = CONTENT) -> Path:
    (tmp_path / "cards").mkdir(exist_ok=True)
    (tmp_path / ".git").mkdir(exist_ok=True)  # the project: its manifest may name ../cards
    (tmp_path / "cards" / "content.yaml").write_text(content)
    game = tmp_path / "game"
    game.mkdir(exist_ok=True)
    (game / "game.yaml").write_text("name: toy\ncontent: ../cards\n")
    (game / "toy.rules").write_text(textwrap.dedent(rules))
    return game


def diagnostics(tmp_path, rules, content=CONTENT):
    with pytest.raises(LudolexError) as error:
        load(make_game(tmp_path, rules, content))
    return [(d.code, d.position.line if d.position else None, d.position.column if d.position else None)
            for d in error.value.diagnostics if d.severity == "error"]


def test_a_valid_toy_game_loads_and_plays(tmp_path):
    from interpreter import Game

    game = Game(load(make_game(tmp_path, FLOW)))
    assert game.decision.name == "put" and len(game.decision.options) == 6
    game.choose("b2")
    assert game.result.winner == "red" and game.result.scores == {"red": 1, "blue": 0}


def test_syntax_error_names_line_and_column_and_what_was_expected(tmp_path):
    with pytest.raises(LudolexError) as error:
        load(make_game(tmp_path, FLOW + "function broken(p) = count(x in )\n"))
    (d,) = error.value.diagnostics
    assert (d.code, d.position.line, d.position.column) == ("LX101", 8, 33)
    assert "expected" in d.message and "toy.rules" in d.position.file


def test_every_meaning_error_is_reported_in_one_run(tmp_path):
    rules = FLOW + "function a(p) = top(p).onwer\nfunction b(p) = stones(p, p)\nfunction c(p) = 1 + frobnicate\n"
    found = diagnostics(tmp_path, rules)
    assert ("LX308", 8, 17) in found  # unknown attribute
    assert ("LX307", 9, 17) in found  # wrong number of arguments
    assert ("LX302", 10, 21) in found  # unknown name
    assert len(found) == 3


def test_unknown_name_suggests_the_closest_one(tmp_path):
    with pytest.raises(LudolexError) as error:
        load(make_game(tmp_path, FLOW + "function d(p) = count(s in locations where top(s) is stoen)\n"))
    (d,) = [d for d in error.value.diagnostics if d.severity == "error"]
    assert d.code == "LX309" and d.hint == "did you mean `stone`?"


def test_type_errors(tmp_path):
    rules = FLOW + "function e(p) = 3 + p.kind\nprocedure f():\n    move 3 to supply(red)\n    turn 4:\n        pass\n"
    found = diagnostics(tmp_path, rules)
    assert [code for code, _, _ in found] == ["LX323", "LX323", "LX323"]


def test_two_names_whose_values_the_checker_cannot_know_add_up_to_a_list_or_a_number(tmp_path):
    rules = FLOW + ("procedure f():\n    let near = select(s in locations where top(s) = none)\n"
                    "    let far = select(s in locations where top(s) != none)\n"
                    "    choose s in near + far as anywhere\n    let n = size(near) + size(far)\n")
    load(make_game(tmp_path, rules))  # no LX323: `near + far` is a list here


def test_functions_cannot_read_the_acting_player(tmp_path):
    assert diagnostics(tmp_path, FLOW + "function g(p) = you\n") == [("LX318", 8, 17)]


def test_yaml_schema_error_points_at_the_key_with_a_suggestion(tmp_path):
    bad = CONTENT.replace("per_player: 4", "per_playr: 4")
    with pytest.raises(LudolexError) as error:
        load(make_game(tmp_path, FLOW, bad))
    first = error.value.diagnostics[0]
    assert (first.code, first.position.line, first.position.column) == ("LX203", 6, 5)
    assert first.hint == "did you mean `per_player`?"


def test_an_error_in_a_piece_ability_points_into_the_yaml_file(tmp_path):
    content = CONTENT + "    abilities:\n      roll: |\n        pass\n        move self to nowhere\n"
    found = diagnostics(tmp_path, FLOW, content)
    assert found == [("LX302", 12, 22)]


def test_invalid_yaml_is_reported_not_raised(tmp_path):
    found = diagnostics(tmp_path, FLOW, "players: [red, blue\n")
    assert found[0][0] == "LX202"


def test_a_player_sees_their_private_zone_but_only_counts_of_the_others(tmp_path):
    from interpreter import Game
    from interpreter.play.visibility import observation

    rules = FLOW.replace("zone supply per player", "zone supply per player private\nzone bag hidden")
    game = Game(load(make_game(tmp_path, rules)))
    seen_by_red = observation(game, "red")
    assert [c["kind"] for c in seen_by_red["zones"]["supply/red"]] == ["stone"] * 4
    assert seen_by_red["zones"]["supply/blue"] == {"hidden": 4}
    assert seen_by_red["zones"]["bag"] == {"hidden": 0}
    assert seen_by_red["decision"]["options"][0] == "a1"
    seen_by_blue = observation(game, "blue")
    assert seen_by_blue["zones"]["supply/red"] == {"hidden": 4} and seen_by_blue["decision"]["options"] == 6


def test_kind_properties_and_location_attributes_are_read_with_a_dot(tmp_path):
    from interpreter import Game

    content = CONTENT.replace("connections: [orthogonal]}", "connections: [orthogonal], attributes: {a1: {suit: fox}}}")
    content += "    properties: {weight: 3}\n"
    game = Game(load(make_game(tmp_path, FLOW, content)))
    assert game.evaluate("a1.suit") == "fox" and game.evaluate("b1.suit") is None
    assert game.evaluate("sum(s in pieces(supply(red)): s.weight)") == 12
    found = diagnostics(tmp_path, FLOW + "function h(p) = a1.colour\n", content)
    assert found == [("LX308", 8, 17)]


def test_a_keyword_is_a_whole_word_so_a_typo_never_parses_as_valid_code(tmp_path):
    # `pile orthogonal` must not be read as `pile or thogonal`, nor `a andy` as `a and y`
    found = diagnostics(tmp_path, FLOW + "function h(p) = count(s in locations where p andy)\n")
    assert found == [("LX101", 8, 46)]


def test_several_syntax_errors_in_one_file_are_all_reported(tmp_path):
    rules = FLOW + "function a(p) = 1 +\nfunction b(p) = 2\nfunction c(p) = (3\nfunction d(p) = nothing\n"
    found = diagnostics(tmp_path, rules)
    assert [code for code, _, _ in found] == ["LX101", "LX101", "LX302"]
    assert [(line, column) for _, line, column in found] == [(8, 20), (10, 17), (11, 17)]


def test_warnings_unreachable_and_unused_do_not_stop_loading(tmp_path):
    rules = FLOW + "procedure spare():\n    end turn\n    pass\n"
    ruleset = load(make_game(tmp_path, rules))
    assert [(w.code, w.position.line) for w in ruleset.warnings] == [("LX325", 8), ("LX324", 10)]


def test_a_choice_among_nothing_is_an_error(tmp_path):
    rules = FLOW + "procedure p():\n    choose x in [] as nothing\n    choose y in locations where false as never\nplay:\n    p()\n"
    found = diagnostics(tmp_path, rules.replace("play:\n    turn red", "setup:\n    turn red"))
    assert [(c, l) for c, l, _ in found] == [("LX326", 9), ("LX326", 10)]


def test_fixes_found_while_documenting_the_language(tmp_path):
    from interpreter import Game

    rules = FLOW + """\
property bonus = -1
function summary(p) = count(s in locations where top(s) = none)
function first_player(p) = p
function weight_of(p) = top(supply(p)).weight
function bonus_of(p) = top(supply(p)).bonus
function mine(p) = select(c in pieces(supply(p)): c.kind)
function held(p, c) = c in supply(p)
"""
    game = Game(load(make_game(tmp_path, rules, CONTENT + "    properties: {weight: 5}\n")))
    assert game.evaluate("summary(red)") == 6 and game.evaluate("first_player(red)") == "red"
    assert game.evaluate("weight_of(red)") == 5 and game.evaluate("bonus_of(red)") == -1
    assert game.evaluate("mine(blue)") == ["stone"] * 4
    assert game.evaluate("held(red, top(supply(red)))") is True
    assert game.evaluate("held(blue, top(supply(red)))") is False
    assert game.evaluate("top(none)") is None


def test_a_second_play_block_is_an_error(tmp_path):
    assert diagnostics(tmp_path, FLOW + "play:\n    pass\n") == [("LX301", 8, 1)]


def test_a_property_may_not_shadow_a_kind_property(tmp_path):
    content = CONTENT + "    properties: {weight: 5}\n"
    assert diagnostics(tmp_path, FLOW + "property weight = 0\n", content) == [("LX301", 8, 1)]
