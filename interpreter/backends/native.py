"""A ruleset's native build: its rules compiled to WebAssembly once, for what plays many games fast
(the search bot's copies and playouts). Where wasmtime is not installed, or the rules use what the
backend does not compile yet, there is none, and the Python backend plays."""
from __future__ import annotations

import os
import sys

from interpreter.backends.errors import NotCompiled

_NOT_INSTALLED = "wasmtime is not installed: the Python backend plays (pip install 'ludolex[native]' for speed)"
_said = False


def native_rules(ruleset, players: list[str] | None = None):
    """The ruleset's WasmRules for a table of these players (None: the default table), made at the first
    call, or None (always None with LUDOLEX_NATIVE=0). One module serves every order of the same
    players, unless their order changes a value the module does not hold: then one per order."""
    if os.environ.get("LUDOLEX_NATIVE") == "0":
        return None
    built = ruleset.__dict__.setdefault("native", {})
    table = frozenset(players) if players is not None else None
    if table not in built:
        built[table] = _compiled(ruleset, players)
    rules = built[table]
    if rules is not None and players is not None and rules.writer.seating_words(list(players)) is None:
        if tuple(players) not in built:
            built[tuple(players)] = _compiled(ruleset, players)
        rules = built[tuple(players)]
    return rules


def _compiled(ruleset, players):
    global _said
    try:
        import wasmtime  # noqa: F401

        from interpreter.backends.wasm.program import WasmProgram
    except ImportError:
        if not _said:
            print(_NOT_INSTALLED, file=sys.stderr)
            _said = True
        return None
    try:
        return WasmProgram(ruleset, players).compile()
    except NotCompiled:
        return None
    except Exception:  # noqa: BLE001 - rules that fail as a game starts (a variable's value...): the Python
        return None  # backend plays them, and says why in its own words
