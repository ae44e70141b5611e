"""ludolex: tabletop games whose rules are data.

The public API: `load` a ruleset, start a `Game`, answer its `Decision`s with `choose`.

    from interpreter import load, Game
    game = Game(load("rulesets/mygame"), seed=7)
    while not game.finished:
        decision = game.decision                   # who decides what, among which options
        game.choose(decision.labels()[0])          # by label, by index, or as a dict of values
    print(game.result.winner, game.result.scores)

A ruleset that does not load raises `LudolexError`; its `diagnostics` say what and where.
"""
from interpreter.diagnostics.diagnostic import Diagnostic
from interpreter.diagnostics.errors import LudolexError
from interpreter.engine.decisions import Decision
from interpreter.engine.runtime import Result
from interpreter.loading.ruleset import Ruleset
from interpreter.loading.stages import load_ruleset as load
from interpreter.play.game import Game

__all__ = ["Decision", "Diagnostic", "Game", "LudolexError", "Result", "Ruleset", "load"]
