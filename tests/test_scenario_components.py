"""`validate` and the runtime agree on the components a scenario can take (LX328): validate reports
a lack of components exactly when running the scenario would fail for want of them.

A position takes each component named as the runtime's `_take` does: the owner's own, else an
ownerless one (`red coin` is a coin of the bank), never another player's; every player of the
content has their components whether seated or not; the scenario's `options` decide which kinds the
game has. An expectation reads a player's own zone whoever owns what lies there (Alice's bag holds
the Jabberwocky's Poison), a shared zone or the board by the owner written."""
import textwrap
from collections import Counter
from pathlib import Path

import pytest
from toy import toy_folder

from interpreter import Game, load
from interpreter.diagnostics.errors import RuleRuntimeError
from interpreter.scenarios.check import check_scenarios
from interpreter.scenarios.files import load_scenarios
from interpreter.scenarios.run import ScenarioFailure, run_scenario

CONTENT = """
players: [red, blue, green]
board:
  grid: {columns: 2, rows: 1, connections: [orthogonal]}
pieces:
  stone: {per_player: 2, starts_in: supply}          # every player's, seated or not
  guard: {per_player: {blue: 2}, starts_in: supply}  # blue's only, as the Jabberwocky's Poison
  coin: {count: 3, starts_in: bank}                  # nobody's
  relic: {count: 1, starts_in: bank, only_if: {mode: rich}}
"""

RULES = """
option mode in ["plain", "rich"] = "plain"
zone supply per player
zone bag per player
zone bank
play:
    turn red:
        choose s in [a1, b1] as put
    draw
"""

# name -> (the scenario's own keys, whether the game lacks the components it names: LX328, and a
# failure when it runs); red and blue are seated, green is not
CASES = {
    "another player's token in a bag, laid on top": ("""
        position: {on_top: {'bag(red)': [blue guard]}}
        expect: {zones: {bag: {red: {guard: 1}}}}
        """, None),
    "another player's token asked of a player's zone": ("""
        position: {zones: {bag: {red: {guard: 1}}}}
        expect: {}
        """, "the position needs 1 `red guard` but the game has 0"),
    "a player's zone expected to hold more of a kind than all its owners have": ("""
        position: {on_top: {'bag(red)': [blue guard, blue guard]}}
        expect: {zones: {bag: {red: {guard: 3}}}}
        """, "the expect needs 3 `guard` but the game has 2"),
    "a coin written with an owner is one of the bank's": ("""
        position: {board: {a1: [red coin]}}
        expect: {board: {a1: [coin]}}
        """, None),
    "the bank's coins, whoever they are written for, are three": ("""
        position:
          board: {a1: [red coin, coin]}
          zones: {bag: {red: {coin: 1}, blue: {coin: 1}}}
        expect: {}
        """, "the position needs 4 `coin` but the game has 3"),
    "all the bank's coins": ("""
        position:
          board: {a1: [red coin]}
          zones: {bag: {red: {coin: 1}}, bank: {nobody: {coin: 1}}}
        expect: {zones: {bag: {red: {coin: 1}}, bank: {nobody: {coin: 1}}}}
        """, None),
    "a coin expected in a shared zone as red's (coins are nobody's)": ("""
        position: {zones: {bank: {nobody: {coin: 1}}}}
        expect: {zones: {bank: {red: {coin: 1}}}}
        """, "the expect needs 1 `red coin` but the game has 0"),
    "the pieces of a player who is not seated are in the game": ("""
        position:
          board: {a1: [green stone], b1: [green stone]}
          zones: {bag: {red: {stone: 2}}}
        expect: {board: {a1: [green stone], b1: [green stone]}, zones: {supply: {green: {}}}}
        """, None),
    "no more pieces of a player who is not seated than the content gives": ("""
        position:
          board: {a1: [green stone]}
          zones: {bag: {green: {stone: 2}}}
        expect: {}
        """, "the position needs 3 `green stone` but the game has 2"),
    "a kind the options chosen give the game": ("""
        options: {mode: rich}
        position: {zones: {bag: {red: {relic: 1}}}}
        expect: {zones: {bag: {red: {relic: 1}}}}
        """, None),
    "a kind the default options leave out": ("""
        position: {zones: {bag: {red: {relic: 1}}}}
        expect: {}
        """, "the position needs 1 `red relic` but the game has 0"),
}


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    folder = toy_folder(tmp_path_factory.mktemp("components"), CONTENT, toy=RULES)
    (folder / "tests").mkdir()
    for n, (name, (body, _)) in enumerate(CASES.items()):
        scenario = f"- name: {name}\n  rules: [X-1]\n  players: [red, blue]\n  setup: false\n" \
                   + textwrap.indent(textwrap.dedent(body).strip(), "  ")
        (folder / "tests" / f"case_{n}.yaml").write_text(f"scenarios:\n{textwrap.indent(scenario, '  ')}\n")
    return folder


@pytest.mark.parametrize("n, name", list(enumerate(CASES)), ids=list(CASES))
def test_validate_reports_a_lack_of_components_exactly_when_the_scenario_fails_for_it(game, n, name):
    ruleset, path = load(game), game / "tests" / f"case_{n}.yaml"
    lacking = CASES[name][1]
    reported = [d.message for d in check_scenarios(ruleset, path)]
    assert reported == ([lacking] if lacking else [])
    (loaded,) = load_scenarios(path)
    if not lacking:
        run_scenario(ruleset, loaded.scenario)
        return
    with pytest.raises((ScenarioFailure, RuleRuntimeError)) as failure:  # a position's, raised as the game starts
        run_scenario(ruleset, loaded.scenario)
    wanted = "not enough" if lacking.startswith("the position") else "expected"
    assert wanted in str(failure.value)


def test_a_hint_names_whose_components_a_player_asked_for_are(game):
    ruleset = load(game)
    n = list(CASES).index("another player's token asked of a player's zone")
    (diagnostic,) = check_scenarios(ruleset, game / "tests" / f"case_{n}.yaml")
    assert diagnostic.code == "LX328" and "`blue guard`" in diagnostic.hint


@pytest.mark.parametrize("options", [{}, {"mode": "rich"}])
def test_the_totals_validate_counts_are_the_components_of_a_game_whatever_the_seating(game, options):
    ruleset = load(game)
    for seated in (["red"], ["red", "blue"], ["red", "blue", "green"]):
        state = Game(ruleset, players=seated, options=options).state
        assert Counter((c.owner, c.kind) for c in state.components.values()) == ruleset.component_totals(options)
    assert ruleset.component_totals(options)[("green", "stone")] == 2
