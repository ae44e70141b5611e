"""Rules that `validate` passed and that failed in a game (issue 31, item 6): each now reported by
`validate` with its code, line and column; and what only a game can find, a rule error in the
language's words, never Python's (`KeyError: None`).

Each game is laid out as in a project: `rulesets/toy/` (game.yaml, toy.rules, bots/) and `cards/toy/`.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

from interpreter import load
from interpreter.simulation.runner import Table, play_one
from interpreter.validation.validate import validate_ruleset

CONTENT = """\
players: [red, blue]
board:
  grid: {columns: 3, rows: 2, connections: [orthogonal]}
pieces:
  stone:
    per_player: 4
    starts_in: supply
    properties: {weight: 2}
"""

# Red puts a stone, then THEN runs (indented as the turn's body); the game is ranked by most stones.
RULES = """\
zone supply per player
play:
    turn red:
        choose s in locations where top(s) = none as put
        move first(x in pieces(supply(you))) to s
        THEN
    end game ranked by most stones
function stones(p) = count(s in locations where top(s).owner = p)
"""


def toy(where: Path, then: str = "pass", more: str = "", content: str = CONTENT, bot: str | None = None) -> Path:
    game, cards = where / "project" / "rulesets" / "toy", where / "project" / "cards" / "toy"
    game.mkdir(parents=True)
    cards.mkdir(parents=True)
    (game / "game.yaml").write_text("name: toy\ncontent: ../../cards/toy\n")
    (game / "toy.rules").write_text(RULES.replace("THEN", then.replace("\n", "\n        ")) + textwrap.dedent(more))
    (cards / "content.yaml").write_text(content)
    if bot is not None:
        (game / "bots").mkdir()
        (game / "bots" / "greedy.yaml").write_text(bot)
    return game


def errors(game: Path) -> list[tuple[str, int, int]]:
    return [(d.code, d.position.line, d.position.column) for d in validate_ruleset(game) if d.severity == "error"]


# --- a parameter given `none` where a location is read (was `KeyError: None`) ---------------------

def test_none_given_to_a_parameter_read_as_a_zone(tmp_path):
    game = toy(tmp_path, "if crowd(none) > 3:\n    win red", "function crowd(s) = count(x in pieces(s))\n")
    assert errors(game) == [("LX336", 6, 18)]


def test_none_given_through_a_procedure_to_a_function_that_reads_a_zone(tmp_path):
    more = "function crowd(s) = count(x in pieces(s))\nprocedure check(s):\n    if crowd(s) > 3:\n        win red\n"
    assert errors(toy(tmp_path / "a", "check(none)", more)) == [("LX336", 6, 15)]


def test_none_is_fine_where_the_parameter_is_read_by_top_or_tested_for_none(tmp_path):
    more = ("function occupant(s) = top(s).owner\n"
            "function crowd(s) = if s = none then 0 else count(x in pieces(s))\n")
    assert errors(toy(tmp_path, "if occupant(none) = red or crowd(none) > 3:\n    win red", more)) == []


def test_none_given_to_a_builtin_that_reads_a_zone(tmp_path):
    assert errors(toy(tmp_path, "let n = size(pieces(none))")) == [("LX336", 6, 29)]


# --- a function's name, hence its value, used where it cannot go -----------------------------------

def test_a_function_whose_value_is_a_number_given_where_a_list_is_read(tmp_path):
    assert errors(toy(tmp_path, "let n = count(t in tops(stones(red)))")) == [("LX323", 6, 33)]


def test_a_function_declared_after_its_use_has_its_type_known(tmp_path):
    game = toy(tmp_path, "move first(x in pieces(supply(you))) to spare()", "function spare() = 3\n")
    assert errors(game) == [("LX323", 6, 49)]


def test_a_function_named_without_its_arguments(tmp_path):
    assert errors(toy(tmp_path, "let n = stones + 1")) == [("LX307", 6, 17)]


# --- a bot expression naming a function's value as a player ---------------------------------------

def test_a_bot_reads_a_number_as_a_player(tmp_path):
    bot = "all:\n  put: size(supply(stones(you)))\n"
    assert errors(toy(tmp_path, bot=bot)) == [("LX323", 2, 8 + bot.split("put: ")[1].index("stones"))]  # at the number


def test_a_bot_gives_a_number_to_a_parameter_read_as_a_player(tmp_path):
    bot = "all:\n  put: left(stones(you))\n"
    game = toy(tmp_path, more="function left(p) = size(supply(p))\n", bot=bot)
    assert errors(game) == [("LX323", 2, 8 + bot.split("put: ")[1].index("stones"))]


def test_a_branch_of_a_conditional_that_cannot_go_where_its_value_goes(tmp_path):
    """Found by tools/fuzz.py: `(if c then 1 else "x") - 2` validated clean (the conditional's type is
    `any`, its branches differing), then stopped the game."""
    then = 'let n = (if you = red then 1 else "x") - 2'
    assert errors(toy(tmp_path / "rules", then)) == [("LX323", 6, 8 + then.index('"x"') + 1)]
    bot = 'all:\n  put: if top(s) = none then 1 else "x"\n'
    assert errors(toy(tmp_path / "bot", bot=bot)) == [("LX323", 2, 8 + bot.split("put: ")[1].index('"x"'))]
    fine = 'let n = (if you = red then [s] else none) + [s]'  # a list, or none: `+` of two lists
    assert errors(toy(tmp_path / "fine", fine)) == []


# --- a text in a content list of numbers; a number above the run-time limit in content ------------

def test_a_text_in_a_content_list_of_numbers(tmp_path):
    content = CONTENT.replace("properties: {weight: 2}", "properties: {weight: 2, costs: [1, x, 3]}")
    assert errors(toy(tmp_path, content=content)) == [("LX205", 8, 40)]


def test_a_content_number_above_the_largest_a_game_holds(tmp_path):
    content = CONTENT.replace("connections: [orthogonal]}", "connections: [orthogonal], attributes: {a1: {ruins: 9223372036854775808}}}")
    assert errors(toy(tmp_path, content=content)) == [("LX205", 3, 83)]


# --- a `choose` left with nobody to decide (its `as PLAYER:` line deleted) ------------------------

def test_a_choose_that_runs_where_no_player_acts(tmp_path):
    rules = RULES.replace("    end game", "    last_stone()\n    end game")
    more = ("procedure last_stone():\n"
            "    choose s in locations where top(s) = none as last or pass\n")
    game = toy(tmp_path, more=more)
    (game / "toy.rules").write_text(rules.replace("THEN", "pass") + more)
    assert errors(game) == [("LX337", 11, 5)]


def test_the_same_choose_inside_as_is_fine(tmp_path):
    rules = RULES.replace("    end game", "    as blue:\n        last_stone()\n    end game")
    more = "procedure last_stone():\n    choose s in locations where top(s) = none as last or pass\n"
    game = toy(tmp_path)
    (game / "toy.rules").write_text(rules.replace("THEN", "pass") + more)
    assert errors(game) == []


# --- an `end turn` moved out of its `turn` (found by tools/fuzz.py: it stopped the game) ------------

def test_an_end_turn_that_runs_outside_any_turn(tmp_path):
    rules = RULES.replace("    end game", "    finish()\n    end game")
    more = "procedure finish():\n    as blue:\n        end turn\n"
    game = toy(tmp_path)
    (game / "toy.rules").write_text(rules.replace("THEN", "pass") + more)
    assert errors(game) == [("LX338", 12, 9)]


def test_the_same_end_turn_inside_a_turn_is_fine(tmp_path):
    more = "procedure finish():\n    as blue:\n        end turn\n"
    assert errors(toy(tmp_path, "finish()", more)) == []


# --- a missing content property read in arithmetic (was `None + int`) -----------------------------

PEBBLES = CONTENT + "  pebble:\n    per_player: 2\n    starts_in: supply\n"  # a kind without `weight`


def test_a_property_of_a_kind_named_in_the_rules_that_it_does_not_have(tmp_path):
    assert errors(toy(tmp_path, "let n = pebble.weight + 1", content=PEBBLES)) == [("LX308", 6, 17)]


def test_a_missing_property_in_arithmetic_is_a_rule_error_in_plain_words(tmp_path):
    rules = "choose x in pieces(supply(you)) where x is pebble as which\nlet n = x.weight + 1"
    game = toy(tmp_path, rules, content=PEBBLES)
    assert errors(game) == []  # which kind `x` is, only a game knows
    record = play_one(load(game), seed=1)
    assert record["reason"] == "error"
    assert record["error"].endswith("toy.rules:7:9: none where a number is needed (`+` of none and a number; "
                                    "a property or attribute a value does not have is none)")


# --- `nth([1], 5)` and `repeat n times` over none --------------------------------------------------

def test_nth_past_the_end_of_a_list_written_out(tmp_path):
    assert errors(toy(tmp_path, "let n = nth([1], 5) + 1")) == [("LX336", 6, 26)]


def test_repeat_none_times(tmp_path):
    assert errors(toy(tmp_path, "repeat none times:\n    pass")) == [("LX336", 6, 16)]


def test_repeat_a_parameter_given_none(tmp_path):
    more = "procedure twice(n):\n    repeat n times:\n        pass\n"
    assert errors(toy(tmp_path, "twice(none)", more)) == [("LX336", 6, 15)]


# --- what only a game can find: said in the language's words -------------------------------------

def test_none_read_as_a_zone_in_a_game_is_a_rule_error_in_plain_words(tmp_path):
    more = "variable nowhere = none\nfunction crowd(s) = count(x in pieces(s))\n"
    game = toy(tmp_path, "if crowd(nowhere) > 3:\n    win red", more)
    assert errors(game) == []  # what a variable holds, only a game knows
    record = play_one(load(game), seed=1, table=Table())
    assert record["error"].endswith("toy.rules:6:9: none where a zone, a location or a player is needed")


def test_python_errors_are_said_in_the_words_of_the_language():
    from interpreter.language.failures import in_plain_words

    said = {KeyError(None): "none where a zone, a location or a player is needed",
            KeyError("reserve/a1"): "`reserve(a1)` is not a zone, a location or a player of this game",
            TypeError("'NoneType' object cannot be interpreted as an integer"): "none where a number is needed",
            TypeError('can only concatenate str (not "int") to str'):
                "a number where a player is needed (to name a player's zone or variable)",
            AttributeError("'str' object has no attribute 'owner'"):
                "a text (a name) where a component is needed (to read its `owner`)",
            ValueError("None is not in list"): "none is not a player of this game"}
    assert {error: in_plain_words(error) for error in said} == said


# --- the items of a list the language knows: a quantifier's name has their type ----------------------

def test_a_player_of_the_players_given_where_a_zone_is_read(tmp_path):
    # found by tools/fuzz.py: `any(p in players where empty((p)))`, a deleted `reserve`, validated clean
    assert errors(toy(tmp_path, "let n = count(p in players where empty(p))")) == [("LX323", 6, 48)]


def test_a_component_of_a_zone_given_where_a_player_is_read(tmp_path):
    assert errors(toy(tmp_path, "let n = count(x in pieces(supply(you)) where next(x) = red)")) == [("LX323", 6, 59)]
