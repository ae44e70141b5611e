"""`Game.clone` replays the original's answers: each `choose` of the generated rules takes its recorded
option (or that it had none) without making its list, and the copy goes on exactly as the original."""
import random

import pytest

from interpreter import Game, load
from interpreter.loading.stages import load_ruleset

GAMES = [("root", ["marquise", "eyrie"]), ("root", ["marquise", "eyrie", "alliance", "vagabond"]),
         ("cernunos", None), ("wonderlands_war", None), ("seventh_citadel", None)]


def random_choice(game: Game, rng: random.Random) -> tuple[int, str | None]:
    decision = game.decisions[0]
    return rng.randrange(len(decision.options)), decision.player if game.at_once else None


def assert_same(copy: Game, game: Game) -> None:
    assert copy.state.to_json() == game.state.to_json()
    assert copy.log == game.log and len(copy.taken) == len(game.taken)
    assert [(d.player, d.labels()) for d in copy.decisions] == [(d.player, d.labels()) for d in game.decisions]


@pytest.mark.parametrize("name, players", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_copy_made_at_any_point_goes_on_as_the_original(name, players, seed):
    game, rng = Game(load(name), seed=seed, players=players), random.Random(seed)
    copies = []
    while game.decisions and len(game.log) < 3000:
        if len(game.log) % 61 == 7:
            copy = game.clone()
            assert_same(copy, game)
            copies.append(copy)
        choice, by = random_choice(game, rng)
        for g in [game, *copies]:
            g.choose(choice, by=by)
    for copy in copies:
        assert_same(copy, game)
        assert copy.result == game.result


@pytest.mark.parametrize("backend", ["generated", "reference"])
def test_a_copy_of_the_first_choices_is_the_game_replayed_to_there(backend):
    root = load_ruleset("root", backend=backend)
    game, rng = Game(root, seed=4, players=["marquise", "eyrie"]), random.Random(4)
    for _ in range(150):
        game.choose(*random_choice(game, rng))
    for upto in (0, 1, 80, 149):
        assert_same(game.clone(choices=game.log[:upto]), Game.replay(root, 4, game.log[:upto], players=game.players))


def test_choices_of_another_game_are_replayed_by_asking(cernunos):
    game, other, rng = Game(cernunos, seed=3), Game(cernunos, seed=3), random.Random(5)
    for _ in range(10):
        other.choose(*random_choice(other, rng))
    assert_same(game.clone(choices=other.log), other)


def asked_while_copying(game: Game, monkeypatch) -> int:
    asked = []
    choose = Game.choose
    monkeypatch.setattr(Game, "choose", lambda self, *args, **kw: asked.append(1) or choose(self, *args, **kw))
    game.clone()
    return len(asked)


@pytest.mark.parametrize("backend", ["generated", "reference"])
def test_the_generated_rules_replay_without_asking(backend, monkeypatch):
    cernunos = load_ruleset("cernunos", backend=backend)
    game, rng = Game(cernunos, seed=8), random.Random(8)
    for _ in range(20):
        game.choose(*random_choice(game, rng))
    # the reference backend's closures ask every decision again (and make its options)
    assert asked_while_copying(game, monkeypatch) == (0 if backend == "generated" else 20)
