"""A ruleset's native build: its rules compiled to WebAssembly once, for what plays many games fast
(the search bot's copies and playouts). Where wasmtime is not installed, or the rules use what the
backend does not compile yet, there is none, and the Python backend plays."""
from __future__ import annotations

import os
import sys

from interpreter.backends.errors import NotCompiled

_NOT_INSTALLED = "wasmtime is not installed: the Python backend plays (pip install 'ludolex[native]' for speed)"
_said = False


def native_rules(ruleset):
    """The ruleset's WasmRules, made at the first call, or None (always None with LUDOLEX_NATIVE=0)."""
    if os.environ.get("LUDOLEX_NATIVE") == "0":
        return None
    if "native" not in ruleset.__dict__:
        ruleset.__dict__["native"] = _compiled(ruleset)
    return ruleset.__dict__["native"]


def _compiled(ruleset):
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
        return WasmProgram(ruleset).compile()
    except NotCompiled:
        return None
