#!/usr/bin/env python3
"""Issue 33's spike, fourth step: the ceiling of a compiled core on whole games.

The front end's checked tree written as C, with the WebAssembly backend's layout and flat frames
(`goto` where it has numbered blocks): every value an int (kinds, players, locations, zones and
components numbered; none is 0), lists in an arena, the state and the frames in one struct, compiled by `gcc -O2` and called through ctypes. It is a
measuring instrument, not a backend: it needs a C compiler where the rules load, which a plain
`pip install` cannot assume, and it compiles only what Cernunos uses. What it measures is what a
method-compiled core (Rust, or WebAssembly through Cranelift) could reach on whole games, where
LuaJIT's traces lose most of their gain (docs/performance.md).

    python tools/spike_c_backend.py --games 2000

It checks its random games against the hand-written baseline decision for decision (200 seeds),
then times, in one run: the baseline, the generated Python backend and the C code, and the copy of
a game (a memcpy of the struct's used part).
"""
from __future__ import annotations

import argparse
import ctypes
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cernunos_baseline as baseline

from interpreter import Game, load
from interpreter.backends.errors import NotCompiled
from interpreter.backends.wasm.layout import Layout
from interpreter.engine.runtime import Runtime
from interpreter.language import declarations as d
from interpreter.language import expressions as e
from interpreter.language.checker import find_deciding
from interpreter.language.expressions import Quantifier

DONE, CALL, SUSPEND = 0, 1, 2

RUNTIME = r"""
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#define DONE 0
#define CALL 1
#define SUSPEND 2
typedef struct { int routine, pc, you, self; int v[NSLOTS]; } Frame;
typedef struct {
  int kind[NCOMP + 1], owner[NCOMP + 1], zone[NCOMP + 1];
  int props[NPROPS + 1][NCOMP + 1];
  int zn[NZONES + 1];
  int z[NZONES + 1][NCOMP + 1];
  int vars[NVARS + 1][NPLAYERS + 1];
  int version, batch, settling, turns, turn_player;
  int sp; Frame frames[MAXFRAMES];
  int marks; int mark_depth[64], mark_pc[64];
  uint32_t mt[624]; int mti;
  int decisions, answer, finished;
  int nwinners, winners[NPLAYERS + 1], scores[NPLAYERS + 1];
  int *trace; int traced;
  int ap; int arena[ARENA];
} G;
typedef int (*Routine)(G*, Frame*);
static Routine ROUTINES[NROUTINES + 1];

/* Python's random.Random(seed), exactly */
static void init_genrand(G* g, uint32_t s) {
  g->mt[0] = s;
  for (int i = 1; i < 624; i++) g->mt[i] = 1812433253u * (g->mt[i - 1] ^ (g->mt[i - 1] >> 30)) + i;
}
static void seed_mt(G* g, uint32_t seed) {
  init_genrand(g, 19650218u);
  int i = 1, j = 0;
  for (int k = 624; k; k--) {
    g->mt[i] = (g->mt[i] ^ ((g->mt[i - 1] ^ (g->mt[i - 1] >> 30)) * 1664525u)) + seed + j;
    i++; j++;
    if (i >= 624) { g->mt[0] = g->mt[623]; i = 1; }
    if (j >= 1) j = 0;
  }
  for (int k = 623; k; k--) {
    g->mt[i] = (g->mt[i] ^ ((g->mt[i - 1] ^ (g->mt[i - 1] >> 30)) * 1566083941u)) - i;
    i++;
    if (i >= 624) { g->mt[0] = g->mt[623]; i = 1; }
  }
  g->mt[0] = 0x80000000u;
  g->mti = 624;
}
static uint32_t genrand(G* g) {
  uint32_t y;
  if (g->mti >= 624) {
    for (int k = 0; k < 624; k++) {
      y = (g->mt[k] & 0x80000000u) | (g->mt[(k + 1) % 624] & 0x7fffffffu);
      g->mt[k] = g->mt[(k + 397) % 624] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
    }
    g->mti = 0;
  }
  y = g->mt[g->mti++];
  y ^= y >> 11; y ^= (y << 7) & 0x9d2c5680u; y ^= (y << 15) & 0xefc60000u; y ^= y >> 18;
  return y;
}
static int randbelow(G* g, int n) {
  int bits = 0; for (int m = n; m; m >>= 1) bits++;
  uint32_t r = genrand(g) >> (32 - bits);
  while (r >= (uint32_t)n) r = genrand(g) >> (32 - bits);
  return (int)r;
}

static int ask(G* g, int name, int player, int count) {
  g->decisions++;
  int i = randbelow(g, count);
  if (g->trace) { int* t = g->trace + 4 * g->traced++; t[0] = name; t[1] = player; t[2] = count; t[3] = i; }
  return i + 1;
}

static int new_list(G* g, int length) { int at = g->ap; g->arena[at] = length; g->ap += length + 1; return at; }
static int top(G* g, int zone) { return zone && g->zn[zone] ? g->z[zone][g->zn[zone] - 1] : 0; }
static int bottom(G* g, int zone) { return zone && g->zn[zone] ? g->z[zone][0] : 0; }
static int contains(G* g, int list, int x) {
  for (int i = 1; i <= g->arena[list]; i++) if (g->arena[list + i] == x) return 1;
  return 0;
}
static Frame* push(G* g, int routine) {
  Frame* f = &g->frames[g->sp++];
  memset(f, 0, sizeof(Frame));
  f->routine = routine;
  return f;
}
static int end_turn(G* g) {
  int depth = g->mark_depth[g->marks - 1];
  g->sp = depth;
  g->frames[depth - 1].pc = g->mark_pc[g->marks - 1];
  return CALL;
}
static int finish(G* g) { g->finished = 1; g->sp = 0; return CALL; }
static void settle(G* g);
static void move(G* g, int c, int to) {
  int from = g->zone[c];
  for (int i = g->zn[from] - 1; i >= 0; i--) {
    if (g->z[from][i] == c) {
      memmove(&g->z[from][i], &g->z[from][i + 1], (g->zn[from] - 1 - i) * sizeof(int));
      g->zn[from]--;
      break;
    }
  }
  g->z[to][g->zn[to]++] = c;
  g->zone[c] = to;
  g->version++;
  settle(g);
}
static int run(G* g) {
  while (g->sp > 0) {
    int at = g->sp - 1;
    Frame* f = &g->frames[at];
    int r = ROUTINES[f->routine](g, f);
    if (r == DONE) { if (g->sp - 1 == at) g->sp--; }
    else if (r == SUSPEND) return 1;
  }
  return 0;
}
"""


class CCode:
    """Lines of C with preludes, as the WebAssembly backend's WCode (expressions)."""

    def __init__(self, w, names, lines, depth=1):
        self.w, self.names, self.lines, self.depth = w, names, lines, depth

    def line(self, text):
        self.lines.append("  " * self.depth + text)

    def inner(self, names=None):
        return CCode(self.w, {**self.names, **(names or {})}, self.lines, self.depth + 1)

    def temp(self):
        return self.w.temp()

    def value(self, expr) -> str:
        method = getattr(self, "_" + type(expr).__name__, None)
        if method is None:
            raise NotCompiled(f"{type(expr).__name__} in C", expr.pos)
        return method(expr)

    def simple(self, code):
        if code.replace("_", "").isalnum() or code.startswith("f->"):
            return code
        t = self.temp()
        self.line(f"int {t} = {code};")
        return t

    def _Literal(self, expr):
        v = expr.value
        if v is None:
            return "0"
        if isinstance(v, bool):
            return "1" if v else "0"
        if isinstance(v, int):
            return str(v)
        raise NotCompiled("a text in C", expr.pos)

    def atom(self, name, pos):
        L, what = self.w.layout, self.w.symbols.kind_of(name)
        table = {"kind": L.kinds, "player": L.players, "location": L.locations, "zone": L.zones}.get(what)
        if table is None or name not in table:
            raise NotCompiled(f"the name {name} in C", pos)
        return str(table[name])

    def _Name(self, expr):
        name = expr.name
        if name in self.names:
            return self.names[name]
        if name == "locations":
            return str(self.w.layout.constant_list("locations", list(self.w.layout.locations.values())))
        if name == "players":
            return str(self.w.layout.constant_list("players", list(self.w.layout.players.values())))
        what = self.w.symbols.kind_of(name)
        if what == "variable":
            return f"g->vars[{self.w.layout.variables[name]}][0]"
        if what == "function":
            return f"F_{name}(g)"
        if what == "connection":
            return "0"
        return self.atom(name, expr.pos)

    def _Call(self, expr):
        name, symbols, L = expr.name, self.w.symbols, self.w.layout
        if name in symbols.functions:
            return f"F_{name}(g{''.join(', ' + self.value(a) for a in expr.args)})"
        if name in symbols.zones:
            table = self.w.table(f"zones_{name}", {L.players[p]: L.zones[f"{name}/{p}"] for p in L.players})
            return f"{table}[{self.value(expr.args[0])}]"
        args = [self.value(a) for a in expr.args]
        if name in ("top", "bottom"):
            return f"{name}(g, {args[0]})"
        if name == "empty":
            return f"(g->zn[{args[0]}] == 0)"
        if name == "on_top":
            c = self.simple(args[0])
            return f"({c} && g->zone[{c}] <= NLOCATIONS && top(g, g->zone[{c}]) == {c})"
        if name == "next":
            return f"({args[0]} % NPLAYERS + 1)"
        if name == "index":
            return f"({args[0]} - 1)"
        if name == "direction":
            a, b = self.simple(args[0]), self.simple(args[1])
            table = self.w.grid("direction", lambda x, y: L.directions.get(self.w.board._directions.get((x, y)), 0))
            return f"{table}[{a}][{b}]"
        if name == "step":
            via = tuple(i.name for i in expr.args[2].items)
            table = self.w.step_table(via)
            return f"{table}[{self.simple(args[0])}][{args[1]}]"
        if name in ("adjacent", "ray"):
            via = expr.args[1]
            via = tuple(i.name for i in via.items) if isinstance(via, e.ListOf) else (via.name,)
            length = expr.args[2].value if name == "ray" else None
            table = self.w.neighbourhoods(via, length)
            return f"{table}[{args[0]}]"
        if name in ("kinds", "occupied", "tops", "pieces", "beneath"):
            return self.list_builtin(name, args[0])
        raise NotCompiled(f"{name}() in C", expr.pos)

    def list_builtin(self, name, arg):
        t, i = self.temp(), self.temp()
        arg = self.simple(arg)
        if name == "kinds":
            self.line(f"int {t} = new_list(g, NKINDS); g->arena[{t}] = 0;")
            self.line(f"for (int k = 1; k <= NKINDS; k++) for (int {i} = 0; {i} < g->zn[{arg}]; {i}++)")
            self.line(f"  if (g->kind[g->z[{arg}][{i}]] == k) {{ g->arena[{t} + ++g->arena[{t}]] = k; break; }}")
            self.line(f"g->ap = {t} + g->arena[{t}] + 1;")
        elif name in ("occupied", "tops"):
            self.line(f"int {t} = new_list(g, g->arena[{arg}]); g->arena[{t}] = 0;")
            self.line(f"for (int {i} = 1; {i} <= g->arena[{arg}]; {i}++) if (g->zn[g->arena[{arg} + {i}]])")
            item = f"g->arena[{arg} + {i}]" if name == "occupied" else f"top(g, g->arena[{arg} + {i}])"
            self.line(f"  g->arena[{t} + ++g->arena[{t}]] = {item};")
        elif name == "pieces":
            self.line(f"int {t} = new_list(g, g->zn[{arg}]);")
            self.line(f"for (int {i} = 0; {i} < g->zn[{arg}]; {i}++) g->arena[{t} + 1 + {i}] = g->z[{arg}][{i}];")
        else:
            raise NotCompiled("beneath() as a value in C", None)
        return t

    def _Attribute(self, expr):
        c = self.value(expr.subject)
        if expr.name in ("owner", "kind", "zone"):
            return f"g->{expr.name}[{c}]"
        if expr.name == "location":
            c = self.simple(c)
            return f"(g->zone[{c}] <= NLOCATIONS ? g->zone[{c}] : 0)"
        if expr.name in self.w.layout.properties:
            return f"g->props[{self.w.layout.properties[expr.name]}][{c}]"
        raise NotCompiled(f".{expr.name} in C", expr.pos)

    def _Is(self, expr):
        c, symbols = self.value(expr.subject), self.w.symbols
        if expr.name in symbols.kinds:
            test = f"(g->kind[{c}] == {self.w.layout.kinds[expr.name]})"
        else:
            kinds = self.w.program.kinds_with_trait[expr.name]
            table = self.w.table(f"trait_{expr.name}", {self.w.layout.kinds[k]: 1 for k in kinds})
            test = f"{table}[g->kind[{c}]]"
        return f"(!{test})" if expr.negated else test

    def _Binary(self, expr):
        op = expr.op
        if op in ("and", "or"):
            left = self.value(expr.left)
            inner = CCode(self.w, self.names, [], self.depth + 1)
            right = inner.value(expr.right)
            if not inner.lines:
                return f"({left} {'&&' if op == 'and' else '||'} {right})"
            t = self.temp()
            self.line(f"int {t} = ({left}) != 0;")
            self.line(f"if ({'' if op == 'and' else '!'}{t}) {{")
            self.lines.extend(inner.lines)
            self.line(f"  {t} = ({right}) != 0;")
            self.line("}")
            return t
        left, right = self.value(expr.left), self.value(expr.right)
        if op in ("in", "not in"):
            test = f"contains(g, {right}, {left})"
            return test if op == "in" else f"(!{test})"
        c_op = {"=": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "+": "+", "-": "-", "*": "*"}[op]
        return f"({left} {c_op} {right})"

    def _Not(self, expr):
        return f"(!{self.value(expr.operand)})"

    def _Negate(self, expr):
        return f"(-{self.value(expr.operand)})"

    def _Conditional(self, expr):
        t = self.temp()
        self.line(f"int {t};")
        self.line(f"if ({self.value(expr.test)}) {{")
        inner = self.inner()
        inner.line(f"{t} = {inner.value(expr.then)};")
        self.line("} else {")
        inner = self.inner()
        inner.line(f"{t} = {inner.value(expr.otherwise)};")
        self.line("}")
        return t

    def _ListOf(self, expr):
        items = [self.value(i) for i in expr.items]
        t = self.temp()
        self.line(f"int {t} = new_list(g, {len(items)});")
        for n, item in enumerate(items, 1):
            self.line(f"g->arena[{t} + {n}] = {item};")
        return t

    def _Quantifier(self, expr):
        q, result, item, i = expr.quantifier, self.temp(), self.temp(), self.temp()
        initial = {"count": "0", "sum": "0", "any": "0", "all": "1", "first": "0"}.get(q)
        if q != "select" and initial is None:
            raise NotCompiled(f"{q}() in C", expr.pos)
        self.line(f"int {result} = {initial or 0};")

        def reserve(capacity):  # a select's room, made before its loop allocates anything
            if q == "select":
                self.line(f"{result} = new_list(g, {capacity}); g->arena[{result}] = 0;")
        source = expr.source
        builtin = source.name if isinstance(source, e.Call) and source.name not in self.w.symbols.functions else None
        closers = 1
        if builtin == "beneath":
            c = self.simple(self.value(source.args[0]))
            zone, at = self.temp(), self.temp()
            self.line(f"int {zone} = g->zone[{c}], {at} = -1;")
            self.line(f"for (int j = g->zn[{zone}] - 1; j >= 0; j--) if (g->z[{zone}][j] == {c}) {{ {at} = j; break; }}")
            reserve(f"g->zn[{zone}]")
            self.line(f"for (int {i} = {at} - 1; {i} >= 0; {i}--) {{")
            body = self.inner({expr.variable: item})
            body.line(f"int {item} = g->z[{zone}][{i}];")
        elif builtin == "pieces":
            zone = self.simple(self.value(source.args[0]))
            reserve(f"g->zn[{zone}]")
            self.line(f"for (int {i} = 0; {i} < g->zn[{zone}]; {i}++) {{")
            body = self.inner({expr.variable: item})
            body.line(f"int {item} = g->z[{zone}][{i}];")
        elif builtin == "tops":
            items = self.simple(self.value(source.args[0]))
            reserve(f"g->arena[{items}]")
            self.line(f"for (int {i} = 1; {i} <= g->arena[{items}]; {i}++) {{")
            body = self.inner({expr.variable: item})
            body.line(f"int {item} = top(g, g->arena[{items} + {i}]);")
            body.line(f"if ({item}) {{")
            body = body.inner()
            closers += 1
        else:
            items = self.simple(self.value(source))
            reserve(f"g->arena[{items}]")
            self.line(f"for (int {i} = 1; {i} <= g->arena[{items}]; {i}++) {{")
            body = self.inner({expr.variable: item})
            body.line(f"int {item} = g->arena[{items} + {i}];")
        if expr.while_ is not None:
            body.line(f"if (!({body.value(expr.while_)})) break;")
        if expr.where is not None and q != "all":
            body.line(f"if ({body.value(expr.where)}) {{")
            body = body.inner()
            closers += 1
        if q == "count":
            body.line(f"{result}++;")
        elif q == "any":
            body.line(f"{result} = 1; break;")
        elif q == "first":
            body.line(f"{result} = {item}; break;")
        elif q == "all":
            body.line(f"if (!({body.value(expr.where) if expr.where else '1'})) {{ {result} = 0; break; }}")
        elif q == "select":
            value = body.value(expr.value) if expr.value is not None else item
            body.line(f"g->arena[{result} + ++g->arena[{result}]] = {value};")
        elif q == "sum":
            body.line(f"{result} += {body.value(expr.value) if expr.value is not None else item};")
        for k in range(closers):
            self.line("  " * (closers - 1 - k) + "}")
        if q == "select":
            self.line(f"g->ap = {result} + g->arena[{result}] + 1;")
        return result


class CRoutine(CCode):
    def __init__(self, w, names, flat):
        super().__init__(w, names, [])
        self.flat, self.resumes, self.labels, self.slots = flat, [], 0, {}

    def slot(self, name):
        if name not in self.slots:
            self.slots[name] = len(self.slots)
            if len(self.slots) > 40:
                raise NotCompiled("more than 40 slots in a frame", None)
        return f"f->v[{self.slots[name]}]"

    def label(self):
        self.labels += 1
        return f"L{self.labels}"

    def resume(self):
        self.resumes.append(len(self.resumes) + 1)
        return self.resumes[-1]


class CWriter:
    def __init__(self, ruleset):
        self.ruleset, self.program, self.symbols, self.board = ruleset, ruleset.program, ruleset.program.symbols, ruleset.board
        program = self.program
        self.deciding = find_deciding(program.declarations, list(program.ability_blocks))
        state = ruleset.initial_state(0, program.chosen_options(None))
        rt = Runtime(state, ruleset.board, program)
        rt.players = list(program.table)
        for name, per_player, value, _ in program.variables:
            state.variables[name] = value(rt, {"you": None})
        self.state = state
        self.layout = Layout(ruleset, state)
        self.counter = 0
        self.tables: list[str] = []
        self._tables: dict = {}
        self.routines: list[str] = []  # their C names, by number from 1
        self.bodies: list[str] = []
        self.declared: list[str] = []
        self.procedure_params = {decl.name: decl.params for decl in program.declarations if isinstance(decl, d.ProcedureDecl)}

    def temp(self):
        self.counter += 1
        return f"t{self.counter}"

    def table(self, key, mapping: dict) -> str:
        if key not in self._tables:
            name = f"T_{len(self._tables)}"
            size = max([0, *mapping]) + 1
            values = [mapping.get(i, 0) for i in range(max(size, 64))]
            self.tables.append(f"static const int {name}[] = {{{', '.join(map(str, values))}}};")
            self._tables[key] = name
        return self._tables[key]

    def grid(self, key, function) -> str:
        if key not in self._tables:
            name = f"T_{len(self._tables)}"
            locations = self.layout.locations
            rows = []
            for a in [None, *locations]:
                rows.append("{" + ", ".join(str(function(a, b) if a and b else 0) for b in [None, *locations]) + "}")
            self.tables.append(f"static const int {name}[][{len(locations) + 1}] = {{{', '.join(rows)}}};")
            self._tables[key] = name
        return self._tables[key]

    def step_table(self, via) -> str:
        key = ("step", via)
        if key not in self._tables:
            L, board = self.layout, self.board
            name = f"T_{len(self._tables)}"
            rows = ["{" + ", ".join("0" for _ in range(len(L.directions) + 1)) + "}"]
            for location in L.locations:
                row = [0] + [L.locations.get(board.step(location, direction, via), 0) for direction in L.directions]
                rows.append("{" + ", ".join(map(str, row)) + "}")
            self.tables.append(f"static const int {name}[][{len(L.directions) + 1}] = {{{', '.join(rows)}}};")
            self._tables[key] = name
        return self._tables[key]

    def neighbourhoods(self, via, length) -> str:
        key = ("nb", via, length)
        if key not in self._tables:
            L = self.layout
            table = self.board.neighbourhoods(via, length)
            lists = {L.locations[loc]: L.constant_list((via, length, loc), [L.locations[x] for x in table[loc]])
                     for loc in L.locations}
            lists[0] = L.constant_list("empty", [])
            return self.table(key, lists)
        return self._tables[key]

    def routine_number(self, cname):
        if cname not in self.routines:
            self.routines.append(cname)
            self.declared.append(f"static int {cname}(G* g, Frame* f);")
        return self.routines.index(cname) + 1

    # whole program
    def write(self) -> str:
        program = self.program
        functions, procedures = [], []
        modifiers = {}
        for decl in program.declarations:
            if isinstance(decl, d.ModifyDecl):
                modifiers.setdefault(decl.name, []).append(decl)
        always, play = [], None
        for decl in program.declarations:
            if isinstance(decl, d.FunctionDecl):
                functions.append(decl)
            elif isinstance(decl, d.ProcedureDecl):
                procedures.append(decl)
        for decl in functions:
            params = ", ".join(f"int a{i}" for i in range(len(decl.params)))
            self.declared.append(f"static int F_{decl.name}(G* g{', ' + params if params else ''});")
        for decl in functions:
            self.bodies.append(self.function(decl, modifiers.get(decl.name, [])))
        for decl in procedures:
            self.routine(f"P_{decl.name}", decl.body, self.deciding.procedures.get(decl.name, False), decl.params)
        handlers = {}
        for decl in program.declarations:
            if isinstance(decl, d.WhenDecl):
                number = len(handlers.setdefault(decl.event[1], []))
                cname = f"H_{decl.event[1]}_{number}"
                handlers[decl.event[1]].append(cname)
                self.routine(cname, decl.body, self.deciding.events.get(decl.event, False), decl.params, decl.condition)
            elif isinstance(decl, d.AlwaysDecl):
                cname = f"A_{len(always)}"
                always.append(cname)
                self.routine(cname, decl.body, False, [])
            elif isinstance(decl, d.PlayDecl):
                play = "PLAY"
                self.routine("PLAY", decl.body, True, [])
        abilities = {}
        for ability, block in program.ability_blocks:
            cname = f"AB_{ability.name}_{ability.kind}"
            abilities.setdefault(ability.name, {})[self.layout.kinds[ability.kind]] = cname
            self.routine(cname, block, self.deciding.abilities.get(ability.name, False), [])
        self.handlers, self.abilities = handlers, abilities
        settle = ["static void settle(G* g) {", "  if (g->batch || g->settling) return;", "  g->settling = 1;",
                  "  for (int round = 0; round < 1000; round++) {", "    int version = g->version;",
                  "    Frame fr; memset(&fr, 0, sizeof fr);"]
        settle += [f"    {a}(g, &fr);" for a in always]
        settle += ["    if (g->version == version) break;", "  }", "  g->settling = 0;", "}"]
        L = self.layout
        defines = {"NSLOTS": 40, "NCOMP": len(L.components), "NPROPS": len(L.properties), "NZONES": len(L.zones),
                   "NVARS": len(L.variables), "NPLAYERS": len(L.players), "NKINDS": len(L.kinds),
                   "NLOCATIONS": len(L.locations), "MAXFRAMES": 64, "ARENA": 1 << 18, "NROUTINES": len(self.routines)}
        head = "".join(f"#define {k} {v}\n" for k, v in defines.items())
        init = self.initial_state(play)
        register = ["static void registered(void) {"] + [f"  ROUTINES[{n}] = {c};" for n, c in enumerate(self.routines, 1)] + ["}"]
        return "\n".join([head + RUNTIME, *self.declared, *self.tables, *self.bodies, *settle, *register, init])

    def initial_state(self, play) -> str:
        L, state = self.layout, self.state
        lines = [f"static const int ARENA0[] = {{{', '.join(map(str, L.arena))}}};",
                 "G* new_game(int seed) {", "  static int ready = 0;", "  if (!ready) { registered(); ready = 1; }",
                 "  G* g = calloc(1, sizeof(G));"]
        for cid, n in L.components.items():
            c = state.components[cid]
            lines.append(f"  g->kind[{n}] = {L.kinds[c.kind]}; g->owner[{n}] = {L.players.get(c.owner, 0)}; "
                         f"g->zone[{n}] = {L.zones[c.zone]};")
        for zone, items in state.zones.items():
            for i, c in enumerate(items):
                lines.append(f"  g->z[{L.zones[zone]}][{i}] = {L.components[c.id]};")
            lines.append(f"  g->zn[{L.zones[zone]}] = {len(items)};")
        for name, value in state.variables.items():
            lines.append(f"  g->vars[{L.variables[name]}][0] = {L.players.get(value, 0) if isinstance(value, str) else int(value or 0)};")
        lines += [f"  memcpy(g->arena, ARENA0, sizeof ARENA0); g->ap = {len(L.arena)};",
                  "  seed_mt(g, (uint32_t)seed);", f"  push(g, {self.routine_number('PLAY')});", "  return g;", "}",
                  "int play_random(G* g, int* trace) { g->trace = trace; g->traced = 0; run(g); return g->traced; }",
                  "int winner(G* g) { return g->nwinners == 1 ? g->winners[0] : 0; }",
                  "int score(G* g, int p) { return g->scores[p]; }",
                  "int used(G* g) { return (int)((char*)&g->arena[g->ap] - (char*)g); }",
                  "G* copy_game(G* g) { G* c = malloc(sizeof(G)); memcpy(c, g, used(g)); return c; }",
                  "void free_game(G* g) { free(g); }"]
        return "\n".join(lines)

    def function(self, decl, modifiers) -> str:
        params = [f"a{i}" for i in range(len(decl.params))]
        code = CCode(self, {}, [])
        parts = [CCode(self, dict(zip(names, params)), code.lines).value(expr)
                 for names, expr in [(decl.params, decl.body)] + [(m.params, m.amount) for m in modifiers]]
        head = f"static int F_{decl.name}(G* g{''.join(', int ' + p for p in params)}) {{"
        return "\n".join([head, *code.lines, f"  return {' + '.join(parts)};", "}"])

    def routine(self, cname, body, flat, params, condition=None):
        number = self.routine_number(cname)
        out = CRoutine(self, {"you": "f->you", "self": "f->self"}, flat)
        for p in params:
            out.names[p] = out.slot(p)
        if condition is not None:
            out.line(f"if (!({out.value(condition)})) return DONE;")
        self.block(body, out, flat)
        dispatch = []
        if out.resumes:
            dispatch = ["  switch (f->pc) {"] + [f"    case {n}: goto P{n};" for n in out.resumes] + ["  }"]
        self.bodies.append("\n".join([f"static int {cname}(G* g, Frame* f) {{", *dispatch, *out.lines,
                                      "  return DONE;", "}"]))
        return number

    def block(self, block, out, flat):
        for statement in block.statements:
            if flat and statement.decides(self.deciding):
                getattr(self, "flat_" + type(statement).__name__)(statement, out)
            else:
                out.line("{")
                inner = CRoutine.__new__(CRoutine)
                inner.__dict__.update(out.__dict__)
                inner.depth = out.depth + 1
                getattr(self, "plain_" + type(statement).__name__)(statement, inner)
                out.line("}")
            for name in statement.binds():
                out.names[name] = out.slot(name)

    def deeper(self, out):
        inner = CRoutine.__new__(CRoutine)
        inner.__dict__.update(out.__dict__)
        inner.names = dict(out.names)
        inner.depth = out.depth + 1
        return inner

    # plain statements
    def plain_Let(self, node, out):
        out.line(f"{out.slot(node.name)} = {out.value(node.value)};")

    def plain_Set(self, node, out):
        value, target = out.value(node.value), node.target
        if isinstance(target, e.Name) and target.name in out.names:
            out.line(f"{out.names[target.name]} = {value};")
            return
        if isinstance(target, e.Name):
            out.line(f"g->vars[{self.layout.variables[target.name]}][0] = {value};")
        else:
            out.line(f"g->props[{self.layout.properties[target.name]}][{out.value(target.subject)}] = {value};")
        out.line("g->version++;")

    def plain_Move(self, node, out):
        what, to = out.simple(out.value(node.what)), out.simple(out.value(node.to))
        out.line(f"if ({what}) move(g, {what}, {to});")

    def plain_CallProcedure(self, node, out):
        number = self.routine_number(f"P_{node.name}")
        args = [out.value(a) for a in node.args]
        out.line("Frame nf; memset(&nf, 0, sizeof nf); nf.you = f->you;")
        for i, a in enumerate(args):
            out.line(f"nf.v[{i}] = {a};")
        out.line(f"if (ROUTINES[{number}](g, &nf)) return CALL;")

    def plain_Signalling(self, node, out):
        if node.what == "return":
            out.line("return DONE;")
        elif node.what == "end turn":
            out.line("return end_turn(g);")
        elif node.what == "lose":
            p = out.value(node.player)
            out.line("g->nwinners = 0;")
            out.line(f"for (int q = 1; q <= NPLAYERS; q++) if (q != {p}) g->winners[g->nwinners++] = q;")
            out.line("if (g->nwinners != 1) g->nwinners = 0;")
            out.line("return finish(g);")
        else:
            raise NotCompiled(node.what, node.pos)

    def plain_Rank(self, node, out):
        keys = [(order == "most", name) for order, name in node.keys]
        out.line("int value[8][NPLAYERS + 1], leaders[NPLAYERS + 1], n = NPLAYERS;")
        out.line("for (int p = 1; p <= NPLAYERS; p++) { leaders[p - 1] = p;")
        for k, (most, name) in enumerate(keys):
            out.line(f"  value[{k}][p] = {'' if most else '-'}F_{name}(g, p);")
        out.line(f"  g->scores[p] = F_{keys[0][1]}(g, p); }}")
        for k in range(len(keys)):
            out.line("if (n > 1) { int best = -1000000000, m = 0;")
            out.line(f"  for (int i = 0; i < n; i++) if (value[{k}][leaders[i]] > best) best = value[{k}][leaders[i]];")
            out.line(f"  for (int i = 0; i < n; i++) if (value[{k}][leaders[i]] == best) leaders[m++] = leaders[i];")
            out.line("  n = m; }")
        out.line("g->nwinners = n == 1 ? 1 : 0; g->winners[0] = leaders[0];")
        out.line("return finish(g);")

    def plain_If(self, node, out):
        for number, (test, block) in enumerate(node.branches):
            if number:
                out.line("} else {")
                out = self.deeper(out)
            out.line(f"if ({out.value(test)}) {{")
            self.block(block, self.deeper(out), False)
        if node.otherwise is not None:
            out.line("} else {")
            self.block(node.otherwise, self.deeper(out), False)
        out.line("}" * 1)
        for _ in node.branches[1:]:
            out.line("}")

    def plain_ForEach(self, node, out):
        items = out.value(Quantifier(node.pos, "select", node.variable, node.source, node.where, None, None))
        i = self.temp()
        out.line(f"for (int {i} = 1; {i} <= g->arena[{items}]; {i}++) {{")
        body = self.deeper(out)
        body.line(f"{out.slot(node.variable)} = g->arena[{items} + {i}];")
        body.names[node.variable] = out.slot(node.variable)
        self.block(node.body, body, False)
        out.line("}")

    def plain_AtOnce(self, node, out):
        out.line("g->batch++;")
        self.block(node.body, self.deeper(out), False)
        out.line("g->batch--; settle(g);")

    def plain_Pass(self, node, out):
        pass

    # flat statements
    def test(self, out, test, jump):
        out.line("{")
        inner = self.deeper(out)
        inner.line(f"if (!({inner.value(test)})) goto {jump};")
        out.line("}")

    def push_frame(self, out, routine_code, fill):
        point = out.resume()
        out.line("{")
        out.line(f"  Frame* nf = push(g, {routine_code}); nf->you = f->you; {fill}")
        out.line(f"  f->pc = {point}; return CALL;")
        out.line("}")
        out.line(f"P{point}: ;")

    def flat_CallProcedure(self, node, out):
        number = self.routine_number(f"P_{node.name}")
        out.line("{")
        inner = self.deeper(out)
        args = [inner.value(a) for a in node.args]
        for i, a in enumerate(args):
            inner.line(f"{out.slot('arg' + str(i))} = {a};")
        out.line("}")
        fill = " ".join(f"nf->v[{i}] = {out.slot('arg' + str(i))};" for i in range(len(args)))
        self.push_frame(out, str(number), fill)

    def flat_Perform(self, node, out):
        table = self.table(f"ability_{node.ability}", {k: self.routine_number(c) for k, c in self.abilities_of(node.ability).items()})
        done = out.label()
        out.line("{")
        inner = self.deeper(out)
        inner.line(f"{out.slot('subject')} = {inner.value(node.subject)};")
        inner.line(f"if (!{table}[g->kind[{out.slot('subject')}]]) goto {done};")
        out.line("}")
        self.push_frame(out, f"{table}[g->kind[{out.slot('subject')}]]", f"nf->self = {out.slot('subject')};")
        out.line(f"{done}: ;")

    def abilities_of(self, name):
        return {self.layout.kinds[a.kind]: f"AB_{a.name}_{a.kind}" for a, _ in self.program.ability_blocks if a.name == name}

    def flat_Emit(self, node, out):
        out.line("{")
        inner = self.deeper(out)
        args = [inner.value(a) for a in node.args]
        for i, a in enumerate(args):
            inner.line(f"{out.slot('value' + str(i))} = {a};")
        out.line("}")
        fill = " ".join(f"nf->v[{i}] = {out.slot('value' + str(i))};" for i in range(len(args)))
        for handler in [decl for decl in self.program.declarations if isinstance(decl, d.WhenDecl) and decl.event == ("event", node.event)]:
            index = [x for x in self.program.declarations if isinstance(x, d.WhenDecl) and x.event == handler.event].index(handler)
            self.push_frame(out, str(self.routine_number(f"H_{node.event}_{index}")), fill)

    def flat_If(self, node, out):
        end = out.label()
        for test, block in node.branches:
            following = out.label()
            self.test(out, test, following)
            self.block(block, out, True)
            out.line(f"goto {end};")
            out.line(f"{following}: ;")
        if node.otherwise is not None:
            self.block(node.otherwise, out, True)
        out.line(f"{end}: ;")

    def flat_While(self, node, out):
        top, end = out.label(), out.label()
        out.line(f"{top}: ;")
        self.test(out, node.test, end)
        self.block(node.body, out, True)
        out.line(f"goto {top};")
        out.line(f"{end}: ;")

    def flat_ForEach(self, node, out):
        items, index = out.slot(self.temp()), out.slot(self.temp())
        out.line("{")
        inner = self.deeper(out)
        selection = inner.value(Quantifier(node.pos, "select", node.variable, node.source, node.where, None, None))
        inner.line(f"{items} = {selection}; {index} = 0;")
        out.line("}")
        top, end = out.label(), out.label()
        out.line(f"{top}: {index}++;")
        out.line(f"if ({index} > g->arena[{items}]) goto {end};")
        out.line(f"{out.slot(node.variable)} = g->arena[{items} + {index}];")
        out.names[node.variable] = out.slot(node.variable)
        self.block(node.body, out, True)
        out.line(f"goto {top};")
        out.line(f"{end}: ;")

    def flat_Repeat(self, node, out):
        top = out.label()
        out.line(f"{top}: ;")
        self.block(node.body, out, True)
        out.line(f"goto {top};")

    def flat_As(self, node, out):
        saved = out.slot(self.temp())
        out.line("{")
        inner = self.deeper(out)
        inner.line(f"{saved} = f->you; f->you = {inner.value(node.player)};")
        out.line("}")
        self.block(node.body, out, True)
        out.line(f"f->you = {saved};")

    def flat_Turn(self, node, out):
        saved, saved_turn, end = out.slot(self.temp()), out.slot(self.temp()), out.resume()
        out.line("{")
        inner = self.deeper(out)
        inner.line(f"{saved} = f->you; {saved_turn} = g->turn_player; f->you = {inner.value(node.player)};")
        inner.line("g->turn_player = f->you; g->turns++;")
        inner.line(f"g->mark_depth[g->marks] = g->sp; g->mark_pc[g->marks] = {end}; g->marks++;")
        out.line("}")
        self.block(node.body, out, True)
        out.line(f"P{end}: g->marks--;")
        out.line(f"f->you = {saved}; g->turn_player = {saved_turn};")

    def flat_Phase(self, node, out):
        self.block(node.body, out, True)

    def flat_Choose(self, node, out):
        names = list(node.binds())
        columns = [out.slot(self.temp()) for _ in names]
        count, chosen = out.slot(self.temp()), out.slot(self.temp())
        out.line("{")
        build = self.deeper(out)
        for column in columns:
            build.line(f"{column} = new_list(g, 256); g->arena[{column}] = 0;")
        level, closers = build, []
        for name, source in node.bindings:
            items, i, item = self.temp(), self.temp(), self.temp()
            level.line(f"int {items} = {level.value(source)};")
            level.line(f"for (int {i} = 1; {i} <= g->arena[{items}]; {i}++) {{")
            closers.append(level)
            level = self.deeper(level)
            level.line(f"int {item} = g->arena[{items} + {i}];")
            level.names[name] = item
        if node.where is not None:
            level.line(f"if ({level.value(node.where)}) {{")
            closers.append(level)
            level = self.deeper(level)
        for column, name in zip(columns, names):
            level.line(f"g->arena[{column} + ++g->arena[{column}]] = {level.names[name]};")
        for opened in reversed(closers):
            opened.line("}")
        build.line(f"{count} = g->arena[{columns[0]}];")
        build.line(f"g->ap = {columns[-1]} + 1 + {count};")
        out.line("}")
        asking, after = out.label(), out.label()
        out.line(f"if ({count} > 0) goto {asking};")
        for name in names:
            out.line(f"{out.slot(name)} = 0;")
        if node.otherwise is not None:
            self.block(node.otherwise, out, True)
        elif not node.optional:
            out.line("return DONE;")
        out.line(f"goto {after};")
        out.line(f"{asking}: ;")
        player = out.value(node.by) if node.by is not None else "f->you"
        name = self.layout.name(node.name)
        out.line(f"{chosen} = ask(g, {name}, {player}, {count} + {1 if node.optional else 0});")
        out.line(f"if ({chosen} > {count}) {{ {' '.join(out.slot(n) + ' = 0;' for n in names)} }}")
        out.line(f"else {{ {' '.join(f'{out.slot(n)} = g->arena[{c} + {chosen}];' for n, c in zip(names, columns))} }}")
        out.line(f"{after}: ;")
        for n in names:
            out.names[n] = out.slot(n)


class CGames:
    def __init__(self, ruleset):
        writer = CWriter(ruleset)
        source = writer.write()
        self.layout = writer.layout
        folder = Path(tempfile.mkdtemp(prefix="ludolex_c_"))
        (folder / "rules.c").write_text(source)
        subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-w", "-o", str(folder / "rules.so"), str(folder / "rules.c")],
                       check=True)
        lib = ctypes.CDLL(str(folder / "rules.so"))
        lib.new_game.restype = lib.copy_game.restype = ctypes.c_void_p
        lib.new_game.argtypes = [ctypes.c_int]
        for name in ("play_random", "winner", "score", "used", "copy_game", "free_game"):
            getattr(lib, name).argtypes = [ctypes.c_void_p] + ([ctypes.c_void_p] if name == "play_random" else
                                                                [ctypes.c_int] if name == "score" else [])
        self.lib = lib
        self.trace = (ctypes.c_int * 4096)()
        self.source = source

    def play(self, seed, trace=False):
        g = self.lib.new_game(seed)
        n = self.lib.play_random(g, self.trace if trace else None)
        players = {v: k for k, v in self.layout.players.items()}
        names = {v: k for k, v in self.layout.names.items()}
        winner = players.get(self.lib.winner(g))
        scores = {p: self.lib.score(g, i) for p, i in self.layout.players.items()}
        steps = [(names[self.trace[4 * k]], players[self.trace[4 * k + 1]], self.trace[4 * k + 2], self.trace[4 * k + 3])
                 for k in range(n)] if trace else None
        self.lib.free_game(g)
        return winner, scores, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    ruleset = load("rulesets/cernunos")
    games = CGames(ruleset)
    for seed in range(200):
        winner, scores, steps = games.play(seed, trace=True)
        expected = [(n, p, len(o), i) for n, p, o, i in baseline.trace_random_game(seed)]
        result = baseline.play_random_game(seed)
        assert steps == expected and (winner, scores) == (result["winner"], result["scores"]), f"seed {seed} differs"
    print("200 random games: the hand-written baseline's, decision for decision")
    lib, seeds = games.lib, range(args.games)

    def c_games():
        for seed in seeds:
            g = lib.new_game(seed)
            lib.play_random(g, None)
            lib.free_game(g)

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
             "C from the same front end (gcc -O2)": (c_games, args.games)}
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
    g = lib.new_game(1)
    copies = statistics.median(_timed(lambda: [lib.free_game(lib.copy_game(g)) for _ in range(1000)]) / 1000 for _ in range(5))
    per_decision = statistics.median(times["C from the same front end (gcc -O2)"]) / sum(
        len(games.play(seed, trace=True)[2]) for seed in seeds)
    print(f"a copy of a game (memcpy of {lib.used(g):,} bytes): {copies * 1e6:.2f} µs = {copies / per_decision:.2f} "
          f"of its decisions")


def _timed(function) -> float:
    start = time.process_time()
    function()
    return time.process_time() - start


if __name__ == "__main__":
    main()
