"""The scenario format as it grows with the games: who is seated, the box, a turn started at a phase."""
import textwrap
from pathlib import Path

import pytest
from toy import toy_folder

from interpreter import load
from interpreter.scenarios.files import load_scenarios
from interpreter.scenarios.run import ScenarioFailure, run_scenario
from interpreter.validation.validate import validate_ruleset

CONTENT = """
players: [red, blue]
board:
  grid: {columns: 2, rows: 1, connections: [orthogonal]}
pieces:
  stone: {per_player: 2, starts_in: supply}
  relic: {count: 2, starts_in: box}
"""

RULES = """
zone supply per player
play:
    turn red:
        phase morning:
            move top(supply(you)) to a1
        phase evening:
            choose s in [b1] as last
            move top(supply(you)) to s
    draw
"""


def game_folder(tmp_path: Path, scenarios: str) -> Path:
    folder = toy_folder(tmp_path, CONTENT, toy=RULES)
    (folder / "tests").mkdir()
    (folder / "tests" / "format.yaml").write_text(textwrap.dedent(scenarios))
    return folder


def run_all(folder: Path):
    ruleset = load(folder)
    return [run_scenario(ruleset, s.scenario) for s in load_scenarios(folder / "tests" / "format.yaml")]


def test_validate_reports_a_seated_player_the_game_does_not_have(tmp_path):
    folder = game_folder(tmp_path, """
        scenarios:
          - name: seated
            rules: [X-1]
            players: [red, bleu]
            expect: {}
        """)
    found = [(d.code, d.message, d.position.line) for d in validate_ruleset(folder)]
    assert found == [("LX327", "the game has no player `bleu`", 5)]


def test_naming_the_box_keeps_what_it_held(tmp_path):
    (game,) = run_all(game_folder(tmp_path, """
        scenarios:
          - name: the box keeps its relics
            rules: [X-1]
            position:
              zones:
                box: {red: {stone: 1}}
            expect:
              zones:
                box: {red: {stone: 1}, nobody: {relic: 2}}
        """))
    game.state.check_invariants(game.ruleset.component_totals())


def test_a_turn_started_at_a_phase_skips_the_ones_before(tmp_path):
    (game,) = run_all(game_folder(tmp_path, """
        scenarios:
          - name: starts in the evening
            rules: [X-1]
            position: {phase: evening}
            expect:
              board: {a1: []}
              decision: {name: last}
        """))
    assert game.evaluate("size(supply(red))") == 2


def test_a_phase_the_turn_does_not_have_is_said_plainly(tmp_path):
    folder = game_folder(tmp_path, """
        scenarios:
          - name: no such phase
            rules: [X-1]
            position: {phase: noon}
            expect: {}
        """)
    with pytest.raises(Exception, match="starts at phase `noon`, which this turn does not have"):
        run_all(folder)


def test_until_the_end_of_the_turn_stops_with_no_decision_pending(tmp_path):
    (game,) = run_all(game_folder(tmp_path, """
        scenarios:
          - name: the turn ends
            rules: [X-1]
            choices: [b1]
            until: end of turn
            expect:
              board: {a1: [red stone], b1: [red stone]}
        """))
    assert game.paused and game.decision is None and game.result is None
    with pytest.raises(ScenarioFailure, match="stopped where `until` asks"):
        run_all(game_folder(tmp_path / "again", """
            scenarios:
              - name: a decision is wanted
                rules: [X-1]
                choices: [b1]
                until: end of turn
                expect:
                  decision: {name: last}
            """))


def test_numbers_of_a_position_are_plain_numbers_of_the_game():
    from ruamel.yaml import YAML

    from interpreter.scenarios.position import plain

    read = YAML().load("variables: {shards: {alice: 0, queen: 3}, round: 2, names: [a, b]}")["variables"]
    values = plain(read)
    assert values == {"shards": {"alice": 0, "queen": 3}, "round": 2, "names": ["a", "b"]}
    assert type(values["shards"]["alice"]) is int and type(values["round"]) is int


def test_validate_reports_an_unknown_kind_or_zone_laid_on_top(tmp_path):
    """Found by tools/fuzz.py: a kind the game lacks in `on_top` passed validate, then failed the scenario."""
    folder = game_folder(tmp_path, """
        scenarios:
          - name: on top
            rules: [X-1]
            position:
              on_top:
                'supply(red)': [red stone, red yourself]
                'pile(red)': [relic]
                'supply': [relic]
            expect: {}
        """)
    found = [(d.code, d.message, d.position.line) for d in validate_ruleset(folder)]
    assert found == [("LX327", "the game has no kind of piece `yourself`", 7),
                     ("LX327", "the game has no zone (or player's zone, `bag(alice)`) `pile(red)`", 8),
                     ("LX327", "the game has no zone (or player's zone, `bag(alice)`) `supply`", 9)], found


def test_validate_reports_a_text_given_to_a_variable_that_holds_a_number(tmp_path):
    """Found by tools/fuzz.py: `shards: {alice: "Z"}` in a position validated clean, then stopped the
    scenario where the rules subtract it."""
    folder = toy_folder(tmp_path, CONTENT, toy=RULES + "variable gems per player = 0\nvariable round = 1\n")
    (folder / "tests").mkdir()
    (folder / "tests" / "format.yaml").write_text(textwrap.dedent("""
        scenarios:
          - name: variables
            rules: [X-1]
            position:
              variables: {gems: {red: 2, blue: "Z"}, round: "two"}
            expect: {}
          - name: nothing given
            rules: [X-1]
            position:
              variables: {gems: {red: }}
            expect: {}
          - name: too large
            rules: [X-1]
            position:
              variables: {round: 1000000000000001}
            expect: {}
        """))
    found = [(d.code, d.message, d.position.line) for d in validate_ruleset(folder)]
    assert found == [("LX323", 'variable `gems` holds a number (it starts as one), not "Z"', 6),
                     ("LX323", 'variable `round` holds a number (it starts as one), not "two"', 6),
                     ("LX323", 'variable `gems` holds a number (it starts as one), not null', 11),
                     ("LX205", "variable `round`: the number 1000000000000001 is larger than 1,000,000,000,000,000, the "
                               "largest a game holds (LUDOLEX_LARGEST_NUMBER)", 16)], found


def test_validate_finds_a_choice_that_can_never_be_an_option_at_its_word(tmp_path):
    from click.testing import CliRunner

    from interpreter.interfaces.cli import main

    folder = game_folder(tmp_path, """\
        scenarios:
          - name: choices
            rules: [X-1]
            choices:
              - last: b9
              - {last: 'c1', by: red}
              - '[red-stone-1, b1]'
              - lats: b1
              - b1
              - {last: red-stone-2}
            expect: {}
        """)
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == 1
    found = [line for line in result.output.splitlines() if " error " in line]
    assert found == [
        f"{folder}/tests/format.yaml:5:15: error LX327: `last: b9` can never be an option: nothing in the game is named `b9`",
        f"{folder}/tests/format.yaml:6:17: error LX327: `last: c1` can never be an option: nothing in the game is named `c1`",
        f"{folder}/tests/format.yaml:8:9: error LX327: the rules ask no decision `lats`",
    ]
    assert "hint: did you mean `last`?" in result.output
