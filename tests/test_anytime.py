"""`anytime` actions: what a player may do at any `window` of the flow, as often as its condition allows."""
from pathlib import Path

import pytest
from toy import toy_folder

from interpreter import Game, LudolexError, load

CONTENT = """
players: [red, blue]
board:
  grid: {columns: 2, rows: 1, connections: [orthogonal]}
pieces:
  stone: {per_player: 3, starts_in: supply}
"""

RULES = """
zone supply per player
variable peeked per player = false
variable log = []
anytime peek if not peeked(you) and you = current:
    set peeked(you) = true
    set log = log + [you]
anytime place if size(supply(you)) > 1:
    move top(supply(you)) to a1
variable current = red
play:
    repeat 2 times:
        turn current:
            repeat 2 times:
                window
                choose s in [a1, b1] as act
                set log = log + [s]
            set peeked(you) = false
        set current = next(current)
    draw
"""


def game_of(tmp_path: Path, rules: str = RULES) -> Game:
    return Game(load(toy_folder(tmp_path, CONTENT, toy=rules)))


def test_a_window_offers_each_player_their_anytime_actions_the_player_acting_first(tmp_path):
    game = game_of(tmp_path)
    decision = game.decision
    assert (decision.name, decision.player, decision.labels()) == ("anytime", "red", ["peek", "place", "pass"])
    game.choose("peek")
    assert game.decision.labels() == ["place", "pass"]  # once a turn: peeked
    game.choose("pass")
    assert (game.decision.player, game.decision.labels()) == ("blue", ["place", "pass"])  # then the others
    game.choose("place")
    game.choose("place")
    assert game.decision.name == "act"  # blue has one stone left: no more `place`
    assert game.evaluate("log") == ["red"] and game.evaluate("size(a1)") == 2


def test_an_anytime_action_taken_once_a_turn_comes_back_the_next_turn(tmp_path):
    game = game_of(tmp_path)
    for choice in ["peek", "pass", "pass", "a1", "pass", "pass", "b1"]:
        game.choose(choice)
    assert (game.decision.player, game.decision.labels()) == ("blue", ["peek", "place", "pass"])


def test_an_anytime_action_declared_twice_is_reported(tmp_path):
    with pytest.raises(LudolexError) as error:
        game_of(tmp_path, RULES + "anytime peek:\n    pass\n")
    assert [d.code for d in error.value.diagnostics] == ["LX301"]


SPANS = """
zone supply per player
variable log = []
variable current = red
variable waved per player = 0
anytime wave during turn if waved(you) < 9:
    set waved(you) = waved(you) + 1
    set log = log + [you]
anytime nod during second:
    set log = log + ["nod"]
event first_steps()
when first_steps():
    set log = log + ["step 1"]
    choose s in ["x", "y"] as inside
    set log = log + [s]
play:
    repeat 2 times:
        turn current:
            phase first:
                emit first_steps()
            phase second:
                set log = log + ["second"]
        set current = next(current)
    draw
"""


@pytest.mark.parametrize("backend", ["generated", "reference"])
def test_an_action_during_a_span_is_offered_at_every_step_of_it_to_the_player_whose_turn_it_is(tmp_path, backend):
    from interpreter.loading.stages import load_ruleset
    game = Game(load_ruleset(toy_folder(tmp_path, CONTENT, toy=SPANS), backend=backend))
    asked = []
    while game.decision is not None:
        decision = game.decision
        asked.append((decision.player, tuple(decision.labels()) if decision.name == "anytime" else decision.name))
        game.choose("pass" if decision.name == "anytime" else "x")
    # each turn: the start of `first`; its rule's steps, with a window between each two and none inside the
    # step that asks `inside`; the end of `first`; the start and the end of `second`, where `nod` comes too
    wave, both = ("wave", "pass"), ("wave", "nod", "pass")
    turn = [wave, wave, "inside", wave, wave, both, both]
    assert asked == [("red", step) for step in turn] + [("blue", step) for step in turn]


@pytest.mark.parametrize("backend", ["generated", "reference"])
def test_an_action_during_a_span_may_be_taken_again_at_the_same_step(tmp_path, backend):
    from interpreter.loading.stages import load_ruleset
    game = Game(load_ruleset(toy_folder(tmp_path, CONTENT, toy=SPANS), backend=backend))
    game.choose("wave")
    game.choose("wave")
    assert game.decision.labels() == ["wave", "pass"]  # the same window, until red passes
    game.choose("pass")
    assert game.evaluate("log") == ["red", "red", "step 1"]
    assert game.decision.labels() == ["wave", "pass"]  # the next step's window, after the first step
    assert game.evaluate("waved(blue)") == 0


def test_a_span_must_be_the_turn_or_a_phase(tmp_path):
    with pytest.raises(LudolexError) as error:
        load(toy_folder(tmp_path, CONTENT, toy=SPANS.replace("during second", "during secnd")))
    assert "LX302" in str(error.value) and "no phase `secnd`" in str(error.value)
    assert "did you mean `second`" in str(error.value)
