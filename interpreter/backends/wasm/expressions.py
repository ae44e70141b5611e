"""Expressions of the checked syntax tree, written as WebAssembly text (folded instructions).

As in the Lua backend, an expression is written as instructions that come first (its prelude: the
loops of its quantifiers, each leaving its value in a local) and an instruction that gives its
value. `WCode.value(expr)` appends the prelude to `WCode.lines` and returns that instruction.
Every value is an i32 (backends/wasm/layout.py).
"""
from __future__ import annotations

import re

from interpreter.backends.wasm.layout import BASE, CONTROLLER, FACE_DOWN, FRAME_SLOTS, NotOnWasm  # noqa: F401
from interpreter.language import expressions as e
from interpreter.language.types import ANY

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
    return f"(i32.load offset={FRAME_SLOTS + 4 * k} (local.get $f))"


def set_slot(k: int, value: str) -> str:
    return f"(i32.store offset={FRAME_SLOTS + 4 * k} (local.get $f) {value})"


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
            raise NotOnWasm(type(expr).__name__, expr.pos)
        return method(expr)

    def _Literal(self, expr):
        v = expr.value
        if v is None or v is False:
            return "(i32.const 0)"
        if v is True:
            return "(i32.const 1)"
        if isinstance(v, int):
            if not -BASE <= v < BASE:
                raise NotOnWasm(f"the number {v} (the module's numbers lie between {-BASE} and {BASE - 1})", expr.pos)
            return f"(i32.const {v})"
        if isinstance(v, str):
            return f"(i32.const {self.w.layout.string(v)})"
        raise NotOnWasm(f"the value {v!r}", expr.pos)

    def _Name(self, expr):
        name, L = expr.name, self.w.layout
        if name in self.names:
            return self.names[name]
        if name == "locations":
            return f"(i32.const {L.constant_list('locations', list(L.locations.values()))})"
        if name == "players":
            return f"(i32.const {L.constant_list('seated', L.seated)})"  # each game writes its order there
        what = self.w.symbols.kind_of(name)
        if what == "variable":
            return scalar(self.w.variable(name))
        if what == "function":
            return f"(call $F_{identifier(name)})"
        if what in ("kind", "player", "location", "zone", "trait", "connection"):
            return f"(i32.const {L.string(name)})"
        raise NotOnWasm(f"the name {name}", expr.pos)

    def _Call(self, expr):
        name, symbols, L, mem, board = expr.name, self.w.symbols, self.w.layout, self.w.mem, self.w.board
        if name in symbols.functions:
            return f"(call $F_{identifier(name)} {' '.join(self.value(a) for a in expr.args)})"
        if name in symbols.zones:
            table = self.w.table(f"zones_{name}", {L.players[p]: L.zones[f"{name}/{p}"] for p in L.players},
                                 L.players.values())
            return load_word(table, self.value(expr.args[0]))
        if name in symbols.variables:
            return load_word(self.w.variable(name, each=True), self.value(expr.args[0]))
        args = [self.value(a) for a in expr.args]
        if name in ("top", "bottom"):
            return f"(call ${name} {args[0]})"
        if name == "empty":
            return f"(i32.eqz {load_word(mem.ZN, args[0])})"
        if name == "on_top":
            c = self.simple(args[0])
            return f"(call $on_top {c})"
        if name == "next":
            return load_word(self.w.mem.NEXT, args[0])  # each game writes who follows whom
        if name == "index":
            return load_word(self.w.table("index", {L.locations[x]: i for x, i in board.index.items()}), args[0])
        if name == "direction":
            size = len(L.locations)
            table = self.w.table("direction", {
                (a - L.ZONE0) * size + b - L.ZONE0: L.string(board._directions[(x, y)])
                for x, a in L.locations.items() for y, b in L.locations.items() if (x, y) in board._directions})
            return load_word(table, f"(i32.add (i32.mul (i32.sub {args[0]} (i32.const {L.ZONE0})) (i32.const {size})) "
                                    f"(i32.sub {args[1]} (i32.const {L.ZONE0})))")
        if name == "step":
            via = _via(expr.args[2])
            directions = sorted(set(board._directions.values()))
            size = len(directions) + 1
            place = self.w.table("directions", {L.string(x): k for k, x in enumerate(directions, 1)})
            table = self.w.table(("step", via), {
                (a - L.ZONE0) * size + k: L.locations.get(board.step(x, direction, via), 0)
                for x, a in L.locations.items() for k, direction in enumerate(directions, 1)})
            return load_word(table, f"(i32.add (i32.mul (i32.sub {args[0]} (i32.const {L.ZONE0})) (i32.const {size})) "
                                    f"{load_word(place, args[1])})")
        if name == "adjacent" and not _named(expr.args[1]):
            return self._adjacent_by(args[0], args[1])
        if name == "region":
            via = _via(expr.args[2])
            neighbours = board.neighbourhoods(via)
            lists = {L.locations[loc]: L.constant_list((via, None, loc), [L.locations[x] for x in neighbours[loc]])
                     for loc in L.locations}
            return f"(call $region {args[0]} {args[1]} (i32.const {self.w.table(('nb', via, None), lists)}))"
        if name in ("adjacent", "ray"):
            via = _via(expr.args[1])
            length = expr.args[2].value if name == "ray" else None
            neighbours = board.neighbourhoods(via, length)
            lists = {L.locations[loc]: L.constant_list((via, length, loc), [L.locations[x] for x in neighbours[loc]])
                     for loc in L.locations}
            return load_word(self.w.table(("nb", via, length), lists), args[0])  # none reads 0: the empty list
        if name in ("kinds", "occupied", "tops", "pieces", "size", "pieces_in", "distinct", "subsets", "reverse"):
            return f"(call ${name} {args[0]})"
        if name in ("nth", "numbers"):
            return f"(call ${name} {args[0]} {args[1]})"
        if name in ("placeable", "movable", "removable"):
            c = self.simple(args[0])
            to = args[1] if name != "removable" else "(i32.const 0)"
            return f"(i32.and (i32.ne {c} (i32.const 0)) (i32.eqz (call $forbidden {c} {to})))"
        if name == "random":
            return f"(call $random_item {args[0]})"
        if name == "roll":
            return f"(i32.add (call $draw {args[0]}) (i32.const 1))"
        if name == "faction_of":
            seats = self.w.program.seats
            table = self.w.table("faction_of", {n: L.players[seats.get(p, p)] for p, n in L.players.items()},
                                 L.players.values())
            return load_word(table, args[0])
        raise NotOnWasm(f"{name}()", expr.pos)

    def _adjacent_by(self, location: str, via: str) -> str:
        """`adjacent(x, via)` with connections the game works out: a neighbourhood per set of them."""
        L, board = self.w.layout, self.w.board
        types = board.connection_types
        if len(types) > 6:
            raise NotOnWasm("connections worked out in a game of more than 6 kinds", None)
        bits = self.w.table("connection_bits", {L.string(t): 1 << i for i, t in enumerate(types)})
        lists = {}
        for mask in range(1 << len(types)):
            chosen = tuple(t for i, t in enumerate(types) if mask >> i & 1)
            for x, n in L.locations.items():
                lists[((n - L.ZONE0) << len(types)) + mask] = L.constant_list(
                    (chosen, None, x), [L.locations[y] for y in board.adjacent(x, chosen)])
        table = self.w.table(("adjacent_by",), lists)
        x = self.simple(location)
        key = f"(i32.add (i32.shl (i32.sub {x} (i32.const {L.ZONE0})) (i32.const {len(types)})) " \
              f"(call $via_bits {via} (i32.const {bits})))"
        return f"(if (result i32) {x} (then {load_word(table, key)}) (else (i32.const {L.constant_list('empty', [])})))"

    def _Attribute(self, expr):
        name, mem, L, symbols = expr.name, self.w.mem, self.w.layout, self.w.symbols
        if isinstance(expr.subject, e.Name) and expr.subject.name not in self.names:
            qualified = f"{expr.subject.name}.{name}"  # `red.pile`: a name of a faction's file
            if symbols.kind_of(qualified) is not None:
                return self.value(e.Name(expr.pos, qualified))
        subject, c = expr.subject.type, self.value(expr.subject)
        if subject == "kind" or (subject == "location" and name in symbols.location_attributes):
            return load_word(self.w.attribute_table(name), c)
        if name in ("owner", "kind", "zone"):
            return load_word(getattr(mem, name.upper()), c)
        if name == "location":
            zone = self.temp(load_word(mem.ZONE, c))
            inside = f"(i32.lt_u (i32.sub {zone} (i32.const {L.ZONE0})) (i32.const {len(L.locations)}))"
            return f"(select {zone} (i32.const 0) {inside})"
        if name == "controller":  # the owner, unless a rule gave it to another
            c = self.simple(c)
            given = self.temp(load_word(mem.PROPS[L.properties[CONTROLLER]], c))
            return f"(select {given} {load_word(mem.OWNER, c)} {given})"
        if name == "id":
            return load_word(self.w.table("id", {n: L.string(cid) for cid, n in L.components.items()}), c)
        if name in symbols.properties:
            return load_word(mem.PROPS[L.properties[name]], c)
        if name in symbols.kind_properties or name in symbols.location_attributes:
            if subject == "component":
                return load_word(self.w.attribute_table(name), load_word(mem.KIND, c))
            x = self.simple(c)  # a component reads its kind's; a kind or a location its own
            component = f"(i32.lt_u (i32.sub {x} (i32.const {BASE + 1})) (i32.const {len(L.components)}))"
            return load_word(self.w.attribute_table(name), f"(select {load_word(mem.KIND, x)} {x} {component})")
        raise NotOnWasm(f".{name}", expr.pos)

    def _IsFacing(self, expr):
        c = self.simple(self.value(expr.subject))
        down = load_word(self.w.mem.PROPS[self.w.layout.properties[FACE_DOWN]], c)
        return f"(i32.and (i32.ne {c} (i32.const 0)) {down if expr.facing == 'down' else f'(i32.eqz {down})'})"

    def _Is(self, expr):
        c, symbols, L = self.value(expr.subject), self.w.symbols, self.w.layout
        kind = load_word(self.w.mem.KIND, c)
        if expr.name in symbols.kinds:
            test = f"(i32.eq {kind} (i32.const {L.kinds[expr.name]}))"
        else:
            kinds = self.w.program.kinds_with_trait[expr.name]
            test = load_word(self.w.table(f"trait_{expr.name}", {L.kinds[k]: 1 for k in kinds}, L.kinds.values()), kind)
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
            if expr.right.type == "zone":
                test = f"(i32.eq {load_word(self.w.mem.ZONE, left)} {right})"
            else:
                test = f"(call $contains {right} {left})"
            return test if op == "in" else f"(i32.eqz {test})"
        if op in ("=", "!=") and {expr.left.type, expr.right.type} <= {"list", ANY}:
            test = f"(call $same {left} {right})"  # two lists are equal by their items
            return test if op == "=" else f"(i32.eqz {test})"
        if op == "+" and expr.type == "list":
            return f"(call $concat {left} {right})"
        if op == "+" and expr.left.type == expr.right.type == ANY:  # two numbers or two lists: the values tell
            left, right = self.simple(left), self.simple(right)
            return (f"(if (result i32) (call $is_list {left}) (then (call $concat {left} {right})) "
                    f"(else (i32.add {left} {right})))")
        if op in ("/", "mod"):
            return f"(call ${'divide' if op == '/' else 'remainder'} {left} {right})"
        if op in ("+", "-", "*"):  # worked out on 64 bits: a number past the module's range stops its game
            wide = {"+": "i64.add", "-": "i64.sub", "*": "i64.mul"}[op]
            return f"(call $number ({wide} (i64.extend_i32_s {left}) (i64.extend_i32_s {right})))"
        wasm = {"=": "i32.eq", "!=": "i32.ne", "<": "i32.lt_s", "<=": "i32.le_s", ">": "i32.gt_s", ">=": "i32.ge_s"}[op]
        return f"({wasm} {left} {right})"

    def _Not(self, expr):
        return f"(i32.eqz {self.value(expr.operand)})"

    def _Negate(self, expr):
        return f"(call $number (i64.sub (i64.const 0) (i64.extend_i32_s {self.value(expr.operand)})))"

    def _SortedBy(self, expr):
        """The keys worked out into one list per key, then the items ordered by them in the module."""
        mem = self.w.mem
        items = self.simple(self.value(expr.source))
        count = load_word(mem.ARENA, items)
        keys = self.temp(f"(call $new_list (i32.const {len(expr.keys)}))")
        columns = []
        for j in range(len(expr.keys)):
            columns.append(self.temp(f"(call $new_list {count})"))
            self.line(store_word(mem.ARENA, f"(i32.add {keys} (i32.const {j + 1}))", columns[-1]))
        self.line(f"(call $steps {count})")
        i, item = self.fn.local("i"), self.fn.local("v")
        body: list[str] = []
        inner = self.inner({expr.variable: f"(local.get {item})"}, body)
        for column, key in zip(columns, expr.keys):
            inner.line(store_word(mem.ARENA, f"(i32.add {column} (local.get {i}))", inner.value(key)))
        label = i[1:]
        self.line(f"(local.set {i} (i32.const 1)) (block $sb{label} (loop $sl{label} "
                  f"(br_if $sb{label} (i32.gt_s (local.get {i}) {count})) "
                  f"(local.set {item} {load_word(mem.ARENA, f'(i32.add {items} (local.get {i}))')}) {' '.join(body)} "
                  f"(local.set {i} (i32.add (local.get {i}) (i32.const 1))) (br $sl{label})))")
        most = sum(1 << j for j, order in enumerate(expr.orders) if order == "most")
        return f"(call $sort_by {items} {keys} (i32.const {most}))"

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
        initial = {"count": 0, "sum": 0, "any": 0, "all": 1, "first": 0, "select": 0, "max": 0, "min": 0}.get(q)
        if initial is None:
            raise NotOnWasm(f"{q}()", expr.pos)
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
        elif q in ("max", "min"):  # none where there is no item
            found = self.fn.local("found")
            self.line(f"(local.set {found} (i32.const 0))")
            value = action.simple(action.value(expr.value) if expr.value is not None else f"(local.get {item})")
            better = f"(i32.{'gt' if q == 'max' else 'lt'}_s {value} (local.get {result}))"
            action.line(f"(if (i32.or (i32.eqz (local.get {found})) {better}) "
                        f"(then (local.set {result} {value}) (local.set {found} (i32.const 1))))")
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
            end = f"(i32.add (i32.add (local.get {result}) {length}) (i32.const {1 - self.w.layout.LIST0}))"
            self.line(set_scalar(mem.AP, end))
        return f"(local.get {result})"


def _named(expr) -> bool:
    """Are the connections of `adjacent`, `ray` or `step` named in the rules (a name or a list of names)?"""
    items = expr.items if isinstance(expr, e.ListOf) else [expr]
    return all(isinstance(i, e.Name) for i in items)


def _via(expr) -> tuple[str, ...]:
    """The connections `adjacent`, `ray` and `step` follow: a name or a list of names, fixed in the rules."""
    items = expr.items if isinstance(expr, e.ListOf) else [expr]
    if not all(isinstance(i, e.Name) for i in items):
        raise NotOnWasm("connections that are not named in the rules", expr.pos)
    return tuple(i.name for i in items)
