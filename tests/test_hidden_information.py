"""Hidden information per component: face-down pieces anywhere, the board included; who knows
them; private variables; and observations and option labels that leak nothing a seat may not see."""
import json
import os
import random
import textwrap
from pathlib import Path

import pytest
from swaps import look_alike_pairs, swap_places

from interpreter import Game, LudolexError, load
from interpreter.agents.agent import RandomAgent
from interpreter.engine.decisions import EVERYTHING
from interpreter.engine.knowledge import sees_zone
from interpreter.play.visibility import observation

ROOT = Path(__file__).resolve().parent.parent

CONTENT = """
players: [red, blue]
board:
  grid: {columns: 2, rows: 1, connections: [orthogonal]}
pieces:
  bomb: {per_player: {red: 1}, starts_in: plots, back: plot}
  snare: {per_player: {red: 1}, starts_in: plots, back: plot, properties: {strength: 2}}
  fog: {count: 2, starts_in: fogs, back: terrain, known: nobody}
  card: {count: 4, starts_in: deck, back: card}
"""

RULES = """
zone plots per player private
zone fogs
zone deck hidden
zone hand per player private
variable bet per player private = 0
variable secret hidden = 7
property armed = false
play:
    turn red:
        choose p in pieces(plots(you)) as plot
        move p to a1 face down
        set p.armed = true
        move pieces(fogs) to b1 face down
        set bet(you) = 3
    turn blue:
        move top(deck) to hand(you)
        choose x in pieces(a1) + pieces(b1) as guess
        if x is face down:
            reveal x to you
        choose y in pieces(a1) as look
    turn red:
        choose z in pieces(b1) as explore
        flip z face up
    draw
"""


def toy(tmp_path: Path, rules: str = RULES, content: str = CONTENT):
    (tmp_path / "cards").mkdir(exist_ok=True)
    (tmp_path / ".git").mkdir(exist_ok=True)  # the project: its manifest may name ../cards
    (tmp_path / "cards" / "content.yaml").write_text(textwrap.dedent(content))
    (tmp_path / "game").mkdir(exist_ok=True)
    (tmp_path / "game" / "game.yaml").write_text("name: toy\ncontent: ../cards\n")
    (tmp_path / "game" / "toy.rules").write_text(textwrap.dedent(rules))
    return load(tmp_path / "game")


def test_a_piece_laid_face_down_on_the_board_shows_only_its_back_to_others(tmp_path):
    game = Game(toy(tmp_path))
    assert game.decision.labels() == ["red-bomb-1", "red-snare-1"]  # red knows its own plots
    game.choose("red-snare-1")
    assert observation(game, "blue")["zones"]["a1"] == [{"back": "plot", "owner": "red", "face_down": True}]
    assert observation(game, None)["zones"]["a1"] == [{"back": "plot", "owner": "red", "face_down": True}]
    seen_by_red = observation(game, "red")["zones"]["a1"]
    assert seen_by_red == [{"id": "red-snare-1", "kind": "snare", "owner": "red", "props": {"armed": True},
                            "face_down": True}]


def test_known_nobody_hides_a_face_down_component_from_its_owner_too(tmp_path):
    game = Game(toy(tmp_path))
    game.choose(0)
    assert [c["back"] for c in observation(game, "red")["zones"]["b1"]] == ["terrain", "terrain"]


def test_options_name_unknown_components_by_their_back_and_where_they_lie(tmp_path):
    game = Game(toy(tmp_path))
    game.choose("red-bomb-1")
    assert game.decision.player == "blue"
    assert game.decision.labels() == ["plot@a1", "terrain@b1#1", "terrain@b1#2"]  # b1's, bottom first
    assert game.decision.labels(EVERYTHING) == ["red-bomb-1", "fog-1", "fog-2"]
    assert "red-bomb-1" not in json.dumps(observation(game, "blue"))
    game.choose("plot@a1")  # chosen by the label blue sees


def test_a_component_revealed_to_a_player_is_known_to_them_until_it_is_flipped(tmp_path):
    game = Game(toy(tmp_path))
    game.choose("red-bomb-1")
    game.choose("plot@a1")  # blue looks at the plot: `reveal x to you`
    assert game.decision.labels() == ["red-bomb-1"]
    assert observation(game, "blue")["zones"]["a1"][0]["kind"] == "bomb"
    assert observation(game, None)["zones"]["a1"][0] == {"back": "plot", "owner": "red", "face_down": True}
    game.choose(0)
    game.choose("terrain@b1#1")  # red flips a fog card face up: everybody knows it now
    for viewer in ("red", "blue", None):
        assert [c.get("kind") for c in observation(game, viewer)["zones"]["b1"]] == ["fog", None]  # bottom first


def test_a_private_variable_is_seen_by_its_player_only_and_a_hidden_one_by_nobody(tmp_path):
    game = Game(toy(tmp_path))
    game.choose(0)
    assert observation(game, "red")["variables"]["bet"] == {"red": 3}
    assert observation(game, "blue")["variables"]["bet"] == {"blue": 0}
    assert "secret" not in observation(game, "red")["variables"] and game.evaluate("secret") == 7


def test_face_and_knowledge_survive_a_save_and_an_old_save_still_loads(tmp_path):
    ruleset = toy(tmp_path)
    game = Game(ruleset)
    game.choose("red-bomb-1")
    game.choose("plot@a1")
    again = Game.from_json(ruleset, json.loads(game.dumps()))
    assert again.state.components["red-bomb-1"].face_down
    assert again.state.components["red-bomb-1"].known_to == {"blue"}
    assert "face_down" not in Game(ruleset).to_json()["state"]["components"]["red-bomb-1"]


def test_is_face_down_flip_and_move_face_up(tmp_path):
    rules = RULES.replace("        flip z face up\n", "        move z to a1 face up\n        win you\n")
    game = Game(toy(tmp_path, rules))
    game.choose(0)
    assert game.evaluate("top(b1) is face down") and not game.evaluate("top(b1) is face up")
    game.choose(0)
    game.choose(0)
    game.choose(0)
    assert game.result.winner == "red" and game.evaluate("top(a1) is face up")


def test_a_private_variable_must_be_per_player(tmp_path):
    with pytest.raises(LudolexError) as error:
        toy(tmp_path, RULES.replace("variable bet per player private = 0", "variable bet private = 0"))
    assert error.value.diagnostics[0].code == "LX330"


# --- no observation leaks: swapping two components a player cannot tell apart changes nothing they see --------


def what_they_see(game: Game, player: str) -> str:
    seen = observation(game, player)
    labels = game.decision.labels(player) if game.decision is not None else []
    return json.dumps([seen, labels], sort_keys=True, default=str)


def check_no_leak(game: Game, rng: random.Random) -> int:
    checked = 0
    for player in game.players:
        before = what_they_see(game, player)
        for a, b in look_alike_pairs(game, player, rng):
            swap_places(game, a, b)
            try:
                assert what_they_see(game, player) == before, f"{player} can tell {a.id} from {b.id}"
            finally:
                swap_places(game, b, a)
            checked += 1
    return checked


def play_checking(game: Game, seed: int, every: int = 1) -> int:
    """Play the game with random moves, checking at every `every`-th decision; the swaps checked."""
    rng, agents = random.Random(seed), {p: RandomAgent(seed * 7 + i) for i, p in enumerate(game.players)}
    checked, decisions = 0, 0
    while not game.finished:
        if decisions % every == 0:
            checked += check_no_leak(game, rng)
        decisions += 1
        game.choose(agents[game.decision.player].choose(game.decision))
    return checked


def test_no_seat_can_tell_apart_components_it_may_not_see_in_the_toy_game(tmp_path):
    ruleset = toy(tmp_path)
    assert sum(play_checking(Game(ruleset, seed=seed), seed) for seed in range(20)) > 100


def test_no_seat_of_root_can_tell_apart_the_cards_it_may_not_see():
    # at one decision in 4 of three games (every faction's components are there, seated or not: each
    # observation reads them all)
    ruleset = load(ROOT / "rulesets" / "root")
    assert sum(play_checking(Game(ruleset, seed=seed), seed, every=4) for seed in range(3)) > 1000


def test_no_seat_of_root_with_two_vagabonds_can_tell_apart_what_it_may_not_see():
    # 9.7: the second Vagabond's hand, and the R items each Vagabond looked at under a ruin (9.7.1)
    ruleset = load(ROOT / "rulesets" / "root")
    seats = ["marquise", "eyrie", "vagabond", "second_vagabond"]
    assert play_checking(Game(ruleset, seed=1, players=seats), 1, every=2) > 500


def test_no_seat_of_root_with_the_lizards_and_the_riverfolk_can_tell_apart_what_it_may_not_see():
    # LZ: the Cult's hand is hidden like any other (its Lost Souls pile is public); RF-13: the Company's
    # hand lies face up, so its cards are no secret, and every other hand stays one
    ruleset = load(ROOT / "rulesets" / "root")
    game = Game(ruleset, seed=2, players=["marquise", "lizards", "riverfolk", "eyrie"])
    assert sees_zone(game.runtime, "marquise", "hand/riverfolk") and sees_zone(game.runtime, None, "hand/riverfolk")
    assert not sees_zone(game.runtime, "riverfolk", "hand/lizards")
    assert play_checking(game, 2) > 500


# Tables of 2 to 6 seats on which all ten factions and the Clockwork Marquise sit: the Corvids' face-down
# plots, the Keepers' relics (whose value no one knows), the Duchy's revealed cards, the Hundreds' hoard.
# Each game is checked at one decision in LUDOLEX_SWAP_EVERY (10; 1 checks every decision).
EXPANSION_TABLES = [["duchy", "corvids", "hundreds", "keepers"], ["corvids", "keepers"],
                    ["marquise", "eyrie", "alliance", "vagabond", "corvids", "keepers"],
                    ["clockwork", "hundreds", "duchy", "lizards", "riverfolk"]]


@pytest.mark.parametrize("seats", EXPANSION_TABLES, ids=["+".join(seats) for seats in EXPANSION_TABLES])
def test_no_seat_of_root_with_the_expansion_factions_can_tell_apart_what_it_may_not_see(seats):
    ruleset = load(ROOT / "rulesets" / "root")
    every = int(os.environ.get("LUDOLEX_SWAP_EVERY", "10"))
    assert play_checking(Game(ruleset, seed=3, players=seats), 3, every) > 1000 // every


def test_a_continuous_rule_that_keeps_pieces_face_down_settles_once_they_are(tmp_path):
    # `flip` changes the game only where something turns over: a rule flipping what is already
    # face down (or nothing) changes nothing, so the continuous rules settle
    ruleset = toy(tmp_path, RULES + "always hidden_plots:\n    flip pieces(plots(red)) face down\n")
    game = Game(ruleset, seed=1)
    game.choose(game.decision.labels()[0])  # red plays a plot: a change, and the continuous rules run
    assert game.evaluate("all(p in pieces(plots(red)) where p is face down)")
    assert game.decision.name == "guess"


def test_a_kind_may_start_face_down_so_no_seat_sees_another_s_before_any_rule_runs(tmp_path):
    content = CONTENT.replace("bomb: {per_player: {red: 1}, starts_in: plots, back: plot}",
                              "bomb: {per_player: {red: 1}, starts_in: plots, back: plot, face_down: true}")
    rules = RULES.replace("zone plots per player private", "zone plots per player")
    game = Game(toy(tmp_path, rules, content))
    seen_by_blue = observation(game, "blue")["zones"]["plots/red"]
    assert {"back": "plot", "owner": "red", "face_down": True} in seen_by_blue
    assert "red-bomb-1" not in json.dumps(observation(game, "blue"))
    assert "red-bomb-1" in json.dumps(observation(game, "red"))  # its owner knows it
    assert "red-snare-1" in json.dumps(observation(game, "blue"))  # a kind not said face down starts face up


SHOWN_RULES = """
zone deck hidden
zone hand per player private
play:
    turn red:
        move top(deck) to hand(red)
        move top(deck) to hand(red)
        choose c in pieces(hand(red)) as show
        reveal c to blue
    turn blue:
        choose x in pieces(hand(red)) as guess
    turn red:
        move pieces(hand(red)) to deck
        choose y in pieces(deck) as last by blue
    draw
"""
SHOWN_CONTENT = """
players: [red, blue]
board:
  grid: {columns: 1, rows: 1, connections: [orthogonal]}
pieces:
  card: {count: 4, starts_in: deck, back: card}
"""


def test_a_card_of_a_hand_revealed_to_one_player_is_known_to_them_alone_until_it_moves_out_of_sight(tmp_path):
    game = Game(toy(tmp_path, SHOWN_RULES, SHOWN_CONTENT))
    shown = game.decision.labels()[1]
    game.choose(shown)
    assert observation(game, "blue")["zones"]["hand/red"] == {"hidden": 2, "shown": [
        {"id": shown, "kind": "card", "owner": None, "props": {}}]}
    assert observation(game, None)["zones"]["hand/red"] == {"hidden": 2}  # a spectator was shown nothing
    assert sorted(game.decision.labels()) == sorted([shown, "card@hand(red)"])  # blue tells the shown card apart only
    game.choose("card@hand(red)")
    assert game.decision.name == "last" and "card@" in " ".join(game.decision.labels())
    assert shown not in game.decision.labels()  # into the deck, where blue cannot see it go: lost track


MIXED_CONTENT = """
players: [red, blue]
board:
  grid: {columns: 1, rows: 1, connections: [orthogonal]}
pieces:
  bomb: {per_player: {red: 2}, starts_in: plots, back: plot, face_down: true}
  snare: {per_player: {red: 2}, starts_in: plots, back: plot, face_down: true}
"""
GUESS_RULES = """
zone plots per player
play:
    turn blue:
        choose p in pieces(plots(red)) as guess
    draw
"""


def test_the_handle_a_seat_sees_for_a_face_down_component_says_nothing_of_which_it_is(tmp_path):
    # the content lists the bombs first; face down, they start mixed among the snares, and in red's supply,
    # which blue does not see, blue numbers them in a secret order: `plot@plots(red)#1` is a bomb about half
    # the time over many games, not always
    ruleset = toy(tmp_path, GUESS_RULES, MIXED_CONTENT)
    first_is_bomb = 0
    handles = [f"plot@plots(red)#{n}" for n in range(1, 5)]
    for seed in range(200):
        decision = Game(ruleset, seed=seed).decision
        assert sorted(decision.labels("blue")) == handles
        first = decision.labels("blue").index(handles[0])
        first_is_bomb += decision.labels(EVERYTHING)[first].startswith("red-bomb")
    assert 70 <= first_is_bomb <= 130, first_is_bomb  # 2 bombs of 4: 100 expected; far outside if the order told


def test_the_handle_of_a_component_in_an_unseen_zone_says_nothing_even_where_its_order_would(tmp_path):
    # here the plots are not face down at the start, but lie in red's private zone in the content's order,
    # bombs first, and blue's options follow it: the handles blue sees still tell nothing of which is which
    content = MIXED_CONTENT.replace(", face_down: true", "")
    ruleset = toy(tmp_path, GUESS_RULES.replace("zone plots per player", "zone plots per player private"), content)
    first_is_bomb = 0
    for seed in range(200):
        decision = Game(ruleset, seed=seed).decision
        assert decision.labels(EVERYTHING)[:2] == ["red-bomb-1", "red-bomb-2"]  # the options' order tells
        first_is_bomb += decision.labels("blue").index("plot@plots(red)#1") < 2
    assert 70 <= first_is_bomb <= 130, first_is_bomb


def test_a_zone_may_say_that_what_starts_in_it_starts_face_down(tmp_path):
    # the bombs and snares start in a zone declared `face down`: face down, mixed, their owner knows them
    rules = GUESS_RULES.replace("zone plots per player", "zone plots per player face down")
    game = Game(toy(tmp_path, rules, MIXED_CONTENT.replace(", face_down: true", "")))
    assert all(c.face_down for c in game.state.zones["plots/red"])
    assert "red-bomb-1" not in json.dumps(observation(game, "blue"))
    assert "red-bomb-1" in json.dumps(observation(game, "red"))
    orders = {tuple(c.kind for c in Game(toy(tmp_path, rules, MIXED_CONTENT.replace(", face_down: true", "")),
                                          seed=seed).state.zones["plots/red"]) for seed in range(20)}
    assert len(orders) > 1  # mixed: not the content's order, bombs first, in every game
