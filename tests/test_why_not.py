"""Why can't I? `game.why_not(label)` names the condition of the rules that refused an option, in
the rules' own text with the values written in, and the file and line where it is written."""
import random
from pathlib import Path

import pytest

from interpreter import Game, load
from interpreter.scenarios.files import Expectation, PositionSpec, Scenario
from interpreter.scenarios.run import run_scenario

ROOT = Path(__file__).resolve().parent.parent


def line_of(path: str, text: str) -> int:
    """The number of the first line of rules file `path` (under rulesets/) that holds `text`."""
    lines = (ROOT / "rulesets" / path).read_text().splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


def reasons(answer) -> list[tuple[str, str, int]]:
    return [(r.text, r.file, r.line) for r in answer.reasons]


@pytest.fixture(scope="module")
def root():
    return load(ROOT / "rulesets" / "root")


def marquise_at(root, board, hand=None, choices=()):
    """A Root game of the Marquise and the Eyrie, the pieces laid out as `board` says, the Marquise to act."""
    position = PositionSpec(variables={"current": "marquise"}, board=board,
                            zones={"hand": {"marquise": hand}} if hand else {})
    scenario = Scenario(name="why not", rules=["-"], players=["marquise", "eyrie"], setup=False, position=position,
                        choices=list(choices), expect=Expectation())
    return run_scenario(root, scenario)


def test_cernunos_names_each_false_condition_of_can_place_with_its_line(cernunos):
    game = Game(cernunos, seed=3)
    game.choose("tree a1")
    game.choose("boar a1")  # green's boar of power 1 on green's tree: purple may not cover it
    answer = game.why_not("deer a1")
    assert not answer.offered and answer.player == "purple" and answer.decision == "place"
    place = line_of("cernunos/cernunos.rules", "where can_place(you, kind, square) as place")
    assert reasons(answer) == [
        ("`deer a1` is not an option of `place`: `can_place(purple, deer, a1)` is false", "cernunos.rules", place),
        ("`top(a1) = none` is false: top(a1) is green-boar-1", "cernunos.rules",
         line_of("cernunos/cernunos.rules", "top(s) = none")),
        ("`top(a1).owner = purple` is false: top(a1).owner is green", "cernunos.rules",
         line_of("cernunos/cernunos.rules", "top(s).owner = p or")),
        ("`power(top(a1)) <= 0` is false: power(top(a1)) is 1", "cernunos.rules",
         line_of("cernunos/cernunos.rules", "power(top(s)) <= 0")),
    ]
    assert str(answer).splitlines()[0] == f"`deer a1` is not an option of `place`: `can_place(purple, deer, a1)` is " \
                                          f"false (cernunos.rules:{place})"


def test_cernunos_labels_that_are_offered_or_name_nothing_or_have_the_wrong_shape(cernunos):
    game = Game(cernunos, seed=3)
    assert game.why_not("TREE A1").offered
    assert str(game.why_not("tree a1")) == "`tree a1` is an option of `place`: choose it"
    assert str(game.why_not("tre a1")) == ("`tre a1` is not an option of `place`: `tre` names nothing in this game "
                                           "(did you mean `tree`?)")
    place = line_of("cernunos/cernunos.rules", "where can_place(you, kind, square) as place")
    assert str(game.why_not("deer")) == ("`deer` is not an option of `place`: an option names 2 values (`kind` and "
                                         f"`square`), as in `tree a1` (cernunos.rules:{place})")
    assert str(game.why_not("pass")) == f"`place` cannot be passed: its rule has no `or pass` (cernunos.rules:{place})"
    assert "purple has no decision to make now: green decides `place`" == str(game.why_not("tree a1", by="purple"))
    for _ in range(12):
        game.choose("crow b2" if "crow b2" in game.decision.labels() else 0)
    kinds = game.decision.labels()
    assert all(not label.startswith("crow ") for label in kinds)  # green's only crow is on the board
    answer = game.why_not("crow c3")
    assert reasons(answer) == [(
        "`crow c3` is not an option of `place`: crow is not among `kinds(reserve(green))`, the values of `kind` "
        f"(they are {', '.join(dict.fromkeys(label.split()[0] for label in kinds))})", "cernunos.rules", place)]


def test_root_a_move_from_a_clearing_nobody_of_yours_rules(root):
    game = marquise_at(root, {"c1": ["marquise warrior", "eyrie warrior", "eyrie warrior"], "c5": ["eyrie warrior"],
                              "c9": ["marquise warrior"]}, choices=[{"action": "march"}])
    assert game.decision.name == "move" and "c1 c5" not in game.decision.labels()
    move = line_of("root/core.rules", "choose origin in move_origins(you), target in reachable(you, origin) where")
    rules = line_of("root/core.rules", "function rules(p, site) = ruler(site) = p")
    assert reasons(game.why_not("c1 c5")) == [
        ('`c1 c5` is not an option of `move`: `fits(c1, "any") and can_move(marquise, c1, c5)` is false',
         "core.rules", move),
        ("`ruler(c1) = marquise` is false: ruler(c1) is eyrie", "core.rules", rules),
        ("`ruler(c5) = marquise` is false: ruler(c5) is eyrie", "core.rules", rules),
    ]
    assert reasons(game.why_not("c1 c3")) == [(
        "`c1 c3` is not an option of `move`: c3 is not among `reachable(marquise, c1)`, the values of `target` "
        "(they are c5, c9, c10)", "core.rules", move)]
    assert str(game.why_not("c99 c5")) == ("`c99 c5` is not an option of `move`: `c99` names nothing in this game "
                                           "(did you mean `c9`?)")


def test_root_a_craft_without_the_crafting_pieces(root):
    game = marquise_at(root, {"c1": ["marquise workshop"], "c8": ["marquise workshop", "marquise warrior"]},
                       hand={"gently_used_knapsack": 1, "anvil": 1})
    assert game.decision.name == "craft" and game.decision.labels() == ["anvil-1", "pass"]
    answer = game.why_not("gently_used_knapsack-1")
    assert reasons(answer) == [
        ("`gently_used_knapsack-1` is not an option of `craft`: `can_craft(marquise, gently_used_knapsack-1)` is false",
         "core.rules", line_of("root/core.rules", "where can_craft(you, card) as craft")),
        ('`count(icon in ["mouse"] where icon = "mouse") <= craft_power(marquise, "mouse")` is false: '
         'count(icon in ["mouse"] where icon = "mouse") is 1, craft_power(marquise, "mouse") is 0',
         "core.rules", line_of("root/core.rules", "all(s in suits() where count(icon in cost")),
    ]


def test_root_a_build_where_no_slot_is_free(root):
    game = marquise_at(root, {"c9": ["marquise sawmill", "marquise workshop"], "c5": ["marquise warrior"],
                              "c4": ["marquise warrior", "eyrie warrior", "eyrie warrior"]},
                       choices=[{"action": "build"}])
    assert game.decision.name == "build"
    build = line_of("root/marquise.rules", "where can_build(you, k, site) as build")
    assert reasons(game.why_not("sawmill c9")) == [
        ("`sawmill c9` is not an option of `build`: `marquise.can_build(marquise, sawmill, c9)` is false",
         "marquise.rules", build),
        ("`free_slots(c9) > 0` is false: free_slots(c9) is 0", "marquise.rules",
         line_of("root/marquise.rules", "rules(p, site) and free_slots(site) > 0")),
    ]
    assert reasons(game.why_not("workshop c4"))[1] == (  # a slot, but the Eyrie rule there
        "`ruler(c4) = marquise` is false: ruler(c4) is eyrie", "core.rules",
        line_of("root/core.rules", "function rules(p, site) = ruler(site) = p"))
    assert reasons(game.why_not("keep c5"))[0][0].startswith(
        "`keep c5` is not an option of `build`: keep is not among `[sawmill, workshop, recruiter]`, the values of `k`")


def test_root_never_tells_a_player_about_a_card_they_cannot_see(root):
    game = Game(root, seed=1, players=["marquise", "eyrie"])
    others = [c.id for c in game.state.zones["hand/eyrie"]] + [c.id for c in game.state.zones["deck"]]
    asked = game.decision.player
    for card in others[:5] + others[-3:]:
        answer = str(game.why_not(card, by=asked))
        assert answer.endswith(f"`{card}` is not a component you can see")
        assert not any(other in answer for other in others if other != card)


def test_an_anytime_action_is_explained_by_its_condition():
    game = Game(load(ROOT / "rulesets" / "seventh_citadel"), seed=1)
    assert game.decision.name == "anytime" and "share_hope" not in game.decision.labels()
    answer = game.why_not("share_hope")
    condition = line_of("seventh_citadel/citadel.rules", "anytime share_hope if")
    assert reasons(answer) == [
        ("`share_hope` is not an option of `anytime`: its condition `acting = none and any(x in pieces(bourse(brooks)) "
         "where x is b099_hope)` is false", "citadel.rules", condition),
        ("`any(x in pieces(bourse(brooks)) where x is b099_hope)` is false: pieces(bourse(brooks)) is empty",
         "citadel.rules", condition),
    ]
    assert str(game.why_not("hidden_numbr")).endswith("(did you mean `hidden_number`?)")


@pytest.mark.parametrize("name", ["wonderlands_war", "seventh_citadel", "root"])
def test_every_decision_of_a_game_answers_without_failing(name):
    """Any label, asked at any decision of a random game: an answer, `offered` exactly for the options."""
    game, rng = Game(load(ROOT / "rulesets" / name), seed=2), random.Random(2)
    earlier: list[str] = ["nothing", "c1 c1 c1"]
    for _ in range(60):
        if game.finished:
            break
        decision = game.decision
        labels = decision.labels()
        for label in [rng.choice(labels), rng.choice(earlier), rng.choice(earlier).upper()]:
            answer = game.why_not(label)
            assert answer.offered == (label.lower() in [x.lower() for x in labels]), (decision, label, str(answer))
            assert answer.reasons and all(r.text for r in answer.reasons)
            assert all(r.file is None or (ROOT / "rulesets" / name / r.file).is_file() or (ROOT / r.file).is_file()
                       for r in answer.reasons)
        earlier += labels[:3]
        game.choose(rng.randrange(len(labels)))
