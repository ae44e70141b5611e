"""Why a condition of the rules is false: the explaining mode of expressions.

A `choose` offers the combinations of its values that meet its `where`. To say why a combination
is not offered, its condition is evaluated again, node by node, only when asked (normal play
runs the compiled conditions and pays nothing for this): each sub-expression is compiled on its
own with the same scope, and its value read in the same state. The explanation descends to the
innermost conditions that decided the result:

    `a and b` false      the first false operand
    `a or b` false       every operand (each is false)
    `not a`              why `a` has the other value
    `f(x, y)` false      f's body, its parameters bound to the values (a function of the rules)
    `all(x in L where c)` false, `any(...)` true: c for the first element that decides it
    `if t then a else b` the branch taken
    anything else        a leaf: its text and the values of its sides

Each reason quotes the rules' text with the values of its names written in (`ruler(a3) = red`
for `ruler(site) = p`), then the values of the sides that are not plain values, and says where
it is written.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace

from interpreter.engine.state import Component
from interpreter.language import expressions as e
from interpreter.language.scope import Scope

MAX_DEPTH = 12  # calls descended into, one inside the other
MAX_REASONS = 12  # innermost conditions reported for one refusal
LISTED = 6  # items of a list written out in a value
WRITTEN_IN = 40  # the longest value written in place of a name in the rules' text

PRECEDENCE = {"or": 1, "and": 2, "=": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "in": 4, "not in": 4,
              "+": 5, "-": 5, "*": 6, "/": 6, "mod": 6}


@dataclass(frozen=True)
class Reason:
    """One step of an explanation: a sentence, and where the condition it is about is written."""

    text: str
    file: str | None = None
    line: int | None = None


@dataclass
class ChoiceRule:
    """Where a decision comes from: the `choose` statement and the scope it was compiled in (kept by
    the decision, with the values of the names in view, so that a refused option can be explained)."""

    node: object  # the Choose statement
    scope: Scope

    def domain_scopes(self):
        """(name, source expression, scope to evaluate it in) for each value the choose binds, in order."""
        scope = self.scope
        for name, source in self.node.bindings:
            yield name, source, scope
            scope = scope.with_locals(name)

    @property
    def where_scope(self) -> Scope:
        return self.scope.with_locals(*(name for name, _ in self.node.bindings))


@dataclass
class GuardedOptions:
    """Options each offered while its own condition holds (`anytime NAME if CONDITION`): the
    condition of each by its label (None: always offered), and the scope they were compiled in."""

    conditions: dict
    scope: Scope


class Explainer:
    """Explains conditions in one state, as `viewer` sees it: a component they cannot tell apart
    is written as its back. `rt` is the game's runtime; the step count it keeps is left as it was."""

    def __init__(self, rt, viewer: str | None):
        self.rt, self.viewer = rt, viewer
        symbols = rt.program.symbols
        self.names = symbols.all_names() | symbols.traits
        self.root = Scope(symbols, [], codegen=rt.program.codegen)

    # --- values -----------------------------------------------------------------------------
    def value(self, expr: e.Expr, scope: Scope, env: dict):
        """The value of `expr` in the current state (its code compiled on its own, once)."""
        scope = replace(scope, diagnostics=[])
        key = (id(expr), scope.locals, scope.pure, scope.has_self)
        cache = self.rt.program.explained
        function = cache.get(key)
        if function is None:
            function = cache[key] = scope.codegen.expression(expr.code(scope, e.env_names(scope)))
        rt = self.rt
        steps, limit = rt.steps, rt.step_limit
        rt.step_limit = steps + 10**9
        try:
            return function(rt, env)
        finally:
            rt.steps, rt.step_limit = steps, limit

    def shown(self, value) -> str:
        """A value as the viewer may see it."""
        if isinstance(value, Component):
            back = self.rt.hidden_as(self.viewer, value)
            return f"a face-down {back}" if back else value.id
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (list, tuple)):
            items = ", ".join(self.shown(v) for v in value[:LISTED])
            more = f", ... ({len(value)} in all)" if len(value) > LISTED else ""
            return f"[{items}{more}]"
        return str(value)

    def written(self, value) -> str | None:
        """A value as the rules would write it in place of a name, or None if too long to."""
        if isinstance(value, str) and value not in self.names:
            text = json.dumps(value)
        elif isinstance(value, (list, tuple)):
            items = [self.written(v) for v in value]
            text = "[" + ", ".join(items) + "]" if None not in items else "." * (WRITTEN_IN + 1)
        else:
            text = self.shown(value)
        return text if len(text) <= WRITTEN_IN else None

    def known(self, value) -> bool:
        """Whether the viewer may know this value (not a component they cannot tell apart)."""
        if isinstance(value, Component):
            return self.rt.hidden_as(self.viewer, value) is None
        if isinstance(value, (list, tuple)):
            return all(self.known(v) for v in value)
        return True

    # --- explanations -------------------------------------------------------------------------
    def why(self, expr: e.Expr, scope: Scope, env: dict, value: bool = False) -> list[Reason]:
        """Why `expr` is `value` (false, unless explaining a `not`): its innermost deciding conditions."""
        reasons: list[Reason] = []
        try:
            self._why(expr, scope, env, value, reasons, 0)
        except Exception:  # a value that cannot be worked out on its own: say what is known
            if not reasons:
                reasons.append(self.leaf(expr, scope, env, value, with_sides=False))
        return reasons[:MAX_REASONS]

    def _why(self, expr, scope, env, value: bool, reasons: list, depth: int) -> None:
        if len(reasons) >= MAX_REASONS:
            return
        if isinstance(expr, e.Binary) and expr.op in ("and", "or"):
            operands = _operands(expr, expr.op)
            each = (expr.op == "and") == value  # `and` true, `or` false: every operand has that value
            deciding = [o for o in operands if bool(self.value(o, scope, env)) == value]
            for operand in deciding if each else deciding[:1]:
                self._why(operand, scope, env, value, reasons, depth)
            if deciding:
                return
        if isinstance(expr, e.Not):
            self._why(expr.operand, scope, env, not value, reasons, depth)
            return
        if isinstance(expr, e.Conditional):
            branch = expr.then if self.value(expr.test, scope, env) else expr.otherwise
            self._why(branch, scope, env, value, reasons, depth)
            return
        if isinstance(expr, e.Call) and depth < MAX_DEPTH and self._why_call(expr, scope, env, value, reasons, depth):
            return
        if isinstance(expr, e.Quantifier) and self._why_quantified(expr, scope, env, value, reasons, depth):
            return
        reasons.append(self.leaf(expr, scope, env, value))

    def _why_call(self, call: e.Call, scope, env, value: bool, reasons: list, depth: int) -> bool:
        """Descend into a function of the rules: its body (or the override that applies), the
        parameters bound to the arguments' values. False if it cannot be (a built-in, a modified one)."""
        definition = self.rt.program.definitions.get(call.name)
        if definition is None:
            return False
        decl, modifiers, overrides = definition
        if modifiers:
            return False
        args = [self.value(a, scope, env) for a in call.args]
        body, params = decl.body, decl.params
        inner_root = replace(self.root, pure=True)
        for override in overrides:  # the first whose condition holds gives the value
            inner = dict(zip(override.params, args))
            inner["you"] = None
            condition_scope = inner_root.with_locals(*override.params)
            if override.condition is None or self.value(override.condition, condition_scope, inner):
                body, params = override.value, override.params
                break
        inner = dict(zip(params, args))
        inner["you"] = None
        self._why(body, inner_root.with_locals(*params), inner, value, reasons, depth + 1)
        return True

    def _why_quantified(self, expr: e.Quantifier, scope, env, value: bool, reasons: list, depth: int) -> bool:
        """`all` false or `any` true: the first element that decides it, and why its condition holds or not."""
        deciding_one = (expr.quantifier, value) in (("all", False), ("any", True))
        if expr.where is None or expr.while_ is not None or not deciding_one:
            return False
        inner_scope = scope.with_locals(expr.variable)
        for item in self.value(expr.source, scope, env):
            inner = {**env, expr.variable: item}
            if bool(self.value(expr.where, inner_scope, inner)) == value:
                self._why(expr.where, inner_scope, inner, value, reasons, depth)
                return True
        return False

    def leaf(self, expr: e.Expr, scope, env, value: bool, with_sides: bool = True) -> Reason:
        """`TEXT` is false: SIDE is VALUE, ... (the sides worth showing)."""
        values = {name: self.written(v) for name, v in env.items() if name in scope.locals or name == "you"}
        values = {name: text for name, text in values.items() if text is not None}
        if isinstance(expr, e.Binary) and all(isinstance(side, (e.Name, e.Literal)) for side in _sides(expr)):
            values = {}  # `k = tree`, not `tree = tree`: the name stays, its value is told after
        text = f"`{source(expr, values)}` is {'true' if value else 'false'}"
        details = []
        if with_sides:
            for side in _sides(expr):
                if isinstance(side, e.Literal) or (isinstance(side, e.Name) and side.name in values):
                    continue
                try:
                    seen = self.value(side, scope, env)
                    held = isinstance(side, (e.Attribute, e.CardValue))
                    if held and not self.known(self.value(side.subject, scope, env)):
                        continue  # what a component the viewer cannot tell apart holds is not told
                except Exception:
                    continue
                written = source(side, values)
                if self.shown(seen) != written:
                    details.append(f"{written} is {self.shown(seen)}")
            if isinstance(expr, e.Quantifier) and expr.quantifier == "any" and not value:
                details.append(self._none_meets(expr, scope, env, values))
        return Reason(text + (": " + ", ".join(details) if details else ""), expr.pos.file, expr.pos.line)

    def _none_meets(self, expr: e.Quantifier, scope, env, values) -> str:
        items = self.value(expr.source, scope, env)
        where = source(expr.source, values)
        if not items:
            return f"{where} is empty"
        return f"no {expr.variable} in {where} ({len(items)} of them) meets the condition"


def _operands(expr: e.Expr, op: str) -> list[e.Expr]:
    """`a and b and c` as [a, b, c]."""
    if isinstance(expr, e.Binary) and expr.op == op:
        return _operands(expr.left, op) + _operands(expr.right, op)
    return [expr]


def _sides(expr: e.Expr) -> list[e.Expr]:
    """The parts of a leaf condition whose values explain it."""
    if isinstance(expr, e.Binary):
        return [expr.left, expr.right]
    if isinstance(expr, (e.Is, e.IsFacing)):
        return [expr.subject]
    return []  # a call's arguments are written in its text already


def source(expr: e.Expr, values: dict[str, str] | None = None, outer: int = 0) -> str:
    """The rules' text of an expression, `values` written in place of the names they give."""
    values = values or {}
    text, precedence = _written(expr, values)
    return f"({text})" if precedence < outer else text


def _written(expr, values) -> tuple[str, int]:
    """(text, precedence): 0 `if`, 1 `or`, 2 `and`, 3 `not`, 4 comparisons, 5 sums, 6 products, 7 `-x`, 8 atoms."""
    if isinstance(expr, e.Literal):
        v = expr.value
        return ("none" if v is None else "true" if v is True else "false" if v is False
                else json.dumps(v) if isinstance(v, str) else str(v)), 8
    if isinstance(expr, e.Name):
        return values.get(expr.name, expr.name), 8
    if isinstance(expr, e.Call):
        return f"{expr.name}({', '.join(source(a, values) for a in expr.args)})", 8
    if isinstance(expr, e.Attribute):
        return f"{source(expr.subject, values, 8)}.{expr.name}", 8
    if isinstance(expr, e.CardValue):
        return f"test {expr.name} of {source(expr.subject, values, 8)}", 8
    if isinstance(expr, e.Is):
        return f"{source(expr.subject, values, 5)} is {'not ' if expr.negated else ''}{expr.name}", 4
    if isinstance(expr, e.IsFacing):
        return f"{source(expr.subject, values, 5)} is face {expr.facing}", 4
    if isinstance(expr, e.Binary):
        level = PRECEDENCE[expr.op]
        right = level + 1 if level != 4 else 5
        left = level if level != 4 else 5
        return f"{source(expr.left, values, left)} {expr.op} {source(expr.right, values, right)}", level
    if isinstance(expr, e.Not):
        return f"not {source(expr.operand, values, 3)}", 3
    if isinstance(expr, e.Negate):
        return f"-{source(expr.operand, values, 7)}", 7
    if isinstance(expr, e.Conditional):
        return (f"if {source(expr.test, values, 1)} then {source(expr.then, values, 1)} "
                f"else {source(expr.otherwise, values)}"), 0
    if isinstance(expr, e.ListOf):
        return f"[{', '.join(source(i, values) for i in expr.items)}]", 8
    if isinstance(expr, e.Quantifier):
        inner = {k: v for k, v in values.items() if k != expr.variable}
        text = f"{expr.quantifier}({expr.variable} in {source(expr.source, values)}"
        text += f" where {source(expr.where, inner)}" if expr.where else ""
        text += f" while {source(expr.while_, inner)}" if expr.while_ else ""
        text += f": {source(expr.value, inner)}" if expr.value else ""
        return text + ")", 8
    if isinstance(expr, e.SortedBy):
        inner = {k: v for k, v in values.items() if k != expr.variable}
        keys = ", ".join(f"{o} {source(k, inner)}" for o, k in zip(expr.orders, expr.keys))
        return f"sorted({expr.variable} in {source(expr.source, values)} by {keys})", 8
    return "...", 8
