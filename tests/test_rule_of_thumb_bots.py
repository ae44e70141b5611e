"""A game's rule-of-thumb bot (`rulesets/<game>/bots/rule_of_thumb.yaml`) beats random play: Cernunos's."""
from interpreter import Game
from interpreter.agents.bots import make_agent
from interpreter.agents.rule_of_thumb import Policy

GAMES = 20
WINS_NEEDED = 17  # random play against random play wins about half


def rule_of_thumb_wins(ruleset) -> int:
    """Games won by the rule-of-thumb bot against a random bot, each colour half the time, seeded."""
    wins = 0
    for seed in range(GAMES):
        game = Game(ruleset, seed=seed)
        bot_player = game.players[seed % 2]
        agents = {p: make_agent("rule_of_thumb" if p == bot_player else "random", ruleset, game, seed * 10 + i)
                  for i, p in enumerate(game.players)}
        while not game.finished:
            game.choose(agents[game.decision.player].choose(game.decision))
        wins += bot_player in game.result.winners
    return wins


def test_the_cernunos_bot_beats_random_play(cernunos):
    assert rule_of_thumb_wins(cernunos) >= WINS_NEEDED  # it wins all 20


def test_the_strength_test_catches_a_bot_that_values_every_option_alike(cernunos, monkeypatch):
    monkeypatch.setattr(Policy, "valuer", lambda policy, player, decision: (lambda rt, env: 0, None))
    assert rule_of_thumb_wins(cernunos) < WINS_NEEDED  # it wins 9 of 20
