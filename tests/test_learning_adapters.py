"""Every game an environment for learning agents, checked by the libraries' own test suites: PettingZoo's
`api_test` and `parallel_api_test`, OpenSpiel's `random_sim_test` (with serialisation), at every player
count of every game and for the tutorial's game; and the swap test of hidden information through both.

Long games are cut at `max_steps` (the episode is then truncated), so that the suite stays bounded."""
import functools
import json
import pickle
import random
import re
from pathlib import Path

import pytest

pettingzoo_test = pytest.importorskip("pettingzoo.test", reason="the agents extra: pip install '.[agents]'")
pyspiel = pytest.importorskip("pyspiel", reason="the agents extra: pip install '.[agents]'")

from swaps import look_alike_pairs, swap_places

from interpreter.learning.encoding import Layout, loaded
from interpreter.learning.episode import Episode
from interpreter.learning.openspiel_game import LudolexState
from interpreter.learning.pettingzoo_env import env, parallel_env

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "rulesets"

# (game, players, the steps an episode may take: 0 plays to the end)
TABLES = [
    ("cernunos", ["green", "purple"], 0),
    ("seventh_citadel", ["brooks"], 150),
    ("seventh_citadel", ["brooks", "arthen"], 150),
    ("seventh_citadel", ["brooks", "arthen", "casek"], 150),
    ("seventh_citadel", ["brooks", "arthen", "casek", "denhom"], 150),
    ("wonderlands_war", ["jabberwocky", "mad_hatter"], 150),
    ("wonderlands_war", ["jabberwocky", "mad_hatter", "queen_of_hearts"], 150),
    ("wonderlands_war", ["jabberwocky", "mad_hatter", "queen_of_hearts", "alice"], 150),
    ("wonderlands_war", ["jabberwocky", "mad_hatter", "queen_of_hearts", "alice", "cheshire_cat"], 150),
    ("root", ["marquise", "eyrie"], 150),
    ("root", ["marquise", "eyrie", "alliance"], 150),
    ("root", ["marquise", "eyrie", "alliance", "vagabond"], 150),
    ("root", ["marquise", "eyrie", "alliance", "vagabond", "riverfolk"], 150),
    ("root", ["marquise", "eyrie", "alliance", "vagabond", "riverfolk", "lizards"], 150),
]
IDS = [f"{game}-{len(players)}" for game, players, _ in TABLES]


@pytest.fixture(scope="module")
def pebbles(tmp_path_factory) -> str:
    """The tutorial's game, written from the docs alone."""
    where = tmp_path_factory.mktemp("pebbles")
    (where / ".git").mkdir()
    tutorial = (ROOT / "docs" / "tutorial.md").read_text()
    for name, text in re.findall(r"^`((?:rulesets|cards)/pebbles/[\w/]+\.(?:yaml|rules))`[^\n]*\n\n```\w+\n(.*?)```",
                                 tutorial, re.DOTALL | re.MULTILINE):
        (where / name).parent.mkdir(parents=True, exist_ok=True)
        (where / name).write_text(text)
    return str(where / "rulesets" / "pebbles")


@pytest.mark.parametrize("game, players, steps", TABLES, ids=IDS)
def test_pettingzoo_api_tests_pass(game, players, steps):
    pettingzoo_test.api_test(seeded(env(str(GAMES / game), players, max_steps=steps)), num_cycles=200)
    pettingzoo_test.parallel_api_test(seeded(parallel_env(str(GAMES / game), players, max_steps=steps)), num_cycles=200)


def seeded(environment):
    """The test suites draw their actions from the action spaces: the same ones on every run."""
    for i, agent in enumerate(environment.possible_agents):
        environment.action_space(agent).seed(i)
    return environment


# OpenSpiel's test copies the state at every step, and a copy replays the game: its episodes are cut sooner
SIMULATED = [(game, players, min(steps, 80)) for game, players, steps in TABLES if len(players) in (1, 2, 4)]


@pytest.mark.parametrize("game, players, steps", SIMULATED, ids=[f"{game}-{len(players)}" for game, players, _ in SIMULATED])
def test_openspiel_random_simulation_test_passes_with_serialisation(game, players, steps):
    loaded_game = pyspiel.load_game("ludolex", {"game": str(GAMES / game), "players": "+".join(players),
                                                "max_steps": steps})
    pyspiel.random_sim_test(loaded_game, num_sims=1, serialize=True, verbose=False)


def test_a_game_written_from_the_docs_alone_passes_both_suites(pebbles):
    pettingzoo_test.api_test(seeded(env(pebbles)), num_cycles=100)
    pettingzoo_test.parallel_api_test(seeded(parallel_env(pebbles)), num_cycles=100)
    pyspiel.random_sim_test(pyspiel.load_game("ludolex", {"game": pebbles}), num_sims=3, serialize=True, verbose=False)


def test_whole_games_end_with_the_rules_result():
    # 1 to each winner, -1 to the others: Cernunos ranks the players (CN-79)
    game = pyspiel.load_game("ludolex", {"game": str(GAMES / "cernunos")})
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()) if not state.is_chance_node() else 12)
    winners = state.episode.game.result.winners
    assert state.returns() == [1.0 if p in winners else -1.0 for p in ["green", "purple"]] and len(winners) == 1


def test_a_serialised_state_comes_back_the_same_and_a_clone_goes_its_own_way():
    game = pyspiel.load_game("ludolex", {"game": str(GAMES / "wonderlands_war"), "players": "alice+mad_hatter+jabberwocky"})
    state = game.new_initial_state()
    state.apply_action(5)
    rng = random.Random(1)
    for _ in range(60):
        state.apply_action(rng.choice(state.legal_actions()))
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    pickled = pickle.loads(pickle.dumps(state.episode))
    for player in range(3):
        assert again.information_state_string(player) == state.information_state_string(player)
        assert pickled.information_state_string(pickled.layout.players[player]) == state.information_state_string(player)
    twin = state.clone()
    twin.apply_action(twin.legal_actions()[0])
    assert twin.history() != state.history() and again.history() == state.history()


def test_a_decision_with_more_options_than_slots_is_offered_a_page_at_a_time():
    # Cernunos's first placement offers 96 options (CN-23); with 16 slots, 15 a page and the page turn
    ruleset = loaded(str(GAMES / "cernunos"))
    layout = Layout(ruleset, ["green", "purple"])
    layout.actions, layout.slot_mode = 16, "sorted"
    episode = Episode(layout, seed=4)
    labels = set()
    for _ in range(episode.paging()[1]):
        legal = episode.legal_actions()
        assert legal[-1] == 15 and len(legal) <= 16
        labels |= {episode.label(action) for action in legal[:-1]}
        episode.apply(15)
    assert episode.paging()[0] == 0  # round again to the first page
    assert len(labels) == len(episode.game.decision.options) == 96


def test_the_encoding_of_a_game_may_be_refined_in_its_manifest():
    # cernunos/game.yaml: 512 slots taken by hash, every square's stack 3 deep, the box left out
    layout = Layout(loaded(str(GAMES / "cernunos")), ["green", "purple"])
    assert layout.actions == 512 and layout.slot_mode == "hashed" and "box" not in layout.zones
    assert len(layout.listed) == 12 and all(depth == 3 for _, depth in layout.listed)


def test_a_hashed_slot_offers_the_same_option_from_one_decision_to_the_next():
    # Cernunos (CN-23): a placement keeps its slot while it is offered, unless another's took it first
    episode, rng = Episode(Layout(loaded(str(GAMES / "cernunos")), ["green", "purple"]), seed=6), random.Random(6)
    slots: dict[str, set] = {}
    while not episode.finished:
        for action in episode.legal_actions():
            slots.setdefault(episode.label(action), set()).add(action)
        episode.apply(rng.choice(episode.legal_actions()))
    kept = sum(len(taken) == 1 for taken in slots.values())
    assert len(slots) > 100 and kept >= 0.9 * len(slots), f"{kept} of {len(slots)} kept their slot"


# ---- hidden information: what an agent is given never changes when two things it cannot tell apart swap


def agent_view(episode: Episode, player: str) -> str:
    """What each adapter gives `player`'s agent: PettingZoo's observation and mask, OpenSpiel's tensor,
    strings and legal actions, and the labels of those actions."""
    aec, game = adapters(str(episode.layout.ruleset.directory), tuple(episode.layout.players))
    aec.episode = episode
    seen = aec.observe(player)
    state, seat = LudolexState(game, episode), episode.layout.players.index(player)
    legal = state.legal_actions(seat)
    return json.dumps([seen["observation"].tolist(), seen["action_mask"].tolist(), state.observation_tensor(seat),
                       state.observation_string(seat), state.information_state_string(seat), legal,
                       [state.action_to_string(seat, action) for action in legal]])


@functools.cache
def adapters(folder: str, players: tuple[str, ...]):
    """A PettingZoo environment and an OpenSpiel game of a table, for `agent_view` to wrap an episode in."""
    return env(folder, list(players)), pyspiel.load_game("ludolex", {"game": folder, "players": "+".join(players)})


def check_agents_see_no_swap(episode: Episode, rng: random.Random) -> int:
    checked = 0
    for player in episode.layout.players:
        before = agent_view(episode, player)
        for a, b in look_alike_pairs(episode.game, player, rng, most=3):
            swap_places(episode.game, a, b)
            episode._offered.clear()  # the slots' order is worked out again, as for a new decision
            try:
                assert agent_view(episode, player) == before, f"{player}'s agent can tell {a.id} from {b.id}"
            finally:
                swap_places(episode.game, b, a)
                episode._offered.clear()
            checked += 1
    return checked


@pytest.mark.parametrize("game, players", [
    ("root", ["marquise", "eyrie", "alliance", "vagabond"]),
    ("wonderlands_war", ["jabberwocky", "mad_hatter", "queen_of_hearts", "alice"]),
], ids=["root-4", "wonderlands_war-4"])
def test_no_agent_can_tell_apart_what_its_player_may_not_see(game, players):
    episode = Episode(Layout(loaded(str(GAMES / game)), players), seed=2, max_steps=300)
    rng, checked = random.Random(2), 0
    while not episode.finished:
        if len(episode.actions) % 10 == 0:
            checked += check_agents_see_no_swap(episode, rng)
        episode.apply(rng.choice(episode.legal_actions()))
    assert checked > 100


def test_a_world_a_player_imagines_is_copied_as_that_world_not_as_the_real_game():
    # a copy replays from the seed: that of a resampled world must deal again as it was dealt, or a
    # search bot's rollouts would play in the real game, seeing what its player may not see
    layout = Layout(loaded(str(GAMES / "root")), ["marquise", "eyrie"])
    real, rng = Episode(layout, seed=5), random.Random(5)
    for _ in range(30):
        real.apply(rng.choice(real.legal_actions()))
    world = real.resampled("marquise", random.Random(9))
    hands = [[c.id for c in episode.game.state.zones["hand/eyrie"]] for episode in (real, world)]
    assert hands[0] != hands[1]  # the Eyrie's hand, dealt again in the Marquise's imagination
    world.apply(world.legal_actions()[0])
    for twin in (world.copy(), pickle.loads(pickle.dumps(world))):
        assert [c.id for c in twin.game.state.zones["hand/eyrie"]] == [c.id for c in world.game.state.zones["hand/eyrie"]]
        assert twin.game.state.to_json() == world.game.state.to_json() and twin.actions == world.actions


def test_an_imagined_deal_the_rules_cannot_go_on_from_ends_with_nothing_for_anyone():
    # The 7th Citadel: dealt again, the card a player takes by its number (SC-13) may not be the Terrain
    # the rules then lay. The real game raises its errors; a world a player imagines ends there, as the
    # search bot's failed playouts do
    layout = Layout(loaded(str(GAMES / "seventh_citadel")), ["brooks", "arthen", "casek", "denhom"])
    real, rng = Episode(layout, seed=1), random.Random(1)
    for _ in range(20):
        real.apply(rng.choice(real.legal_actions()))
    world, moves = real.resampled(real.player, random.Random(0)), random.Random(0)
    while not world.finished:
        world.apply(moves.choice(world.legal_actions()))
    assert world.failed and "board.rules:10:5" in world.failed
    assert world.returns() == [0.0] * 4 and world.copy().failed == world.failed
