"""Guards: `cannot place`, `cannot move`, `cannot remove`. Every `move` of every file obeys them,
the procedures of a file that never heard of them included; `ignoring limits` moves regardless."""
from pathlib import Path

import pytest
from toy import toy_folder

from interpreter import Game, LudolexError
from interpreter.loading.stages import load_ruleset

CONTENT = """
players: [red, blue]
board:
  grid: {columns: 3, rows: 1, connections: [orthogonal]}
pieces:
  stone: {per_player: 2, starts_in: supply}
  wall: {per_player: {red: 1}, starts_in: supply}
  snare: {per_player: {red: 1}, starts_in: supply}
"""

# the core knows nothing of walls or snares: it places, moves and removes blue's stones
CORE = """
zone supply per player
variable log = []
play:
    turn red:
        move pieces(supply(red)) to a1
        move first(x in pieces(a1) where x is snare) to b1
        move pieces(supply(blue)) to a1
        set log = log + [size(a1)]
        move select(x in pieces(a1) where x.owner = blue) to b1
        set log = log + [size(b1)]
        move select(x in pieces(b1) where x.owner = blue) to c1
        set log = log + [size(c1)]
        move select(x in pieces(b1) where x.owner = blue) to c1 ignoring limits
        set log = log + [size(c1)]
        move pieces(c1) to supply(blue)
        move pieces(a1) to box
        end game ranked by most on_board
function on_board(p) = count(x in pieces_in(locations) where x.owner = p)
"""

# red's faction: a wall keeps blue from being placed where it stands, a snare keeps blue in, and red's
# stones never leave the board
RED = """
faction red
cannot place x in site if x.owner != red and any(w in pieces(site) where w is wall)
cannot move x from origin to target if x.owner != red and any(s in pieces(origin) where s is snare)
cannot remove x from site if x.owner = red and x is stone
"""


def game_of(tmp_path: Path, backend: str, red: str = RED) -> Game:
    return Game(load_ruleset(toy_folder(tmp_path, CONTENT, core=CORE, red=red), backend=backend))


@pytest.mark.parametrize("backend", ["generated", "reference"])
def test_every_move_obeys_the_guards_unless_it_ignores_limits(tmp_path, backend):
    game = game_of(tmp_path, backend)
    # blue's 2 stones could not be placed by the wall (a1: red's 2 stones and the wall); from off the board
    # they were placed nowhere, so the later moves had nothing of blue's to move
    assert game.evaluate("log") == [3, 1, 0, 0]
    assert game.evaluate("size(supply(blue))") == 2


@pytest.mark.parametrize("backend", ["generated", "reference"])
def test_a_snare_keeps_pieces_in_and_ignoring_limits_takes_them_out(tmp_path, backend):
    game = game_of(tmp_path, backend, red=RED.replace("any(w in pieces(site) where w is wall)", "false"))
    # placed in a1 (no wall now), moved to b1 (a1 has no snare), kept in b1 by the snare, then taken out
    assert game.evaluate("log") == [5, 3, 0, 2]
    assert game.evaluate("size(supply(blue))") == 2  # taken off the board from c1: nothing keeps them
    # taken off a1 for the box: red's stones cannot be removed, the wall can
    assert sorted(x.kind for x in game.state.zones["a1"]) == ["stone", "stone"]


@pytest.mark.parametrize("backend", ["generated", "reference"])
def test_the_builtins_say_beforehand_what_the_guards_allow(tmp_path, backend):
    core = """
        zone supply per player
        play:
            turn red:
                move pieces(supply(red)) to a1
                choose n in [1, 2] as wait
        """
    game = Game(load_ruleset(toy_folder(tmp_path, CONTENT, core=core, red=RED), backend=backend))
    assert game.decision.name == "wait"
    assert game.evaluate("placeable(first(x in pieces(supply(blue))), a1)") is False  # the wall
    assert game.evaluate("placeable(first(x in pieces(supply(blue))), b1)") is True
    assert game.evaluate("removable(first(x in pieces(a1) where x is stone))") is False
    assert game.evaluate("removable(first(x in pieces(a1) where x is wall))") is True
    assert game.evaluate("movable(first(x in pieces(a1) where x is stone), b1)") is True


def test_a_factions_guards_apply_only_where_it_is_seated(tmp_path):
    folder = toy_folder(tmp_path, CONTENT, core=CORE.replace("turn red", "turn blue").replace("supply(red)", "supply(blue)"),
                        red=RED)
    (folder / "game.yaml").write_text("name: toy\ncontent: ../cards\ntable: [blue]\n")
    game = Game(load_ruleset(folder))
    assert game.evaluate("players") == ["blue"]
    assert game.evaluate("log")[0] == 2  # red is not seated: nothing keeps blue's stones off a1


def test_a_guard_must_be_a_yes_or_no_and_has_no_you(tmp_path):
    with pytest.raises(LudolexError) as error:
        load_ruleset(toy_folder(tmp_path, CONTENT, core=CORE, red="cannot remove x from site if 3\n"))
    assert "LX" in str(error.value) and "red.rules:1" in str(error.value)
    with pytest.raises(LudolexError) as error:
        load_ruleset(toy_folder(tmp_path, CONTENT, core=CORE, red="cannot remove x from site if you = red\n"))
    assert "red.rules:1" in str(error.value)
