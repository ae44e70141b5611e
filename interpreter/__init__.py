"""ludolex: tabletop games whose rules are data.

The public API: `load` a ruleset, start a `Game`, answer its `Decision`s with `choose`.
"""
from interpreter.diagnostics.diagnostic import Diagnostic
from interpreter.diagnostics.errors import LudolexError
from interpreter.engine.decisions import Decision
from interpreter.loading.ruleset import Ruleset
from interpreter.loading.stages import load_ruleset as load
from interpreter.play.game import Game

__all__ = ["Decision", "Diagnostic", "Game", "LudolexError", "Ruleset", "load"]
