"""`anytime` actions: what a player may do at any `window` of the flow, as often as its condition allows."""
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
"""

RULES = """
zone supply per player
variable peeked per player = false
variable log = []
anytime peek if not peeked(you) and you = current:
    set peeked(you) = true
    set log = log + [you]
anytime place if size(supply(you)) > 1:
    move top(supply(you)) to a1
variable current = red
play:
    repeat 2 times:
        turn current:
            repeat 2 times:
                window
                choose s in [a1, b1] as act
                set log = log + [s]
            set peeked(you) = false
        set current = next(current)
    draw
"""


def game_of(tmp_path: Path, rules: str = RULES) -> Game:
    return Game(load(toy_folder(tmp_path, CONTENT, toy=rules)))


def test_a_window_offers_each_player_their_anytime_actions_the_player_acting_first(tmp_path):
    game = game_of(tmp_path)
    decision = game.decision
    assert (decision.name, decision.player, decision.labels()) == ("anytime", "red", ["peek", "place", "pass"])
    game.choose("peek")
    assert game.decision.labels() == ["place", "pass"]  # once a turn: peeked
    game.choose("pass")
    assert (game.decision.player, game.decision.labels()) == ("blue", ["place", "pass"])  # then the others
    game.choose("place")
    game.choose("place")
    assert game.decision.name == "act"  # blue has one stone left: no more `place`
    assert game.evaluate("log") == ["red"] and game.evaluate("size(a1)") == 2


def test_an_anytime_action_taken_once_a_turn_comes_back_the_next_turn(tmp_path):
    game = game_of(tmp_path)
    for choice in ["peek", "pass", "pass", "a1", "pass", "pass", "b1"]:
        game.choose(choice)
    assert (game.decision.player, game.decision.labels()) == ("blue", ["peek", "place", "pass"])


def test_an_anytime_action_declared_twice_is_reported(tmp_path):
    with pytest.raises(LudolexError) as error:
        game_of(tmp_path, RULES + "anytime peek:\n    pass\n")
    assert [d.code for d in error.value.diagnostics] == ["LX301"]
