"""A loaded ruleset compiled to one WebAssembly module, and games of it run by wasmtime.

The module is written from the checked syntax tree (`Program.declarations`, `Program.ability_blocks`)
and imports nothing: it reaches no file, module or network, and every access is checked against its
own memory, whose size is fixed. The engine's limits are counted inside, as the Python backend counts
them: steps (each turn of a statement's loop, each call) between two decisions and in a game,
decisions in a game, rounds of the `always` rules. A game is one instance;
its copy is a new instance with the game's part of the memory copied into it.
"""
from __future__ import annotations

import ctypes
import random
from dataclasses import dataclass
from importlib import resources

from interpreter.backends.wasm.expressions import Function, NotOnWasm, WCode, identifier, load_word
from interpreter.backends.wasm.layout import (
    ARENA_WORDS,
    BASE,
    CURVE_CAPACITY,
    FACE_DOWN,
    FRAME,
    FRAME_SLOTS,
    MAX_FRAMES,
    MEMO_ENTRIES,
    TRACE_CAPACITY,
    Layout,
    Memory,
)
from interpreter.backends.wasm.replacing import PROCEED_SLOT, write_replaced
from interpreter.backends.wasm.statements import SELF, YOU, Routine, write_block
from interpreter.backends.wasm.windows import write_windows
from interpreter.diagnostics.errors import RefusedTable, RuleRuntimeError
from interpreter.engine.decisions import render_value
from interpreter.engine.runtime import Result, Runtime
from interpreter.language import declarations as d
from interpreter.language.checker import find_deciding
from interpreter.language.codegen import python_identifier
from interpreter.language.expressions import quantified_code
from interpreter.language.statements import outcome_words
from interpreter.language.types import ANY
from interpreter.play.game import seating
from interpreter.safety.limits import LIMITS, LimitExceeded

DATA = (d.FactionDecl, d.WithFactionDecl, d.AbilityDecl, d.EventDecl, d.ZoneDecl, d.ShownDecl, d.VariableDecl,
        d.PropertyDecl, d.ModifyDecl, d.OptionDecl)
WRITTEN_ELSEWHERE = (d.InsteadDecl, d.CannotDecl, d.OverrideDecl, d.AnytimeDecl)  # with the procedures, the moves,
# the functions, the windows
FAILURES = {1: "the rules' lists outgrew the game's memory", 2: "the rules' calls are nested too deeply",
            3: "a decision has more than 256 options", 4: "the trace is full",
            8: "`win` or `lose` names none, nobody, or somebody not at the table",
            9: f"a list would hold more than {LIMITS.longest_list:,} items (LUDOLEX_LONGEST_LIST)",
            10: "division by zero", 11: "a die or a draw with no sides (`roll(0)`)",
            12: "cannot move to nowhere (the destination is none)", 13: "refuse",
            5: f"the rules ran past the limit of {LIMITS.steps_per_decision:,} steps between two decisions "
               f"(LUDOLEX_STEPS_PER_DECISION), or {LIMITS.steps_per_game:,} in one game: a loop that never ends?",
            6: f"the game went past {LIMITS.decisions_per_game:,} decisions (LUDOLEX_DECISIONS_PER_GAME): "
               "do the rules ever end it?",
            7: f"the continuous (`always`) rules still change the state after {LIMITS.settle_rounds:,} rounds "
               "(LUDOLEX_SETTLE_ROUNDS)"}


def wasmtime_module():
    import wasmtime
    return wasmtime


class WasmProgram:
    """Writes the module of a ruleset; `compile()` gives the games' maker."""

    def __init__(self, ruleset, players: list[str] | None = None):
        self.ruleset, program = ruleset, ruleset.program
        self.program, self.symbols, self.board = program, program.symbols, ruleset.board
        self.seated = seating(ruleset, players)
        if len(self.seated) > 31:
            raise NotOnWasm("a table of more than 31 players", None)
        self.deciding = find_deciding(program.declarations, list(program.ability_blocks))
        state = ruleset.initial_state(0, program.chosen_options(None))
        self.start_state(state, self.seated)
        self.state, self.layout = state, Layout(ruleset, state, self.seated)
        self.mem = Memory(self.layout)
        self.kinds_list = self.layout.constant_list("kinds", list(self.layout.kinds.values()))
        self.seated_list = self.layout.constant_list("seated", self.layout.seated)
        self.locations_list = self.layout.constant_list("locations", list(self.layout.locations.values()))
        self.layout.string("pass"), self.layout.string("(nothing)")
        self.tables: dict = {}
        self.table_data: list[tuple[int, list[int]]] = []
        self.next_table = self.mem.TABLES
        self.routines: list[str] = []
        self.functions: list[str] = []
        self.positions: list = []
        self._handlers: dict[tuple, list] = {}
        self._seatings: dict[tuple, list | None] = {}
        self.kept_functions = 0  # the functions whose values are kept until the state changes
        self.source = None
        self.rank_keys: list[str] = []  # `most NAME` of every ranking's keys, in the order written
        self.columns: dict[str, int] = {}  # a decision's name -> how many values each of its options has
        self.source = self._write()

    def start_state(self, state, players) -> None:
        """The content's components in their zones in the order they were made, before any game's draws
        (the module shuffles the bags and mixes the face-down components of each game), and the
        variables' initial values, worked out on the Python backend."""
        for items in state.zones.values():
            items.clear()
        for component in state.components.values():
            state.zones[component.zone].append(component)
        program = self.program
        rt = Runtime(state, self.board, program)
        rt.players = players
        for name, per_player, value, position in program.variables:
            if per_player:
                state.variables[name] = {p: value(rt, {"you": p}) for p in program.players}
            else:
                state.variables[name] = value(rt, {"you": None})

    def seating_words(self, players: list[str]) -> list[tuple[int, int]] | None:
        """What a game with the table's players in this order writes over the start of `play:` (each at
        its address): the order, who follows whom, and the variables' initial values worked out for it.
        None where a value would need a list the module does not hold: compile for this order then."""
        if tuple(players) in self._seatings:
            return self._seatings[tuple(players)]
        layout, mem = self.layout, self.mem
        writes = None
        if sorted(players) == sorted(self.seated):
            writes = [(mem.ARENA + 4 * (self.seated_list + 1 + i), layout.players[p]) for i, p in enumerate(players)]
            writes += [(mem.NEXT + 4 * layout.players[p], layout.players[players[(i + 1) % len(players)]])
                       for i, p in enumerate(players)]
            state = self.ruleset.initial_state(0, self.program.chosen_options(None))
            rt = Runtime(state, self.board, self.program)
            rt.players = list(players)
            create = self.source is None  # while the module is written, it may hold what this order needs
            try:
                for name, per_player, value, _ in self.program.variables:
                    if per_player:
                        writes += [(self.variable(name, each=True) + 4 * layout.players[p],
                                    self.number(value(rt, {"you": p}), create)) for p in self.program.players]
                    else:
                        writes.append((self.variable(name), self.number(value(rt, {"you": None}), create)))
            except NotOnWasm:
                writes = None
        self._seatings[tuple(players)] = writes
        return writes

    # for the writers
    def where(self, pos) -> int:
        self.positions.append(pos)
        return len(self.positions)

    def zone_item(self, zone: str, index: str) -> str:
        zone = f"(i32.sub {zone} (i32.const {self.layout.ZONE0}))"
        return load_word(self.mem.ZS, f"(i32.add (i32.mul {zone} (i32.const {self.mem.STRIDE})) {index})")

    def variable(self, name: str, each: bool = False) -> int:
        """The address of a shared variable; with `each`, the address a player's number indexes."""
        mem = self.mem
        lowest = mem.VARS + 4 * self.layout.variables[name] * mem.PSPAN
        return lowest if each else lowest + 4 * self.layout.player_span[0]

    def table(self, key, mapping: dict, domain=()) -> int:
        """The address of a constant table of ints from which a key indexes it: `domain`, the values it
        may be read at besides the keys (all the kinds, all the players...); none reads 0."""
        if key not in self.tables:
            keys = [*mapping, *domain] or [0]
            low, high = min(keys), max(keys)
            self.tables[key] = self.next_table - 4 * low
            self.table_data.append((self.next_table, [mapping.get(i, 0) for i in range(low, high + 1)]))
            self.next_table += 4 * (high - low + 1)
            if self.next_table > self.mem.GAME:
                raise NotOnWasm("constant tables of more than 1 MB", None)
        return self.tables[key]

    def handlers(self, event: tuple) -> list:
        """The `when` rules of an event at this table (a faction's only if its player is seated), the
        highest precedence first, then as declared."""
        if event not in self._handlers:
            found = [x for x in self.program.declarations if isinstance(x, d.WhenDecl) and x.event == event
                     and all(p in self.seated for p in x.needs)]
            self._handlers[event] = sorted(found, key=lambda x: -x.precedence)
        return self._handlers[event]

    @staticmethod
    def handler_name(event: tuple, index: int) -> str:
        return f"H_{event[0]}_{event[1]}_{index}"

    def attribute_table(self, name: str) -> int:
        """The table of a fixed value of kinds (`sword.value`) and locations (`c3.terrain`), by their numbers."""
        layout = self.layout
        values = {layout.kinds[k]: self.number(v[name]) for k, v in self.program.kind_properties.items()
                  if name in v and k in layout.kinds}
        values.update((layout.locations[x], self.number(v[name]))
                      for x, v in self.board.attributes.items() if name in v)
        return self.table(("attribute", name), values, [*layout.kinds.values(), *layout.locations.values()])

    def routine_number(self, name: str) -> int:
        identifier(name)
        if name not in self.routines:
            self.routines.append(name)
        return self.routines.index(name)

    # the module
    def _write(self) -> str:
        program, modifiers, overrides, always = self.program, {}, {}, []
        for decl in program.declarations:
            if isinstance(decl, d.ModifyDecl):
                modifiers.setdefault(decl.name, []).append(decl)
            elif isinstance(decl, d.OverrideDecl):
                overrides.setdefault(decl.name, []).append(decl)
        self.routine_number("PLAY")
        self.routine_number("ALWAYS")
        layout = self.layout
        self.bags = self.table("bags", {layout.zones[z]: 1 for z in self.symbols.unordered_zones()},
                               layout.zones.values())
        self.unordered = layout.constant_list("unordered", [layout.zones[z] for z in program.unordered])
        self.zone_order = layout.constant_list("zone order", [layout.zones[z] for z in self.state.zones])
        self.mixing = any(c.face_down for c in self.state.components.values())
        for decl in program.declarations:
            if isinstance(decl, d.FunctionDecl):
                self.functions.append(self._function(decl, modifiers.get(decl.name, []), overrides.get(decl.name, [])))
            elif isinstance(decl, d.ProcedureDecl):
                flat = self.deciding.procedures.get(decl.name, False)
                rules = [x for x in program.declarations if isinstance(x, d.InsteadDecl) and x.name == decl.name
                         and all(p in self.seated for p in x.needs)]
                if rules:
                    write_replaced(self, decl, rules, flat)
                else:
                    self.write_routine(f"P_{decl.name}", decl.body, flat, decl.params)
            elif isinstance(decl, d.WhenDecl):
                if decl not in self.handlers(decl.event):  # a rule of a faction not seated
                    continue
                self.write_routine(self.handler_name(decl.event, self.handlers(decl.event).index(decl)), decl.body,
                              self.deciding.events.get(decl.event, False), decl.params, decl.condition)
            elif isinstance(decl, d.AlwaysDecl):
                always.append(f"ALWAYS_{len(always)}")
                self.write_routine(always[-1], decl.body, False, [])
            elif isinstance(decl, d.PlayDecl):
                self.write_routine("PLAY", decl.body, True, [])
            elif isinstance(decl, d.SetupDecl):
                self.write_routine("SETUP", decl.body, True, [])
            elif not isinstance(decl, DATA + WRITTEN_ELSEWHERE):
                raise NotOnWasm(f"`{type(decl).__name__}` declarations", getattr(decl, "pos", None))
        for ability, block in program.ability_blocks:
            if ability.value:
                raise NotOnWasm("the functions of kinds of pieces (`test NAME of`)", None)
            deciding = self.deciding.abilities.get(ability.name, False)
            self.write_routine(f"AB_{ability.name}_{ability.kind}", block, deciding, [])
        self.functions.append(self._forbidden())
        score = self.ruleset.manifest.score if self.program.score is not None else None
        self.functions.append(f"(func $score (param $p i32) (result i32) "
                              f"{f'(call $F_{identifier(score)} (local.get $p))' if score else '(i32.const 0)'})")
        write_windows(self)
        calls = " ".join(f"(drop (call $R_{name} (local.get $f)))" for name in always)
        self.functions.append(f"(func $R_ALWAYS (type $routine) (param $f i32) (result i32) {calls} (i32.const 0))")
        runtime = resources.files(__package__).joinpath("runtime.wat").read_text()
        pages = self.pages = self.mem.at // 65536 + 1
        image = self.template()[: self.mem.ARENA_AT - self.mem.GAME + 4 * len(self.layout.arena)]
        data = [f"(data (i32.const {self.mem.TEMPLATE}) \"{_escaped(image)}\")"]
        data += [f"(data (i32.const {address}) \"{_escaped(_bytes(values))}\")" for address, values in self.table_data]
        return "\n".join([
            "(module",
            f"(memory (export \"memory\") {pages} {pages})",
            "(type $routine (func (param i32) (result i32)))",
            f"(table {len(self.routines)} funcref)",
            f"(elem (i32.const 0) func {' '.join(f'$R_{name}' for name in self.routines)})",
            runtime.format(**self._constants()),
            *self.functions,
            *data,
            ")"])

    def _constants(self) -> dict:
        mem, layout = self.mem, self.layout
        return {**mem.constants(), "FRAME": FRAME, "MAX_FRAMES": MAX_FRAMES, "NKINDS": len(layout.kinds),
                "KINDS": self.kinds_list, "SEATED": self.seated_list, "NSEATED": len(layout.seated),
                "ZONE0": layout.ZONE0, "NLOCATIONS": len(layout.locations), "PLAY": self.routine_number("PLAY"),
                "ALWAYS": self.routine_number("ALWAYS"), "ARENA_WORDS": ARENA_WORDS, "TRACE_CAPACITY": TRACE_CAPACITY,
                "TEMPLATE_USED": mem.ARENA_AT - mem.GAME + 4 * (len(layout.arena) + 1), "LIST0": layout.LIST0,
                "CONSTANT_LISTS": len(layout.arena),
                "SETTLE_ROUNDS": LIMITS.settle_rounds,
                "STEPS_PER_DECISION": LIMITS.steps_per_decision, "STEPS_PER_GAME": LIMITS.steps_per_game,
                "DECISIONS_PER_GAME": LIMITS.decisions_per_game, "LONGEST_LIST": LIMITS.longest_list,
                "BASE": BASE, "TWO_BASES": 2 * BASE, "NZONES": len(layout.zones),
                "PROPS0": mem.PROPS[0], "PROP_STRIDE": mem.PROPS[1] - mem.PROPS[0],
                "FACE": layout.properties[FACE_DOWN], "BAGS": self.bags, "UNORDERED": self.unordered,
                "ZONE_ORDER": self.zone_order, "LOCATIONS": self.locations_list, "MIXING": int(self.mixing),
                "SETUP": self.routine_number("SETUP") if "SETUP" in self.routines else -1,
                "PASS_TEXT": layout.strings["pass"], "NOTHING_TEXT": layout.strings["(nothing)"],
                "COMPONENT0": BASE + 1, "NCOMPONENTS": len(layout.components), "CURVE_CAPACITY": CURVE_CAPACITY,
                "HAS_SCORE": int(self.program.score is not None), "MEMO_SHIFT": 32 - MEMO_ENTRIES.bit_length() + 1}

    def _function(self, decl, modifiers, overrides=()) -> str:
        """`$F_name(a0, a1...)`: the first `override` whose condition holds (the highest precedence first,
        then as declared), else the body plus every `modify`. A function of nothing that reads nothing
        of the state (a fixed list of locations) is its value, worked out once."""
        fixed = self._fixed_value(decl)
        if fixed is not None:
            return f"(func $F_{identifier(decl.name)} (result i32) (i32.const {fixed}))"
        fn = Function()
        result = fn.local("result")

        def part(params, expr, lines):
            return WCode(self, fn, {p: f"(local.get $a{i})" for i, p in enumerate(params)}, lines).value(expr)

        lines: list[str] = []
        total = part(decl.params, decl.body, lines)
        for m in modifiers:
            total = f"(i32.add {total} {part(m.params, m.amount, lines)})"
        text = f"{' '.join(lines)} (local.set {result} {total})"
        for override in reversed(sorted(overrides, key=lambda o: -o.precedence)):
            test_lines: list[str] = []
            value_lines: list[str] = []
            test = part(override.params, override.condition, test_lines) if override.condition else "(i32.const 1)"
            value = part(override.params, override.value, value_lines)
            text = (f"{' '.join(test_lines)} (if {test} (then {' '.join(value_lines)} (local.set {result} {value})) "
                    f"(else {text}))")
        params = " ".join(f"(param $a{i} i32)" for i in range(len(decl.params)))
        locals_ = " ".join(f"(local {x} i32)" for x in fn.locals)
        name = identifier(decl.name)
        if not self._worth_keeping(decl, modifiers, overrides):
            return f"(func $F_{name} {params} (result i32) {locals_} {text} (local.get {result}))"
        self.kept_functions += 1
        args = [f"(local.get $a{i})" for i in range(len(decl.params))]
        key = " ".join(args + ["(i32.const 0)"] * (3 - len(args)))
        lists = " ".join(["(i32.const 0)"] + [f"(i32.or (call $is_list {a})" for a in args]) + ")" * len(args)
        return (f"(func $FC_{name} {params} (result i32) {locals_} {text} (local.get {result}))\n"
                f"(func $F_{name} {params} (result i32) (local $e i32) (local $r i32) "
                f"(if {lists} (then (return (call $FC_{name} {' '.join(args)})))) "
                f"(local.set $e (call $memo_entry (i32.const {self.kept_functions}) {key})) "
                f"(if (call $memo_hit (local.get $e) (i32.const {self.kept_functions}) {key}) "
                f"(then (return (i32.load offset=24 (local.get $e))))) "
                f"(local.set $r (call $FC_{name} {' '.join(args)})) "
                f"(call $memo_put (local.get $e) (i32.const {self.kept_functions}) {key} (local.get $r)) "
                f"(local.get $r))")

    def _worth_keeping(self, decl, modifiers, overrides) -> bool:
        """Is a function's value worth keeping until the state changes (engine/memo.py keeps the Python
        backend's longer)? One that loops, of three parameters at most, that draws nothing at random
        (language.reads) and gives no list (a list lives no longer than the routine that made it)."""
        reads = self._reads(decl)
        if len(decl.params) > 3 or reads is None:
            return False
        values = [decl.body] + [o.value for o in overrides]
        if any(v.type in ("list", ANY) for v in values):
            return False
        parts = values + [m.amount for m in modifiers] + [o.condition for o in overrides if o.condition]
        return any(quantified_code(p) for p in parts) and not reads.volatile

    def _reads(self, decl):
        """What a function reads of the state, as the Python backend found in its code (language.reads);
        None where that code is not at hand."""
        codegen = self.program.codegen
        name = f"compute_{python_identifier(decl.name)}"
        return codegen.code_reads.reads(name) if codegen is not None and name in codegen.sources else None

    def _fixed_value(self, decl) -> int | None:
        """The value of a function without parameters whose Python code reads nothing of the state
        (language.reads), worked out on the Python backend; None for any other."""
        reads = self._reads(decl)
        if decl.params or reads is None:
            return None
        if reads.volatile or reads.zones != frozenset() or reads.variables or reads.properties or reads.identities:
            return None
        rt = Runtime(self.state, self.board, self.program)
        rt.players = self.seated
        try:
            return self.number(self.program.functions[decl.name](rt))
        except NotOnWasm:
            return None

    def _forbidden(self) -> str:
        """`$forbidden(c, to)`: does a `cannot` rule of this table forbid component c to go to zone `to`?
        Where it goes from and to (on the board or off it) says which rules apply: place, move or remove."""
        guards: dict[str, list[str]] = {"place": [], "move": [], "remove": []}
        for decl in self.program.declarations:
            if isinstance(decl, d.CannotDecl) and all(p in self.seated for p in decl.needs):
                name = f"cannot_{decl.action}_{len(self.functions)}"
                self.functions.append(self._function(d.FunctionDecl(decl.pos, name, decl.params, decl.condition), []))
                guards[decl.action].append(name)

        def any_of(action, args):
            found = "(i32.const 0)"
            for name in guards[action]:
                found = f"(i32.or {found} (call $F_{name} (local.get $c) {args}))"
            return found

        locations = len(self.layout.locations)
        on_board = f"(i32.lt_u (i32.sub (local.get $%s) (i32.const {self.layout.ZONE0})) (i32.const {locations}))"
        return (f"(func $forbidden (param $c i32) (param $to i32) (result i32) (local $from i32) "
                f"(local.set $from {load_word(self.mem.ZONE, '(local.get $c)')}) "
                f"(if (i32.eq (local.get $from) (local.get $to)) (then (return (i32.const 0)))) "
                f"(if {on_board % 'from'} (then (if {on_board % 'to'} "
                f"(then (return {any_of('move', '(local.get $from) (local.get $to)')})) "
                f"(else (return {any_of('remove', '(local.get $from)')}))))) "
                f"(if {on_board % 'to'} (then (return {any_of('place', '(local.get $to)')}))) "
                f"(i32.const 0))")

    def write_routine(self, name, body, flat, params, condition=None, replacing=None) -> None:
        """`$R_name(f)`: a block of statements, its parameters in the frame's first slots (after them,
        in an `instead of` rule, the rules left for `proceed`)."""
        self.routine_number(name)
        fn = Function()
        out = Routine(self, fn, {"you": YOU, "self": SELF})
        out.replacing = replacing
        for p in params:
            out.names[p] = f"(i32.load offset={FRAME_SLOTS + 4 * out.slot(p)} (local.get $f))"
        if replacing is not None:
            out.slot(PROCEED_SLOT)
        if condition is not None:
            out.line(f"(if (i32.eqz {out.value(condition)}) (then (return (i32.const 0))))")
        write_block(body, out, flat)
        self.add_routine(name, fn, out)

    def add_routine(self, name: str, fn: Function, out: Routine) -> None:
        locals_ = " ".join(f"(local {x} i32)" for x in fn.locals)
        self.functions.append(
            f"(func $R_{name} (type $routine) (param $f i32) (result i32) (local $pc i32) (local $nf i32) {locals_} "
            f"(local.set $pc (i32.load offset=4 (local.get $f))) {out.body()} (i32.const 0))")

    def compile(self) -> WasmRules:
        wasmtime = wasmtime_module()
        config = wasmtime.Config()
        # compiled on this thread alone: a pool of compiling threads would leave locks held in the
        # processes forked from this one (simulate's workers), which then wait for ever
        config.parallel_compilation = False
        if _address_space_capped():
            # wasmtime reserves 4 GiB and a guard per instance, so that accesses need no check: under a
            # cap on address space (ulimit -v, the fuzzer's) that fails. There, only the module's own
            # pages are reserved, and accesses are checked (about 10% slower).
            config.memory_reservation = self.pages * 65536
            config.memory_guard_size = 0
            config.memory_reservation_for_growth = 0
        engine = wasmtime.Engine(config)
        return WasmRules(self, engine, wasmtime.Module(engine, self.source))

    def number(self, value, create: bool = True) -> int:
        """A value of the Python backend as the module's: none, false and true as 0 and 1, a name as its
        number, a list as a constant list (once the module is written, only one it holds: not `create`)."""
        layout = self.layout
        if value is None or value is False:
            return 0
        if value is True:
            return 1
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            if not create and value not in layout.strings:
                raise NotOnWasm("a text the module does not hold", None)
            return layout.string(value)
        if isinstance(value, (list, tuple)):
            items = [self.number(v, create) for v in value]
            if not create and ("value", tuple(items)) not in layout._lists:
                raise NotOnWasm("a list the module does not hold", None)
            return layout.constant_list(("value", tuple(items)), items)
        if getattr(value, "id", None) in layout.components:
            return layout.components[value.id]
        raise NotOnWasm(f"the value {value!r}", None)

    def template(self) -> bytes:
        """The image of the game at the start of `play:` (below ARENA, and its constant lists)."""
        mem, layout, state = self.mem, self.layout, self.state
        words = [0] * ((mem.G_END - mem.GAME) // 4)

        def put(base, index, value):
            words[(base - mem.GAME) // 4 + index] = value

        for cid, n in layout.components.items():
            c = state.components[cid]
            put(mem.KIND, n, layout.kinds[c.kind])
            put(mem.OWNER, n, layout.players.get(c.owner, 0))
            put(mem.ZONE, n, layout.zones[c.zone])
            for name, p in layout.properties.items():
                value = c.face_down if name == FACE_DOWN else c.props.get(name, self.symbols.properties.get(name))
                put(mem.PROPS[p], n, self.number(value))
        for zone, items in state.zones.items():
            put(mem.ZN, layout.zones[zone], len(items))
            for i, c in enumerate(items):
                put(mem.ZS, (layout.zones[zone] - layout.ZONE0) * mem.STRIDE + i, layout.components[c.id])
        for name, value in state.variables.items():
            if isinstance(value, dict):
                for player, each in value.items():
                    put(self.variable(name, each=True), layout.players[player], self.number(each))
            else:
                put(self.variable(name), 0, self.number(value))
        for i, value in enumerate(layout.arena):
            put(mem.ARENA_AT, i, value)
        put(mem.AP, 0, len(layout.arena))
        put(mem.HP, 0, ARENA_WORDS)
        for address, value in self.seating_words(self.seated):
            put(address, 0, value)
        return _bytes(words)


def _address_space_capped() -> bool:
    try:
        import resource
    except ImportError:  # not a Unix
        return False
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return soft != resource.RLIM_INFINITY


def _escaped(data: bytes) -> str:
    """Bytes as the text of a WebAssembly string: every byte a hexadecimal escape."""
    return "".join(f"\\{b:02x}" for b in data)


def _bytes(words: list[int]) -> bytes:
    return b"".join(w.to_bytes(4, "little", signed=True) for w in words)


@dataclass
class WasmDecision:
    name: str
    player: str
    options: list  # tuples of values (ids, names, numbers, lists); "pass" last where the decision may be passed

    def labels(self) -> list[str]:
        """Each option as the Python backend writes it with every identity shown (a list as `[a, b]`)."""
        return [" ".join(render_value(v) for v in option) if isinstance(option, tuple) else option
                for option in self.options]


class WasmRules:
    """A ruleset's module, compiled once: makes games, each an instance of it."""

    def __init__(self, writer: WasmProgram, engine, module):
        self.writer, self.engine, self.module = writer, engine, module
        self.decision_names = {number: name for name, number in writer.layout.names.items()}

    def seed_mixer(self, game: WasmGame, seed: int) -> None:
        """The generator that mixes a game's face-down components at its start, as the Python backend
        seeds it (from a text, which the module does not hash): its state, written in the module."""
        if not self.writer.mixing:
            return
        mem = self.writer.mem
        state = random.Random(f"{seed} face down").getstate()[1]
        game.words[mem.MIXER >> 2] = state[624]
        game.words[(mem.MIXER >> 2) + 1:(mem.MIXER >> 2) + 625] = [w - (1 << 32) if w >= 1 << 31 else w
                                                                   for w in state[:624]]

    def instance(self):
        wasmtime = wasmtime_module()
        store = wasmtime.Store(self.engine)
        instance = wasmtime.Instance(store, self.module, [])
        return store, instance.exports(store)

    def error(self, game, trap) -> Exception:
        """A trap as the engine's error: at the rules position the game last passed, in plain words."""
        mem = self.writer.mem
        where, failure = game.word(mem.WHERE), game.word(mem.FAILURE)
        if failure == 13:  # `refuse`: the rules cannot set up a game at this table
            return RefusedTable(str(game.value(game.word(mem.REFUSAL))))
        if failure == 16:  # the Python backend goes on with such numbers: this game is not the module's
            return NotOnWasm(f"a number past {BASE - 1} (or below {-BASE})", self.writer.positions[where - 1]
                             if where > 0 else None)
        position = self.writer.positions[where - 1] if where > 0 else None
        if failure in (5, 6, 7):
            return LimitExceeded(position, FAILURES[failure])
        return RuleRuntimeError(position, FAILURES.get(failure, f"the rules failed ({str(trap).splitlines()[0]})"))


class WasmGame:
    """A game on the WebAssembly backend, driven from Python as `Game` is: `decision`, `choose`, `result`."""

    def __init__(self, rules: WasmRules, seed: int = 0, players: list[str] | None = None, _copy_of=None):
        """A game of `rules` at this table (`players` in seating order; by default the order compiled for):
        the module serves any order of the players it was compiled for."""
        self.rules, self.seed = rules, seed
        self.players = rules.writer.seated if players is None else seating(rules.writer.ruleset, players)
        self._seating = rules.writer.seating_words(self.players)
        if self._seating is None:
            raise ValueError("these rules were compiled for another table: compile them for this one")
        self.store, self.exports = rules.instance()
        self.memory = self.exports["memory"]
        # the memory never grows (its size is fixed), so a view of it as ints stays where it is
        self.words = (ctypes.c_int32 * (self.memory.data_len(self.store) // 4)).from_address(self._address())
        self._decision: WasmDecision | None = None
        self._stale = False  # the decision pending is read from memory when asked for
        self.result: Result | None = None
        if _copy_of is not None:
            _copy_of.copy(into=self)
            return
        self.restart(seed)

    def restart_recorded(self, seed: int, max_turns: int = 0) -> None:
        """A simulated game of random bots, each seat drawing as the Python backend's random bot of
        `bot_seed(seed, seat)` does, played to its end (or to turn `max_turns`) and noted (`notes`)."""
        self._new_game(seed)
        self._call("play_recorded", seed, max_turns)

    @property
    def failure(self) -> int:
        return self.word(self.rules.writer.mem.FAILURE)

    def notes(self) -> dict:
        """What a recorded game noted: the turns, each choice (`log`), the choices counted by decision and
        option words (simulation/usage.py), the score curve and final scores, the points by reason, who
        moved and decided first, the kinds moved."""
        writer = self.rules.writer
        mem, layout, seated = writer.mem, writer.layout, self.players
        start, traced = mem.TRACE >> 2, self.word(mem.TRACED)
        values = self.words[start:start + 8 * traced]
        names = self.rules.decision_names
        log, counts = [], {}
        for k in range(0, len(values), 8):
            log.append(values[k + 3])
            words = self.value(values[k + 4])
            words = words if isinstance(words, str) else str(words)
            options = counts.setdefault(layout.value(values[k + 1]), {}).setdefault(names[values[k]], {})
            options[words] = options.get(words, 0) + 1
        row = mem.CURVE_ROW >> 2
        rows = self.words[mem.CURVE >> 2:(mem.CURVE >> 2) + row * self.word(mem.CURVED)]
        curve = [[rows[k], {p: rows[k + 1 + s] for s, p in enumerate(seated)}] for k in range(0, len(rows), row)]
        points: dict[str, dict[str, int]] = {}
        for k in range(self.word(mem.NREASONS)):
            reason = self.value(self.word(mem.REASONS + 4 * k))
            for s, p in enumerate(seated):
                gained = self.word(mem.POINTS + 4 * (k * len(seated) + s))
                if gained:
                    points.setdefault(p, {})[reason] = gained
        scores = {p: self.exports["score_of_seat"](self.store, s) for s, p in enumerate(seated)} \
            if self.result is not None or self.failure == 14 else {}
        kinds = [kind for kind, n in layout.kinds.items() if self.word(mem.MOVED_KINDS + 4 * n)]
        return {"turns": self.word(mem.TURNS), "log": log, "option_counts": counts, "curve": curve, "scores": scores,
                "points": points, "first_mover": layout.value(self.word(mem.FIRST_MOVER)) or None,
                "first_decider": layout.value(self.word(mem.FIRST_DECIDER)) or None, "kinds_moved": sorted(kinds)}

    def restart(self, seed: int) -> None:
        """A new game in this one's place (the instance kept: cheaper than a new WasmGame)."""
        self._new_game(seed)
        self._call("run")

    def _new_game(self, seed: int) -> None:
        """The start of `play:` with this game's seed, bags shuffled and face-down components mixed, then
        this game's seating written over it; nothing run yet."""
        self.seed, self.result = seed, None
        self.rules.seed_mixer(self, seed)
        self.exports["new_game"](self.store, seed)
        for address, value in self._seating:
            self.words[address >> 2] = value

    def _address(self) -> int:
        return ctypes.addressof(self.memory.data_ptr(self.store).contents)

    def word(self, address: int) -> int:
        return self.words[address >> 2]

    def _call(self, name: str, *args) -> None:
        wasmtime = wasmtime_module()
        try:
            self.exports[name](self.store, *args)
        except wasmtime.Trap as trap:
            raise self.rules.error(self, trap) from None
        self._changed()

    def _changed(self) -> None:
        """The game moved on: its result is read at once, the decision pending when it is asked for."""
        self._stale = self.word(self.rules.writer.mem.SP) != 0
        if not self._stale:
            self._read()

    def _read(self) -> None:
        mem, layout = self.rules.writer.mem, self.rules.writer.layout
        if self.word(mem.SP) == 0:
            self.result, self._decision = self._result(), None
            return
        name = self.rules.decision_names[self.word(mem.PENDING_NAME)]
        optional = self.word(mem.PENDING_OPTIONAL)
        count = self.word(mem.PENDING_COUNT) - optional
        columns = [self.word(mem.PENDING_COLUMNS + 4 * i) for i in range(self.rules.writer.columns[name])]
        options = [tuple(self.value(self.word(mem.ARENA + 4 * (column + n))) for column in columns)
                   for n in range(1, count + 1)]
        if optional:
            options.append("pass")
        self._decision = WasmDecision(name, layout.value(self.word(mem.PENDING_PLAYER)), options)

    def value(self, number: int):
        """A value of the module as the Python backend has it: a list of values, a component's id, a name
        or a number."""
        layout = self.rules.writer.layout
        if 0 <= number - layout.LIST0 < ARENA_WORDS:
            at = self.rules.writer.mem.ARENA + 4 * number
            return [self.value(self.word(at + 4 * i)) for i in range(1, self.word(at) + 1)]
        return layout.value(number)

    def _result(self) -> Result:
        """How the game ended, as the Python backend says it."""
        writer = self.rules.writer
        mem, layout, seated = writer.mem, writer.layout, self.players
        kind, bits = self.word(mem.FINISH_KIND), self.word(mem.NAMED)
        named = [p for s, p in enumerate(seated) if bits >> s & 1]
        ending = self.word(mem.ENDING)
        how = str(self.value(ending)) if ending else ""
        if kind == 3:
            return Result(named, {}, outcome_words(named, "wins", seated), ending=how)
        if kind == 2:
            others = [p for p in seated if p not in named]
            return Result(others if len(others) == 1 else [], {}, outcome_words(named, "loses", seated), ending=how)
        if kind == 4:
            return Result(None, {}, "draw", ending=how)
        scores = {p: self.word(mem.SCORES + 4 * layout.players[p]) for p in seated}
        decided = self.word(mem.DECIDED)
        decided_by = writer.rank_keys[decided - 1] if decided else ""
        if kind == 1:
            return Result(named, scores, "ranking", decided_by)
        return Result(None, scores, "draw", decided_by)

    @property
    def decision(self) -> WasmDecision | None:
        if self._stale:
            self._stale = False
            self._read()
        return self._decision

    def asked(self) -> tuple[str, int]:
        """Who decides now and among how many options (`pass` included), without making their labels."""
        mem, layout = self.rules.writer.mem, self.rules.writer.layout
        return layout.value(self.word(mem.PENDING_PLAYER)), self.word(mem.PENDING_COUNT)

    @property
    def finished(self) -> bool:
        return self.result is not None

    def choose(self, index: int) -> None:
        self._decision = None
        self._call("choose", index + 1)

    def copy(self, into: WasmGame | None = None) -> WasmGame:
        """This game, copied: into a new instance, or into `into` (another game of the same rules,
        whatever it held), which costs a copy of memory only."""
        if into is None:
            return WasmGame(self.rules, self.seed, self.players, _copy_of=self)
        mem = self.rules.writer.mem
        source, target = self._address(), into._address()
        for start, end in ((mem.GAME, mem.FRAMES + FRAME * self.word(mem.SP)),  # the state, the frames in use,
                           (mem.ARENA_AT, mem.ARENA_AT + 4 * (self.word(mem.AP) + 1)),  # the lists made,
                           (mem.ARENA_AT + 4 * self.word(mem.HP), mem.ARENA_AT + 4 * ARENA_WORDS)):  # those kept
            ctypes.memmove(target + start, source + start, end - start)
        into.words[mem.EPOCH >> 2] += 1  # the values it kept were of another game
        into.seed, into.result, into.players, into._seating = self.seed, self.result, self.players, self._seating
        into._changed()
        return into

    def reseed(self, seed: int) -> None:
        """The game's bot draws from here on from Python's generator seeded with `seed` (below 2^32)."""
        self.exports["reseed"](self.store, seed)

    def play_random(self, trace: bool = False):
        """The game played on to its end inside the module, each decision drawn from the game's own
        generator (Python's random.Random(seed)): with `trace`, (name, player, count, index) of each."""
        wasmtime = wasmtime_module()
        try:
            self.exports["play_random"](self.store, 1 if trace else 0)
        except wasmtime.Trap as trap:
            raise self.rules.error(self, trap) from None
        self._changed()
        if not trace:
            return None
        mem, layout = self.rules.writer.mem, self.rules.writer.layout
        names = self.rules.decision_names
        start = mem.TRACE >> 2
        values = self.words[start:start + 8 * self.word(mem.TRACED)]
        return [(names[values[k]], layout.value(values[k + 1]), values[k + 2], values[k + 3])
                for k in range(0, len(values), 8)]
