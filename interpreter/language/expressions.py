"""Expression nodes. Each checks itself against a Scope and compiles to `f(rt, env) -> value`."""
from __future__ import annotations

import operator
from dataclasses import dataclass

from ..builtins import BUILTINS, COMPONENT_ATTRIBUTES
from ..diagnostics import Position, did_you_mean
from ..state import player_zone
from .scope import Scope


def _failed(rt, env):
    raise AssertionError("a rule that failed to compile was run")


class Expr:
    pos: Position

    def compile(self, scope: Scope):
        raise NotImplementedError


@dataclass
class Literal(Expr):
    pos: Position
    value: object

    def compile(self, scope):
        value = self.value
        return lambda rt, env: value


@dataclass
class Name(Expr):
    pos: Position
    name: str

    def compile(self, scope: Scope):
        name, symbols = self.name, scope.symbols
        if name in scope.locals:
            return lambda rt, env: env[name]
        if name == "you":
            if scope.pure:
                scope.error("LX318", "a function cannot use `you`: pass the player as a parameter", self.pos)
            return lambda rt, env: env["you"]
        if name == "self":
            if not scope.has_self:
                scope.error("LX304", "`self` is only known inside a piece's ability", self.pos)
            return lambda rt, env: env["self"]
        if name == "players":
            return lambda rt, env: rt.players
        if name == "locations":
            return lambda rt, env: rt.board.locations
        what = symbols.kind_of(name)
        if what in ("kind", "trait", "player", "connection"):
            return lambda rt, env: name
        if what == "zone":
            if symbols.zones[name]:
                scope.error("LX305", f"zone `{name}` belongs to each player: write `{name}(player)`", self.pos)
            return lambda rt, env: name
        if what == "variable":
            if symbols.variables[name]:
                scope.error("LX305", f"variable `{name}` belongs to each player: write `{name}(player)`", self.pos)
            return lambda rt, env: rt.state.variables[name]
        if what == "function" and symbols.functions[name] == 0:
            return Call(self.pos, name, []).compile(scope)
        scope.error("LX302", f"unknown name `{name}`", self.pos, hint=did_you_mean(name, scope.visible_names()))
        return _failed


@dataclass
class Call(Expr):
    pos: Position
    name: str
    args: list[Expr]

    def compile(self, scope: Scope):
        symbols, name = scope.symbols, self.name
        args = [a.compile(scope) for a in self.args]
        if name in symbols.functions:
            self._arity(scope, symbols.functions[name])
            return _function_call(name, args)
        if name in symbols.zones or name in symbols.variables:
            per_player = symbols.zones.get(name, symbols.variables.get(name))
            if not per_player:
                scope.error("LX305", f"`{name}` is shared, not per player: write `{name}` alone", self.pos)
            self._arity(scope, 1)
            (player,) = args or [_failed]
            if name in symbols.zones:
                return lambda rt, env: player_zone(name, player(rt, env))
            return lambda rt, env: rt.state.variables[name][player(rt, env)]
        if name in BUILTINS:
            function, arity, _ = BUILTINS[name]
            self._arity(scope, arity)
            if arity == 1:
                (a,) = args or [_failed]
                return lambda rt, env: function(rt, a(rt, env))
            if arity == 2 and len(args) == 2:
                a, b = args
                return lambda rt, env: function(rt, a(rt, env), b(rt, env))
            return lambda rt, env: function(rt, *[f(rt, env) for f in args])
        if name in symbols.procedures:
            scope.error("LX306", f"`{name}` is a procedure: call it as a statement, not inside an expression", self.pos)
            return _failed
        known = set(symbols.functions) | set(BUILTINS) | {z for z, per in symbols.zones.items() if per}
        scope.error("LX303", f"unknown function `{name}`", self.pos, hint=did_you_mean(name, known))
        return _failed

    def _arity(self, scope: Scope, expected: int) -> None:
        if len(self.args) != expected:
            scope.error("LX307", f"`{self.name}` takes {expected} argument(s), not {len(self.args)}", self.pos)


def _function_call(name: str, args: list):
    """A derived value: recomputed from the state, cached only while the state does not change."""

    def call(rt, env):
        if rt.memo_version != rt.state.version:
            rt.memo.clear()
            rt.memo_version = rt.state.version
        key = (name, *[a(rt, env) for a in args])
        try:
            return rt.memo[key]
        except KeyError:
            value = rt.memo[key] = rt.program.functions[name](rt, key[1:])
            return value
        except TypeError:  # an unhashable argument (a list): no caching
            return rt.program.functions[name](rt, key[1:])

    return call


@dataclass
class Attribute(Expr):
    pos: Position
    subject: Expr
    name: str

    def compile(self, scope: Scope):
        subject, name = self.subject.compile(scope), self.name
        if name == "location":
            def location(rt, env):
                c = subject(rt, env)
                return c.zone if c is not None and c.zone in rt.board.index else None
            return location
        if name in COMPONENT_ATTRIBUTES:
            getter = operator.attrgetter(name)
            return lambda rt, env: None if (c := subject(rt, env)) is None else getter(c)
        if name in scope.symbols.properties:
            default = scope.symbols.properties[name]
            return lambda rt, env: None if (c := subject(rt, env)) is None else c.props.get(name, default)
        known = set(COMPONENT_ATTRIBUTES) | set(scope.symbols.properties)
        scope.error("LX308", f"components have no attribute `{name}`", self.pos, hint=did_you_mean(name, known))
        return _failed


@dataclass
class Is(Expr):
    pos: Position
    subject: Expr
    name: str
    negated: bool = False

    def compile(self, scope: Scope):
        subject, name, symbols = self.subject.compile(scope), self.name, scope.symbols
        if name in symbols.kinds:
            test = lambda rt, env: (c := subject(rt, env)) is not None and c.kind == name
        elif name in symbols.traits:
            test = lambda rt, env: (c := subject(rt, env)) is not None and c.kind in rt.program.kinds_with_trait[name]
        else:
            hint = did_you_mean(name, set(symbols.kinds) | symbols.traits)
            scope.error("LX309", f"`is {name}`: `{name}` is neither a kind of piece nor a trait", self.pos, hint=hint)
            return _failed
        if self.negated:
            return lambda rt, env: not test(rt, env)
        return test


OPERATORS = {
    "=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "+": operator.add, "-": operator.sub, "*": operator.mul, "in": lambda a, b: a in b,
    "not in": lambda a, b: a not in b,
}


@dataclass
class Binary(Expr):
    pos: Position
    op: str
    left: Expr
    right: Expr

    def compile(self, scope: Scope):
        left, right = self.left.compile(scope), self.right.compile(scope)
        op = self.op
        if op == "=":
            return lambda rt, env: left(rt, env) == right(rt, env)
        if op == "!=":
            return lambda rt, env: left(rt, env) != right(rt, env)
        if op == "and":
            return lambda rt, env: left(rt, env) and right(rt, env)
        if op == "or":
            return lambda rt, env: left(rt, env) or right(rt, env)
        function = OPERATORS[op]
        return lambda rt, env: function(left(rt, env), right(rt, env))


@dataclass
class Not(Expr):
    pos: Position
    operand: Expr

    def compile(self, scope):
        operand = self.operand.compile(scope)
        return lambda rt, env: not operand(rt, env)


@dataclass
class Negate(Expr):
    pos: Position
    operand: Expr

    def compile(self, scope):
        operand = self.operand.compile(scope)
        return lambda rt, env: -operand(rt, env)


@dataclass
class Conditional(Expr):
    pos: Position
    test: Expr
    then: Expr
    otherwise: Expr

    def compile(self, scope):
        test, then, otherwise = self.test.compile(scope), self.then.compile(scope), self.otherwise.compile(scope)
        return lambda rt, env: then(rt, env) if test(rt, env) else otherwise(rt, env)


@dataclass
class ListOf(Expr):
    pos: Position
    items: list[Expr]

    def compile(self, scope):
        items = [i.compile(scope) for i in self.items]
        return lambda rt, env: [i(rt, env) for i in items]


@dataclass
class Quantifier(Expr):
    """count / sum / any / all / select / first / max / min over `NAME in LIST [where C] [while C] [: VALUE]`."""

    pos: Position
    quantifier: str
    variable: str
    source: Expr
    where: Expr | None
    while_: Expr | None
    value: Expr | None

    def compile(self, scope: Scope):
        inner = scope.with_locals(self.variable)
        source = self.source.compile(scope)
        where = self.where.compile(inner) if self.where else None
        while_ = self.while_.compile(inner) if self.while_ else None
        value = self.value.compile(inner) if self.value else None
        if self.quantifier in ("sum", "max", "min") and value is None:
            value = lambda rt, env: env[var]
        if self.quantifier in ("any", "all", "count", "select", "first") and self.value is not None:
            scope.error("LX310", f"`{self.quantifier}(...)` takes no `: value` part", self.value.pos)
        var, quantifier = self.variable, self.quantifier

        def items(rt, env):
            saved = env.get(var, _MISSING)
            try:
                for item in source(rt, env):
                    env[var] = item
                    if while_ is not None and not while_(rt, env):
                        break
                    if where is None or where(rt, env):
                        yield item
            finally:
                if saved is _MISSING:
                    env.pop(var, None)
                else:
                    env[var] = saved

        if quantifier == "count":
            if while_ is None and where is not None:
                return _fast_count(var, source, where)
            return lambda rt, env: sum(1 for _ in items(rt, env))
        if quantifier == "select":
            return lambda rt, env: list(items(rt, env))
        if quantifier == "first":
            return lambda rt, env: next(items(rt, env), None)
        if quantifier == "any":
            return lambda rt, env: any(True for _ in items(rt, env))
        if quantifier == "all":
            return _all(var, source, where or (lambda rt, env: True))
        if quantifier == "sum":
            return lambda rt, env: sum([value(rt, env) for _ in items(rt, env)])
        pick = max if quantifier == "max" else min
        return lambda rt, env: pick([value(rt, env) for _ in items(rt, env)], default=None)


_MISSING = object()


def _fast_count(var, source, where):
    def count(rt, env):
        saved = env.get(var, _MISSING)
        n = 0
        for item in source(rt, env):
            env[var] = item
            if where(rt, env):
                n += 1
        if saved is not _MISSING:
            env[var] = saved
        return n

    return count


def _all(var, source, test):
    def every(rt, env):
        saved = env.get(var, _MISSING)
        result = True
        for item in source(rt, env):
            env[var] = item
            if not test(rt, env):
                result = False
                break
        if saved is not _MISSING:
            env[var] = saved
        return result

    return every
