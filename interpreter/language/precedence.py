"""The order of a function's `override` rules, and the pairs whose order nothing says.

Of a function's overrides whose conditions hold, the one with the highest `precedence` gives the
value, then the first declared. Within one file the author wrote that order. Across files (two
factions, a variant's file) declaration order is only the order of the file names, so two overrides
of one function from different files, with the same precedence, must not both hold: their
conditions must exclude each other, as `p = marquise` and `p = eyrie` do. Otherwise it is LX339.
"""
from __future__ import annotations

from pathlib import Path

from interpreter.language import declarations as d
from interpreter.language import expressions as e
from interpreter.language.scope import Scope


def ordered_overrides(overrides: list[d.OverrideDecl], players: set[str], scope: Scope) -> list[d.OverrideDecl]:
    """The overrides of one function, the first tried first; LX339 for each pair left undecided."""
    ordered = sorted(overrides, key=lambda o: -o.precedence)
    for index, later in enumerate(ordered):
        for earlier in ordered[:index]:
            if (earlier.pos.file != later.pos.file and earlier.precedence == later.precedence
                    and not _exclusive(earlier, later, players)):
                scope.error("LX339", f"`override {later.name}` may hold together with the override of "
                            f"{Path(earlier.pos.file).name}, line {earlier.pos.line}, and nothing says which applies",
                            later.pos, hint="give the one that wins a higher `precedence N` (written after its "
                            "condition), or make their conditions exclude each other (`p = marquise`, `p = eyrie`)")
                break
    return ordered


def _exclusive(a: d.OverrideDecl, b: d.OverrideDecl, players: set[str]) -> bool:
    """Whether the two conditions cannot both hold: one parameter equal to a constant in one, to
    another constant (or unequal to that one) in the other."""
    tests_a, tests_b = _parameter_tests(a, players), _parameter_tests(b, players)
    for (index, op, value) in tests_a:
        for (other_index, other_op, other_value) in tests_b:
            if index != other_index:
                continue
            if op == other_op == "=" and value != other_value:
                return True
            if {op, other_op} == {"=", "!="} and value == other_value:
                return True
    return False


def _parameter_tests(override: d.OverrideDecl, players: set[str]) -> list[tuple]:
    """(parameter index, `=` or `!=`, constant) for each conjunct of the condition that compares a
    parameter with a constant (a number, a text, a player's name)."""
    tests = []
    for conjunct in _conjuncts(override.condition):
        if not (isinstance(conjunct, e.Binary) and conjunct.op in ("=", "!=")):
            continue
        for side, other in ((conjunct.left, conjunct.right), (conjunct.right, conjunct.left)):
            if isinstance(side, e.Name) and side.name in override.params:
                constant = _constant(other, override.params, players)
                if constant is not None:
                    tests.append((override.params.index(side.name), conjunct.op, constant))
    return tests


def _constant(expr, params: list[str], players: set[str]):
    if isinstance(expr, e.Literal) and expr.value is not None:
        return ("value", expr.value)
    if isinstance(expr, e.Name) and expr.name in players and expr.name not in params:
        return ("player", expr.name)
    return None


def _conjuncts(expr) -> list:
    if expr is None:
        return []
    if isinstance(expr, e.Binary) and expr.op == "and":
        return _conjuncts(expr.left) + _conjuncts(expr.right)
    return [expr]
