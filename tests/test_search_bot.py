"""The search bot (`--bots search:N`): it decides from its own observation only, plays any game
(secret answers, several players), beats random play, and its budget is checked; and
`Game.clone`, which it builds on, goes on exactly as the original."""
import random

import pytest
from click.testing import CliRunner
from toy import toy_folder

from interpreter import Game, load
from interpreter.agents.bots import make_agent
from interpreter.agents.search import SearchAgent, parse_search
from interpreter.agents.search_tree import Node
from interpreter.interfaces.cli import main
from interpreter.play import determinization
from interpreter.play.determinization import determinize
from interpreter.play.visibility import observation

# Red is dealt one of two cards in secret; blue wins by naming it: a1 for gold, b1 for lead.
GUESS_CONTENT = """\
players: [red, blue]
board:
  grid: {columns: 2, rows: 1, connections: [orthogonal]}
pieces:
  gold: {count: 1, starts_in: deck, back: card}
  lead: {count: 1, starts_in: deck, back: card}
"""

GUESS_RULES = """\
zone deck hidden
zone hand per player HAND_VISIBILITY

setup:
    shuffle deck
    move top(deck) to hand(red)

play:
    turn blue:
        choose square in locations as guess
        if (square = a1 and top(hand(red)) is gold) or (square = b1 and top(hand(red)) is lead):
            win blue
        win red
"""

# Red hides on a square in secret (a private variable); blue wins by finding it.
HIDE_CONTENT = """\
players: [red, blue]
board:
  grid: {columns: 3, rows: 1, connections: [orthogonal]}
pieces: {}
"""

HIDE_RULES = """\
variable spot per player private = none

play:
    simultaneously for each p in [red]:
        choose square in locations as hide by p
        set spot(p) = square
    turn blue:
        choose square in locations as seek
        if square = spot(red):
            win blue
        win red
"""


def guess_game(tmp_path, seed: int, hand: str = "private") -> Game:
    rules = GUESS_RULES.replace("HAND_VISIBILITY", hand)
    return Game(load(toy_folder(tmp_path / hand, GUESS_CONTENT, toy=rules)), seed=seed)


def two_deals(tmp_path, hand: str = "private") -> list[Game]:
    """Two games of the guess, one with each card in red's hand."""
    games = {}
    for seed in range(20):
        game = guess_game(tmp_path, seed, hand)
        games.setdefault(game.evaluate("top(hand(red))").kind, game)
    return [games["gold"], games["lead"]]


def search_pick(game: Game, seed: int = 3, budget: str = "search:40") -> str:
    bot = SearchAgent(game, parse_search(budget, game.ruleset), seed)
    return game.decision.labels()[bot.choose(game.decision)]


def test_the_bot_finds_the_card_when_it_can_see_it(tmp_path):
    gold, lead = two_deals(tmp_path, hand="public")
    assert (search_pick(gold), search_pick(lead)) == ("a1", "b1")


def test_the_bot_never_reads_a_hidden_card(tmp_path):
    gold, lead = two_deals(tmp_path)
    assert observation(gold, "blue") == observation(lead, "blue")
    for seed in range(4):  # the same observation: the same choice, whichever card red holds
        assert search_pick(gold, seed) == search_pick(lead, seed)


def test_the_hidden_card_test_catches_a_bot_that_peeks(tmp_path, monkeypatch):
    monkeypatch.setattr(determinization, "redeal_unknown", lambda world, player, rng: None)
    gold, lead = two_deals(tmp_path)
    assert (search_pick(gold), search_pick(lead)) == ("a1", "b1")


# A rule-of-thumb bot that reads red's hidden card, to guide the search: it may, as it is asked in the
# world the search imagines, where red's card is dealt again.
PEEKING_BOT = """\
all:
  guess: if (square = a1 and top(hand(red)) is gold) or (square = b1 and top(hand(red)) is lead) then 1 else 0
"""


def with_peeking_bot(games: list[Game]) -> list[Game]:
    for game in games:
        (game.ruleset.directory / "bots").mkdir(exist_ok=True)
        (game.ruleset.directory / "bots" / "peeking.yaml").write_text(PEEKING_BOT)
    return games


def test_a_bot_guiding_the_search_never_reads_a_hidden_card(tmp_path):
    gold, lead = with_peeking_bot(two_deals(tmp_path))
    for seed in range(4):
        assert search_pick(gold, seed, "search:40:peeking") == search_pick(lead, seed, "search:40:peeking")


def test_the_guiding_bot_test_catches_a_search_that_peeks(tmp_path, monkeypatch):
    monkeypatch.setattr(determinization, "redeal_unknown", lambda world, player, rng: None)
    gold, lead = with_peeking_bot(two_deals(tmp_path))
    assert (search_pick(gold, 3, "search:40:peeking"), search_pick(lead, 3, "search:40:peeking")) == ("a1", "b1")


def hide_game(tmp_path, square: str) -> Game:
    game = Game(load(toy_folder(tmp_path, HIDE_CONTENT, toy=HIDE_RULES)))
    game.choose(square, by="red")
    return game


def test_the_bot_never_reads_another_players_secret_value(tmp_path):
    games = [hide_game(tmp_path, square) for square in ("a1", "b1", "c1")]
    assert all(observation(game, "blue") == observation(games[0], "blue") for game in games)
    for seed in range(3):
        assert len({search_pick(game, seed) for game in games}) == 1


def test_the_secret_value_test_catches_a_bot_that_peeks(tmp_path, monkeypatch):
    monkeypatch.setattr(determinization, "redraw_unseen_variables", lambda world, player: None)
    assert [search_pick(hide_game(tmp_path, square)) for square in ("a1", "b1", "c1")] == ["a1", "b1", "c1"]


def test_an_imagined_world_shows_the_player_what_the_real_game_shows(tmp_path):
    ruleset = load("root")
    game, rng = Game(ruleset, seed=4), random.Random(4)
    for _ in range(150):
        game.choose(rng.randrange(len(game.decision.options)))
    me = game.decision.player
    world = determinize(game, me, random.Random(1))
    assert observation(world, me) == observation(game, me)
    assert world.state.to_json()["zones"] != game.state.to_json()["zones"]  # the others' hands and the deck dealt again
    world.state.check_invariants(ruleset.component_totals())


def play_out(game: Game, agents: dict) -> Game:
    while not game.finished:
        decision = game.decision
        game.choose(agents[decision.player].choose(decision))
    return game


def test_the_bot_beats_random_play_in_cernunos(cernunos):
    wins = 0
    for seed in range(6):
        game = Game(cernunos, seed=seed)
        searcher = game.players[seed % 2]  # each colour three times
        agents = {p: make_agent("search:20" if p == searcher else "random", cernunos, game, seed * 10 + i)
                  for i, p in enumerate(game.players)}
        wins += searcher in play_out(game, agents).result.winners
    assert wins >= 5  # random play against random play wins about half (green 48%, purple 50%)


def test_a_search_guided_by_the_rule_of_thumb_bot_beats_that_bot_in_cernunos(cernunos):
    """Its values are the priors of the tree (PUCT) and its moves the playouts: a small budget then
    plays better than the bot alone."""
    wins = 0
    for seed in range(6):
        game = Game(cernunos, seed=seed)
        searcher = game.players[seed % 2]  # each colour three times
        agents = {p: make_agent("search:20:rule_of_thumb" if p == searcher else "rule_of_thumb", cernunos, game,
                                seed * 10 + i) for i, p in enumerate(game.players)}
        wins += searcher in play_out(game, agents).result.winners
    assert wins >= 5


def test_priors_lead_the_search_and_results_overrule_them():
    node, rng = Node(), random.Random(1)
    node.priors["red"] = {"a": 0.1, "b": 0.9}
    assert node.select("red", ["a", "b"], rng) == 1  # the likelier first
    node.update("red", "b", 0.0)
    assert node.select("red", ["a", "b"], rng) == 1  # one loss does not overrule a strong prior
    for _ in range(8):  # but losing every time does
        node.update("red", "b", 0.0)
    assert node.select("red", ["a", "b"], rng) == 0


# Three players pick a square each, in secret; those who picked c1 share the win (a draw if nobody did):
# c1 is best whatever the others pick.
CUPS_CONTENT = """\
players: [red, blue, green]
board:
  grid: {columns: 3, rows: 1, connections: [orthogonal]}
pieces: {}
"""

CUPS_RULES = """\
variable picked per player = none

play:
    simultaneously for each p in players:
        choose square in locations as pick by p
        set picked(p) = square
    let good = select(p in players where picked(p) = c1)
    if count(p in good) > 0:
        win good by "cups"
    draw
"""


def cups_game(tmp_path) -> Game:
    return Game(load(toy_folder(tmp_path, CUPS_CONTENT, toy=CUPS_RULES)))


def test_the_bot_answers_secret_decisions_and_plays_with_three_players(tmp_path):
    game = cups_game(tmp_path)
    agents = {p: make_agent("search:30", game.ruleset, game, i) for i, p in enumerate(game.players)}
    assert play_out(game, agents).result.winners == ["red", "blue", "green"]


def test_a_clone_goes_on_as_the_original(cernunos):
    rng = random.Random(2)
    game = Game(cernunos, seed=11)
    for _ in range(9):
        game.choose(rng.randrange(len(game.decision.options)))
    copy = game.clone()
    assert copy.state == game.state and copy.log == game.log
    while not game.finished:
        choice = rng.randrange(len(game.decision.options))
        game.choose(choice)
        copy.choose(choice)
        assert copy.state == game.state
    assert copy.result.to_json() == game.result.to_json()


def test_a_clone_keeps_the_secret_answers_given_so_far(tmp_path):
    game = cups_game(tmp_path)
    game.choose("c1", by="blue")
    copy, without = game.clone(), game.clone(choices=game.log)
    assert [d.player for d in copy.decisions] == ["red", "green"]
    assert [d.player for d in without.decisions] == ["red", "blue", "green"]
    for g in (game, copy):
        g.choose("a1", by="red")
        g.choose("c1", by="green")
    assert copy.result.winners == game.result.winners == ["blue", "green"]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("bots, message", [
    ("search:abc", "the budget is a number of iterations per decision (search:400) or of seconds"),
    ("search:0", "more than 0; not `0`"),
    ("search:-2s", "not `-2s`"),
    ("search:10:nobody", "no playout bot `nobody` for cernunos"),
    ("search:1:2:3", "write search, search:ITERATIONS"),
    ("searching", "unknown bot `searching`"),
])
def test_a_bad_search_budget_is_a_clear_usage_error(tmp_path, bots, message):
    for command in (["simulate", "cernunos", "--games", 1, "--db", tmp_path / "r.sqlite"], ["play", "cernunos"]):
        result = run(*command, "--bots", bots)
        assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_simulate_and_play_take_the_search_bot(tmp_path):
    result = run("simulate", "cernunos", "--games", 2, "--jobs", 1, "--bots", "search:3,random", "--db", tmp_path / "r.sqlite")
    assert result.exit_code == 0, result.output
    result = run("play", "cernunos", "--bots", "search:2:random,random", "--seed", 1)
    assert result.exit_code == 0 and "result:" in result.output
