"""Game options: `option NAME in [VALUES] = DEFAULT`, chosen before the game starts (Game, scenarios,
`--option` on play, simulate, compare and replay), content that exists only under an option, saves."""
import json

import pytest
from click.testing import CliRunner
from toy import toy_folder

from interpreter import Game, LudolexError, load
from interpreter.interfaces.cli import main
from interpreter.scenarios.check import check_scenarios
from interpreter.scenarios.files import load_scenarios
from interpreter.scenarios.run import run_scenario

CONTENT = """\
players: [red, blue]
board:
  grid: {columns: 3, rows: 1, connections: [orthogonal]}
pieces:
  pawn: {per_player: 1, starts_in: supply}
  ally: {count: 3, starts_in: deck, only_if: {deck_size: [big, huge]}}
"""

# red picks a square; the winner depends on the options
RULES = """\
option deck_size in ["small", "big", "huge"] = "small"
option bonus in [0, 2] = 0
zone supply per player
zone deck

play:
    turn red:
        choose spot in locations as pick
    if size(deck) + bonus >= 3:
        win red by deck_size
    win blue by deck_size
"""


def folder(tmp_path, rules=RULES, content=CONTENT):
    return toy_folder(tmp_path, content, toy=rules)


def test_a_game_takes_the_defaults_or_the_options_given(tmp_path):
    ruleset = load(folder(tmp_path))
    plain = Game(ruleset)
    assert plain.options == {"deck_size": "small", "bonus": 0} and plain.state.zones["deck"] == []
    plain.choose("a1")
    assert plain.result.winners == ["blue"] and plain.result.ending == "small"
    big = Game(ruleset, options={"deck_size": "big"})
    assert len(big.state.zones["deck"]) == 3  # the allies exist only with a big or huge deck
    big.choose("a1")
    assert big.result.winners == ["red"] and big.result.ending == "big"
    assert Game(ruleset, options={"bonus": "2"}).options["bonus"] == 2  # a value given as text matches its value


@pytest.mark.parametrize("options, message", [({"colour": "red"}, "no option `colour`"),
                                              ({"deck_size": "tiny"}, "one of small, big, huge, not `tiny`")])
def test_an_unknown_option_or_value_is_refused_before_the_game_starts(tmp_path, options, message):
    with pytest.raises(ValueError, match=message):
        Game(load(folder(tmp_path)), options=options)


def test_a_saved_game_keeps_its_options_and_replays(tmp_path):
    ruleset = load(folder(tmp_path))
    game = Game(ruleset, options={"deck_size": "huge"})
    game.choose("b1")
    saved = json.loads(game.dumps())
    assert saved["options"] == {"deck_size": "huge"}
    assert Game.from_json(ruleset, saved).result.ending == "huge"


@pytest.mark.parametrize("rules, where", [
    ('option width in ["a", "b"] = "c"\n', (1, 30)),               # a default that is not a value
    ('option width in [1 + 1, 3] = 3\n', (1, 1)),                  # values not written out
])
def test_an_option_must_list_plain_values_with_its_default_among_them(tmp_path, rules, where):
    with pytest.raises(LudolexError) as error:
        load(folder(tmp_path, rules=rules + RULES))
    assert [(d.code, d.position.line, d.position.column) for d in error.value.diagnostics] == [("LX332", *where)]


def test_no_rule_can_set_an_option(tmp_path):
    with pytest.raises(LudolexError) as error:
        load(folder(tmp_path, rules=RULES.replace("play:\n", "play:\n    set bonus = 2\n")))
    assert [d.code for d in error.value.diagnostics] == ["LX311"]


def test_content_may_only_name_a_declared_option_and_its_values(tmp_path):
    with pytest.raises(LudolexError) as error:
        load(folder(tmp_path, content=CONTENT.replace("deck_size: [big, huge]", "deck_size: giant")))
    assert [d.code for d in error.value.diagnostics] == ["LX332"]


SCENARIO = """\
scenarios:
  - name: with a huge deck red wins
    rules: [X]
    options: {deck_size: huge}
    choices: [a1]
    expect: {winner: red, ended_by: huge}
"""


def test_a_scenario_chooses_options_and_validate_checks_them(tmp_path):
    game_folder = folder(tmp_path)
    (game_folder / "tests").mkdir()
    path = game_folder / "tests" / "options.yaml"
    path.write_text(SCENARIO)
    ruleset = load(game_folder)
    assert check_scenarios(ruleset, path) == []
    [loaded] = load_scenarios(path)
    run_scenario(ruleset, loaded.scenario)  # raises if red does not win
    path.write_text(SCENARIO.replace("huge}", "enormous}"))
    assert [d.code for d in check_scenarios(ruleset, path)] == ["LX332"]


def test_the_command_line_takes_options_and_keeps_runs_apart(tmp_path):
    game_folder, db = folder(tmp_path), tmp_path / "r.sqlite"
    runner = CliRunner()
    played = runner.invoke(main, ["play", str(game_folder), "--option", "deck_size=big"])
    assert played.exit_code == 0 and "red wins by big" in played.output, played.output
    bad = runner.invoke(main, ["play", str(game_folder), "--option", "deck_size"])
    assert bad.exit_code == 2 and "write NAME=VALUE" in bad.output
    for options in ([], ["--option", "deck_size=huge"]):
        run = runner.invoke(main, ["simulate", str(game_folder), "--games", "5", "--jobs", "1", "--db", str(db)] + options)
        assert run.exit_code == 0 and "5 to play" in run.output, run.output  # a run with other options is another run
    replayed = runner.invoke(main, ["replay", str(db), "--game", str(game_folder), "--seed", "3",
                                    "--option", "deck_size=huge"])
    assert replayed.exit_code == 0, replayed.output
    compared = runner.invoke(main, ["compare", str(game_folder), str(game_folder), "--games", "20", "--jobs", "1",
                                    "--db", str(db), "--b-option", "deck_size=big"])
    assert compared.exit_code == 0 and "significant" in compared.output, compared.output
