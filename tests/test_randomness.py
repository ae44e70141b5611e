"""All randomness comes from the state's seeded RNG: same seed, same game; the RNG state is saved."""
import json

from interpreter import Game, load
from interpreter.engine.state import State

from test_checker import CONTENT, make_game

DICE_GAME = """\
zone supply per player
zone deck hidden
variable total = 0
setup:
    move pieces(supply(red)) to deck
    shuffle deck
play:
    repeat 3 times:
        turn red:
            choose n in [1, 2] as dice
            repeat n times:
                set total = total + roll(6)
    if total > 10:
        win red
    lose red
"""


def order_and_total(game):
    return [c.id for c in game.state.zones["deck"]], game.state.variables["total"]


def test_same_seed_same_shuffle_and_rolls(tmp_path):
    ruleset = load(make_game(tmp_path, DICE_GAME, CONTENT))
    games = [Game.replay(ruleset, seed=42, choices=[1, 0, 1]) for _ in range(2)]
    assert order_and_total(games[0]) == order_and_total(games[1])
    others = [order_and_total(Game.replay(ruleset, seed=s, choices=[1, 0, 1])) for s in range(10)]
    assert len({tuple(o) for o, _ in others}) > 1 and len({t for _, t in others}) > 1


def test_the_rng_state_travels_with_the_saved_state(tmp_path):
    ruleset = load(make_game(tmp_path, DICE_GAME, CONTENT))
    game = Game(ruleset, seed=7)
    game.choose(1)
    restored = State.from_json(json.loads(json.dumps(game.state.to_json())))
    assert restored == game.state
    assert restored.rng.random() == game.state.rng.random()


def test_a_variable_holding_a_component_is_saved_as_a_reference(tmp_path):
    rules = DICE_GAME.replace("variable total = 0", "variable total = 0\nvariable chosen = none").replace(
        "    shuffle deck\n", "    shuffle deck\n    set chosen = top(deck)\n")
    game = Game(load(make_game(tmp_path, rules, CONTENT)), seed=3)
    saved = json.loads(json.dumps(game.state.to_json()))
    assert saved["variables"]["chosen"] == {"component": game.state.variables["chosen"].id}
    restored = State.from_json(saved)
    assert restored == game.state and restored.variables["chosen"] is restored.components[saved["variables"]["chosen"]["component"]]
