"""The scenario format's fixtures, component states and checkpoints: what they do when the scenario
runs, and what `validate` reports of them, at the place in the scenario file."""
import textwrap
from pathlib import Path

import pytest
from toy import toy_folder

from interpreter import load
from interpreter.scenarios.check import check_scenarios
from interpreter.scenarios.files import load_scenarios
from interpreter.scenarios.run import ScenarioFailure, run_scenario

CONTENT = """
players: [red, blue]
board:
  grid: {columns: 2, rows: 1, connections: [orthogonal]}
pieces:
  stone: {per_player: 2, starts_in: supply}
  card: {count: 1, starts_in: pile, properties: {value: 1}}
"""

RULES = """
zone supply per player
zone pile
property worn = false
property charge = 0
variable total = 0
procedure score(n):
    set total = total + n
    emit scored(n)
when scored(n):
    set total = total + 100
play:
    turn red:
        phase one:
            choose s in [a1, b1] as put
            move first(x in pieces(supply(red)) where not x.worn) to s
            score(first(c in pieces(pile)).value)
        phase two:
            choose t in [a1, b1] as again
    draw
"""


def scenario_file(folder: Path, name: str, text: str) -> Path:
    path = folder / "tests" / f"{name}.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


@pytest.fixture
def game(tmp_path) -> Path:
    return toy_folder(tmp_path, CONTENT, toy=RULES)


def run(folder: Path, path: Path, index: int = 0):
    return run_scenario(load(folder), load_scenarios(path)[index].scenario)


def reported(folder: Path, path: Path) -> list[str]:
    found = sorted(check_scenarios(load(folder), path), key=lambda d: (d.position.line, d.position.column))
    return [f"{d.position.line}:{d.position.column} {d.code} {d.message}" for d in found]


def test_a_component_state_is_laid_out_and_read_back(game):
    path = scenario_file(game, "states", """
        scenarios:
          - name: the worn stone stays in the supply; the other one is placed
            rules: [X-1]
            setup: false
            position:
              zones: {supply: {red: {stone: [{worn: true}, {charge: 3}]}}}
            choices: [a1]
            expect:
              board: {a1: [{red stone: {charge: 3, worn: false}}]}
              values: {'first(x in pieces(supply(red))).worn': true}
        """)
    run(game, path)
    broken = path.read_text().replace("charge: 3, worn: false", "charge: 2")
    path.write_text(broken)
    with pytest.raises(ScenarioFailure, match=r"expected red stone with \{'charge': 2\}, found \{'charge': 3\}"):
        run(game, path)


def test_a_checkpoint_among_the_choices_is_checked_there(game):
    path = scenario_file(game, "checkpoint", """
        scenarios:
          - name: the card's value and the event's rule are scored after the first choice
            rules: [X-1]
            setup: false
            choices:
              - a1
              - {expect: {values: {total: 101}, decision: {name: again}}}
              - b1
            expect: {winner: draw}
        """)
    run(game, path)
    path.write_text(path.read_text().replace("total: 101", "total: 1"))
    with pytest.raises(ScenarioFailure, match="after choice 1:\ntotal: expected 1, found 101"):
        run(game, path)


@pytest.mark.parametrize("until, total", [("event scored", 101), ("end of phase one", 101)])
def test_until_stops_where_no_decision_is_pending(game, until, total):
    path = scenario_file(game, "until", f"""
        scenarios:
          - name: stopped after the event, or the phase
            rules: [X-1]
            setup: false
            choices: [a1]
            until: {until}
            expect: {{values: {{total: {total}}}}}
        """)
    game_played = run(game, path)
    assert game_played.paused and game_played.decision is None


def test_a_position_can_start_inside_a_procedure(game):
    path = scenario_file(game, "start", """
        scenarios:
          - name: score(5) alone, by red
            rules: [X-1]
            setup: false
            position: {start: {call: "score(2 + 3)", by: red}}
            expect: {values: {total: 105}}
        """)
    played = run(game, path)
    assert played.paused and played.result is None


def test_fixtures_change_the_game_of_the_test_only(game):
    path = scenario_file(game, "fixtures", """
        fixtures:
          overrides: {card: {value: 7}}
        scenarios:
          - name: the card is worth 7 in this file
            rules: [X-1]
            setup: false
            choices: [a1]
            until: end of phase one
            expect: {values: {total: 107}}
          - name: and a kind only this test has
            rules: [X-1]
            setup: false
            fixtures:
              pieces: {gem: {count: 2, starts_in: pile}}
            position: {zones: {pile: {nobody: {card: 1, gem: 2}}}}
            choices: [a1]
            expect: {values: {total: 107, 'count(g in pieces(pile) where g is gem)': 2}}
        """)
    ruleset = load(game)
    for loaded in load_scenarios(path):
        run_scenario(ruleset, loaded.scenario)
    assert "gem" not in ruleset.content.pieces and ruleset.content.pieces["card"].properties["value"] == 1
    assert check_scenarios(ruleset, path) == []


def test_validate_reports_each_mistake_of_the_new_keys_at_its_place(game):
    path = scenario_file(game, "mistakes", """
        scenarios:
          - name: states
            rules: [X-1]
            position:
              board: {a1: [{red stone: {wron: true, face: sideways}}]}
              zones: {supply: {red: {stone: [{charge: "full"}]}}}
            until: event scord
            expect: {}
          - name: a start
            rules: [X-1]
            position: {start: {call: "score(1, 2)"}}
            expect: {}
          - name: a start
            rules: [X-1]
            position: {start: {call: "scor(1)", by: green}}
            until: end of phase three
            expect: {}
          - name: checkpoint
            rules: [X-1]
            choices: [{expect: {values: {'totl': 1}}}]
            expect: {}
          - name: fixtures
            rules: [X-1]
            fixtures:
              overrides: {cart: {value: 2}, card: {value: "two"}}
            expect: {}
        """)
    assert reported(game, path) == [
        "6:33 LX327 the game has no property `wron` (a `property` of the rules)",
        "6:45 LX327 `face` is `up` or `down`, not `sideways`",
        "7:39 LX323 property `charge` holds int values (it starts as 0), not \"full\"",
        "8:5 LX327 the game has no event `scord`",
        "12:24 LX307 `score` takes 1 value(s), not 2",
        "16:24 LX327 the game has no procedure `scor`",
        "16:41 LX327 the game has no player `green`",
        "17:5 LX327 the game has no phase `three`",
        "21:34 LX302 unknown name `totl`",
        "26:19 LX302 `cart` in `overrides` is not a kind of the game",
        "26:51 LX205 `value` of `card` is a whole number (1); two is a text",
    ]


def test_until_with_only_checkpoints_among_the_choices_stops_from_the_start(game):
    path = scenario_file(game, "until_checkpoints", """
        scenarios:
          - name: a checkpoint is no choice
            rules: [X-1]
            setup: false
            position: {start: {call: "score(1)", by: red}}
            choices: [{expect: {values: {total: 101}}}]
            until: event scored
            expect: {values: {total: 101}}
        """)
    assert run(game, path).paused


def test_a_scenario_whose_until_is_never_reached_fails(game):
    path = scenario_file(game, "until_missed", """
        scenarios:
          - name: the phase two never ends before the next decision
            rules: [X-1]
            setup: false
            until: end of phase two
            expect: {}
        """)
    with pytest.raises(ScenarioFailure, match="`until: end of phase two`: the game stopped at decision `put` before"):
        run(game, path)
