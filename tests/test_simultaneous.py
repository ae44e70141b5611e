"""Decisions several players make at once and in secret: `simultaneously for each p in L`, answered in
any order through the Python API, by bots, in scenarios and in `ludolex play`; nobody sees an answer
before all are given; saves replay."""
import json

import pytest
from click.testing import CliRunner
from toy import toy_folder

from interpreter import Game, LudolexError, load
from interpreter.interfaces.cli import main
from interpreter.play.visibility import observation
from interpreter.scenarios.files import load_scenarios
from interpreter.scenarios.run import ScenarioFailure, run_scenario

CONTENT = """\
players: [red, blue, green]
board:
  grid: {columns: 3, rows: 1, connections: [orthogonal]}
pieces:
  chip: {per_player: 1, starts_in: supply}
"""

# each player puts their chip on a square in secret; red and blue must not see each other's square before both chose;
# green has no chip to bet with (it is given away at setup), so it takes no part
RULES = """\
zone supply per player
variable bets = 0

setup:
    move pieces(supply(green)) to box

play:
    simultaneously for each p in players:
        choose chip in pieces(supply(p)), spot in locations as bet by p
        move chip to spot
        set bets = bets + 1
    if top(a1) != none and top(b1) != none:
        win players by "both"
    lose players by "missed"
"""


def game(tmp_path, rules=RULES) -> Game:
    return Game(load(toy_folder(tmp_path, CONTENT, toy=rules)))


def test_every_player_with_a_choice_decides_at_once_and_the_answers_apply_together(tmp_path):
    g = game(tmp_path)
    assert g.at_once and [d.player for d in g.decisions] == ["red", "blue"] and g.decision.player == "red"
    version = g.state.version
    g.choose("blue-chip-1 b1", by="blue")  # in any order
    assert g.state.version == version and g.state.variables["bets"] == 0  # nothing applied yet
    assert [d.player for d in g.decisions] == ["red"] and g.decision.player == "red"
    g.choose("red-chip-1 a1")
    assert not g.at_once and g.result.ending == "both" and g.state.variables["bets"] == 2
    assert g.log == [0, 1]  # red's answer first, as the group lists them; a replay answers one after the other
    assert [(d.player, i) for d, i in g.last_group] == [("red", 0), ("blue", 1)]


def test_no_player_sees_an_answer_before_everyone_has_answered(tmp_path):
    g = game(tmp_path)
    seen = {p: json.dumps(observation(g, p), sort_keys=True) for p in g.players}
    red_options = g.decisions[0].labels()
    g.choose("blue-chip-1 c1", by="blue")
    assert {p: json.dumps(observation(g, p), sort_keys=True) for p in g.players} == seen
    assert g.decision.labels() == red_options


def test_an_answer_out_of_turn_or_by_a_player_not_deciding_is_refused(tmp_path):
    g = game(tmp_path)
    with pytest.raises(ValueError, match="green has no decision to make; waiting for red, blue"):
        g.choose(0, by="green")
    g.choose(0, by="blue")
    with pytest.raises(ValueError, match="blue has no decision to make; waiting for red"):
        g.choose(0, by="blue")


def test_a_saved_game_with_secret_answers_replays(tmp_path):
    g = game(tmp_path)
    g.choose(2, by="blue")
    g.choose(1, by="red")
    again = Game.from_json(g.ruleset, json.loads(g.dumps()))
    assert again.result == g.result and again.state.to_json() == g.state.to_json()


def test_the_block_must_start_with_the_secret_decision(tmp_path):
    rules = RULES.replace("        choose chip in pieces(supply(p)), spot in locations as bet by p\n",
                          "        set bets = 5\n        choose chip in pieces(supply(p)), spot in locations as bet by p\n")
    with pytest.raises(LudolexError) as error:
        game(tmp_path, rules)
    assert [(d.code, d.position.line) for d in error.value.diagnostics] == [("LX333", 9)]


SCENARIO = """\
scenarios:
  - name: blue answers first
    rules: [X]
    choices:
      - {bet: blue-chip-1 b1, by: blue}
      - {bet: red-chip-1 a1, by: red}
    expect: {winner: [red, blue, green], ended_by: both}
"""


def test_a_scenario_answers_in_any_order_with_by(tmp_path):
    folder = toy_folder(tmp_path, CONTENT, toy=RULES)
    (folder / "tests").mkdir()
    path = folder / "tests" / "bets.yaml"
    path.write_text(SCENARIO)
    ruleset = load(folder)
    [loaded] = load_scenarios(path)
    run_scenario(ruleset, loaded.scenario)
    path.write_text(SCENARIO.replace("by: blue}", "by: green}"))
    [loaded] = load_scenarios(path)
    with pytest.raises(ScenarioFailure, match="green"):
        run_scenario(ruleset, loaded.scenario)


def test_play_tells_the_secret_answers_once_all_are_given(tmp_path):
    folder = toy_folder(tmp_path, CONTENT, toy=RULES)
    played = CliRunner().invoke(main, ["play", str(folder), "--seed", "3"])
    assert played.exit_code == 0, played.output
    lines = played.output.splitlines()
    secret = lines.index("red bet: (in secret)")
    assert lines[secret + 1].startswith("red bet: red-chip-1 ") and lines[secret + 2].startswith("blue bet: blue-chip-1 ")


def test_bots_play_many_games_with_secret_decisions(tmp_path):
    folder = toy_folder(tmp_path, CONTENT, toy=RULES)
    run = CliRunner().invoke(main, ["simulate", str(folder), "--games", "40", "--jobs", "1", "--check",
                                    "--db", str(tmp_path / "r.sqlite")])
    assert run.exit_code == 0 and "40 finished" in run.output, run.output
