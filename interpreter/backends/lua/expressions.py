"""Expressions of the checked syntax tree, written as Lua.

Lua has no expression that loops, so an expression is written as lines that come first (its
*prelude*: the loops of its quantifiers, each leaving its value in a local) and the Lua expression
that reads the result. `Code.value(expr)` appends the prelude to `Code.lines` and returns the
expression. The front end has already checked the tree and noted each node's type (`expr.type`),
which says where Lua's truth (only nil and false are false) differs from the language's.
"""
from __future__ import annotations

import re

from interpreter.backends.errors import NotCompiled
from interpreter.language import expressions as e
from interpreter.language.builtins import BUILTINS

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*\Z")
COMPARISONS = {"=": "==", "!=": "~=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


class NotOnLua(NotCompiled):
    """A construct the Lua backend does not compile yet: the game runs on the Python backend."""

    def __init__(self, what: str, pos):
        super().__init__(what, pos, "the Lua backend")


def lua_string(text: str) -> str:
    """A Lua literal of `text` in which every byte but letters, digits and `_ ./-` is a decimal
    escape, so that no text from a rules or content file can end the literal."""
    safe = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ ./-"
    return '"' + "".join(chr(b) if b in safe else f"\\{b:03d}" for b in text.encode()) + '"'


def key(name: str) -> str:
    """A rules name as a table key, `["name"]`; names come from the grammar, checked again here."""
    if not NAME.match(name):
        raise NotOnLua(f"the name {name!r}", None)
    return f'["{name}"]'


class Code:
    """Lines of Lua being written (one function's), with the names in view: `names` maps each rules
    name to the Lua that reads it."""

    def __init__(self, program, names: dict[str, str], lines: list[str] | None = None, depth: int = 1):
        self.program, self.names = program, names
        self.lines = [] if lines is None else lines
        self.depth = depth

    def line(self, text: str) -> None:
        self.lines.append("  " * self.depth + text)

    def inner(self, names: dict[str, str] | None = None) -> Code:
        """Lines written one level deeper, into the same list, with more names in view."""
        return Code(self.program, {**self.names, **(names or {})}, self.lines, self.depth + 1)

    def temp(self, hint: str = "t") -> str:
        return self.program.temp(hint)

    def truth(self, expr) -> str:
        """The Lua test of `expr`'s truth: itself for a truth value, else the language's truth."""
        value = self.value(expr)
        return value if expr.type == "bool" else f"R.truthy({value})"

    def value(self, expr) -> str:
        method = getattr(self, "_" + type(expr).__name__, None)
        if method is None:
            raise NotOnLua(f"`{type(expr).__name__}` expressions", getattr(expr, "pos", None))
        return method(expr)

    def _Literal(self, expr: e.Literal) -> str:
        value = expr.value
        if value is None:
            return "nil"
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int):
            return str(value)
        return lua_string(str(value))

    def _Name(self, expr: e.Name) -> str:
        name, symbols = expr.name, self.program.symbols
        if name in self.names:
            return self.names[name]
        if name == "players":
            return "G.players"
        if name == "locations":
            return "T.locations"
        what = symbols.kind_of(name)
        if what in ("kind", "trait", "player", "connection", "location", "zone"):
            return lua_string(name)
        if what == "variable":
            return f"S.vars{key(name)}"
        if what == "function":
            return f"F{key(name)}(G)"
        raise NotOnLua(f"the name `{name}`", expr.pos)

    def _Call(self, expr: e.Call) -> str:
        symbols, name = self.program.symbols, expr.name
        args = [self.value(a) for a in expr.args]
        if name in symbols.functions:
            return f"F{key(name)}(G{''.join(', ' + a for a in args)})"
        if name in symbols.zones:
            return f"{self.program.player_zones(name)}[{args[0]}]"
        if name in symbols.variables:
            return f"S.vars{key(name)}[{args[0]}]"
        if name not in BUILTINS:
            raise NotOnLua(f"`{name}(...)`", expr.pos)
        if name == "top":
            zone = self._simple(args[0])
            return f"R.top(G, {zone})"
        if name in ("bottom", "pieces", "tops", "occupied", "empty", "beneath"):
            return f"R.{name}(G, {args[0]})"
        if name == "on_top":
            c = self._simple(args[0])
            return f"({c} ~= nil and T.is_location[S.zone[{c}]] == true and R.top(G, S.zone[{c}]) == {c})"
        if name == "kinds":
            return f"R.kinds(G, {args[0]}, T.kind_order)"
        if name == "next":
            return f"R.next_player(G, {args[0]})"
        if name == "index":
            return f"T.index[{args[0]}]"
        if name == "direction":
            a = self._simple(args[0])
            return f"(T.directions[{a}] or T.none)[{args[1]}]"
        if name in ("adjacent", "ray", "step"):
            via = self._connections(expr.args[2 if name == "step" else 1])
            if via is None or (name == "ray" and not isinstance(expr.args[2], e.Literal)):
                raise NotOnLua(f"`{name}` with connections or a length not written out", expr.pos)
            if name == "step":
                table = self.program.table(("step", via))
                return f"({table}[{self._simple(args[0])}] or T.none)[{args[1]}]"
            length = expr.args[2].value if name == "ray" else None
            table = self.program.table((name, via, length))
            return f"({table}[{args[0]}] or T.empty)"
        raise NotOnLua(f"`{name}(...)`", expr.pos)

    def _connections(self, via) -> tuple | None:
        items = via.items if isinstance(via, e.ListOf) else [via]
        if all(isinstance(i, e.Name) and i.name in self.program.symbols.connections for i in items):
            return tuple(i.name for i in items)
        return None

    def _simple(self, code: str) -> str:
        """`code` read once: itself if it is a name or a literal, else a local holding its value."""
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*|f\[\"[A-Za-z0-9_.]+\"\]|f\.[a-z]+|\"[^\"]*\"|-?\d+", code):
            return code
        local = self.temp()
        self.line(f"local {local} = {code}")
        return local

    def _Attribute(self, expr: e.Attribute) -> str:
        symbols, name = self.program.symbols, expr.name
        subject = expr.subject
        if isinstance(subject, e.Name) and subject.name not in self.names:
            qualified = f"{subject.name}.{name}"
            if symbols.kind_of(qualified) is not None:
                return self._Name(e.Name(expr.pos, qualified))
        c = self.value(subject)
        if subject.type == "kind":
            return f"(T.kind_properties[{c}] or T.none){key(name)}"
        if subject.type == "location":
            return f"(T.location_attributes[{c}] or T.none){key(name)}"
        if name == "owner":
            return f"S.owner[{c}]"
        if name == "kind":
            return f"S.kind[{c}]"
        if name == "zone":
            return f"S.zone[{c}]"
        if name == "id":
            return f"S.id[{c}]"
        if name == "location":
            c = self._simple(c)
            return f"(T.is_location[S.zone[{c}]] and S.zone[{c}] or nil)"
        if name in symbols.properties:
            return f"S.props{key(name)}[{c}]"
        raise NotOnLua(f"the attribute `.{name}`", expr.pos)

    def _Is(self, expr: e.Is) -> str:
        symbols, c = self.program.symbols, self.value(expr.subject)
        if expr.name in symbols.kinds:
            test = f"(S.kind[{c}] == {lua_string(expr.name)})"
        elif expr.name in symbols.traits:
            test = f"(T.traits{key(expr.name)}[S.kind[{c}]] == true)"
        else:
            raise NotOnLua(f"`is {expr.name}`", expr.pos)
        return f"(not {test})" if expr.negated else test

    def _Binary(self, expr: e.Binary) -> str:
        op = expr.op
        if op in ("and", "or"):
            return self._logical(expr)
        left, right = self.value(expr.left), self.value(expr.right)
        if op in COMPARISONS:
            return f"({left} {COMPARISONS[op]} {right})"
        if op in ("in", "not in"):
            items = f"S.zones[{right}]" if expr.right.type in ("zone", "location") else right
            test = f"R.contains({items}, {left})"
            return test if op == "in" else f"(not {test})"
        if op == "+" and expr.type == "list":
            raise NotOnLua("lists joined with `+`", expr.pos)
        if op in ("+", "-", "*"):
            return f"({left} {op} {right})"
        raise NotOnLua(f"`{op}`", expr.pos)

    def _logical(self, expr: e.Binary) -> str:
        left = self.truth(expr.left)
        inner = Code(self.program, self.names, [], self.depth + 1)
        right = inner.value(expr.right)
        if not inner.lines:
            return f"({left} {expr.op} {right})"
        result = self.temp()
        self.line(f"local {result} = {left}")
        self.line(f"if {'' if expr.op == 'and' else 'not '}{result} then")
        self.lines.extend(inner.lines)
        self.line(f"  {result} = {right}")
        self.line("end")
        return result

    def _Not(self, expr: e.Not) -> str:
        return f"(not {self.truth(expr.operand)})"

    def _Negate(self, expr: e.Negate) -> str:
        return f"(-{self.value(expr.operand)})"

    def _Conditional(self, expr: e.Conditional) -> str:
        test, result = self.truth(expr.test), self.temp()
        self.line(f"local {result}")
        self.line(f"if {test} then")
        then = self.inner()
        then.line(f"{result} = {then.value(expr.then)}")
        self.line("else")
        otherwise = self.inner()
        otherwise.line(f"{result} = {otherwise.value(expr.otherwise)}")
        self.line("end")
        return result

    def _ListOf(self, expr: e.ListOf) -> str:
        return "{" + ", ".join(self.value(i) for i in expr.items) + "}"

    def _Quantifier(self, expr: e.Quantifier) -> str:
        q, result = expr.quantifier, self.temp(expr.quantifier)
        item = self.temp("v")
        initial = {"count": "0", "sum": "0", "any": "false", "all": "true", "select": "{}"}.get(q, "nil")
        self.line(f"local {result} = {initial}")
        source, over_tops, builtin = expr.source, False, None
        if isinstance(source, e.Call) and source.name not in self.program.symbols.functions:
            builtin = source.name
        index = self.temp("i")
        if builtin == "beneath":  # down the subject's own stack, nothing copied
            c = self._simple(self.value(source.args[0]))
            items, at = self.temp("z"), self.temp("at")
            self.line(f"local {items} = S.zones[S.zone[{c}]] or T.empty")
            self.line(f"local {at} = 0")
            self.line(f"for j = #{items}, 1, -1 do if {items}[j] == {c} then {at} = j break end end")
            self.line(f"for {index} = {at} - 1, 1, -1 do")
        else:
            if builtin in ("tops", "pieces"):
                over_tops = builtin == "tops"
                items = self.value(source.args[0])
                if builtin == "pieces":
                    items = f"S.zones[{items}]"
            else:
                items = self.value(source)
            items = self._simple(items)
            self.line(f"for {index} = 1, #{items} do")
        closers = [self]  # where each block opened here is closed, innermost last
        body = self.inner({expr.variable: item})
        if over_tops:
            stack = self.temp("z")
            body.line(f"local {stack} = S.zones[{items}[{index}]]")
            body.line(f"local {item} = {stack}[#{stack}]")
            body.line(f"if {item} ~= nil then")
            closers.append(body)
            body = body.inner()
        else:
            body.line(f"local {item} = {items}[{index}]")
        if expr.while_ is not None:
            body.line(f"if not {body.truth(expr.while_)} then break end")
        if expr.where is not None and q != "all":
            body.line(f"if {body.truth(expr.where)} then")
            closers.append(body)
            body = body.inner()
        if q == "count":
            body.line(f"{result} = {result} + 1")
        elif q == "any":
            body.line(f"{result} = true")
            body.line("break")
        elif q == "first":
            body.line(f"{result} = {item}")
            body.line("break")
        elif q == "all":
            test = body.truth(expr.where) if expr.where is not None else "true"
            body.line(f"if not {test} then {result} = false break end")
        elif q == "select":
            body.line(f"{result}[#{result} + 1] = {body.value(expr.value) if expr.value is not None else item}")
        elif q == "sum":
            body.line(f"{result} = {result} + {body.value(expr.value) if expr.value is not None else item}")
        elif q in ("max", "min"):
            value = body._simple(body.value(expr.value) if expr.value is not None else item)
            better = ">" if q == "max" else "<"
            body.line(f"if {result} == nil or {value} {better} {result} then {result} = {value} end")
        else:
            raise NotOnLua(f"`{q}(...)`", expr.pos)
        for opened in reversed(closers):
            opened.line("end")
        return result
