"""The Lua backend (issue 33): Cernunos compiled to Lua plays the games of the hand-written oracle and
of the generated Python backend, its games copy as data, its runtime has no way to the host, and
what it cannot compile yet is said with its place."""
import random

import pytest

pytest.importorskip("lupa")

import cernunos_baseline as baseline

from interpreter import Game, load
from interpreter.backends.lua.expressions import NotOnLua, lua_string
from interpreter.backends.lua.program import UNSAFE_GLOBALS, LuaGame, LuaProgram, lua_module, sandboxed_runtime
from interpreter.diagnostics.errors import RuleRuntimeError


@pytest.fixture(scope="module")
def rules(cernunos):
    return LuaProgram(cernunos).compile()


def test_random_games_inside_lua_are_the_hand_written_ones(rules):
    for seed in range(150):
        expected = [(name, player, len(options), index) for name, player, options, index
                    in baseline.trace_random_game(seed)]
        game = LuaGame(rules, seed=seed)
        trace = [(name, player, int(count), int(index)) for name, player, count, index in game.play_random(trace=True)]
        assert trace == expected, f"seed {seed}"
        result = baseline.play_random_game(seed)
        assert (game.result.winner, game.result.scores) == (result["winner"], result["scores"]), f"seed {seed}"


def test_decisions_asked_from_python_are_the_generated_backends(cernunos, rules):
    for seed in range(12):
        python, lua, rng = Game(cernunos, seed=seed), LuaGame(rules, seed=seed), random.Random(seed)
        while not python.finished:
            assert not lua.finished
            assert (lua.decision.name, lua.decision.player) == (python.decision.name, python.decision.player)
            assert lua.decision.labels() == python.decision.labels()
            index = rng.randrange(len(python.decision.options))
            python.choose(index)
            lua.choose(index)
        assert lua.finished
        assert (lua.result.winners, lua.result.scores, lua.result.reason) == \
            (python.result.winners, python.result.scores, python.result.reason)


def _play(game, rng):
    while not game.finished:
        game.choose(rng.randrange(len(game.decision.options)))
    return game.result.winners, game.result.scores


def test_a_copy_goes_on_as_the_original_and_alone(rules):
    game, rng = LuaGame(rules, seed=3), random.Random(3)
    for _ in range(20):  # into the game: turns, placements, activations under way
        game.choose(rng.randrange(len(game.decision.options)))
    copy, pending = game.copy(), game.decision.labels()
    assert copy.decision.labels() == pending
    ended = _play(copy, random.Random(99))  # the copy played to its end...
    assert game.decision.labels() == pending  # ...leaves the original where it was
    assert _play(game.copy(), random.Random(99)) == ended  # and a copy plays as any other
    assert _play(game, random.Random(99)) == ended


def test_the_runtime_has_no_way_to_the_host():
    runtime = sandboxed_runtime()
    for name in UNSAFE_GLOBALS:
        assert runtime.eval(name) is None, name
    assert runtime.eval("string.dump") is None
    with pytest.raises(lua_module().LuaError):
        runtime.eval("python.eval('1')")


def test_texts_are_literals_that_cannot_end_early():
    runtime = sandboxed_runtime()
    for text in ['"); os.exit() --', "]] .. x .. [[", "a\nb\\", "é ß \x00"]:
        assert runtime.eval(lua_string(text)) == text


def test_a_runtime_error_points_at_the_rules(cernunos, rules):
    game = LuaGame(rules, seed=0)
    game.G.step_limit = game.G.steps  # a step budget no rule fits in
    with pytest.raises(RuleRuntimeError) as caught:
        game.choose(0)
    assert caught.value.position is not None and caught.value.position.file.endswith(".rules")
    assert "steps" in str(caught.value)


def test_what_is_not_compiled_yet_is_said_at_its_place():
    with pytest.raises(NotOnLua) as caught:
        LuaProgram(load("rulesets/seventh_citadel"))
    assert caught.value.pos is not None and caught.value.pos.line > 0
    assert "seventh_citadel" in caught.value.pos.file
