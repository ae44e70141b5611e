"""Arithmetic, ordering and chance (roadmap P7), on a small invented game: whole division and
remainder, `sorted` with tie-breaks, `reverse`, `random`, and bags (`unordered` zones)."""
import tempfile
import textwrap
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import Game
from interpreter.diagnostics.errors import LudolexError, RuleRuntimeError
from interpreter.loading.stages import load_ruleset
from interpreter.scenarios.files import load_scenarios
from interpreter.scenarios.run import run_scenario

DECLARATIONS = """\
zone bag hidden unordered
zone tray
zone hand per player private
zone stash per player
zone pouch per player hidden unordered
function vp(p) = if p = red then 3 else 1
function shards(p) = size(stash(p))
function half_up(n) = (n + 1) / 2
"""

WAIT = """\
play:
    turn red:
        choose n in [1, 2] as wait
        win you
"""

CONTENT = """
players: [red, blue, green]
board:
  locations:
    a: {}
    b: {}
  connections:
    - {from: a, to: b, type: road}
pieces:
  ruby: {count: 2, starts_in: bag}
  pearl: {count: 2, starts_in: bag}
  onyx: {count: 2, starts_in: bag}
  shard: {per_player: 4, starts_in: stash}
"""


def make_game(folder, rules=WAIT, scenarios=None):
    (folder / "rules").mkdir()
    (folder / "cards").mkdir()
    (folder / ".git").mkdir()  # the project: its manifest may name ../cards
    (folder / "rules" / "game.yaml").write_text("name: bags\ncontent: ../cards\n")
    (folder / "rules" / "bags.rules").write_text(DECLARATIONS + textwrap.dedent(rules))
    (folder / "cards" / "content.yaml").write_text(textwrap.dedent(CONTENT))
    if scenarios:
        (folder / "rules" / "tests").mkdir()
        (folder / "rules" / "tests" / "chance.yaml").write_text(textwrap.dedent(scenarios))
    return load_ruleset(folder / "rules")


def place_of(rules: str, snippet: str, occurrence: int = 1) -> str:
    """`bags.rules:LINE:COLUMN` of the `occurrence`-th `snippet` in the rules (as the file holds them)."""
    text = DECLARATIONS + textwrap.dedent(rules)
    start = -1
    for _ in range(occurrence):
        start = text.index(snippet, start + 1)
    line = text.count("\n", 0, start) + 1
    return f"bags.rules:{line}:{start - text.rfind(chr(10), 0, start)}"


def load_errors(tmp_path, rules) -> str:
    """The diagnostics of rules that do not load (each call in a folder of its own)."""
    with pytest.raises(LudolexError) as raised:
        make_game(Path(tempfile.mkdtemp(dir=tmp_path)), rules)
    return str(raised.value)


# --- `/` and `mod` ---------------------------------------------------------------------------

def test_whole_division_rounds_down_and_half_rounded_up_is_n_plus_1_over_2(tmp_path):
    game = Game(make_game(tmp_path, """
        play:
            turn red:
                choose n in [half_up(7), half_up(6), 7 / 2, 7 mod 3, 6 mod 3, -7 / 2, -7 mod 3, 7 / -2] as see
                win you
        """))
    assert game.decision.labels() == ["4", "3", "3", "1", "0", "-4", "2", "-4"]


def test_division_binds_like_multiplication_from_left_to_right(tmp_path):
    game = Game(make_game(tmp_path))
    assert game.evaluate("3 * 5 / 2") == 7 and game.evaluate("3 * (5 / 2)") == 6
    assert game.evaluate("1 + 7 / 2") == 4 and game.evaluate("(1 + 7) / 2") == 4 and game.evaluate("2 + 9 mod 4") == 3
    assert game.evaluate("2 * 3 mod 4") == 2 and game.evaluate("-7 / 2") == -4 and game.evaluate("10 / 5 / 2") == 1
    assert game.evaluate("half_up(size(stash(red)) + 3)") == 4  # computed divisors and dividends


def test_division_by_zero_stops_the_game_at_the_divisor(tmp_path):
    rules = """
        play:
            turn red:
                let nothing = size(hand(you))
                choose n in [1, 10 / nothing] as see
                win you
        """
    with pytest.raises(RuleRuntimeError) as raised:
        Game(make_game(tmp_path, rules))
    assert str(raised.value).endswith(f"/{place_of(rules, 'nothing]')}: division by zero: 10 / 0")
    assert "ZeroDivisionError" not in str(raised.value) and raised.value.position.line == 13


def test_remainder_by_zero_inside_a_function_points_into_the_function(tmp_path):
    rules = """
        function share(n, k) = n mod k
        play:
            turn red:
                choose n in [share(7, size(hand(red)))] as see
                win you
        """
    with pytest.raises(RuleRuntimeError) as raised:
        Game(make_game(tmp_path, rules))
    assert str(raised.value).endswith(f"/{place_of(rules, 'k' + chr(10))}: division by zero: 7 mod 0")


def test_division_of_something_that_is_not_a_number_is_refused(tmp_path):
    rules = """
        function label(p) = "two" / 2
        play:
            turn red:
                let x = 3 mod hand(you)
                choose n in [label(you), x] as see
                win you
        """
    text = load_errors(tmp_path, rules)
    text_place = place_of(rules, '"two"')
    assert f"{text_place}: error LX323: an operand of `/` must be a number, not a text" in text
    assert f"{place_of(rules, 'hand(you)', 1)}: error LX323: an operand of `mod` must be a number, not a zone" in text


def test_mod_is_a_reserved_word(tmp_path):
    assert "`mod` is a reserved word" in load_errors(tmp_path, "function mod(a) = a\n" + WAIT)


# --- sorted ----------------------------------------------------------------------------------

SORTED = """
    setup:
        move top(stash(red)) to tray
        repeat 3 times:
            move top(stash(blue)) to tray
    play:
        turn red:
            choose p in sorted(q in players by fewest vp(q), most shards(q)) as order
            win you
    """


def test_sorted_orders_by_the_first_key_then_breaks_ties_with_the_next(tmp_path):
    # vp: red 3, blue 1, green 1; shards: red 3, blue 1, green 4
    game = Game(make_game(tmp_path, SORTED))
    assert game.decision.labels() == ["green", "blue", "red"]
    assert game.evaluate("sorted(q in players by most vp(q))") == ["red", "blue", "green"]
    assert game.evaluate("sorted(q in players by fewest shards(q))") == ["blue", "red", "green"]


def test_a_full_tie_keeps_the_order_of_the_list(tmp_path):
    ruleset = make_game(tmp_path, SORTED)
    game = Game(ruleset, players=["green", "red", "blue"])
    assert game.evaluate("sorted(q in players by fewest vp(q))") == ["green", "blue", "red"]
    assert game.evaluate("sorted(q in players by most 0, fewest 1)") == ["green", "red", "blue"]
    assert game.evaluate("sorted(n in [3, 1, 2] by fewest n mod 2)") == [2, 3, 1]


def test_sorted_keys_may_be_true_false_or_none(tmp_path):
    game = Game(make_game(tmp_path))
    assert game.evaluate("sorted(n in [2, none, 5, 1] by fewest n)") == [1, 2, 5, None]
    assert game.evaluate("sorted(n in [2, none, 5, 1] by most n)") == [5, 2, 1, None]
    assert game.evaluate("sorted(q in players by most q = blue)") == ["blue", "red", "green"]
    assert game.evaluate("sorted(q in [] by most 1)") == []
    assert game.evaluate("nth(sorted(c in pieces(stash(red)) by most c.id = \"red-shard-2\"), 0).id") == "red-shard-2"


def test_a_key_that_is_not_a_number_is_reported(tmp_path):
    rules = """
        play:
            turn red:
                choose p in sorted(c in pieces(bag) by most c.id) as order
                win you
        """
    assert (f"{place_of(rules, 'c.id')}: error LX323: a `most` key of `sorted` must be a number, not a text"
            in load_errors(tmp_path, rules))
    rules = """
        play:
            turn red:
                choose p in sorted(c in bag by fewest 1) as order
                win you
        """
    assert (f"{place_of(rules, 'bag by')}: error LX323: what `sorted` orders must be a list, not a zone"
            in load_errors(tmp_path, rules))


def test_a_key_found_not_to_be_a_number_while_playing_stops_the_game_at_the_key(tmp_path):
    rules = """
        play:
            turn red:
                choose p in sorted(x in ["b", "a"] by fewest x) as order
                win you
        """
    with pytest.raises(RuleRuntimeError) as raised:
        Game(make_game(tmp_path, rules))
    assert str(raised.value).endswith(f"/{place_of(rules, 'x)')}: `sorted` orders by numbers, but this key is \"b\" for \"b\"")


def test_sorted_without_keys_is_a_syntax_error_with_a_hint(tmp_path):
    text = load_errors(tmp_path, """
        play:
            turn red:
                choose p in sorted(players) as order
                win you
        """)
    assert "error LX101" in text and "hint: `sorted` names each item, then the keys to order by" in text


GAMES: dict = {}  # one game for every example of the property below


@settings(max_examples=40, deadline=None)
@given(numbers=st.lists(st.integers(-20, 20), max_size=8))
def test_sorted_is_a_stable_permutation_ordered_by_its_keys(tmp_path_factory, numbers):
    if "sorted" not in GAMES:
        GAMES["sorted"] = Game(make_game(tmp_path_factory.mktemp("sorted")))
    game = GAMES["sorted"]
    pairs = [[place, n] for place, n in enumerate(numbers)]
    written = "[" + ", ".join(f"[{p}, {n}]" for p, n in pairs) + "]"
    result = game.evaluate(f"sorted(x in {written} by fewest nth(x, 1) mod 3, most nth(x, 1) / 4)")
    assert sorted(map(tuple, result)) == sorted(map(tuple, pairs))  # the same items

    def key(pair):
        return (pair[1] % 3, -(pair[1] // 4))

    for before, after in zip(result, result[1:]):
        assert key(before) <= key(after)
        if key(before) == key(after):
            assert before[0] < after[0]  # ties keep the list's order


# --- reverse ---------------------------------------------------------------------------------

def test_reverse_turns_a_list_round_without_changing_it(tmp_path):
    game = Game(make_game(tmp_path))
    assert game.evaluate("reverse(players)") == ["green", "blue", "red"] and game.evaluate("players") == ["red", "blue", "green"]
    assert game.evaluate("reverse([])") == [] and game.evaluate("reverse(reverse(players)) = players") is True
    assert [c.id for c in game.evaluate("reverse(pieces(stash(red)))")] == [f"red-shard-{n}" for n in (4, 3, 2, 1)]
    assert "error LX323: argument 1 of `reverse` must be a list, not a zone" in load_errors(
        tmp_path, "function back() = reverse(bag)\n" + WAIT)


# --- random ----------------------------------------------------------------------------------

def test_random_takes_the_scenario_rolls_then_the_seeded_generator(tmp_path):
    ruleset = make_game(tmp_path)
    game = Game(ruleset, rolls=[2, 3, 1])
    assert game.evaluate("random(players)") == "blue"
    assert game.evaluate("random([])") is None  # draws nothing: the next roll is still 3
    assert game.evaluate("random([7, 8, 9])") == 9 and game.evaluate("roll(6)") == 1
    with pytest.raises(RuleRuntimeError, match="the scenario gives the roll 4, but `random` picks among 3 items"):
        Game(ruleset, rolls=[4]).evaluate("random(players)")


def test_random_is_seeded_and_picks_every_item(tmp_path):
    ruleset = make_game(tmp_path)
    picks = [Game(ruleset, seed=seed).evaluate("random(players)") for seed in range(60)]
    assert picks == [Game(ruleset, seed=seed).evaluate("random(players)") for seed in range(60)]
    assert set(Counter(picks)) == {"red", "blue", "green"} and max(Counter(picks).values()) < 40
    assert "error LX323: argument 1 of `random` must be a list, not a number" in load_errors(
        tmp_path, "function r() = random(3)\n" + WAIT)


def test_a_scenario_fixes_which_card_random_takes(tmp_path):
    ruleset = make_game(tmp_path, """
        play:
            turn red:
                move random(pieces(hand(blue))) to hand(red)
                choose n in [1] as wait
                win you
        """, scenarios="""
        scenarios:
          - name: the roll 2 takes the second card of blue's hand
            rules: [P7]
            setup: false
            rolls: [2]
            position:
              zones: {hand: {blue: {ruby: 1, pearl: 1, onyx: 1}}}
            expect:
              values: {'top(hand(red))': pearl, 'size(hand(blue))': 2}
              decision: {name: wait}
        """)
    for loaded in load_scenarios(tmp_path / "rules" / "tests" / "chance.yaml"):
        run_scenario(ruleset, loaded.scenario)


# --- bags: unordered zones -------------------------------------------------------------------

def test_a_bag_starts_in_a_random_order(tmp_path):
    ruleset = make_game(tmp_path)
    orders = {tuple(c.id for c in Game(ruleset, seed=seed).state.zones["bag"]) for seed in range(20)}
    assert len(orders) > 10 and ("ruby-1", "ruby-2", "pearl-1", "pearl-2", "onyx-1", "onyx-2") not in orders
    assert [c.id for c in Game(ruleset, seed=3).state.zones["bag"]] == [c.id for c in Game(ruleset, seed=3).state.zones["bag"]]
    assert [c.id for c in Game(ruleset).state.zones["stash/red"]] == [f"red-shard-{n}" for n in (1, 2, 3, 4)]


def test_a_token_put_into_a_bag_lands_anywhere_so_drawing_the_top_is_blind(tmp_path):
    ruleset = make_game(tmp_path, """
        setup:
            move pieces(bag) to tray
        play:
            turn red:
                move pieces(tray) to bag
                move pieces(stash(red)) to bag at bottom
                choose c in [top(bag)] as drawn
                win you
        """)
    tops = Counter(Game(ruleset, seed=seed).state.zones["bag"][-1].id for seed in range(200))
    # in a zone with an order, the top would always be the last moved in (red-shard-4)
    assert tops["red-shard-4"] < 60 and len(tops) == 10 and sum(tops.values()) == 200
    assert min(tops.values()) >= 5  # roughly even: 20 each expected
    bottoms = {Game(ruleset, seed=seed).state.zones["bag"][0].id for seed in range(40)}
    assert len(bottoms) > 3  # `at bottom` is random too in a bag


def test_scenario_rolls_say_where_a_token_lands_in_a_bag(tmp_path):
    ruleset = make_game(tmp_path, """
        play:
            turn red:
                move top(stash(red)) to bag
                move top(stash(red)) to pouch(red)
                move top(stash(red)) to pouch(red)
                choose n in [1] as wait
                win you
        """)
    bag = [c.id for c in ruleset.initial_state(0).zones["bag"]]
    game = Game(ruleset, rolls=[1, 2])  # on top of the bag; the first into the empty pouch draws nothing
    assert [c.id for c in game.state.zones["bag"]] == bag + ["red-shard-4"]
    assert [c.id for c in game.state.zones["pouch/red"]] == ["red-shard-2", "red-shard-3"]  # roll 2 of 2: the bottom
    assert game.runtime.rolls == []
    game = Game(ruleset, rolls=[7, 1])  # at the bottom of the bag (7 places for 6 + 1); the second on top
    assert [c.id for c in game.state.zones["bag"]] == ["red-shard-4"] + bag
    assert [c.id for c in game.state.zones["pouch/red"]] == ["red-shard-3", "red-shard-2"]
    with pytest.raises(RuleRuntimeError, match="the scenario gives the roll 8, but a move into unordered zone `bag` has 7 places"):
        Game(ruleset, rolls=[8])


def test_a_game_with_bags_replays_and_saves_exactly(tmp_path):
    ruleset = make_game(tmp_path, """
        play:
            repeat:
                turn red:
                    choose c in [top(bag)] as draw_one
                    move c to hand(red)
                    if size(hand(red)) = 3:
                        move pieces(hand(red)) to bag
                    move top(stash(red)) to pouch(red)
        """)
    game = Game(ruleset, seed=5)
    for _ in range(6):
        game.choose(0)
    again = Game.replay(ruleset, 5, list(game.log))
    assert again.state == game.state
    assert Game.from_json(ruleset, game.to_json()).state == game.state
