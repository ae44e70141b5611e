"""Every game plays identically whether a derived value is kept until something it read changes
(engine/memo.py) or, as before, forgotten at every change of the state: the same decisions with the
same options, the same final state and result, for random games of every game in the repository."""
import random
from pathlib import Path

import pytest

from interpreter import Game, load
from interpreter.engine.memo import Memo
from interpreter.validation.validate import ruleset_folders

RULESETS = ruleset_folders(Path(__file__).resolve().parent.parent / "rulesets")
SEEDS = range(20)


@pytest.fixture(scope="module", params=RULESETS, ids=lambda folder: folder.name)
def ruleset(request):
    return load(request.param)


def forgetting_everything(monkeypatch):
    """The memo as it was: every change, whatever it says changed, forgets every value."""
    for method in ("forget_zones", "forget_variable", "forget_property", "forget_volatile"):
        monkeypatch.setattr(Memo, method, lambda self, *_: self.forget_all())


def play(ruleset, seed: int) -> list:
    """A random game: each decision with its options, then the log, the final state and the result."""
    game, rng, decisions = Game(ruleset, seed=seed), random.Random(seed), []
    while not game.finished:
        decisions.append((game.decision.name, game.decision.player, game.decision.labels()))
        game.choose(rng.randrange(len(game.decision.options)))
    return decisions + [game.log, game.state.to_json(), game.result.to_json()]


def counting_values(ruleset, monkeypatch) -> list:
    """`[n]`: n counts the values of the cached functions worked out from now on."""
    codegen, count = ruleset.program.codegen, [0]
    for name, compute in codegen.read_as.items():
        if compute != name:  # a cached function, and the function that works its values out
            def counted(rt, *args, _compute=codegen.namespace[compute]):
                count[0] += 1
                return _compute(rt, *args)
            monkeypatch.setitem(codegen.namespace, compute, counted)
    return count


def test_random_games_play_the_same_as_with_values_forgotten_at_every_change(ruleset, monkeypatch):
    count = counting_values(ruleset, monkeypatch)
    kept = [play(ruleset, seed) for seed in SEEDS]
    worked_out, count[0] = count[0], 0
    with monkeypatch.context() as patch:
        forgetting_everything(patch)
        forgotten = [play(ruleset, seed) for seed in SEEDS]
    for seed, (one, other) in enumerate(zip(kept, forgotten)):
        assert one == other, f"{ruleset.name}, seed {seed}"
    assert 0 < worked_out <= count[0]


def test_every_cached_function_is_understood(ruleset):
    """No cached function of the game is volatile: the reading of the generated code (language/reads.py)
    knows everything the compiler writes in them."""
    codegen = ruleset.program.codegen
    computes = [compute for name, compute in codegen.read_as.items() if compute != name]
    assert computes and not [c for c in computes if codegen.code_reads.reads(c).volatile]
