#!/usr/bin/env python3
"""Issue 33's spike, fifth step: the same front end written as WebAssembly text, run by wasmtime.

What `tools/spike_c_backend.py` writes as C, written as WebAssembly: every value an i32, the game
(state, frames, random generator, arena of lists) in the module's linear memory, each routine that
may stop a loop over numbered blocks (the C's `goto` targets, and the places it resumes at). wasmtime
compiles it with Cranelift (its wheel carries it: nothing compiled on the user's machine). The
module imports nothing, so it cannot reach the host, and every load and store is checked against
its own memory.

    pip install wasmtime
    python tools/spike_wasm_backend.py --games 2000

It checks 200 random games against the hand-written baseline decision for decision, then times
the baseline, the generated Python backend and this, in one run, and the copy of a game (a
`memory.copy` of its part of the memory).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cernunos_baseline as baseline
from spike_c_backend import Layout

from interpreter import Game, load
from interpreter.backends.lua.expressions import NotOnLua
from interpreter.engine.runtime import Runtime
from interpreter.language import declarations as d
from interpreter.language import expressions as e
from interpreter.language.checker import find_deciding
from interpreter.language.expressions import Quantifier

DONE, CALL, SUSPEND = 0, 1, 2
SLOTS, MAX_FRAMES, FRAME = 40, 64, 4 * (4 + 40)
TRACE_CAPACITY, ARENA_WORDS = 4096, 1 << 18


class Memory:
    """Byte addresses of the game's parts in linear memory; `G_END` ends what a copy copies but the arena."""

    def __init__(self, layout: Layout):
        self.at = 0
        n, z, v, p = len(layout.components), len(layout.zones), len(layout.variables), len(layout.players)
        self.KIND, self.OWNER, self.ZONE = (self.words(n + 1) for _ in range(3))
        self.PROPS = [self.words(n + 1) for _ in range(len(layout.properties) + 1)]
        self.ZN = self.words(z + 1)
        self.STRIDE = n + 1
        self.ZS = self.words((z + 1) * (n + 1))
        self.VARS = self.words((v + 1) * (p + 1))
        for name in ("VERSION", "BATCH", "SETTLING", "TURNS", "TURN_PLAYER", "SP", "MARKS", "MTI", "DECISIONS",
                     "FINISHED", "NWINNERS", "TRACED", "AP", "TRACING"):
            setattr(self, name, self.words(1))
        self.MARK_DEPTH, self.MARK_PC = self.words(64), self.words(64)
        self.MT = self.words(624)
        self.WINNERS, self.SCORES = self.words(p + 1), self.words(p + 1)
        self.FRAMES = self.reserve(MAX_FRAMES * FRAME)
        self.ARENA = self.words(ARENA_WORDS)
        self.G_END = self.at
        self.TRACE = self.words(4 * TRACE_CAPACITY)
        self.TEMPLATE = self.reserve(self.G_END)
        self.SAVED = self.reserve(self.G_END)
        self.pages = self.at // 65536 + 1

    def words(self, count: int) -> int:
        return self.reserve(4 * count)

    def reserve(self, size: int) -> int:
        at, self.at = self.at, self.at + size
        return at


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
        self.count += 1
        name = f"${hint}{self.count}"
        self.locals.append(name)
        return name


class WCode:
    """Instructions of one function with preludes: `value(expr)` returns a folded expression."""

    def __init__(self, w, fn: Function, names: dict, lines: list, loops: list | None = None):
        self.w, self.fn, self.names, self.lines = w, fn, names, lines
        self.loops = loops or []

    def line(self, text):
        self.lines.append(text)

    def inner(self, names=None, lines=None, loops=None):
        return WCode(self.w, self.fn, {**self.names, **(names or {})}, self.lines if lines is None else lines,
                     self.loops if loops is None else loops)

    def temp(self, value: str) -> str:
        local = self.fn.local()
        self.line(f"(local.set {local} {value})")
        return f"(local.get {local})"

    def simple(self, code: str) -> str:
        return code if code.startswith(("(local.get", "(i32.const")) else self.temp(code)

    def value(self, expr) -> str:
        method = getattr(self, "_" + type(expr).__name__, None)
        if method is None:
            raise NotOnLua(f"{type(expr).__name__} in WebAssembly", expr.pos)
        return method(expr)

    def _Literal(self, expr):
        v = expr.value
        if v is None or v is False:
            return "(i32.const 0)"
        if v is True:
            return "(i32.const 1)"
        if isinstance(v, int):
            return f"(i32.const {v})"
        raise NotOnLua("a text in WebAssembly", expr.pos)

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
            return f"(call $F_{name})"
        if what == "connection":  # read by `adjacent`, `ray` and `step` from the tree itself
            return "(i32.const 0)"
        table = {"kind": L.kinds, "player": L.players, "location": L.locations, "zone": L.zones}.get(what)
        if table is None or name not in table:
            raise NotOnLua(f"the name {name} in WebAssembly", expr.pos)
        return f"(i32.const {table[name]})"

    def _Call(self, expr):
        name, symbols, L, mem = expr.name, self.w.symbols, self.w.layout, self.w.mem
        if name in symbols.functions:
            return f"(call $F_{name} {' '.join(self.value(a) for a in expr.args)})"
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
        raise NotOnLua(f"{name}() in WebAssembly", expr.pos)

    def _Attribute(self, expr):
        c, mem = self.value(expr.subject), self.w.mem
        if expr.name in ("owner", "kind", "zone"):
            return load_word(getattr(mem, expr.name.upper()), c)
        if expr.name == "location":
            zone = self.temp(load_word(mem.ZONE, c))
            return f"(select {zone} (i32.const 0) (i32.le_s {zone} (i32.const {len(self.w.layout.locations)})))"
        if expr.name in self.w.layout.properties:
            return load_word(mem.PROPS[self.w.layout.properties[expr.name]], c)
        raise NotOnLua(f".{expr.name} in WebAssembly", expr.pos)

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
            raise NotOnLua(f"{q}() in WebAssembly", expr.pos)
        result, item, i = self.fn.local("r"), self.fn.local("v"), self.fn.local("i")
        self.line(f"(local.set {result} (i32.const {initial}))")
        source, fn = expr.source, self.fn
        builtin = source.name if isinstance(source, e.Call) and source.name not in self.w.symbols.functions else None
        block, loop = f"$b{fn.local('x')[2:]}", f"$l{fn.count}"

        def reserve(capacity):
            if q == "select":
                self.line(f"(local.set {result} (call $new_list {capacity}))")
                self.line(store_word(mem.ARENA, f"(local.get {result})", "(i32.const 0)"))

        body_lines: list[str] = []
        body = self.inner({expr.variable: f"(local.get {item})"}, body_lines, self.loops + [block])
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
        if builtin == "tops":
            inner_body = [f"(if (local.get {item}) (then {' '.join(body_lines)}))"]
        if expr.while_ is not None:
            while_lines: list[str] = []
            test = self.inner({expr.variable: f"(local.get {item})"}, while_lines).value(expr.while_)
            inner_body = while_lines + [f"(br_if {block} (i32.eqz {test}))"] + inner_body
        self.line(f"(block {block} (loop {loop} {head} {fetch} {' '.join(inner_body)} {step} (br {loop})))")
        if q == "select":
            length = load_word(mem.ARENA, f"(local.get {result})")
            self.line(set_scalar(mem.AP, f"(i32.add (i32.add (local.get {result}) {length}) (i32.const 1))"))
        return f"(local.get {result})"


class Routine(WCode):
    """A routine's body as numbered blocks: `label()` starts one, `goto(name)` jumps to one."""

    def __init__(self, w, fn, names):
        super().__init__(w, fn, names, [])
        self.segments: list[list[str]] = [self.lines]
        self.where: dict[str, int] = {}
        self.slots: dict[str, int] = {}
        self.counter = 0

    def slot(self, name) -> int:
        if name not in self.slots:
            self.slots[name] = len(self.slots)
            if len(self.slots) > SLOTS:
                raise NotOnLua("too many slots in a frame", None)
        return self.slots[name]

    def new_label(self) -> str:
        self.counter += 1
        return f"L{self.counter}"

    def place(self, label: str) -> int:
        self.lines = []
        self.segments.append(self.lines)
        self.where[label] = len(self.segments) - 1
        return self.where[label]

    def goto(self, label: str) -> str:
        return f"(local.set $pc (i32.const @{label}@)) (br $dispatch)"

    def body(self) -> str:
        targets = " ".join(f"$B{k}" for k in range(len(self.segments)))
        text = f"(block $B0 (br_table {targets} (local.get $pc)))"
        for k, segment in enumerate(self.segments):
            text = f"(block $B{k + 1} {text} {' '.join(segment)})" if k + 1 < len(self.segments) else \
                f"{text} {' '.join(segment)}"
            if k + 1 < len(self.segments):
                text = text  # the next segment follows the end of this block
        for label, k in self.where.items():
            text = text.replace(f"@{label}@", str(k))
        return f"(loop $dispatch {text})"


class WasmWriter:
    def __init__(self, ruleset):
        self.ruleset, self.program, self.symbols, self.board = ruleset, ruleset.program, ruleset.program.symbols, ruleset.board
        program = self.program
        self.deciding = find_deciding(program.declarations, list(program.ability_blocks))
        state = ruleset.initial_state(0, program.chosen_options(None))
        rt = Runtime(state, ruleset.board, program)
        rt.players = list(program.table)
        for name, _, value, _ in program.variables:
            state.variables[name] = value(rt, {"you": None})
        self.state, self.layout = state, Layout(ruleset, state)
        self.mem = Memory(self.layout)
        self.tables: dict = {}
        self.table_data: list[tuple[int, list[int]]] = []
        self.next_table = None
        self.functions: list[str] = []
        self.routines: list[str] = []

    def zone_item(self, zone: str, index: str) -> str:
        return load_word(self.mem.ZS, f"(i32.add (i32.mul {zone} (i32.const {self.mem.STRIDE})) {index})")

    def table(self, key, mapping: dict) -> int:
        """A constant table's byte address (laid after the saved copy)."""
        if key not in self.tables:
            size = max([0, *mapping]) + 1
            if self.next_table is None:
                self.next_table = self.mem.at
            self.tables[key] = self.next_table
            self.table_data.append((self.next_table, [mapping.get(i, 0) for i in range(size)]))
            self.next_table += 4 * size
        return self.tables[key]

    def routine_number(self, name: str) -> int:
        if name not in self.routines:
            self.routines.append(name)
        return self.routines.index(name)

    def write(self) -> str:
        program, functions = self.program, []
        modifiers: dict = {}
        for decl in program.declarations:
            if isinstance(decl, d.ModifyDecl):
                modifiers.setdefault(decl.name, []).append(decl)
        self.routine_number("PLAY")
        for decl in program.declarations:
            if isinstance(decl, d.FunctionDecl):
                functions.append(self.function(decl, modifiers.get(decl.name, [])))
            elif isinstance(decl, d.ProcedureDecl):
                self.routine(f"P_{decl.name}", decl.body, self.deciding.procedures.get(decl.name, False), decl.params)
            elif isinstance(decl, d.WhenDecl):
                handlers = [x for x in program.declarations if isinstance(x, d.WhenDecl) and x.event == decl.event]
                self.routine(f"H_{decl.event[1]}_{handlers.index(decl)}", decl.body,
                             self.deciding.events.get(decl.event, False), decl.params, decl.condition)
            elif isinstance(decl, d.AlwaysDecl):
                self.routine("ALWAYS", decl.body, False, [])
            elif isinstance(decl, d.PlayDecl):
                self.routine("PLAY", decl.body, True, [])
        for ability, block in program.ability_blocks:
            self.routine(f"AB_{ability.name}_{ability.kind}", block, self.deciding.abilities.get(ability.name, False), [])
        self.functions = functions + self.functions
        pages = (max(self.next_table or 0, self.mem.at) + len(self.layout.arena) * 4) // 65536 + 2
        table = " ".join(f"$R_{name}" for name in self.routines)
        return "\n".join([
            "(module",
            f"(memory (export \"memory\") {pages})",
            "(type $routine (func (param i32) (result i32)))",
            f"(table {len(self.routines)} funcref)",
            f"(elem (i32.const 0) func {table})",
            RUNTIME.format(**self.runtime_constants()),
            *self.functions,
            ")"])

    def runtime_constants(self) -> dict:
        mem, L = self.mem, self.layout
        constants = {name: getattr(mem, name) for name in dir(mem) if name.isupper() and isinstance(getattr(mem, name), int)}
        constants.update(FRAME=FRAME, MAX_FRAMES=MAX_FRAMES, NKINDS=len(L.kinds), NLOCATIONS=len(L.locations),
                         G_END=mem.G_END, PLAY=self.routine_number("PLAY"), ARENA_START=len(L.arena),
                         ALWAYS=self.routine_number("ALWAYS"), PROPS0=mem.PROPS[0],
                         TEMPLATE_USED=mem.ARENA + 4 * (len(L.arena) + 1))
        return constants

    def function(self, decl, modifiers) -> str:
        fn = Function()
        names = {p: f"(local.get $a{i})" for i, p in enumerate(decl.params)}
        code = WCode(self, fn, names, [])
        parts = [code.inner({**{p: f"(local.get $a{i})" for i, p in enumerate(names_)}}).value(expr)
                 for names_, expr in [(decl.params, decl.body)] + [(m.params, m.amount) for m in modifiers]]
        total = parts[0]
        for part in parts[1:]:
            total = f"(i32.add {total} {part})"
        params = " ".join(f"(param $a{i} i32)" for i in range(len(decl.params)))
        local_decls = " ".join(f"(local {x} i32)" for x in fn.locals)
        return f"(func $F_{decl.name} {params} (result i32) {local_decls} {' '.join(code.lines)} {total})"

    def routine(self, name, body, flat, params, condition=None):
        self.routine_number(name)
        fn = Function()
        out = Routine(self, fn, {"you": "(i32.load offset=8 (local.get $f))", "self": "(i32.load offset=12 (local.get $f))"})
        for p in params:
            out.names[p] = slot(out.slot(p))
        if condition is not None:
            out.line(f"(if (i32.eqz {out.value(condition)}) (then (return (i32.const {DONE}))))")
        self.block(body, out, flat)
        local_decls = " ".join(f"(local {x} i32)" for x in fn.locals)
        text = (f"(func $R_{name} (type $routine) (param $f i32) (result i32) (local $pc i32) (local $nf i32) {local_decls} "
                f"(local.set $pc (i32.load offset=4 (local.get $f))) {out.body()} (i32.const {DONE}))")
        self.functions.append(text)

    def block(self, block, out, flat):
        for statement in block.statements:
            if flat and statement.decides(self.deciding):
                getattr(self, "flat_" + type(statement).__name__)(statement, out)
            else:
                getattr(self, "plain_" + type(statement).__name__)(statement, out)
            for name in statement.binds():
                out.names[name] = slot(out.slot(name))

    def nested(self, out: Routine, lines: list) -> Routine:
        inner = Routine.__new__(Routine)
        inner.__dict__.update(out.__dict__)
        inner.names = dict(out.names)
        inner.lines = lines
        return inner

    # statements that never stop
    def plain_Let(self, node, out):
        out.line(set_slot(out.slot(node.name), out.value(node.value)))

    def plain_Set(self, node, out):
        value, target, mem = out.value(node.value), node.target, self.mem
        if isinstance(target, e.Name) and target.name in out.names:
            out.line(set_slot(out.slot(target.name), value))
            return
        if isinstance(target, e.Name):
            index = self.layout.variables[target.name] * (len(self.layout.players) + 1)
            out.line(store_word(mem.VARS, f"(i32.const {index})", value))
        else:
            out.line(store_word(mem.PROPS[self.layout.properties[target.name]], out.value(target.subject), value))
        out.line(set_scalar(mem.VERSION, f"(i32.add {scalar(mem.VERSION)} (i32.const 1))"))

    def plain_Move(self, node, out):
        what, to = out.simple(out.value(node.what)), out.simple(out.value(node.to))
        out.line(f"(if {what} (then (call $move {what} {to})))")

    def plain_CallProcedure(self, node, out):
        number = self.routine_number(f"P_{node.name}")
        args = [out.value(a) for a in node.args]
        out.line(f"(local.set $nf (call $push (i32.const {number})))")
        out.line("(i32.store offset=8 (local.get $nf) (i32.load offset=8 (local.get $f)))")
        for i, a in enumerate(args):
            out.line(f"(i32.store offset={16 + 4 * i} (local.get $nf) {a})")
        out.line(f"(if (call $R_P_{node.name} (local.get $nf)) (then (return (i32.const {CALL}))))")
        out.line(set_scalar(self.mem.SP, f"(i32.sub {scalar(self.mem.SP)} (i32.const 1))"))

    def plain_Signalling(self, node, out):
        if node.what == "return":
            out.line(f"(return (i32.const {DONE}))")
        elif node.what == "end turn":
            out.line("(return (call $end_turn))")
        elif node.what == "lose":
            out.line(f"(return (call $lose {out.value(node.player)}))")
        else:
            raise NotOnLua(node.what, node.pos)

    def plain_Rank(self, node, out):
        mem, players = self.mem, len(self.layout.players)
        for p in range(1, players + 1):
            for k, (order, name) in enumerate(node.keys):
                value = f"(call $F_{name} (i32.const {p}))"
                if order != "most":
                    value = f"(i32.sub (i32.const 0) {value})"
                out.line(store_word(mem.ARENA, f"(i32.const {k * (players + 1) + p})", value))
            out.line(store_word(mem.SCORES, f"(i32.const {p})", f"(call $F_{node.keys[0][1]} (i32.const {p}))"))
        out.line(f"(return (call $rank (i32.const {len(node.keys)}) (i32.const {players})))")

    def plain_If(self, node, out):
        text = None
        branches = list(node.branches)
        otherwise_lines: list[str] = []
        if node.otherwise is not None:
            self.block(node.otherwise, self.nested(out, otherwise_lines), False)
        text = " ".join(otherwise_lines)
        for test, block in reversed(branches):
            test_lines, then_lines = [], []
            condition = self.nested(out, test_lines).value(test)
            self.block(block, self.nested(out, then_lines), False)
            text = f"{' '.join(test_lines)} (if {condition} (then {' '.join(then_lines)}) (else {text}))"
        out.line(text)

    def plain_ForEach(self, node, out):
        items = out.simple(out.value(Quantifier(node.pos, "select", node.variable, node.source, node.where, None, None)))
        i = out.fn.local("i")
        body_lines: list[str] = []
        body = self.nested(out, body_lines)
        body.line(set_slot(out.slot(node.variable), load_word(self.mem.ARENA, f"(i32.add {items} (local.get {i}))")))
        body.names[node.variable] = slot(out.slot(node.variable))
        self.block(node.body, body, False)
        label = i[1:]
        out.line(f"(local.set {i} (i32.const 1)) (block $fb{label} (loop $fl{label} "
                 f"(br_if $fb{label} (i32.gt_s (local.get {i}) {load_word(self.mem.ARENA, items)})) {' '.join(body_lines)} "
                 f"(local.set {i} (i32.add (local.get {i}) (i32.const 1))) (br $fl{label})))")

    def plain_AtOnce(self, node, out):
        mem = self.mem
        out.line(set_scalar(mem.BATCH, f"(i32.add {scalar(mem.BATCH)} (i32.const 1))"))
        self.block(node.body, out, False)
        out.line(set_scalar(mem.BATCH, f"(i32.sub {scalar(mem.BATCH)} (i32.const 1))"))
        out.line("(call $settle)")

    def plain_Pass(self, node, out):
        pass

    # statements that may stop
    def jump_unless(self, out, test, label):
        out.line(f"(if (i32.eqz {out.value(test)}) (then {out.goto(label)}))")

    def push_frame(self, out, number_code, fill: list[str]):
        label = out.new_label()
        out.line(f"(local.set $nf (call $push {number_code}))")
        out.line("(i32.store offset=8 (local.get $nf) (i32.load offset=8 (local.get $f)))")
        for line in fill:
            out.line(line)
        out.line(f"(i32.store offset=4 (local.get $f) (i32.const @{label}@)) (return (i32.const {CALL}))")
        out.place(label)

    def flat_CallProcedure(self, node, out):
        args = [out.value(a) for a in node.args]
        slots = [out.slot(f"arg{i}") for i in range(len(args))]
        for k, a in zip(slots, args):
            out.line(set_slot(k, a))
        fill = [f"(i32.store offset={16 + 4 * i} (local.get $nf) {slot(k)})" for i, k in enumerate(slots)]
        self.push_frame(out, f"(i32.const {self.routine_number(f'P_{node.name}')})", fill)

    def flat_Perform(self, node, out):
        L = self.layout
        numbers = {L.kinds[a.kind]: self.routine_number(f"AB_{a.name}_{a.kind}") + 1
                   for a, _ in self.program.ability_blocks if a.name == node.ability}
        table = self.table(f"ability_{node.ability}", numbers)
        subject = out.slot("subject")
        out.line(set_slot(subject, out.value(node.subject)))
        routine = load_word(table, load_word(self.mem.KIND, slot(subject)))
        done = out.new_label()
        out.line(f"(if (i32.eqz {routine}) (then {out.goto(done)}))")
        self.push_frame(out, f"(i32.sub {routine} (i32.const 1))",
                        [f"(i32.store offset=12 (local.get $nf) {slot(subject)})"])
        out.place(done)

    def flat_Emit(self, node, out):
        args = [out.value(a) for a in node.args]
        slots = [out.slot(f"value{i}") for i in range(len(args))]
        for k, a in zip(slots, args):
            out.line(set_slot(k, a))
        fill = [f"(i32.store offset={16 + 4 * i} (local.get $nf) {slot(k)})" for i, k in enumerate(slots)]
        handlers = [x for x in self.program.declarations if isinstance(x, d.WhenDecl) and x.event == ("event", node.event)]
        for index in range(len(handlers)):
            self.push_frame(out, f"(i32.const {self.routine_number(f'H_{node.event}_{index}')})", fill)

    def flat_If(self, node, out):
        end = out.new_label()
        for test, block in node.branches:
            following = out.new_label()
            self.jump_unless(out, test, following)
            self.block(block, out, True)
            out.line(out.goto(end))
            out.place(following)
        if node.otherwise is not None:
            self.block(node.otherwise, out, True)
        out.line(out.goto(end))
        out.place(end)

    def flat_While(self, node, out):
        top, end = out.new_label(), out.new_label()
        out.line(out.goto(top))
        out.place(top)
        self.jump_unless(out, node.test, end)
        self.block(node.body, out, True)
        out.line(out.goto(top))
        out.place(end)

    def flat_ForEach(self, node, out):
        items, index = out.slot(f"items{id(node)}"), out.slot(f"index{id(node)}")
        selection = out.value(Quantifier(node.pos, "select", node.variable, node.source, node.where, None, None))
        out.line(set_slot(items, selection))
        out.line(set_slot(index, "(i32.const 0)"))
        top, end = out.new_label(), out.new_label()
        out.line(out.goto(top))
        out.place(top)
        out.line(set_slot(index, f"(i32.add {slot(index)} (i32.const 1))"))
        out.line(f"(if (i32.gt_s {slot(index)} {load_word(self.mem.ARENA, slot(items))}) (then {out.goto(end)}))")
        out.line(set_slot(out.slot(node.variable), load_word(self.mem.ARENA, f"(i32.add {slot(items)} {slot(index)})")))
        out.names[node.variable] = slot(out.slot(node.variable))
        self.block(node.body, out, True)
        out.line(out.goto(top))
        out.place(end)

    def flat_Repeat(self, node, out):
        top = out.new_label()
        out.line(out.goto(top))
        out.place(top)
        self.block(node.body, out, True)
        out.line(out.goto(top))
        out.place(out.new_label())

    def flat_As(self, node, out):
        saved = out.slot(f"as{id(node)}")
        out.line(set_slot(saved, "(i32.load offset=8 (local.get $f))"))
        out.line(f"(i32.store offset=8 (local.get $f) {out.value(node.player)})")
        self.block(node.body, out, True)
        out.line(f"(i32.store offset=8 (local.get $f) {slot(saved)})")

    def flat_Turn(self, node, out):
        mem = self.mem
        saved, saved_turn, end = out.slot(f"you{id(node)}"), out.slot(f"turn{id(node)}"), out.new_label()
        out.line(set_slot(saved, "(i32.load offset=8 (local.get $f))"))
        out.line(set_slot(saved_turn, scalar(mem.TURN_PLAYER)))
        out.line(f"(i32.store offset=8 (local.get $f) {out.value(node.player)})")
        out.line(set_scalar(mem.TURN_PLAYER, "(i32.load offset=8 (local.get $f))"))
        out.line(set_scalar(mem.TURNS, f"(i32.add {scalar(mem.TURNS)} (i32.const 1))"))
        out.line(store_word(mem.MARK_DEPTH, scalar(mem.MARKS), scalar(mem.SP)))
        out.line(store_word(mem.MARK_PC, scalar(mem.MARKS), f"(i32.const @{end}@)"))
        out.line(set_scalar(mem.MARKS, f"(i32.add {scalar(mem.MARKS)} (i32.const 1))"))
        self.block(node.body, out, True)
        out.line(out.goto(end))
        out.place(end)
        out.line(set_scalar(mem.MARKS, f"(i32.sub {scalar(mem.MARKS)} (i32.const 1))"))
        out.line(f"(i32.store offset=8 (local.get $f) {slot(saved)})")
        out.line(set_scalar(mem.TURN_PLAYER, slot(saved_turn)))

    def flat_Phase(self, node, out):
        self.block(node.body, out, True)

    def flat_Choose(self, node, out):
        mem, names = self.mem, list(node.binds())
        columns = [out.slot(f"column{id(node)}_{n}") for n in names]
        count, chosen = out.slot(f"count{id(node)}"), out.slot(f"chosen{id(node)}")
        for column in columns:
            out.line(set_slot(column, "(call $new_list (i32.const 256))"))
            out.line(store_word(mem.ARENA, slot(column), "(i32.const 0)"))
        # the options, written as nested loops over each binding's list
        def loops(level: int, code: WCode) -> None:
            if level == len(node.bindings):
                def add(target):
                    for column, name in zip(columns, names):
                        length = load_word(mem.ARENA, slot(column))
                        target.line(store_word(mem.ARENA, slot(column), f"(i32.add {length} (i32.const 1))"))
                        target.line(store_word(mem.ARENA, f"(i32.add {slot(column)} {load_word(mem.ARENA, slot(column))})",
                                               code.names[name]))
                if node.where is not None:
                    test = code.value(node.where)
                    then: list[str] = []
                    add(code.inner(lines=then))
                    code.line(f"(if {test} (then {' '.join(then)}))")
                else:
                    add(code)
                return
            name, source = node.bindings[level]
            items = code.simple(code.value(source))
            i, item = out.fn.local("i"), out.fn.local("b")
            body_lines: list[str] = []
            body = code.inner({name: f"(local.get {item})"}, body_lines)
            loops(level + 1, body)
            label = i[1:]
            code.line(f"(local.set {i} (i32.const 1)) (block $cb{label} (loop $cl{label} "
                      f"(br_if $cb{label} (i32.gt_s (local.get {i}) {load_word(mem.ARENA, items)})) "
                      f"(local.set {item} {load_word(mem.ARENA, f'(i32.add {items} (local.get {i}))')}) "
                      f"{' '.join(body_lines)} (local.set {i} (i32.add (local.get {i}) (i32.const 1))) (br $cl{label})))")
        loops(0, out)
        out.line(set_slot(count, load_word(mem.ARENA, slot(columns[0]))))
        out.line(set_scalar(mem.AP, f"(i32.add (i32.add {slot(columns[-1])} {slot(count)}) (i32.const 1))"))
        asking, after = out.new_label(), out.new_label()
        out.line(f"(if (i32.gt_s {slot(count)} (i32.const 0)) (then {out.goto(asking)}))")
        for name in names:
            out.line(set_slot(out.slot(name), "(i32.const 0)"))
        if node.otherwise is not None:
            self.block(node.otherwise, out, True)
        elif not node.optional:
            out.line(f"(return (i32.const {DONE}))")
        out.line(out.goto(after))
        out.place(asking)
        player = out.value(node.by) if node.by is not None else "(i32.load offset=8 (local.get $f))"
        name = self.layout.name(node.name)
        out.line(set_slot(chosen, f"(call $ask (i32.const {name}) {player} "
                                  f"(i32.add {slot(count)} (i32.const {1 if node.optional else 0})))"))
        binds = " ".join(set_slot(out.slot(n), load_word(mem.ARENA, f"(i32.add {slot(c)} {slot(chosen)})"))
                         for n, c in zip(names, columns))
        nones = " ".join(set_slot(out.slot(n), "(i32.const 0)") for n in names)
        out.line(f"(if (i32.gt_s {slot(chosen)} {slot(count)}) (then {nones}) (else {binds}))")
        out.line(out.goto(after))
        out.place(after)
        for n in names:
            out.names[n] = slot(out.slot(n))


RUNTIME = """
(func $zone_at (param $zone i32) (param $i i32) (result i32)
  (i32.add (i32.const {ZS}) (i32.shl (i32.add (i32.mul (local.get $zone) (i32.const {STRIDE})) (local.get $i)) (i32.const 2))))
(func $top (param $zone i32) (result i32) (local $n i32)
  (if (i32.eqz (local.get $zone)) (then (return (i32.const 0))))
  (local.set $n (i32.load offset={ZN} (i32.shl (local.get $zone) (i32.const 2))))
  (if (result i32) (local.get $n) (then (i32.load (call $zone_at (local.get $zone) (i32.sub (local.get $n) (i32.const 1)))))
    (else (i32.const 0))))
(func $bottom (param $zone i32) (result i32)
  (if (result i32) (i32.load offset={ZN} (i32.shl (local.get $zone) (i32.const 2)))
    (then (i32.load (call $zone_at (local.get $zone) (i32.const 0)))) (else (i32.const 0))))
(func $on_top (param $c i32) (result i32) (local $zone i32)
  (if (i32.eqz (local.get $c)) (then (return (i32.const 0))))
  (local.set $zone (i32.load offset={ZONE} (i32.shl (local.get $c) (i32.const 2))))
  (if (i32.gt_s (local.get $zone) (i32.const {NLOCATIONS})) (then (return (i32.const 0))))
  (i32.eq (call $top (local.get $zone)) (local.get $c)))
(func $position (param $zone i32) (param $c i32) (result i32) (local $i i32)
  (local.set $i (i32.sub (i32.load offset={ZN} (i32.shl (local.get $zone) (i32.const 2))) (i32.const 1)))
  (block $done (loop $look
    (br_if $done (i32.lt_s (local.get $i) (i32.const 0)))
    (br_if $done (i32.eq (i32.load (call $zone_at (local.get $zone) (local.get $i))) (local.get $c)))
    (local.set $i (i32.sub (local.get $i) (i32.const 1)))
    (br $look)))
  (local.get $i))
(func $new_list (param $length i32) (result i32) (local $at i32)
  (local.set $at (i32.load (i32.const {AP})))
  (i32.store offset={ARENA} (i32.shl (local.get $at) (i32.const 2)) (local.get $length))
  (i32.store (i32.const {AP}) (i32.add (local.get $at) (i32.add (local.get $length) (i32.const 1))))
  (local.get $at))
(func $contains (param $list i32) (param $x i32) (result i32) (local $i i32) (local $n i32)
  (local.set $n (i32.load offset={ARENA} (i32.shl (local.get $list) (i32.const 2))))
  (local.set $i (i32.const 1))
  (block $done (loop $look
    (br_if $done (i32.gt_s (local.get $i) (local.get $n)))
    (if (i32.eq (i32.load offset={ARENA} (i32.shl (i32.add (local.get $list) (local.get $i)) (i32.const 2))) (local.get $x))
      (then (return (i32.const 1))))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (br $look)))
  (i32.const 0))
(func $kinds (param $zone i32) (result i32) (local $list i32) (local $k i32) (local $i i32) (local $n i32)
  (local.set $list (call $new_list (i32.const {NKINDS})))
  (i32.store offset={ARENA} (i32.shl (local.get $list) (i32.const 2)) (i32.const 0))
  (local.set $n (i32.load offset={ZN} (i32.shl (local.get $zone) (i32.const 2))))
  (local.set $k (i32.const 1))
  (block $kinds_done (loop $kinds
    (br_if $kinds_done (i32.gt_s (local.get $k) (i32.const {NKINDS})))
    (local.set $i (i32.const 0))
    (block $found (loop $look
      (br_if $found (i32.ge_s (local.get $i) (local.get $n)))
      (if (i32.eq (i32.load offset={KIND} (i32.shl (i32.load (call $zone_at (local.get $zone) (local.get $i))) (i32.const 2)))
                  (local.get $k))
        (then
          (i32.store offset={ARENA} (i32.shl (local.get $list) (i32.const 2))
            (i32.add (i32.load offset={ARENA} (i32.shl (local.get $list) (i32.const 2))) (i32.const 1)))
          (i32.store offset={ARENA} (i32.shl (i32.add (local.get $list)
            (i32.load offset={ARENA} (i32.shl (local.get $list) (i32.const 2)))) (i32.const 2)) (local.get $k))
          (br $found)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $look)))
    (local.set $k (i32.add (local.get $k) (i32.const 1)))
    (br $kinds)))
  (i32.store (i32.const {AP}) (i32.add (i32.add (local.get $list)
    (i32.load offset={ARENA} (i32.shl (local.get $list) (i32.const 2)))) (i32.const 1)))
  (local.get $list))
(func $occupied (param $locations i32) (result i32) (call $filter (local.get $locations) (i32.const 0)))
(func $tops (param $locations i32) (result i32) (call $filter (local.get $locations) (i32.const 1)))
(func $filter (param $locations i32) (param $tops i32) (result i32) (local $list i32) (local $i i32) (local $n i32) (local $z i32)
  (local.set $n (i32.load offset={ARENA} (i32.shl (local.get $locations) (i32.const 2))))
  (local.set $list (call $new_list (local.get $n)))
  (i32.store offset={ARENA} (i32.shl (local.get $list) (i32.const 2)) (i32.const 0))
  (local.set $i (i32.const 1))
  (block $d (loop $l (br_if $d (i32.gt_s (local.get $i) (local.get $n)))
    (local.set $z (i32.load offset={ARENA} (i32.shl (i32.add (local.get $locations) (local.get $i)) (i32.const 2))))
    (if (i32.load offset={ZN} (i32.shl (local.get $z) (i32.const 2))) (then
      (i32.store offset={ARENA} (i32.shl (local.get $list) (i32.const 2))
        (i32.add (i32.load offset={ARENA} (i32.shl (local.get $list) (i32.const 2))) (i32.const 1)))
      (i32.store offset={ARENA} (i32.shl (i32.add (local.get $list) (i32.load offset={ARENA} (i32.shl (local.get $list) (i32.const 2))))
        (i32.const 2)) (select (call $top (local.get $z)) (local.get $z) (local.get $tops)))))
    (local.set $i (i32.add (local.get $i) (i32.const 1))) (br $l)))
  (local.get $list))
(func $pieces (param $zone i32) (result i32) (local $list i32) (local $i i32) (local $n i32)
  (local.set $n (i32.load offset={ZN} (i32.shl (local.get $zone) (i32.const 2))))
  (local.set $list (call $new_list (local.get $n)))
  (block $d (loop $l (br_if $d (i32.ge_s (local.get $i) (local.get $n)))
    (i32.store offset={ARENA} (i32.shl (i32.add (local.get $list) (i32.add (local.get $i) (i32.const 1))) (i32.const 2))
      (i32.load (call $zone_at (local.get $zone) (local.get $i))))
    (local.set $i (i32.add (local.get $i) (i32.const 1))) (br $l)))
  (local.get $list))
(func $push (param $routine i32) (result i32) (local $f i32)
  (local.set $f (i32.add (i32.const {FRAMES}) (i32.mul (i32.load (i32.const {SP})) (i32.const {FRAME}))))
  (memory.fill (local.get $f) (i32.const 0) (i32.const {FRAME}))
  (i32.store (local.get $f) (local.get $routine))
  (i32.store (i32.const {SP}) (i32.add (i32.load (i32.const {SP})) (i32.const 1)))
  (local.get $f))
(func $end_turn (result i32) (local $m i32) (local $depth i32)
  (local.set $m (i32.sub (i32.load (i32.const {MARKS})) (i32.const 1)))
  (local.set $depth (i32.load offset={MARK_DEPTH} (i32.shl (local.get $m) (i32.const 2))))
  (i32.store (i32.const {SP}) (local.get $depth))
  (i32.store offset=4 (i32.add (i32.const {FRAMES}) (i32.mul (i32.sub (local.get $depth) (i32.const 1)) (i32.const {FRAME})))
    (i32.load offset={MARK_PC} (i32.shl (local.get $m) (i32.const 2))))
  (i32.const 1))
(func $finish (result i32)
  (i32.store (i32.const {FINISHED}) (i32.const 1))
  (i32.store (i32.const {SP}) (i32.const 0))
  (i32.const 1))
(func $lose (param $p i32) (result i32) (local $q i32) (local $n i32)
  (local.set $q (i32.const 1))
  (block $done (loop $players
    (br_if $done (i32.gt_s (local.get $q) (i32.const 2)))
    (if (i32.ne (local.get $q) (local.get $p)) (then
      (i32.store offset={WINNERS} (i32.shl (local.get $n) (i32.const 2)) (local.get $q))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))))
    (local.set $q (i32.add (local.get $q) (i32.const 1)))
    (br $players)))
  (i32.store (i32.const {NWINNERS}) (select (i32.const 1) (i32.const 0) (i32.eq (local.get $n) (i32.const 1))))
  (call $finish))
(func $rank (param $keys i32) (param $players i32) (result i32)
  (local $k i32) (local $p i32) (local $best i32) (local $n i32) (local $m i32) (local $i i32) (local $value i32)
  (local.set $p (i32.const 1))
  (block $d (loop $l (br_if $d (i32.gt_s (local.get $p) (local.get $players)))
    (i32.store offset={WINNERS} (i32.shl (i32.sub (local.get $p) (i32.const 1)) (i32.const 2)) (local.get $p))
    (local.set $p (i32.add (local.get $p) (i32.const 1))) (br $l)))
  (local.set $n (local.get $players))
  (block $keys_done (loop $each_key
    (br_if $keys_done (i32.or (i32.ge_s (local.get $k) (local.get $keys)) (i32.le_s (local.get $n) (i32.const 1))))
    (local.set $best (i32.const -1000000000))
    (local.set $i (i32.const 0))
    (block $d (loop $l (br_if $d (i32.ge_s (local.get $i) (local.get $n)))
      (local.set $value (i32.load offset={ARENA} (i32.shl (i32.add (i32.mul (local.get $k) (i32.add (local.get $players) (i32.const 1)))
        (i32.load offset={WINNERS} (i32.shl (local.get $i) (i32.const 2)))) (i32.const 2))))
      (if (i32.gt_s (local.get $value) (local.get $best)) (then (local.set $best (local.get $value))))
      (local.set $i (i32.add (local.get $i) (i32.const 1))) (br $l)))
    (local.set $m (i32.const 0))
    (local.set $i (i32.const 0))
    (block $d (loop $l (br_if $d (i32.ge_s (local.get $i) (local.get $n)))
      (local.set $p (i32.load offset={WINNERS} (i32.shl (local.get $i) (i32.const 2))))
      (if (i32.eq (i32.load offset={ARENA} (i32.shl (i32.add (i32.mul (local.get $k) (i32.add (local.get $players) (i32.const 1)))
        (local.get $p)) (i32.const 2))) (local.get $best)) (then
        (i32.store offset={WINNERS} (i32.shl (local.get $m) (i32.const 2)) (local.get $p))
        (local.set $m (i32.add (local.get $m) (i32.const 1)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1))) (br $l)))
    (local.set $n (local.get $m))
    (local.set $k (i32.add (local.get $k) (i32.const 1)))
    (br $each_key)))
  (i32.store (i32.const {NWINNERS}) (select (i32.const 1) (i32.const 0) (i32.eq (local.get $n) (i32.const 1))))
  (call $finish))
(func $move (param $c i32) (param $to i32) (local $from i32) (local $i i32) (local $n i32)
  (local.set $from (i32.load offset={ZONE} (i32.shl (local.get $c) (i32.const 2))))
  (local.set $n (i32.load offset={ZN} (i32.shl (local.get $from) (i32.const 2))))
  (local.set $i (call $position (local.get $from) (local.get $c)))
  (if (i32.ge_s (local.get $i) (i32.const 0)) (then
    (memory.copy (call $zone_at (local.get $from) (local.get $i)) (call $zone_at (local.get $from) (i32.add (local.get $i) (i32.const 1)))
      (i32.shl (i32.sub (i32.sub (local.get $n) (i32.const 1)) (local.get $i)) (i32.const 2)))
    (i32.store offset={ZN} (i32.shl (local.get $from) (i32.const 2)) (i32.sub (local.get $n) (i32.const 1)))))
  (local.set $n (i32.load offset={ZN} (i32.shl (local.get $to) (i32.const 2))))
  (i32.store (call $zone_at (local.get $to) (local.get $n)) (local.get $c))
  (i32.store offset={ZN} (i32.shl (local.get $to) (i32.const 2)) (i32.add (local.get $n) (i32.const 1)))
  (i32.store offset={ZONE} (i32.shl (local.get $c) (i32.const 2)) (local.get $to))
  (i32.store (i32.const {VERSION}) (i32.add (i32.load (i32.const {VERSION})) (i32.const 1)))
  (call $settle))
(func $settle (local $round i32) (local $version i32) (local $f i32)
  (if (i32.or (i32.load (i32.const {BATCH})) (i32.load (i32.const {SETTLING}))) (then (return)))
  (i32.store (i32.const {SETTLING}) (i32.const 1))
  (block $done (loop $rounds
    (br_if $done (i32.ge_s (local.get $round) (i32.const 1000)))
    (local.set $version (i32.load (i32.const {VERSION})))
    (local.set $f (call $push (i32.const {ALWAYS})))
    (drop (call $R_ALWAYS (local.get $f)))
    (i32.store (i32.const {SP}) (i32.sub (i32.load (i32.const {SP})) (i32.const 1)))
    (br_if $done (i32.eq (i32.load (i32.const {VERSION})) (local.get $version)))
    (local.set $round (i32.add (local.get $round) (i32.const 1)))
    (br $rounds)))
  (i32.store (i32.const {SETTLING}) (i32.const 0)))
(func $run (export "run") (result i32) (local $at i32) (local $f i32) (local $r i32)
  (block $done (loop $frames
    (br_if $done (i32.eqz (i32.load (i32.const {SP}))))
    (local.set $at (i32.sub (i32.load (i32.const {SP})) (i32.const 1)))
    (local.set $f (i32.add (i32.const {FRAMES}) (i32.mul (local.get $at) (i32.const {FRAME}))))
    (local.set $r (call_indirect (type $routine) (local.get $f) (i32.load (local.get $f))))
    (if (i32.eqz (local.get $r)) (then
      (if (i32.eq (i32.sub (i32.load (i32.const {SP})) (i32.const 1)) (local.get $at))
        (then (i32.store (i32.const {SP}) (local.get $at))))))
    (br_if $done (i32.eq (local.get $r) (i32.const 2)))
    (br $frames)))
  (i32.load (i32.const {SP})))
(func $mt_at (param $i i32) (result i32) (i32.add (i32.const {MT}) (i32.shl (local.get $i) (i32.const 2))))
(func $seed (param $seed i32) (local $i i32) (local $j i32) (local $k i32) (local $prev i32)
  (i32.store (call $mt_at (i32.const 0)) (i32.const 19650218))
  (local.set $i (i32.const 1))
  (block $d (loop $l (br_if $d (i32.ge_u (local.get $i) (i32.const 624)))
    (local.set $prev (i32.load (call $mt_at (i32.sub (local.get $i) (i32.const 1)))))
    (i32.store (call $mt_at (local.get $i)) (i32.add (i32.mul (i32.const 1812433253)
      (i32.xor (local.get $prev) (i32.shr_u (local.get $prev) (i32.const 30)))) (local.get $i)))
    (local.set $i (i32.add (local.get $i) (i32.const 1))) (br $l)))
  (local.set $i (i32.const 1))
  (local.set $k (i32.const 624))
  (block $d (loop $l (br_if $d (i32.eqz (local.get $k)))
    (local.set $prev (i32.load (call $mt_at (i32.sub (local.get $i) (i32.const 1)))))
    (i32.store (call $mt_at (local.get $i)) (i32.add (i32.xor (i32.load (call $mt_at (local.get $i)))
      (i32.mul (i32.xor (local.get $prev) (i32.shr_u (local.get $prev) (i32.const 30))) (i32.const 1664525))) (local.get $seed)))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (if (i32.ge_u (local.get $i) (i32.const 624)) (then
      (i32.store (call $mt_at (i32.const 0)) (i32.load (call $mt_at (i32.const 623)))) (local.set $i (i32.const 1))))
    (local.set $k (i32.sub (local.get $k) (i32.const 1))) (br $l)))
  (local.set $k (i32.const 623))
  (block $d (loop $l (br_if $d (i32.eqz (local.get $k)))
    (local.set $prev (i32.load (call $mt_at (i32.sub (local.get $i) (i32.const 1)))))
    (i32.store (call $mt_at (local.get $i)) (i32.sub (i32.xor (i32.load (call $mt_at (local.get $i)))
      (i32.mul (i32.xor (local.get $prev) (i32.shr_u (local.get $prev) (i32.const 30))) (i32.const 1566083941))) (local.get $i)))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (if (i32.ge_u (local.get $i) (i32.const 624)) (then
      (i32.store (call $mt_at (i32.const 0)) (i32.load (call $mt_at (i32.const 623)))) (local.set $i (i32.const 1))))
    (local.set $k (i32.sub (local.get $k) (i32.const 1))) (br $l)))
  (i32.store (call $mt_at (i32.const 0)) (i32.const 0x80000000))
  (i32.store (i32.const {MTI}) (i32.const 624)))
(func $genrand (result i32) (local $k i32) (local $y i32) (local $i i32)
  (if (i32.ge_u (i32.load (i32.const {MTI})) (i32.const 624)) (then
    (block $d (loop $l (br_if $d (i32.ge_u (local.get $k) (i32.const 624)))
      (local.set $y (i32.or (i32.and (i32.load (call $mt_at (local.get $k))) (i32.const 0x80000000))
        (i32.and (i32.load (call $mt_at (i32.rem_u (i32.add (local.get $k) (i32.const 1)) (i32.const 624)))) (i32.const 0x7fffffff))))
      (i32.store (call $mt_at (local.get $k)) (i32.xor (i32.xor (i32.load (call $mt_at (i32.rem_u (i32.add (local.get $k) (i32.const 397)) (i32.const 624))))
        (i32.shr_u (local.get $y) (i32.const 1))) (select (i32.const 0x9908b0df) (i32.const 0) (i32.and (local.get $y) (i32.const 1)))))
      (local.set $k (i32.add (local.get $k) (i32.const 1))) (br $l)))
    (i32.store (i32.const {MTI}) (i32.const 0))))
  (local.set $i (i32.load (i32.const {MTI})))
  (local.set $y (i32.load (call $mt_at (local.get $i))))
  (i32.store (i32.const {MTI}) (i32.add (local.get $i) (i32.const 1)))
  (local.set $y (i32.xor (local.get $y) (i32.shr_u (local.get $y) (i32.const 11))))
  (local.set $y (i32.xor (local.get $y) (i32.and (i32.shl (local.get $y) (i32.const 7)) (i32.const 0x9d2c5680))))
  (local.set $y (i32.xor (local.get $y) (i32.and (i32.shl (local.get $y) (i32.const 15)) (i32.const 0xefc60000))))
  (i32.xor (local.get $y) (i32.shr_u (local.get $y) (i32.const 18))))
(func $ask (param $name i32) (param $player i32) (param $count i32) (result i32) (local $shift i32) (local $r i32) (local $t i32)
  (i32.store (i32.const {DECISIONS}) (i32.add (i32.load (i32.const {DECISIONS})) (i32.const 1)))
  (local.set $shift (i32.clz (local.get $count)))
  (local.set $r (i32.shr_u (call $genrand) (local.get $shift)))
  (block $d (loop $l (br_if $d (i32.lt_u (local.get $r) (local.get $count)))
    (local.set $r (i32.shr_u (call $genrand) (local.get $shift))) (br $l)))
  (if (i32.load (i32.const {TRACING})) (then
    (local.set $t (i32.add (i32.const {TRACE}) (i32.shl (i32.load (i32.const {TRACED})) (i32.const 4))))
    (i32.store (local.get $t) (local.get $name))
    (i32.store offset=4 (local.get $t) (local.get $player))
    (i32.store offset=8 (local.get $t) (local.get $count))
    (i32.store offset=12 (local.get $t) (local.get $r))
    (i32.store (i32.const {TRACED}) (i32.add (i32.load (i32.const {TRACED})) (i32.const 1)))))
  (i32.add (local.get $r) (i32.const 1)))
(func $new_game (export "new_game") (param $seed i32) (param $tracing i32)
  (memory.copy (i32.const 0) (i32.const {TEMPLATE}) (i32.const {TEMPLATE_USED}))
  (call $seed (local.get $seed))
  (i32.store (i32.const {TRACING}) (local.get $tracing))
  (drop (call $push (i32.const {PLAY}))))
(func $save (export "save") (memory.copy (i32.const {SAVED}) (i32.const 0)
  (i32.add (i32.const {ARENA}) (i32.shl (i32.load (i32.const {AP})) (i32.const 2)))))
(func (export "save_many") (param $n i32)
  (block $d (loop $l (br_if $d (i32.eqz (local.get $n))) (call $save)
    (local.set $n (i32.sub (local.get $n) (i32.const 1))) (br $l))))
(func (export "play_many") (param $first i32) (param $n i32) (local $seed i32)
  (local.set $seed (local.get $first))
  (block $d (loop $l (br_if $d (i32.ge_s (local.get $seed) (i32.add (local.get $first) (local.get $n))))
    (call $new_game (local.get $seed) (i32.const 0))
    (drop (call $run))
    (local.set $seed (i32.add (local.get $seed) (i32.const 1))) (br $l))))
"""


class WasmGames:
    def __init__(self, ruleset):
        import wasmtime

        writer = WasmWriter(ruleset)
        self.source = writer.write()
        self.layout, self.mem = writer.layout, writer.mem
        engine = wasmtime.Engine()
        self.store = wasmtime.Store(engine)
        module = wasmtime.Module(engine, self.source)
        instance = wasmtime.Instance(self.store, module, [])
        exports = instance.exports(self.store)
        self.memory, self.new_game, self.run, self.save = (exports[n] for n in ("memory", "new_game", "run", "save"))
        self.play_many, self.save_many = exports["play_many"], exports["save_many"]
        self._template(writer)

    def _template(self, writer) -> None:
        """The state at the start of `play:`, laid once at TEMPLATE; the constant tables after it."""
        mem, L, state = self.mem, self.layout, writer.state
        words = [0] * (mem.G_END // 4)

        def put(base, index, value):
            words[base // 4 + index] = value

        for cid, n in L.components.items():
            c = state.components[cid]
            put(mem.KIND, n, L.kinds[c.kind])
            put(mem.OWNER, n, L.players.get(c.owner, 0))
            put(mem.ZONE, n, L.zones[c.zone])
            for name, p in L.properties.items():
                put(mem.PROPS[p], n, int(c.props.get(name, writer.symbols.properties[name]) or 0))
        for zone, items in state.zones.items():
            z = L.zones[zone]
            put(mem.ZN, z, len(items))
            for i, c in enumerate(items):
                put(mem.ZS, z * mem.STRIDE + i, L.components[c.id])
        for name, value in state.variables.items():
            put(mem.VARS, L.variables[name] * (len(L.players) + 1), L.players.get(value, 0) if isinstance(value, str) else int(value or 0))
        for i, value in enumerate(L.arena):
            put(mem.ARENA, i, value)
        put(mem.AP, 0, len(L.arena))
        self.memory.write(self.store, b"".join(w.to_bytes(4, "little", signed=True) for w in words), mem.TEMPLATE)
        for address, values in writer.table_data:
            self.memory.write(self.store, b"".join(v.to_bytes(4, "little", signed=True) for v in values), address)

    def word(self, address: int) -> int:
        return int.from_bytes(self.memory.read(self.store, address, address + 4), "little", signed=True)

    def play(self, seed: int, trace: bool = False):
        self.new_game(self.store, seed, 1 if trace else 0)
        self.run(self.store)
        mem, L = self.mem, self.layout
        players = {v: k for k, v in L.players.items()}
        names = {v: k for k, v in L.names.items()}
        winner = players.get(self.word(mem.WINNERS)) if self.word(mem.NWINNERS) == 1 else None
        scores = {p: self.word(mem.SCORES + 4 * i) for p, i in L.players.items()}
        steps = None
        if trace:
            raw = self.memory.read(self.store, mem.TRACE, mem.TRACE + 16 * self.word(mem.TRACED))
            values = [int.from_bytes(raw[k:k + 4], "little") for k in range(0, len(raw), 4)]
            steps = [(names[values[k]], players[values[k + 1]], values[k + 2], values[k + 3])
                     for k in range(0, len(values), 4)]
        return winner, scores, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    ruleset = load("rulesets/cernunos")
    games = WasmGames(ruleset)
    for seed in range(200):
        winner, scores, steps = games.play(seed, trace=True)
        expected = [(n, p, len(o), i) for n, p, o, i in baseline.trace_random_game(seed)]
        result = baseline.play_random_game(seed)
        assert steps == expected and (winner, scores) == (result["winner"], result["scores"]), f"seed {seed} differs"
    print("200 random games: the hand-written baseline's, decision for decision")
    seeds = range(args.games)

    def wasm_games():
        for seed in seeds:
            games.new_game(games.store, seed, 0)
            games.run(games.store)

    def wasm_games_inside():
        games.play_many(games.store, 0, args.games)

    def baseline_games():
        for seed in seeds:
            baseline.play_game(seed)

    def engine_games():
        for seed in seeds[: args.games // 10]:
            game, rng = Game(ruleset, seed=seed), random.Random(seed)
            while not game.finished:
                game.choose(rng.randrange(len(game.decision.options)))

    sides = {"hand-written baseline (Python)": (baseline_games, args.games),
             "generated Python backend": (engine_games, args.games // 10),
             "WebAssembly, a call from Python per game": (wasm_games, args.games),
             "WebAssembly, the games looped inside": (wasm_games_inside, args.games)}
    times = {name: [] for name in sides}
    for _ in range(args.rounds):
        for name, (run, _) in sides.items():
            start = time.process_time()
            run()
            times[name].append(time.process_time() - start)
    rates = {name: sides[name][1] / statistics.median(measured) for name, measured in times.items()}
    base = rates["hand-written baseline (Python)"]
    print(f"Cernunos, random games, CPU seconds, median of {args.rounds} interleaved rounds")
    for name, rate in rates.items():
        print(f"{name:40} {rate:10.0f} games/s {rate / base:8.2f} x baseline")
    decisions = sum(len(games.play(seed, trace=True)[2]) for seed in seeds)
    per_decision = statistics.median(times["WebAssembly, the games looped inside"]) / decisions
    games.new_game(games.store, 1, 0)
    games.run(games.store)  # a game played to its end: its arena as full as a game's gets
    start = time.process_time()
    games.save_many(games.store, 10_000)
    copy = (time.process_time() - start) / 10_000
    used = games.mem.ARENA + 4 * games.word(games.mem.AP)
    print(f"a copy of a finished game (memory.copy of {used:,} bytes): {copy * 1e6:.2f} µs "
          f"= {copy / per_decision:.2f} of its decisions")


if __name__ == "__main__":
    main()
