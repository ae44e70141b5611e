"""Faction files: `faction NAME` keeps a file's names to itself; other files write `NAME.name`;
scenarios and bots may write a name that only one faction declares bare."""
import pytest
from toy import toy_folder

from interpreter import Game, LudolexError, load
from interpreter.scenarios.check import check_scenarios
from interpreter.scenarios.files import load_scenarios
from interpreter.scenarios.run import run_scenario

CONTENT = """\
players: [red, blue]
board:
  grid: {columns: 3, rows: 1, connections: [orthogonal]}
pieces:
  token: {per_player: 2, starts_in: red.stash}
"""

CORE = """\
variable points per player = 0
procedure gain(p, n):
    set points(p) = points(p) + n
play:
    red.bonus()
    gain(blue, blue.double(2))
    set red.tally = red.tally + 5
    move top(red.stash(blue)) to red.pile
    win red by "points"
"""

RED = """\
faction red
variable tally = 1
zone stash per player
zone pile
function double(n) = n * 2
procedure bonus():
    gain(red, double(1) - 1)
"""

BLUE = """\
faction blue
function double(n) = n * 3
"""


def game_folder(tmp_path, **rules):
    return toy_folder(tmp_path, CONTENT, **({"core": CORE, "red": RED, "blue": BLUE} | rules))


def test_two_factions_each_have_their_own_function_of_the_same_name(tmp_path):
    game = Game(load(game_folder(tmp_path)))
    variables = game.state.variables
    assert variables["points"] == {"red": 1, "blue": 6}  # red's double(1) - 1, blue's double(2)
    assert variables["red.tally"] == 6
    assert [c.kind for c in game.state.zones["red.pile"]] == ["token"] and len(game.state.zones["red.stash/blue"]) == 1


def test_a_local_name_written_bare_in_another_file_is_unknown_with_a_hint(tmp_path):
    with pytest.raises(LudolexError) as error:
        load(game_folder(tmp_path, core=CORE.replace("red.bonus()", "bonus()")))
    [diagnostic] = error.value.diagnostics
    assert (diagnostic.code, diagnostic.position.line) == ("LX313", 5)
    assert diagnostic.hint == "`bonus` is local to the file of faction red: write `red.bonus`"


def test_the_faction_must_be_a_player_and_come_first(tmp_path):
    with pytest.raises(LudolexError) as error:
        load(game_folder(tmp_path, blue="function double(n) = n * 3\nfaction green\n"))
    codes = [(d.code, d.position.line) for d in error.value.diagnostics]
    assert ("LX301", 2) in codes and ("LX302", 2) in codes  # not first; not a player


def test_a_parameter_cannot_take_the_name_of_one_of_the_files_own_declarations(tmp_path):
    with pytest.raises(LudolexError) as error:
        load(game_folder(tmp_path, blue="faction blue\nfunction double(n) = n * 3\nfunction twice(double) = double\n"))
    [diagnostic] = error.value.diagnostics
    assert diagnostic.code == "LX301" and "the parameter `double` has the name of this faction's function" in diagnostic.message


def test_another_file_replaces_a_factions_procedure_by_its_full_name(tmp_path):
    extra = "instead of red.bonus():\n    gain(red, 10)\n"
    game = Game(load(game_folder(tmp_path, core=CORE + extra)))
    assert game.state.variables["points"]["red"] == 10


SCENARIO = """\
scenarios:
  - name: a bare name that one faction declares
    rules: [X]
    setup: false
    position:
      variables: {tally: 3}
      zones: {stash: {red: {token: 2}}}
    expect:
      values: {"tally + double(1)": 10, "size(stash(red))": 2}
"""


def test_a_scenario_may_write_a_name_only_one_faction_declares_bare(tmp_path):
    folder = game_folder(tmp_path)
    (folder / "tests").mkdir()
    path = folder / "tests" / "bare.yaml"
    path.write_text(SCENARIO.replace("double(1)", "red.double(1)"))
    ruleset = load(folder)
    assert check_scenarios(ruleset, path) == []
    [loaded] = load_scenarios(path)
    game = run_scenario(ruleset, loaded.scenario)  # raises if a value differs
    assert game.evaluate("tally") == 8


def test_a_name_two_factions_declare_must_be_written_in_full_in_a_scenario(tmp_path):
    folder = game_folder(tmp_path)
    (folder / "tests").mkdir()
    path = folder / "tests" / "ambiguous.yaml"
    path.write_text(SCENARIO)
    problems = check_scenarios(load(folder), path)
    assert [d.code for d in problems] == ["LX303"] and "double" in problems[0].message


def test_a_content_file_adds_locations_beside_the_board_which_moves_treat_as_the_board(tmp_path):
    folder = toy_folder(tmp_path, """\
        players: [red, blue]
        board:
          grid: {columns: 2, rows: 1, connections: [orthogonal]}
        pieces:
          token: {per_player: 2, starts_in: supply}
        """, core="""\
        zone supply per player
        cannot move x from origin to target if target = vault and x.owner != red
        play:
            move pieces(supply(red)) + pieces(supply(blue)) to a1
            move pieces(a1) to vault
            draw
        """)
    (tmp_path / "cards" / "red.yaml").write_text("locations:\n  vault: {terrain: vault, deep: 3}\n")
    game = Game(load(folder))
    assert game.evaluate("locations") == ["a1", "b1", "vault"]  # after the board's own
    assert game.evaluate("vault.deep") == 3 and game.evaluate("adjacent(vault, orthogonal)") == []
    # a move onto it is a move between locations: the guard kept blue's tokens out
    assert [x.owner for x in game.state.zones["vault"]] == ["red", "red"]
    assert [x.owner for x in game.state.zones["a1"]] == ["blue", "blue"]


def test_a_location_added_twice_or_already_on_the_board_is_an_error(tmp_path):
    folder = toy_folder(tmp_path, CONTENT, core=CORE, red=RED, blue=BLUE)
    (tmp_path / "cards" / "red.yaml").write_text("locations:\n  a1: {}\n  vault: {}\n")
    (tmp_path / "cards" / "blue.yaml").write_text("locations:\n  vault: {}\n")
    with pytest.raises(LudolexError) as error:
        load(folder)
    messages = str(error.value)
    assert "red.yaml:2:3" in messages and "`a1` is already a location of the board" in messages
    assert "red.yaml:3:3" in messages and "location `vault` is declared twice" in messages
