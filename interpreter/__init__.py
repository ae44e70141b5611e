"""ludolex: tabletop games whose rules are data.

The public API: `load` a ruleset, start a `Game`, answer its `Decision`s with `choose`.
"""
from .decisions import Decision
from .diagnostics import Diagnostic, LudolexError
from .game import Game
from .ruleset import Ruleset, load_ruleset as load

__all__ = ["Decision", "Diagnostic", "Game", "LudolexError", "Ruleset", "load"]
