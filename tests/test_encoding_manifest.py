"""The manifest's `encoding` (how learning agents see a game, docs/agents.md) is checked as the rest of
the manifest is: a name it gives that the game does not have is an error at its line and column."""
import pytest
from toy import chips_game

from interpreter import LudolexError, load
from interpreter.validation.validate import validate_ruleset


def test_the_zones_and_variables_an_encoding_names_must_be_the_games(tmp_path):
    folder = chips_game(tmp_path)
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text() + "encoding:\n  listed: {pott: 2}\n  left_out: [box, suply]\n"
                        "  variables: [curent]\n")
    found = {(d.code, d.message, d.position.line, d.position.column, d.hint) for d in validate_ruleset(folder)}
    assert ("LX302", "`encoding`: no zone `pott` in the game", 4, 12, "did you mean `pot`?") in found
    assert ("LX302", "`encoding`: no zone `suply` in the game", 5, 19, "did you mean `supply`?") in found
    assert ("LX302", "`encoding`: no variable `curent` in the game", 6, 15, "did you mean `current`?") in found


def test_a_game_with_a_right_encoding_loads_and_keeps_it(tmp_path):
    folder = chips_game(tmp_path)
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text() + "encoding: {actions: 8, slots: hashed, listed: {pot: 3}}\n")
    encoding = load(folder).manifest.encoding
    assert (encoding.actions, encoding.slots, encoding.listed) == (8, "hashed", {"pot": 3})
    manifest.write_text(manifest.read_text().replace("actions: 8", "actions: 1"))  # a page turn needs a slot
    with pytest.raises(LudolexError) as error:
        load(folder)
    assert [d.message for d in error.value.diagnostics] == ["encoding.actions: `1` is less than 2, the least allowed"]


def test_a_zone_listed_deep_is_listed_at_least_one_component_deep(tmp_path):
    folder = chips_game(tmp_path)
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text() + "encoding: {listed: {pot: 0}}\n")
    with pytest.raises(LudolexError) as error:
        load(folder)
    found = [(d.code, d.message, d.position.line, d.position.column) for d in error.value.diagnostics]
    assert found == [("LX205", "encoding.listed.pot: `0` is less than 1, the least allowed", 3, 26)]
