"""Primitives added for Root, on a small invented game: owners by player, seating, lists and
regions, kinds' own values, dice given by a scenario, and rule-of-thumb bots written as data."""
import textwrap

import pytest

from interpreter import Game
from interpreter.agents.bots import make_agent
from interpreter.diagnostics.errors import LudolexError, RuleRuntimeError
from interpreter.loading.stages import load_ruleset

RULES = """
zone pool per player
zone bank
play:
    turn first(p in players):
        choose spot in locations where spot != d as claim
        move first(g in pieces(pool(you))) to spot
        win you
"""

CONTENT = """
players: [red, blue]
board:
  locations:
    a: {suit: fox}
    b: {suit: mouse}
    c: {suit: fox}
    d: {suit: mouse}
  connections:
    - {from: a, to: b, type: road}
    - {from: b, to: c, type: road}
    - {from: c, to: d, type: road}
pieces:
  guard: {per_player: {red: 2}, starts_in: pool}
  coin: {count: 3, starts_in: bank, properties: {suit: gold, costs: [1, 2, 3]}}
"""


def make_game(folder, rules=RULES, bots=None):
    (folder / "rules").mkdir()
    (folder / "cards").mkdir()
    (folder / ".git").mkdir()  # the project: its manifest may name ../cards
    (folder / "rules" / "game.yaml").write_text("name: small\ncontent: ../cards\n")
    (folder / "rules" / "small.rules").write_text(textwrap.dedent(rules))
    (folder / "cards" / "content.yaml").write_text(textwrap.dedent(CONTENT))
    if bots:
        (folder / "rules" / "bots").mkdir()
        (folder / "rules" / "bots" / "picky.yaml").write_text(textwrap.dedent(bots))
    return load_ruleset(folder / "rules")


def test_pieces_given_to_some_players_only(tmp_path):
    ruleset = make_game(tmp_path)
    assert ruleset.component_totals() == {("red", "guard"): 2, (None, "coin"): 3}


def test_the_seating_orders_the_players_and_unknown_players_are_refused(tmp_path):
    ruleset = make_game(tmp_path)
    game = Game(ruleset, players=["blue", "red"])
    assert game.decision.player == "blue" and game.evaluate("players") == ["blue", "red"]
    with pytest.raises(ValueError, match="no player `green`"):
        Game(ruleset, players=["green"])


def test_list_builtins_and_regions(tmp_path):
    game = Game(make_game(tmp_path))
    assert game.evaluate("numbers(1, 3)") == [1, 2, 3] and game.evaluate("numbers(2, 1)") == []
    assert game.evaluate("nth([5, 6], 1)") == 6 and game.evaluate("nth(numbers(5, 5), 3)") is None  # `nth([5], 3)`: LX336
    assert game.evaluate("distinct([b, a, b])") == ["b", "a"]
    assert game.evaluate("region(a, [a, b, d], road)") == ["a", "b"]
    assert game.evaluate("region(c, [a, b], road)") == []
    assert [c.id for c in game.evaluate("pieces_in([bank, pool(red)])")][::2] == ["coin-1", "coin-3", "red-guard-2"]


def test_a_kinds_own_values_and_an_untyped_value_read_by_what_it_is(tmp_path):
    game = Game(make_game(tmp_path))
    assert game.evaluate("coin.costs") == [1, 2, 3]
    assert game.evaluate("first(x in pieces(bank)).suit") == "gold"          # a component: its kind's value
    assert game.evaluate("first(l in locations where index(l) = 1).suit") == "mouse"  # a location: its attribute
    assert game.evaluate("select(k in [coin] : k.costs)") == [[1, 2, 3]]       # a kind from a list


def test_dice_given_in_advance_come_first_and_must_fit_the_die(tmp_path):
    ruleset = make_game(tmp_path)
    game = Game(ruleset, rolls=[4, 1])
    assert game.evaluate("roll(6)") == 4 and game.evaluate("roll(6)") == 1
    assert 1 <= game.evaluate("roll(6)") <= 6
    with pytest.raises(RuleRuntimeError, match="the roll 9"):
        Game(ruleset, rolls=[9]).evaluate("roll(6)")


def test_a_rule_of_thumb_bot_takes_the_best_option(tmp_path):
    ruleset = make_game(tmp_path, bots="""
        players:
          red:
            claim: 'if spot = c then 2 else 0'
        """)
    game = Game(ruleset, seed=1)
    bot = make_agent("picky", ruleset, game, seed=5)
    assert game.decision.label(bot.choose(game.decision)) == "c"


def test_a_mistake_in_a_bot_is_reported_at_its_place(tmp_path):
    ruleset = make_game(tmp_path, bots="""
        all:
          claim: 'spot.sut'
          clam: '1'
        """)
    with pytest.raises(LudolexError) as raised:
        make_agent("picky", ruleset, Game(ruleset), seed=0)
    text = str(raised.value)
    assert "picky.yaml:3:" in text and "spot.sut" in text and "no decision `clam`" in text and "did you mean `claim`" in text


NAMES_IN_VIEW_RULES = """
zone pool per player
zone bank
procedure claim_near(home):
    let far = d
    choose spot in adjacent(home, road) as claim
    move first(g in pieces(pool(you))) to spot
play:
    turn first(p in players):
        choose home in locations as start
        claim_near(home)
        choose spot in locations where spot != home as claim
        win you
"""


@pytest.mark.parametrize("backend", ["generated", "reference"])
def test_a_bot_reads_the_names_the_rule_holds_where_it_asks(tmp_path, backend, monkeypatch):
    monkeypatch.setenv("LUDOLEX_BACKEND", backend)
    ruleset = make_game(tmp_path, rules=NAMES_IN_VIEW_RULES, bots="""
        all:
          start: 'if home = b then 1 else 0'
          claim: 'if home = b and spot = a then 1 else 0'
        """)
    for seed in range(8):  # ties are broken at random: `home` must be b each time
        game = Game(ruleset, seed=seed)
        bot = make_agent("picky", ruleset, game, seed=seed)
        game.choose(bot.choose(game.decision))
        assert game.decision.labels() == ["a", "c"]  # the neighbours of `home`
        assert game.decision.label(bot.choose(game.decision)) == "a"


def test_a_bot_reads_only_the_names_in_view_wherever_the_decision_is_asked(tmp_path):
    ruleset = make_game(tmp_path, rules=NAMES_IN_VIEW_RULES, bots="""
        all:
          claim: 'if spot = far then 1 else 0'
        """)
    with pytest.raises(LudolexError, match="unknown name `far`"):  # `far` is not in view in `play:`
        make_agent("picky", ruleset, Game(ruleset), seed=0)
