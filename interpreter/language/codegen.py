"""Expressions compile to Python source, one function each, executed once at load time.

A whole expression then runs as a single Python function (quantifiers become comprehensions,
`top(s)` an inline lookup) instead of a tree of closures: this is the simulation hot path.
All generated functions of a ruleset share one namespace, so functions may call each other
in any order of declaration.
"""
from __future__ import annotations

import itertools
import re
import warnings

from interpreter.safety.limits import LIMITS


def python_identifier(name: str) -> str:
    """A rules name in generated code: `red.bonus` (local to a faction's file) as `red·bonus`,
    which no rules name can be (a name of the rules is ASCII)."""
    return name.replace(".", "·")


class CodeTooLarge(Exception):
    """The generated source went past LIMITS.compiled_characters."""


class CodeGen:
    def __init__(self):
        self.namespace: dict = {"takewhile": itertools.takewhile, "MISSING": object()}
        self._counter = itertools.count()
        self.characters = 0  # of generated source so far
        self.warnings: list[str] = []  # Python's complaints about generated code: a bug of the compiler, kept for tests

    def run(self, source: str, name: str) -> None:
        """Compile and run generated `source` in the shared namespace, printing nothing."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            code = compile(source, f"<rules:{name}>", "exec")
        self.warnings += [f"{name}: {w.message}" for w in caught]
        self.characters += len(source)
        if self.characters > LIMITS.compiled_characters:
            raise CodeTooLarge()
        exec(code, self.namespace)

    def constant(self, value, hint: str = "c") -> str:
        name = f"_{hint}{next(self._counter)}"
        self.namespace[name] = value
        return name

    def literal(self, value) -> str:
        """Code for a value written in the rules or the content: none, a truth value and a number
        as themselves, anything else (a text) as the name of a constant, so that no text a
        designer wrote ever becomes part of the generated source."""
        if value is None or type(value) in (bool, int):
            return repr(value)
        return self.constant(value, "text")

    def temp(self) -> str:
        return f"_t{next(self._counter)}"

    def define(self, name: str, params: list[str], body: str, prologue: str = ""):
        """Define `def name(rt, *params): return body` in the shared namespace and return it."""
        lines = [f"def {name}(rt, {', '.join(params)}):" if params else f"def {name}(rt):"]
        if re.search(r"\bZ\b", body + prologue):
            lines.append("    Z = rt.state.zones")
        if prologue:
            lines.append(prologue)
        lines.append(f"    return {body}")
        source = "\n".join(lines)
        self.run(source, name)
        return self.namespace[name]

    def cached(self, name: str, number: int, params: list[str], compute: str):
        """`name(rt, *params)`: `compute`'s value, kept in the state's memo until the state changes."""
        key = f"({', '.join([str(number)] + params)},)"
        source = "\n".join([
            f"def {name}(rt, {', '.join(params)}):",
            "    memo = rt.state.memo",
            f"    key = {key}",
            "    try:",
            "        return memo[key]",
            "    except KeyError:",
            f"        value = memo[key] = {compute}(rt, {', '.join(params)})",
            "        return value",
            "    except TypeError:  # an unhashable argument (a list): computed every time",
            f"        return {compute}(rt, {', '.join(params)})",
        ])
        self.run(source, name)
        return self.namespace[name]

    def expression(self, body: str):
        """A function `f(rt, env)` evaluating generated code `body`."""
        return self.define(f"_expr{next(self._counter)}", ["env"], body)
