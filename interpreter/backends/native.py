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
    """The ruleset's WasmRules for this table (`players`, in seating order; None: the default table),
    made at the first call, or None (always None with LUDOLEX_NATIVE=0)."""
    if os.environ.get("LUDOLEX_NATIVE") == "0":
        return None
    built = ruleset.__dict__.setdefault("native", {})
    table = tuple(players) if players is not None else None
    if table not in built:
        built[table] = _compiled(ruleset, players)
    return built[table]


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
