"""The engine running rulesets/cernunos and the hand-written tools/cernunos_baseline.py must play
exactly the same games: same decisions, same options in the same order, same results."""
import random

import cernunos_baseline as baseline

from interpreter import Game


def _labels(options):
    return [" ".join(o) if isinstance(o, tuple) else o for o in options]


def test_random_games_match_the_hand_written_implementation(cernunos):
    for seed in range(150):
        trace = baseline.trace_random_game(seed)
        game, rng = Game(cernunos, seed=seed), random.Random(seed)
        for step, (name, player, options, _) in enumerate(trace):
            d = game.decision
            assert d is not None, f"seed {seed}: engine ended at step {step}, baseline went on"
            assert (d.name, d.player, d.labels()) == (name, player, _labels(options)), f"seed {seed}, step {step}"
            game.choose(rng.randrange(len(d.options)))
        assert game.finished, f"seed {seed}: baseline ended, engine still waits for {game.decision}"
        expected = baseline.play_random_game(seed)
        assert (game.result.winner, game.result.scores) == (expected["winner"], expected["scores"])
