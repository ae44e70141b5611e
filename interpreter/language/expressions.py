"""Expression nodes. Each checks itself against a Scope and generates Python source for itself.

`code(scope, names)` returns a Python expression; `names` maps the language's variables in
view to the Python text that reads them (`env['x']` for a block's variables, `v_x` for a
quantifier's variable, `a0` for a function's parameter). `compile(scope)` wraps that code in a
function `f(rt, env)` for the statements to call.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from interpreter.diagnostics.diagnostic import Position
from interpreter.diagnostics.suggestions import did_you_mean
from interpreter.language.builtins import ACCEPTS_NONE, BUILTINS, COMPONENT_ATTRIBUTES, divide_whole, remainder, sort_by
from interpreter.language.codegen import python_identifier
from interpreter.language.scope import Scope
from interpreter.language.types import ANY, WORDS, check

FAILED = "None"  # the code emitted for a node that failed to check; never run (loading fails)


def env_names(scope: Scope) -> dict[str, str]:
    """How generated code reads each name the rules can see here: the locals, `you` and `self`."""
    names = {name: f"env[{name!r}]" for name in scope.locals}
    names["you"], names["self"] = "env['you']", "env['self']"
    return names


class Expr:
    pos: Position
    type: str = ANY  # set by code(): what kind of value this expression gives

    def code(self, scope: Scope, names: dict[str, str]) -> str:
        raise NotImplementedError

    def compile(self, scope: Scope):
        return scope.codegen.expression(self.code(scope, env_names(scope)))

    def is_simple(self, code: str) -> bool:
        return code.isidentifier() or code.startswith("env[")


@dataclass
class Literal(Expr):
    pos: Position
    value: object

    def code(self, scope, names):
        value = self.value
        self.type = "none" if value is None else "bool" if isinstance(value, bool) else "number" if isinstance(value, int) else "text"
        return scope.codegen.literal(value)


@dataclass
class Name(Expr):
    pos: Position
    name: str

    def code(self, scope: Scope, names):
        if scope.outside and self.name not in names:
            self.name = scope.symbols.outside_name(self.name, scope.seat)
        name, symbols = self.name, scope.symbols
        self.type = ANY
        if name in names and name not in ("you", "self"):
            self.type = scope.local_types.get(name, ANY)
            return names[name]
        self.type = {"you": "player", "self": "component", "players": "list", "locations": "list"}.get(name, ANY)
        what = symbols.kind_of(name)
        if what in ("kind", "trait", "player", "connection", "zone", "location"):
            self.type = what
        if name == "you":
            if scope.pure:
                scope.error("LX318", "a function cannot use `you`: pass the player as a parameter", self.pos)
            return names.get("you", FAILED)
        if name == "self":
            if not scope.has_self:
                scope.error("LX304", "`self` is only known inside a piece's ability", self.pos)
            return names.get("self", FAILED)
        if name == "players":
            return "rt.players"
        if name == "locations":
            return "rt.board.locations"
        if what in ("kind", "trait", "player", "connection", "location"):
            return scope.codegen.literal(name)
        if what == "zone":
            if symbols.zones[name]:
                scope.error("LX305", f"zone `{name}` belongs to each player: write `{name}(player)`", self.pos)
            return scope.codegen.literal(name)
        if what == "variable":
            if symbols.variables[name]:
                scope.error("LX305", f"variable `{name}` belongs to each player: write `{name}(player)`", self.pos)
            return f"rt.state.variables[{name!r}]"
        if what == "function" and symbols.functions[name] == 0:
            call = Call(self.pos, name, [])
            code = call.code(scope, names)
            self.type = call.type
            return code
        if what == "function":
            scope.error("LX307", f"`{name}` is a function of {symbols.functions[name]} parameter(s): it is not a value "
                        "by itself", self.pos, hint=f"call it: `{name}(...)`")
            return FAILED
        if what == "procedure":
            scope.error("LX306", f"`{name}` is a procedure: it is not a value", self.pos,
                        hint="call it as a statement, on a line of its own")
            return FAILED
        hint = symbols.local_to_a_faction(name) or did_you_mean(name, lambda: scope.visible_names() | set(names))
        scope.error("LX302", f"unknown name `{name}`", self.pos, hint=hint)
        return FAILED


@dataclass
class Call(Expr):
    pos: Position
    name: str
    args: list[Expr]

    def code(self, scope: Scope, names):
        if scope.outside:
            self.name = scope.symbols.outside_name(self.name, scope.seat)
        symbols, name = scope.symbols, self.name
        args = [a.code(scope, names) for a in self.args]
        self.type = ANY
        if name in symbols.functions:
            symbols.used.add(name)
            if not self._arity(scope, symbols.functions[name]):
                return FAILED
            self.type = function_result(scope, name)
            parts = symbols.inlinable.get(name)
            if (parts and all(self.is_simple(a) for a in args) and name not in scope.inlining and len(scope.inlining) < 4
                    and inline_cost(symbols, name) <= INLINE_LIMIT):
                # A small function without loops: its code, with the arguments in place of the parameters.
                inner = replace(scope, inlining=scope.inlining + (name,), pure=True)
                codes = [expr.code(inner.with_locals(*params), dict(zip(params, args))) for params, expr in parts]
                inlined = "(" + " + ".join(codes) + ")" if len(codes) > 1 else codes[0]
                if _nesting(inlined) <= MAX_INLINED_NESTING:
                    return inlined
            return f"fn_{python_identifier(name)}(rt{''.join(', ' + a for a in args)})"
        if name in symbols.zones or name in symbols.variables:
            per_player = symbols.zones.get(name, symbols.variables.get(name))
            if not per_player:
                scope.error("LX305", f"`{name}` is shared, not per player: write `{name}` alone", self.pos)
            if not self._arity(scope, 1):
                return FAILED
            check(scope, self.args[0].pos, "player", self.args[0].type, f"the player of `{name}(...)`")
            if is_none(self.args[0]):
                scope.error("LX336", f"`{name}(none)`: `{name}` belongs to each player, and none is no player", self.args[0].pos)
            if name in symbols.zones:
                self.type = "zone"
                return f"({name + '/'!r} + {args[0]})"
            return f"rt.state.variables[{name!r}][{args[0]}]"
        if name in BUILTINS:
            function, parameters, self.type = BUILTINS[name]
            if not self._arity(scope, len(parameters)):
                return FAILED
            for number, (expected, arg) in enumerate(zip(parameters, self.args), 1):
                check(scope, arg.pos, expected, arg.type, f"argument {number} of `{name}`")
                if is_none(arg) and (name, number - 1) not in ACCEPTS_NONE:
                    scope.error("LX336", f"argument {number} of `{name}` is none, where {WORDS[expected]} is needed", arg.pos)
            if name == "nth":
                self._check_place(scope)
            if name == "top" and self.is_simple(args[0]):
                return f"(Z.get({args[0]})[-1] if Z.get({args[0]}) else None)"
            if name == "tops":
                return f"[Z[_l][-1] for _l in {args[0]} if Z[_l]]"
            via = self._literal_connections(scope) if name in ("adjacent", "ray") else None
            if via and scope.codegen.board is not None and (name == "adjacent" or args[2].isdigit()):
                # Connection types (and length) written out: every location's neighbours, worked out once.
                table = scope.codegen.board.neighbourhoods(via, None if name == "adjacent" else int(args[2]))
                return f"{scope.codegen.constant(table, name)}[{args[0]}]"
            if via:
                # Connection types written out: pass them as a constant tuple, straight to the board.
                via = scope.codegen.constant(via, "via")
                rest = "".join(", " + a for a in args[2:])
                return f"rt.board.{name}({args[0]}, {via}{rest})"
            return f"{scope.codegen.constant(function, name)}(rt{''.join(', ' + a for a in args)})"
        if name in symbols.procedures:
            scope.error("LX306", f"`{name}` is a procedure: call it as a statement, not inside an expression", self.pos)
            return FAILED
        hint = symbols.local_to_a_faction(name) or did_you_mean(
            name, lambda: set(symbols.functions) | set(BUILTINS) | {z for z, per in symbols.zones.items() if per})
        scope.error("LX303", f"unknown function `{name}`", self.pos, hint=hint)
        return FAILED

    def _check_place(self, scope: Scope) -> None:
        """`nth([a, b], 5)`: a place written out, past the end of a list written out, is always none."""
        items, place = self.args
        number = written_number(place)
        if isinstance(items, ListOf) and number is not None and not 0 <= number < len(items.items):
            scope.error("LX336", f"`nth` of a list of {len(items.items)} item(s) at place {number} is always none "
                        "(places count from 0)", place.pos)

    def _literal_connections(self, scope: Scope) -> tuple | None:
        via = self.args[1] if len(self.args) > 1 else None
        items = via.items if isinstance(via, ListOf) else [via]
        if all(isinstance(i, Name) and i.name in scope.symbols.connections for i in items):
            return tuple(i.name for i in items)
        return None

    def _arity(self, scope: Scope, expected: int) -> bool:
        if len(self.args) != expected:
            scope.error("LX307", f"`{self.name}` takes {expected} argument(s), not {len(self.args)}", self.pos)
            return False
        return True


def function_result(scope: Scope, name: str) -> str:
    """The type of the value function `name` gives: its expression's, where its modifiers and overrides
    give the same type (else `any`). Worked out the first time it is asked, so that a call written
    before the function's declaration knows it too."""
    results = scope.symbols.results
    if name not in results:
        results[name] = ANY  # while it is worked out: a function that calls itself gives `any`
        typing = Scope(scope.symbols, [], pure=True, codegen=scope.codegen)  # its mistakes are reported where it is compiled
        types = set()
        for params, expr in scope.symbols.function_parts.get(name, []):
            try:
                expr.code(typing.with_locals(*params), {param: f"a{i}" for i, param in enumerate(params)})
            except (RecursionError, MemoryError):  # too deep for Python: reported where it is compiled
                return ANY
            types.add(expr.type)
        results[name] = types.pop() if len(types) == 1 else ANY
    return results[name]


def _kinds_with(symbols, name: str) -> list[str]:
    kinds = [kind for kind in symbols.kinds if name in symbols.properties_of_kind.get(kind, ())]
    return kinds[:5] + ["..."] if len(kinds) > 5 else kinds


def is_none(expr: Expr) -> bool:
    """Is this `none`, written out?"""
    return isinstance(expr, Literal) and expr.value is None


def written_number(expr: Expr) -> int | None:
    """The number `3` or `-1` written out; None for anything else."""
    if isinstance(expr, Negate):
        inner = written_number(expr.operand)
        return None if inner is None else -inner
    return expr.value if isinstance(expr, Literal) and type(expr.value) is int else None


MAX_INLINED_NESTING = 60  # Python compiles at most 200 nested brackets; inlining must not get near
INLINE_LIMIT = 80  # expression nodes: a function whose inlining would write more is called instead


def inline_cost(symbols, name: str) -> int:
    """How many expression nodes inlining function `name` writes, with the functions it inlines in
    turn. Worked out once per function, so that functions calling each other many times over
    cannot make the compiler's output grow exponentially."""
    costs = symbols.inline_costs
    if name not in costs:
        costs[name] = INLINE_LIMIT + 1  # while it is worked out: a function in a cycle is not inlined
        costs[name] = sum(_cost(symbols, expr) for _, expr in symbols.inlinable[name])
    return costs[name]


def _cost(symbols, expr) -> int:
    if isinstance(expr, Call) and expr.name in symbols.inlinable and inline_cost(symbols, expr.name) <= INLINE_LIMIT:
        return inline_cost(symbols, expr.name) + sum(_cost(symbols, a) for a in expr.args)
    return 1 + sum(_cost(symbols, child) for child in _children(expr))


def _children(expr) -> list:
    found = []
    for value in vars(expr).values():
        if isinstance(value, Expr):
            found.append(value)
        elif isinstance(value, list):
            found += [item for item in value if isinstance(item, Expr)]
    return found


def _nesting(code: str) -> int:
    depth = deepest = 0
    for char in code:
        if char in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in ")]}":
            depth -= 1
    return deepest


def _top_of_simple(expr: Expr, scope: Scope, names) -> str | None:
    """For `top(x)` with x a plain variable: the code of x's stack (`Z[x]`), to inline the lookup."""
    if isinstance(expr, Call) and expr.name == "top" and len(expr.args) == 1 and expr.name not in scope.symbols.functions:
        location = expr.args[0].code(scope, names)
        if expr.is_simple(location):
            return f"Z.get({location})"
    return None


def _helper(scope: Scope, name: str, source: str):
    """A small named helper function in the generated namespace (defined once)."""
    if name not in scope.codegen.namespace:
        scope.codegen.run(source, name)
    return name


@dataclass
class Attribute(Expr):
    pos: Position
    subject: Expr
    name: str

    def faction_name(self, scope: Scope, names) -> Name | None:
        """`faction.name` for a name local to that faction's file, as a Name; None for an attribute."""
        if isinstance(self.subject, Name) and self.subject.name not in names and self.subject.name not in scope.locals:
            qualified = f"{self.subject.name}.{self.name}"
            if scope.symbols.kind_of(qualified) is not None:
                return Name(self.pos, qualified)
        return None

    def code(self, scope: Scope, names):
        local = self.faction_name(scope, names)
        if local is not None:  # `red.pile`: a name local to a faction's file
            code = local.code(scope, names)
            self.type = local.type
            return code
        subject, name, symbols = self.subject.code(scope, names), self.name, scope.symbols
        if self.subject.type == "kind":  # `sword.value`: a fixed value of the kind itself
            if name not in symbols.kind_properties:
                scope.error("LX308", f"kinds have no property `{name}`", self.pos,
                            hint=did_you_mean(name, symbols.kind_properties))
            elif isinstance(self.subject, Name) and name not in symbols.properties_of_kind.get(self.subject.name, ()):
                scope.error("LX308", f"kind `{self.subject.name}` has no property `{name}` (its value would always be none)",
                            self.pos, hint=f"the kinds that have it: {', '.join(_kinds_with(symbols, name))}")
            self.type = symbols.kind_property_types.get(name, ANY)
            return f"rt.program.kind_properties.get({subject}, {{}}).get({name!r})"
        on_component = name in COMPONENT_ATTRIBUTES or name in symbols.properties or name in symbols.kind_properties
        if self.subject.type == "location" or (not on_component and name in symbols.location_attributes):
            check(scope, self.subject.pos, "location", self.subject.type, f"the subject of `.{name}`")
            if name not in symbols.location_attributes:
                hint = did_you_mean(name, symbols.location_attributes)
                scope.error("LX308", f"locations have no attribute `{name}`", self.pos, hint=hint)
            self.type = ANY
            if self.subject.type == "location" and isinstance(self.subject, Name):
                return f"rt.board.attributes[{subject}].get({name!r})"
            return f"(rt.board.attributes[{subject}].get({name!r}) if {subject} is not None else None)"
        check(scope, self.subject.pos, "component", self.subject.type, f"the subject of `.{name}`")
        self.type = COMPONENT_ATTRIBUTES.get(name, ANY)
        stack = _top_of_simple(self.subject, scope, names)
        if name == "location" and self.is_simple(subject):
            return f"({subject}.zone if {subject} is not None and {subject}.zone in rt.board.index else None)"
        if name == "location":
            helper = _helper(scope, "_location", "def _location(rt, c):\n"
                             "    return c.zone if c is not None and c.zone in rt.board.index else None")
            return f"{helper}(rt, {subject})"
        if name == "controller":  # kept among the properties, where a rule sets it; else the owner
            def read(c):
                return f"({c}.props.get('controller') or {c}.owner)"
        elif name in COMPONENT_ATTRIBUTES:
            def read(c):
                return f"{c}.{name}"
        elif name in scope.symbols.properties:
            default = scope.codegen.literal(scope.symbols.properties[name])

            def read(c):
                return f"{c}.props.get({name!r}, {default})"
        elif name in scope.symbols.kind_properties and self.subject.type == ANY:
            self.type = symbols.kind_property_types.get(name, ANY) if name not in symbols.location_attributes else ANY
            # an untyped value may be a component, a kind or a location: read what it has by that name
            helper = _helper(scope, "_kind_property", "def _kind_property(rt, x, name):\n"
                             "    if x is None:\n"
                             "        return None\n"
                             "    if type(x) is not str:\n"
                             "        return rt.program.kind_properties[x.kind].get(name)\n"
                             "    if x in rt.board.index:\n"
                             "        return rt.board.attributes[x].get(name)\n"
                             "    return rt.program.kind_properties.get(x, {}).get(name)")
            if self.is_simple(subject):  # most often a component: its kind's value read here, without a call
                return (f"(rt.program.kind_properties[{subject}.kind].get({name!r}) "
                        f"if type({subject}) is not str and {subject} is not None else {helper}(rt, {subject}, {name!r}))")
            return f"{helper}(rt, {subject}, {name!r})"
        elif name in scope.symbols.kind_properties:
            self.type = symbols.kind_property_types.get(name, ANY)

            def read(c):
                return f"rt.program.kind_properties[{c}.kind].get({name!r})"
        else:
            known = set(COMPONENT_ATTRIBUTES) | set(scope.symbols.properties) | symbols.kind_properties
            if self.subject.type == "any" and symbols.location_attributes:
                known |= symbols.location_attributes
                message = f"neither components nor locations have an attribute `{name}`"
            else:
                message = f"components have no attribute `{name}`"
            scope.error("LX308", message, self.pos, hint=did_you_mean(name, known))
            return FAILED
        if stack:
            return f"({read(stack + '[-1]')} if {stack} else None)"
        if self.is_simple(subject):
            return f"(None if {subject} is None else {read(subject)})"
        helper = _helper(scope, f"_attr_{name}", f"def _attr_{name}(rt, c):\n    return None if c is None else {read('c')}")
        return f"{helper}(rt, {subject})"


@dataclass
class CardValue(Expr):
    """`test NAME of c`: the value of the function NAME that c's kind carries in the content (none without)."""

    pos: Position
    name: str
    subject: Expr

    def code(self, scope: Scope, names):
        if self.name not in scope.symbols.card_values:
            scope.error("LX314", f"no kind of piece has a function `{self.name}`", self.pos,
                        hint=did_you_mean(self.name, scope.symbols.card_values))
        subject = self.subject.code(scope, names)
        check(scope, self.subject.pos, "component", self.subject.type, f"what `test {self.name} of` reads")
        self.type = ANY
        you = "None" if scope.pure else names.get("you", "None")
        return f"rt.program.card_value(rt, {self.name!r}, {subject}, {you})"


@dataclass
class Is(Expr):
    pos: Position
    subject: Expr
    name: str
    negated: bool = False

    def code(self, scope: Scope, names):
        subject, name, symbols = self.subject.code(scope, names), self.name, scope.symbols
        check(scope, self.subject.pos, "component", self.subject.type, f"the subject of `is {name}`")
        self.type = "bool"
        if name in symbols.kinds:
            kind = scope.codegen.literal(name)

            def test(c):
                return f"{c}.kind == {kind}"
        elif name in symbols.traits:
            kinds = scope.codegen.constant(scope.symbols.trait_kinds(name), "trait")

            def test(c):
                return f"{c}.kind in {kinds}"
        else:
            hint = "to test for nothing, write `= none`" if name == "none" else did_you_mean(name, lambda: set(symbols.kinds) | symbols.traits)
            scope.error("LX309", f"`is {name}`: `{name}` is neither a kind of piece nor a trait", self.pos, hint=hint)
            return FAILED
        stack = _top_of_simple(self.subject, scope, names)
        if stack:
            code = f"({test(stack + '[-1]')} if {stack} else False)"
        elif self.is_simple(subject):
            code = f"({subject} is not None and {test(subject)})"
        else:
            helper = _helper(scope, f"_is_{name}", f"def _is_{name}(c):\n    return c is not None and {test('c')}")
            code = f"{helper}({subject})"
        return f"(not {code})" if self.negated else code


@dataclass
class IsFacing(Expr):
    """`c is face down` / `c is face up`: false for none."""

    pos: Position
    subject: Expr
    facing: str

    def code(self, scope: Scope, names):
        subject = self.subject.code(scope, names)
        check(scope, self.subject.pos, "component", self.subject.type, f"the subject of `is face {self.facing}`")
        self.type = "bool"
        test = "c.face_down" if self.facing == "down" else "not c.face_down"
        helper = _helper(scope, f"_is_face_{self.facing}", f"def _is_face_{self.facing}(c):\n    return c is not None and {test}")
        return f"{helper}({subject})"


PYTHON_OPERATORS = {"=": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "+": "+", "-": "-", "*": "*",
                    "in": "in", "not in": "not in", "and": "and", "or": "or"}


@dataclass
class Binary(Expr):
    pos: Position
    op: str
    left: Expr
    right: Expr

    def code(self, scope, names):
        code = self._code(scope, names)
        left, right, op = self.left.type, self.right.type, self.op
        if op in ("+", "-", "*", "/", "mod", "<", "<=", ">", ">="):
            lists = op == "+" and "list" in (left, right)
            for side in (self.left, self.right):
                check(scope, side.pos, "list" if lists else "number", side.type, f"an operand of `{op}`")
                if isinstance(side, Conditional) and side.type == ANY:  # branches of two types: each must fit
                    expected = "list" if lists else "addable" if op == "+" else "number"
                    side.check_branches(scope, expected, f"an operand of `{op}`")
            self.type = ("list" if lists else "number") if op in ("+", "-", "*", "/", "mod") else "bool"
            if op == "+" and not lists and left == right == ANY:  # two lists or two numbers: only a game can tell
                self.type = ANY
        elif op in ("in", "not in"):
            check(scope, self.right.pos, "collection", right, f"the right side of `{op}`")
            self.type = "bool"
        else:
            self.type = "bool" if op in ("=", "!=") else ANY
        return code

    def _code(self, scope, names):
        if self.op in ("in", "not in"):
            left, right = self.left.code(scope, names), self.right.code(scope, names)
            if self.right.type in ("zone", "location"):  # in a zone: among the components it holds
                return f"({left} {self.op} Z[{right}])"
            return f"({left} {self.op} {right})"
        if self.op in ("=", "!=") and isinstance(self.right, Literal) and self.right.value is None:
            stack = _top_of_simple(self.left, scope, names)
            if stack:  # `top(s) = none`: is the stack empty?
                return f"(not {stack})" if self.op == "=" else f"(not not {stack})"
            if isinstance(self.left, Literal):  # `3 = none`: known now (and `3 is None` makes Python warn)
                return repr((self.left.value is None) == (self.op == "="))
            return f"({self.left.code(scope, names)} is {'' if self.op == '=' else 'not '}None)"
        if self.op in ("/", "mod"):
            left, right = self.left.code(scope, names), self.right.code(scope, names)
            python = "//" if self.op == "/" else "%"
            if isinstance(self.right, Literal) and type(self.right.value) is int and self.right.value > 0:
                return f"({left} {python} {right})"  # `(n + 1) / 2`: a divisor that cannot be zero
            divide = scope.codegen.constant(divide_whole if self.op == "/" else remainder, "divide")
            return f"{divide}({left}, {right}, {scope.codegen.constant(self.right.pos, 'pos')})"
        return f"({self.left.code(scope, names)} {PYTHON_OPERATORS[self.op]} {self.right.code(scope, names)})"


@dataclass
class Not(Expr):
    pos: Position
    operand: Expr

    def code(self, scope, names):
        self.type = "bool"
        return f"(not {self.operand.code(scope, names)})"


@dataclass
class Negate(Expr):
    pos: Position
    operand: Expr

    def code(self, scope, names):
        code = self.operand.code(scope, names)
        check(scope, self.operand.pos, "number", self.operand.type, "the operand of `-`")
        self.type = "number"
        return f"(-{code})"


@dataclass
class Conditional(Expr):
    pos: Position
    test: Expr
    then: Expr
    otherwise: Expr

    def code(self, scope, names):
        test, then, other = (e.code(scope, names) for e in (self.test, self.then, self.otherwise))
        self.type = self.then.type if self.then.type == self.otherwise.type else ANY
        return f"({then} if {test} else {other})"

    def check_branches(self, scope, expected: str, what: str) -> None:
        """Each value it may give fits `expected`, each reported at its own place: its type alone is
        `any` when its branches differ (`if c then 1 else "x"`)."""
        for branch in (self.then, self.otherwise):
            if isinstance(branch, Conditional):
                branch.check_branches(scope, expected, what)
            else:
                check(scope, branch.pos, expected, branch.type, what)


@dataclass
class ListOf(Expr):
    pos: Position
    items: list[Expr]

    def code(self, scope, names):
        self.type = "list"
        return "[" + ", ".join(i.code(scope, names) for i in self.items) + "]"


LISTS_OF = {"players": "player", "locations": "location"}  # the names of lists whose items' type is known
CALLS_OF = {"pieces": "component", "pieces_in": "component", "tops": "component", "beneath": "component",
            "adjacent": "location", "ray": "location", "region": "location", "occupied": "location"}


def item_type(source: Expr, scope: Scope) -> str:
    """The type of the items of the list `source`, where the language knows it (the players, a zone's
    components, the locations next to one), else unknown."""
    if isinstance(source, Name) and source.name not in scope.locals:
        return LISTS_OF.get(source.name, ANY)
    if isinstance(source, Call) and source.name not in scope.symbols.functions:
        return CALLS_OF.get(source.name, ANY)
    return ANY


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

    def code(self, scope: Scope, names):
        q, var = self.quantifier, f"v_{self.variable}"
        scope.check_name(self.variable, self.pos)
        source = self.source.code(scope, names)
        check(scope, self.source.pos, "list", self.source.type, f"what `{q}` goes through")
        if is_none(self.source):
            scope.error("LX336", f"`{q}` goes through none, where a list is needed", self.source.pos)
        self.type = {"count": "number", "sum": "number", "any": "bool", "all": "bool", "select": "list"}.get(q, ANY)
        inner_scope = scope.with_locals(self.variable, types={self.variable: item_type(self.source, scope)})
        inner = {**names, self.variable: var}
        where = self.where.code(inner_scope, inner) if self.where else None
        if self.value is not None and q in ("any", "all", "count", "first"):
            scope.error("LX310", f"`{q}(...)` takes no `: value` part", self.value.pos)
        value = self.value.code(inner_scope, inner) if self.value else var
        if self.while_:
            source = f"takewhile(lambda {var}: {self.while_.code(inner_scope, inner)}, {source})"
            head = f"for {var} in {source}"
        elif (isinstance(self.source, Call) and self.source.name == "tops" and len(self.source.args) == 1
              and self.source.name not in scope.symbols.functions):
            # over the top components of locations: one comprehension, not two nested ones
            place = scope.codegen.temp()
            head = f"for {place} in {self.source.args[0].code(scope, names)} if Z[{place}] for {var} in [Z[{place}][-1]]"
        elif (isinstance(self.source, Call) and self.source.name == "pieces" and len(self.source.args) == 1
              and self.source.name not in scope.symbols.functions):
            # over the zone's own list, not a copy of it: nothing changes a zone while an expression runs
            head = f"for {var} in Z[{self.source.args[0].code(scope, names)}]"
        else:
            head = f"for {var} in {source}"
        loop = head + (f" if {where}" if where and q != "all" else "")
        if q == "count":
            return f"len([0 {loop}])"
        if q == "select":
            return f"[{value} {loop}]"
        if q == "first":
            if not where and not self.while_ and head == f"for {var} in {source}":
                return f"next(iter({source}), None)"
            return f"next(({var} {loop}), None)"
        if q == "any":
            return f"any([True {loop}])" if not where else f"next((True {loop}), False)"
        if q == "all":
            return f"all({where or 'True'} {head})"
        if q == "sum":
            return f"sum([{value} {loop}])"
        return f"{q}([{value} {loop}], default=None)"


@dataclass
class SortedBy(Expr):
    """sorted(NAME in LIST by most KEY, fewest KEY...): the list ordered by its keys (stable)."""

    pos: Position
    variable: str
    source: Expr
    orders: list[str]  # "most" or "fewest", one per key
    keys: list[Expr]

    def code(self, scope: Scope, names):
        var = f"v_{self.variable}"
        scope.check_name(self.variable, self.pos)
        source = self.source.code(scope, names)
        check(scope, self.source.pos, "list", self.source.type, "what `sorted` orders")
        if is_none(self.source):
            scope.error("LX336", "`sorted` orders none, where a list is needed", self.source.pos)
        self.type = "list"
        inner_scope, inner = scope.with_locals(self.variable), {**names, self.variable: var}
        keys = []
        for order, key in zip(self.orders, self.keys):
            keys.append(key.code(inner_scope, inner))
            if key.type not in (ANY, "none", "number", "bool"):
                check(scope, key.pos, "number", key.type, f"a `{order}` key of `sorted`")
        function = scope.codegen.constant(sort_by, "sort_by")
        orders = scope.codegen.constant(tuple(order == "most" for order in self.orders), "orders")
        positions = scope.codegen.constant(tuple(key.pos for key in self.keys), "pos")
        return f"{function}(rt, {source}, lambda {var}: ({', '.join(keys)},), {orders}, {positions})"


def quantified_code(expr: Expr) -> bool:
    """Does this expression loop (a quantifier anywhere inside)? Such functions are worth caching."""
    return isinstance(expr, (Quantifier, SortedBy)) or any(quantified_code(child) for child in _children(expr))
