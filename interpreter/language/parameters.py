"""What each parameter of a function, procedure or event must hold, and every call checked against it.

A parameter is untyped, so `trees_left(held(you))` (a number where `trees_left` reads a player) or
`crowd(none)` (none where `crowd` reads a zone) would pass the checker and fail in a game. Here a
parameter that the body passes on unchanged to a place that reads it as something needs to be that:
`pieces(s)` reads `s` as a zone, `reserve(p)` reads `p` as a player, `repeat n times` reads `n` as a
number, `t.owner` reads `t` as a component. Where that place fails on none (most built-ins, but
`top`, `adjacent` and a few others give none or nothing), it must not be none either. A parameter
passed on to another callable's parameter needs what that one needs.

A call is then reported at its argument: a value of a type that none of the places accepts (LX323),
`none` written out where a place fails on it (LX336). Only what is certain is said: a parameter that
the body binds again (`let`, `set`, a loop's variable) needs nothing, nor is none refused for one the
body tests against none (`if s = none`, `if s`).

Runs once the rules are compiled, when every expression's type is known.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from interpreter.diagnostics.diagnostic import Diagnostic
from interpreter.language import declarations as d
from interpreter.language import expressions as e
from interpreter.language import statements as s
from interpreter.language.builtins import ACCEPTS_NONE, BUILTINS, COMPONENT_ATTRIBUTES
from interpreter.language.tree import nodes
from interpreter.language.types import ANY, WORDS, accepts

ARITHMETIC = ("+", "-", "*", "/", "mod", "<", "<=", ">", ">=")
NAMES = ("zone", "location", "player", "collection", "via")  # what a text may name


@dataclass
class Need:
    """What the places that read a parameter accept: one of `types`, and none only if not `refuses_none`."""

    name: str  # the parameter's
    types: set[str] = field(default_factory=set)
    refuses_none: bool = False
    tested: bool = False  # the body tests it against none: none is then never refused
    reader: str = ""  # a place that reads it, for the message: "`pieces`"

    def reads(self, expected: str, refuses_none: bool, reader: str) -> None:
        self.types.add(expected)
        self.refuses_none |= refuses_none and not self.tested
        self.reader = self.reader or reader

    def takes(self, inner: "Need", callee: str) -> bool:
        """Needs what `inner`, the parameter of `callee` this one is passed to, needs; True if that adds anything."""
        before = (set(self.types), self.refuses_none)
        self.types |= inner.types
        self.refuses_none |= inner.refuses_none and not self.tested
        if inner.types and not self.reader:
            self.reader = f"`{callee}`"
        return (self.types, self.refuses_none) != before


def find_needs(declarations: list, symbols) -> dict[tuple, dict[int, Need]]:
    """(what, name) -> {parameter's place: its Need}, for every function, procedure and event; kept in
    `symbols.needs` for the expressions compiled later (bots, scenarios)."""
    parts = _parts(declarations)
    needs: dict[tuple, dict[int, Need]] = {}
    passed: list[tuple[tuple, int, tuple, int]] = []  # (caller, its parameter) passed as (callee, its parameter)
    for key, params, roots in parts:
        found = [node for root in roots for node in nodes(root)]
        rebound = _bound(found)
        for number, param in enumerate(params):
            if param in rebound:
                continue
            need = needs.setdefault(key, {}).setdefault(number, Need(param))
            need.tested |= _tested_against_none(found, param)
            need.refuses_none &= not need.tested
            for node in found:
                _read(node, param, symbols, need, lambda callee, place: passed.append((key, number, callee, place)))
    changed = True
    while changed:  # what a callee's parameter needs, the caller's parameter passed to it needs too
        changed = False
        for caller, number, callee, place in passed:
            inner, outer = needs.get(callee, {}).get(place), needs.get(caller, {}).get(number)
            if inner is not None and outer is not None and outer.takes(inner, callee[1]):
                changed = True
    symbols.needs = needs
    return needs


def check_calls(roots: list, symbols, diagnostics: list[Diagnostic]) -> None:
    """Report every call under `roots` whose argument its parameter cannot hold (see the module's doc)."""
    for root in roots:
        for node in nodes(root):
            key = _callee(node, symbols)
            if key is None:
                continue
            for number, arg in enumerate(node.args):
                need = symbols.needs.get(key, {}).get(number)
                if need is None:
                    continue
                param = need.name
                what = f"`{key[1]}`" if key[0] != "event" else f"event `{key[1]}`"
                if e.is_none(arg) and need.refuses_none:
                    diagnostics.append(Diagnostic("LX336", f"{what} reads its parameter `{param}` with {need.reader}, "
                                                  "which fails on none", arg.pos))
                elif need.types and not any(_accepts(t, arg.type) for t in need.types):
                    wanted = " or ".join(sorted(WORDS.get(t, t) for t in need.types))
                    diagnostics.append(Diagnostic("LX323", f"{what} reads its parameter `{param}` as {wanted} "
                                                  f"(with {need.reader}), not {WORDS.get(arg.type, arg.type)}", arg.pos))


def _accepts(expected: str, actual: str) -> bool:
    """`types.accepts`, but for a text where a name is read: a parameter is often given one (a
    scenario's `occupant("c2")`), and underneath a name is a text."""
    return accepts(expected, actual) or (actual == "text" and expected in NAMES)


def _parts(declarations: list) -> list[tuple[tuple, list[str], list]]:
    """(callable, its parameters here, the expressions and blocks that read them) for every part of a
    callable: a function's expression, modifiers and overrides; a procedure and its `instead of` rules;
    the `when` rules of an event."""
    found = []
    for decl in declarations:
        if isinstance(decl, d.FunctionDecl):
            found.append((("function", decl.name), decl.params, [decl.body]))
        elif isinstance(decl, d.ModifyDecl):
            found.append((("function", decl.name), decl.params, [decl.amount]))
        elif isinstance(decl, d.OverrideDecl):
            found.append((("function", decl.name), decl.params, [decl.value, decl.condition]))
        elif isinstance(decl, (d.ProcedureDecl, d.InsteadDecl)):
            found.append((("procedure", decl.name), decl.params, [decl.body, getattr(decl, "condition", None)]))
        elif isinstance(decl, d.WhenDecl) and decl.event[0] == "event":
            found.append((("event", decl.event[1]), decl.params, [decl.body, decl.condition]))
    return found


def _read(node, param: str, symbols, need: Need, passes) -> None:
    """Add to `need` what `node` reads of parameter `param`, if it reads it; `passes(callee, place)`
    where it passes it on to another callable."""
    reads = need.reads

    def is_param(expr) -> bool:
        return isinstance(expr, e.Name) and expr.name == param

    callee = _callee(node, symbols)
    if callee is not None:
        for place, arg in enumerate(node.args):
            if is_param(arg):
                passes(callee, place)
    elif isinstance(node, e.Call) and (symbols.zones.get(node.name) or symbols.variables.get(node.name)):
        if node.args and is_param(node.args[0]):
            reads("player", True, f"`{node.name}(...)`")
    elif isinstance(node, e.Call) and node.name in BUILTINS:
        parameters = BUILTINS[node.name][1]
        for place, arg in enumerate(node.args[:len(parameters)]):
            if is_param(arg):
                reads(parameters[place], (node.name, place) not in ACCEPTS_NONE, f"`{node.name}`")
    elif isinstance(node, (e.Quantifier, e.SortedBy, s.ForEach)) and is_param(node.source):
        reads("list", True, "a loop")
    elif isinstance(node, s.Choose) and any(is_param(source) for _, source in node.bindings):
        reads("list", True, "`choose`")
    elif isinstance(node, s.Repeat) and node.times is not None and is_param(node.times):
        reads("number", True, "`repeat`")
    elif isinstance(node, s.Move) and is_param(node.to):
        reads("zone", True, "`move ... to`")
    elif isinstance(node, s.Perform) and is_param(node.subject):
        reads("component", False, "`perform`")
    elif isinstance(node, e.Attribute) and is_param(node.subject) and node.subject.type == ANY:
        declared = node.name in symbols.properties and node.name not in symbols.kind_properties
        if node.name in COMPONENT_ATTRIBUTES or declared:
            reads("component", False, f"`.{node.name}`")
    elif isinstance(node, e.Binary) and node.op in ARITHMETIC and (is_param(node.left) or is_param(node.right)):
        other = node.right if is_param(node.left) else node.left
        if not (node.op == "+" and other.type in ("list", ANY)):  # `+` also joins lists
            reads("number", True, f"`{node.op}`")


def _callee(node, symbols) -> tuple | None:
    """The callable of the rules a node calls: a function, a procedure or an event; None for any other node."""
    if isinstance(node, e.Call) and node.name in symbols.functions:
        return "function", node.name
    if isinstance(node, s.CallProcedure) and node.name in symbols.procedures:
        return "procedure", node.name
    if isinstance(node, s.Emit) and node.event in symbols.events:
        return "event", node.event
    return None


def _bound(found: list) -> set[str]:
    """The names these nodes bind again: a parameter so bound holds other values."""
    bound = set()
    for node in found:
        if isinstance(node, s.Let):
            bound.add(node.name)
        elif isinstance(node, s.Set) and isinstance(node.target, e.Name):
            bound.add(node.target.name)
        elif isinstance(node, (s.ForEach, e.Quantifier, e.SortedBy, s.Simultaneously)):
            bound.add(node.variable)
        elif isinstance(node, s.Choose):
            bound.update(name for name, _ in node.bindings)
    return bound


def _tested_against_none(found: list, param: str) -> bool:
    """Does the body test the parameter for none (`s = none`, `s != none`, `if s`, `s and ...`)?"""
    def is_param(expr) -> bool:
        return isinstance(expr, e.Name) and expr.name == param

    for node in found:
        if isinstance(node, e.Binary) and node.op in ("=", "!=", "and", "or"):
            if (is_param(node.left) or is_param(node.right)) and (node.op in ("and", "or") or
                                                                  e.is_none(node.left) or e.is_none(node.right)):
                return True
        elif isinstance(node, e.Not) and is_param(node.operand):
            return True
        elif isinstance(node, (e.Conditional, s.While)) and is_param(node.test):
            return True
        elif isinstance(node, s.If) and any(is_param(test) for test, _ in node.branches):
            return True
        elif isinstance(node, e.Quantifier) and (is_param(node.where) or is_param(node.while_)):
            return True
    return False
