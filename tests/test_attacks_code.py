"""Attack: text a stranger wrote (in rules, content, bots or scenarios) must never run as Python.

The compiler generates Python source for rule expressions. Every hostile text below is put in
every place where content flows into generated code: a text literal in the rules, a property's
default, a variable's initial value, a location's name and attributes, a kind's properties, an
ability, a bot's expression, a scenario's variables and choices. Loading and playing must either
work (the text is just a text) or stop with a clear error; the payloads, which would create a
file if they ever ran, must never run.
"""
from __future__ import annotations

import json
import textwrap

import pytest

from interpreter import Game
from interpreter.agents.bots import make_agent
from interpreter.diagnostics.errors import RuleRuntimeError
from interpreter.loading.stages import load_ruleset
from interpreter.scenarios.run import ScenarioFailure, run_scenario
from interpreter.scenarios.files import load_scenarios

PAYLOADS = [
    '{0[4]}+str(__import__("os").system("touch {sentinel}"))+{0[4]}',
    "'); __import__('os').system('touch {sentinel}') #",
    '"); __import__("os").system("touch {sentinel}") #',
    '"""); __import__("os").system("touch {sentinel}") #',
    "\\'); __import__('os').system('touch {sentinel}') #",
    "\n__import__('os').system('touch {sentinel}')\n",
    "{", "}", "{0}", "{0:>1000000000}", "{{}}", "%s%(x)s", "\\", "\x00", "\t", "\r\n", "é☃", "a" * 1000,
]

RULES = """
zone supply per player
property note = {text}
variable said = {text}
function marked(p) = p.note = {text} or p.label = said or p.tag = {text}
play:
    repeat 2 times:
        for each seat in players:
            turn seat:
                let pawn = first(p in pieces(supply(you)))
                choose spot in locations where spot != home as go
                move pawn to spot
                perform mark of pawn
                if marked(pawn) and said = {text}:
                    set said = {text}
    draw
"""

CONTENT = """
players: [red, blue]
board:
  locations:
    home: {{}}
    {name}: {{label: {name}}}
  connections:
    - {{from: home, to: {name}, type: path}}
pieces:
  pawn:
    per_player: 2
    starts_in: supply
    properties: {{tag: {name}}}
    abilities:
      mark: {ability}
"""

BOT = """
all:
  go: {expression}
"""

SCENARIO = """
scenarios:
  - name: a hostile text is only a text
    rules: [SEC-1]
    position:
      variables: {{said: {name}}}
    choices:
      - go: {name}
    expect:
      values: {{said: {name}}}
"""


def hostile_game(folder, payload: str):
    text = json.dumps(payload)  # a text of the rules language: double quotes, backslash escapes
    name = json.dumps(payload)  # a YAML double-quoted scalar
    (folder / "rules" / "bots").mkdir(parents=True)
    (folder / "rules" / "tests").mkdir()
    (folder / "cards").mkdir()
    (folder / ".git").mkdir()  # the project: its manifest may name ../cards
    (folder / "rules" / "game.yaml").write_text("name: hostile\ncontent: ../cards\n")
    (folder / "rules" / "hostile.rules").write_text(textwrap.dedent(RULES.format(text=text)))
    ability = json.dumps(f"set self.note = {text}")
    (folder / "cards" / "content.yaml").write_text(CONTENT.format(name=name, ability=ability))
    expression = json.dumps(f"if spot.label = {text} then 1 else 0")
    (folder / "rules" / "bots" / "hostile.yaml").write_text(BOT.format(expression=expression))
    (folder / "rules" / "tests" / "hostile.yaml").write_text(SCENARIO.format(name=name))


@pytest.mark.parametrize("template", PAYLOADS)
def test_hostile_text_never_runs_as_code(tmp_path, template):
    sentinel = tmp_path / "PWNED"
    payload = template.replace("{sentinel}", str(sentinel))
    hostile_game(tmp_path, payload)
    ruleset = load_ruleset(tmp_path / "rules")
    assert ruleset.program.codegen.warnings == []
    game = Game(ruleset, seed=1)
    bot = make_agent("hostile", ruleset, game, 1)
    while not game.finished:
        game.choose(bot.choose(game.decision))
    assert game.result.reason == "draw"
    assert game.evaluate("said") == payload
    for loaded in load_scenarios(tmp_path / "rules" / "tests" / "hostile.yaml"):
        try:
            run_scenario(ruleset, loaded.scenario)
        except (ScenarioFailure, RuleRuntimeError) as failure:
            pytest.fail(f"the scenario should pass: {failure}")
    assert not sentinel.exists()


def test_a_default_with_braces_is_read_as_written(tmp_path):
    hostile_game(tmp_path, "{0}")
    ruleset = load_ruleset(tmp_path / "rules")
    game = Game(ruleset, seed=1)
    pawn = game.state.components["red-pawn-1"]
    assert game.evaluate("marked(first(p in pieces(supply(red))))") is True
    assert pawn.props == {}  # the default is read, not stored


@pytest.mark.parametrize("game", ["cernunos", "root"])
def test_the_shipped_games_compile_without_a_python_warning(game):
    assert load_ruleset(game).program.codegen.warnings == []


def test_a_literal_compared_with_none_compiles_without_a_warning(tmp_path):
    """`3 = none` once became `(3 is None)`, which Python warns about on every load."""
    hostile_game(tmp_path, "x")
    rules = tmp_path / "rules" / "hostile.rules"
    rules.write_text(rules.read_text().replace("function marked(p) =", "function marked(p) = 3 = none or \"a\" != none or"))
    ruleset = load_ruleset(tmp_path / "rules")
    assert ruleset.program.codegen.warnings == []
    assert Game(ruleset, seed=1).evaluate("marked(first(p in pieces(supply(red))))") is True
