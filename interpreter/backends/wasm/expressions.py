"""Expressions of the checked syntax tree, written as WebAssembly text (folded instructions).

As in the Lua backend, an expression is written as instructions that come first (its prelude: the
loops of its quantifiers, each leaving its value in a local) and an instruction that gives its
value. `WCode.value(expr)` appends the prelude to `WCode.lines` and returns that instruction.
Every value is an i32 (backends/wasm/layout.py).
"""
from __future__ import annotations

import re

from interpreter.backends.errors import NotCompiled
from interpreter.language import expressions as e


class NotOnWasm(NotCompiled):
    def __init__(self, what: str, pos):
        super().__init__(what, pos, "the WebAssembly backend")


IDENTIFIER = re.compile(r"[A-Za-z0-9_.]+\Z")


def identifier(name: str) -> str:
    """A rules or content name as part of a WebAssembly identifier (`$F_name`): checked to be made of
    letters, digits, `_` and `.` only, so that no name from a file can end the identifier."""
    if not IDENTIFIER.match(name):
        raise NotOnWasm(f"the name {name!r} (only letters, digits, `_` and `.`)", None)
    return name


def load_word(base: int, index: str) -> str:
    return f"(i32.load offset={base} (i32.shl {index} (i32.const 2)))"


def store_word(base: int, index: str, value: str) -> str:
    return f"(i32.store offset={base} (i32.shl {index} (i32.const 2)) {value})"


def scalar(address: int) -> str:
    return f"(i32.load (i32.const {address}))"


def set_scalar(address: int, value: str) -> str:
    return f"(i32.store (i32.const {address}) {value})"


def slot(k: int) -> str:
    return f"(i32.load offset={16 + 4 * k} (local.get $f))"


def set_slot(k: int, value: str) -> str:
    return f"(i32.store offset={16 + 4 * k} (local.get $f) {value})"


class Function:
    """One WebAssembly function being written: its locals, and its lines."""

    def __init__(self):
        self.locals: list[str] = []
        self.count = 0

    def local(self, hint: str = "t") -> str:
        name = self.label(hint)
        self.locals.append(name)
        return name

    def label(self, hint: str) -> str:
        """A name no other local or label of the function has."""
        self.count += 1
        return f"${hint}{self.count}"


class WCode:
    """Instructions of one function with preludes: `value(expr)` returns a folded expression."""

    def __init__(self, w, fn: Function, names: dict, lines: list):
        self.w, self.fn, self.names, self.lines = w, fn, names, lines

    def line(self, text):
        self.lines.append(text)

    def inner(self, names=None, lines=None):
        """Instructions with more names in view, into `lines` (by default this code's own)."""
        return WCode(self.w, self.fn, {**self.names, **(names or {})}, self.lines if lines is None else lines)

    def temp(self, value: str) -> str:
        local = self.fn.local()
        self.line(f"(local.set {local} {value})")
        return f"(local.get {local})"

    def simple(self, code: str) -> str:
        return code if code.startswith(("(local.get", "(i32.const")) else self.temp(code)

    def value(self, expr) -> str:
        method = getattr(self, "_" + type(expr).__name__, None)
        if method is None:
            raise NotOnWasm(f"{type(expr).__name__} in WebAssembly", expr.pos)
        return method(expr)

    def _Literal(self, expr):
        v = expr.value
        if v is None or v is False:
            return "(i32.const 0)"
        if v is True:
            return "(i32.const 1)"
        if isinstance(v, int):
            return f"(i32.const {v})"
        raise NotOnWasm("a text in WebAssembly", expr.pos)

    def _Name(self, expr):
        name, L = expr.name, self.w.layout
        if name in self.names:
            return self.names[name]
        if name == "locations":
            return f"(i32.const {L.constant_list('locations', list(L.locations.values()))})"
        if name == "players":
            return f"(i32.const {L.constant_list('players', list(L.players.values()))})"
        what = self.w.symbols.kind_of(name)
        if what == "variable":
            return load_word(self.w.mem.VARS, f"(i32.const {L.variables[name] * (len(L.players) + 1)})")
        if what == "function":
            return f"(call $F_{identifier(name)})"
        if what == "connection":  # read by `adjacent`, `ray` and `step` from the tree itself
            return "(i32.const 0)"
        table = {"kind": L.kinds, "player": L.players, "location": L.locations, "zone": L.zones}.get(what)
        if table is None or name not in table:
            raise NotOnWasm(f"the name {name} in WebAssembly", expr.pos)
        return f"(i32.const {table[name]})"

    def _Call(self, expr):
        name, symbols, L, mem = expr.name, self.w.symbols, self.w.layout, self.w.mem
        if name in symbols.functions:
            return f"(call $F_{identifier(name)} {' '.join(self.value(a) for a in expr.args)})"
        if name in symbols.zones:
            table = self.w.table(f"zones_{name}", {L.players[p]: L.zones[f"{name}/{p}"] for p in L.players})
            return load_word(table, self.value(expr.args[0]))
        args = [self.value(a) for a in expr.args]
        if name in ("top", "bottom"):
            return f"(call ${name} {args[0]})"
        if name == "empty":
            return f"(i32.eqz {load_word(mem.ZN, args[0])})"
        if name == "on_top":
            c = self.simple(args[0])
            return f"(call $on_top {c})"
        if name == "next":
            return f"(i32.add (i32.rem_u {args[0]} (i32.const {len(L.players)})) (i32.const 1))"
        if name == "index":
            return f"(i32.sub {args[0]} (i32.const 1))"
        if name == "direction":
            size = len(L.locations) + 1
            table = self.w.table("direction", {a * size + b: L.directions.get(self.w.board._directions.get((x, y)), 0)
                                               for x, a in L.locations.items() for y, b in L.locations.items()})
            return load_word(table, f"(i32.add (i32.mul {args[0]} (i32.const {size})) {args[1]})")
        if name == "step":
            via = tuple(i.name for i in expr.args[2].items)
            size = len(L.directions) + 1
            table = self.w.table(("step", via), {
                a * size + k: L.locations.get(self.w.board.step(x, direction, via), 0)
                for x, a in L.locations.items() for direction, k in L.directions.items()})
            return load_word(table, f"(i32.add (i32.mul {args[0]} (i32.const {size})) {args[1]})")
        if name in ("adjacent", "ray"):
            via = expr.args[1]
            via = tuple(i.name for i in via.items) if isinstance(via, e.ListOf) else (via.name,)
            length = expr.args[2].value if name == "ray" else None
            neighbours = self.w.board.neighbourhoods(via, length)
            lists = {L.locations[loc]: L.constant_list((via, length, loc), [L.locations[x] for x in neighbours[loc]])
                     for loc in L.locations}
            lists[0] = L.constant_list("empty", [])
            return load_word(self.w.table(("nb", via, length), lists), args[0])
        if name in ("kinds", "occupied", "tops", "pieces"):
            return f"(call ${name} {args[0]})"
        raise NotOnWasm(f"{name}() in WebAssembly", expr.pos)

    def _Attribute(self, expr):
        c, mem = self.value(expr.subject), self.w.mem
        if expr.name in ("owner", "kind", "zone"):
            return load_word(getattr(mem, expr.name.upper()), c)
        if expr.name == "location":
            zone = self.temp(load_word(mem.ZONE, c))
            return f"(select {zone} (i32.const 0) (i32.le_s {zone} (i32.const {len(self.w.layout.locations)})))"
        if expr.name in self.w.layout.properties:
            return load_word(mem.PROPS[self.w.layout.properties[expr.name]], c)
        raise NotOnWasm(f".{expr.name} in WebAssembly", expr.pos)

    def _Is(self, expr):
        c, symbols, L = self.value(expr.subject), self.w.symbols, self.w.layout
        kind = load_word(self.w.mem.KIND, c)
        if expr.name in symbols.kinds:
            test = f"(i32.eq {kind} (i32.const {L.kinds[expr.name]}))"
        else:
            kinds = self.w.program.kinds_with_trait[expr.name]
            test = load_word(self.w.table(f"trait_{expr.name}", {L.kinds[k]: 1 for k in kinds}), kind)
        return f"(i32.eqz {test})" if expr.negated else test

    def _Binary(self, expr):
        op = expr.op
        if op in ("and", "or"):
            left = self.temp(f"(i32.ne {self.value(expr.left)} (i32.const 0))")
            inner_lines: list[str] = []
            inner = self.inner(lines=inner_lines)
            right = inner.value(expr.right)
            result = left[len("(local.get "):-1]
            test = left if op == "and" else f"(i32.eqz {left})"
            self.line(f"(if {test} (then {' '.join(inner_lines)} (local.set {result} (i32.ne {right} (i32.const 0)))))")
            return left
        left, right = self.value(expr.left), self.value(expr.right)
        if op in ("in", "not in"):
            test = f"(call $contains {right} {left})"
            return test if op == "in" else f"(i32.eqz {test})"
        wasm = {"=": "i32.eq", "!=": "i32.ne", "<": "i32.lt_s", "<=": "i32.le_s", ">": "i32.gt_s", ">=": "i32.ge_s",
                "+": "i32.add", "-": "i32.sub", "*": "i32.mul"}[op]
        return f"({wasm} {left} {right})"

    def _Not(self, expr):
        return f"(i32.eqz {self.value(expr.operand)})"

    def _Negate(self, expr):
        return f"(i32.sub (i32.const 0) {self.value(expr.operand)})"

    def _Conditional(self, expr):
        result = self.fn.local()
        test = self.value(expr.test)
        then_lines, else_lines = [], []
        then_value = self.inner(lines=then_lines).value(expr.then)
        else_value = self.inner(lines=else_lines).value(expr.otherwise)
        self.line(f"(if {test} (then {' '.join(then_lines)} (local.set {result} {then_value})) "
                  f"(else {' '.join(else_lines)} (local.set {result} {else_value})))")
        return f"(local.get {result})"

    def _ListOf(self, expr):
        items = [self.value(i) for i in expr.items]
        t = self.temp(f"(call $new_list (i32.const {len(items)}))")
        for n, item in enumerate(items, 1):
            self.line(store_word(self.w.mem.ARENA, f"(i32.add {t} (i32.const {n}))", item))
        return t

    def _Quantifier(self, expr):
        q, mem = expr.quantifier, self.w.mem
        initial = {"count": 0, "sum": 0, "any": 0, "all": 1, "first": 0, "select": 0}.get(q)
        if initial is None:
            raise NotOnWasm(f"{q}() in WebAssembly", expr.pos)
        result, item, i = self.fn.local("r"), self.fn.local("v"), self.fn.local("i")
        self.line(f"(local.set {result} (i32.const {initial}))")
        source, fn = expr.source, self.fn
        builtin = source.name if isinstance(source, e.Call) and source.name not in self.w.symbols.functions else None
        block, loop = fn.label("b"), fn.label("l")

        def reserve(capacity):
            if q == "select":
                self.line(f"(local.set {result} (call $new_list {capacity}))")
                self.line(store_word(mem.ARENA, f"(local.get {result})", "(i32.const 0)"))

        body_lines: list[str] = []
        body = self.inner({expr.variable: f"(local.get {item})"}, body_lines)
        if builtin == "beneath":
            c = self.simple(self.value(source.args[0]))
            zone = self.temp(load_word(mem.ZONE, c))
            self.line(f"(local.set {i} (i32.sub (call $position {zone} {c}) (i32.const 1)))")
            reserve(load_word(mem.ZN, zone))
            head = f"(br_if {block} (i32.lt_s (local.get {i}) (i32.const 0)))"
            fetch = f"(local.set {item} {self.w.zone_item(zone, f'(local.get {i})')})"
            step = f"(local.set {i} (i32.sub (local.get {i}) (i32.const 1)))"
        elif builtin == "pieces":
            zone = self.simple(self.value(source.args[0]))
            self.line(f"(local.set {i} (i32.const 0))")
            reserve(load_word(mem.ZN, zone))
            head = f"(br_if {block} (i32.ge_s (local.get {i}) {load_word(mem.ZN, zone)}))"
            fetch = f"(local.set {item} {self.w.zone_item(zone, f'(local.get {i})')})"
            step = f"(local.set {i} (i32.add (local.get {i}) (i32.const 1)))"
        else:
            items = self.simple(self.value(source.args[0] if builtin == "tops" else source))
            self.line(f"(local.set {i} (i32.const 1))")
            reserve(load_word(mem.ARENA, items))
            head = f"(br_if {block} (i32.gt_s (local.get {i}) {load_word(mem.ARENA, items)}))"
            element = load_word(mem.ARENA, f"(i32.add {items} (local.get {i}))")
            fetch = f"(local.set {item} {f'(call $top {element})' if builtin == 'tops' else element})"
            step = f"(local.set {i} (i32.add (local.get {i}) (i32.const 1)))"
        action_lines: list[str] = []
        action = body.inner(lines=action_lines)
        if q == "count":
            action.line(f"(local.set {result} (i32.add (local.get {result}) (i32.const 1)))")
        elif q == "any":
            action.line(f"(local.set {result} (i32.const 1)) (br {block})")
        elif q == "first":
            action.line(f"(local.set {result} (local.get {item})) (br {block})")
        elif q == "select":
            value = action.value(expr.value) if expr.value is not None else f"(local.get {item})"
            length = load_word(mem.ARENA, f"(local.get {result})")
            action.line(store_word(mem.ARENA, f"(local.get {result})", f"(i32.add {length} (i32.const 1))"))
            action.line(store_word(mem.ARENA, f"(i32.add (local.get {result}) {length})", value))
        elif q == "sum":
            value = action.value(expr.value) if expr.value is not None else f"(local.get {item})"
            action.line(f"(local.set {result} (i32.add (local.get {result}) {value}))")
        if q == "all":
            test = body.value(expr.where) if expr.where is not None else "(i32.const 1)"
            body.line(f"(if (i32.eqz {test}) (then (local.set {result} (i32.const 0)) (br {block})))")
        elif expr.where is not None:
            test = body.value(expr.where)
            body.line(f"(if {test} (then {' '.join(action_lines)}))")
        else:
            body.lines.extend(action_lines)
        inner_body = body_lines
        if expr.while_ is not None:
            while_lines: list[str] = []
            test = self.inner({expr.variable: f"(local.get {item})"}, while_lines).value(expr.while_)
            inner_body = while_lines + [f"(br_if {block} (i32.eqz {test}))"] + inner_body
        if builtin == "tops":  # an empty location has no top: not an item
            inner_body = [f"(if (local.get {item}) (then {' '.join(inner_body)}))"]
        self.line(f"(block {block} (loop {loop} {head} {fetch} {' '.join(inner_body)} {step} (br {loop})))")
        if q == "select":
            length = load_word(mem.ARENA, f"(local.get {result})")
            self.line(set_scalar(mem.AP, f"(i32.add (i32.add (local.get {result}) {length}) (i32.const 1))"))
        return f"(local.get {result})"


LIST_ITEMS = {"kinds": "kind", "locations": "location", "adjacent": "location", "ray": "location",
              "occupied": "location", "region": "location", "pieces": "component", "tops": "component",
              "beneath": "component", "players": "player"}


def item_kind(source, known: dict) -> str:
    """What the items of the list `source` are ("kind", "location", "component", "player" or "number"),
    for a decision's labels; `known`: the rules' locals holding lists, by the kind of their items."""
    if isinstance(source, e.Name):
        return known.get(source.name) or LIST_ITEMS.get(source.name, "number")
    if isinstance(source, e.Call):
        return LIST_ITEMS.get(source.name, "number")
    if isinstance(source, e.Quantifier) and source.quantifier == "select" and source.value is None:
        return item_kind(source.source, known)
    return "number"
