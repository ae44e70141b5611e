"""A loaded ruleset compiled to one Lua chunk, and games of it run in a sandboxed LuaJIT.

The chunk is written from the checked syntax tree the front end leaves on the program
(`Program.declarations`, `Program.ability_blocks`); the board's tables, the content's kinds and
the players go in as data (`T`), never as source. No text of a rules or content file is written
into the chunk but as an escaped literal (`expressions.lua_string`) or a checked name.
"""
from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass
from importlib import resources

from interpreter.backends.lua.expressions import Code, NotOnLua, key
from interpreter.backends.lua.statements import Routine, local, write_block
from interpreter.diagnostics.errors import RuleRuntimeError
from interpreter.engine.runtime import Result, Runtime
from interpreter.language import declarations as d
from interpreter.language.checker import find_deciding
from interpreter.language.expressions import quantified_code
from interpreter.play.game import seating
from interpreter.safety.limits import LIMITS

# What a rules chunk or the runtime could reach the host with: removed before any of it runs.
UNSAFE_GLOBALS = ("io", "os", "load", "loadfile", "dofile", "require", "debug", "package", "loadstring",
                  "collectgarbage", "python", "module", "newproxy", "setfenv", "getfenv", "jit")
DATA_DECLARATIONS = (d.FactionDecl, d.WithFactionDecl, d.AbilityDecl, d.EventDecl, d.ZoneDecl, d.ShownDecl,
                     d.VariableDecl, d.PropertyDecl, d.ModifyDecl, d.OverrideDecl, d.SetupDecl)


# Generated rules make many short, branchy traces: with LuaJIT's default room for machine code, it
# throws them all away and compiles them again, and spends half the time compiling (issue 33's notes).
JIT_SETTINGS = "jit.opt.start('maxmcode=65536', 'sizemcode=1024', 'maxtrace=20000', 'maxside=1000', 'maxsnap=2000')"


def lua_module():
    """lupa's LuaJIT module, or ImportError."""
    from lupa import luajit21
    return luajit21


def sandboxed_runtime():
    """A LuaJIT runtime with no way out: no Python objects' attributes, no files, no modules, no `load`."""
    lua = lua_module()
    runtime = lua.LuaRuntime(register_eval=False, register_builtins=False, unpack_returned_tuples=True,
                             attribute_filter=_refuse_attributes)
    globals_ = runtime.globals()
    runtime.execute(JIT_SETTINGS)
    for name in UNSAFE_GLOBALS:
        globals_[name] = None
    globals_.string.dump = None
    return runtime


def _refuse_attributes(obj, name, setting):
    raise AttributeError("the rules' runtime reads no Python attribute")


class LuaProgram:
    """Writes the chunk of a program; `compile()` loads it into a fresh runtime."""

    def __init__(self, ruleset):
        self.ruleset, program = ruleset, ruleset.program
        self.program, self.symbols, self.board = program, program.symbols, ruleset.board
        abilities = [(ability, block) for ability, block in program.ability_blocks]
        self.deciding = find_deciding(program.declarations, abilities)
        self.guarded = bool(program.guards)
        self.positions: list = []
        self._where: dict = {}
        self._temps = itertools.count(1)
        self.tables: dict = {}
        self._table_names: dict = {}
        self.procedure_parameters = {decl.name: decl.params for decl in program.declarations
                                     if isinstance(decl, d.ProcedureDecl)}
        self.source = self._write()

    # For the writers --------------------------------------------------------------------------
    def temp(self, hint: str) -> str:
        return f"{hint}_{next(self._temps)}"

    def where(self, pos) -> int:
        """The number a runtime error carries for `pos` (R.fail), from 1."""
        if pos not in self._where:
            self.positions.append(pos)
            self._where[pos] = len(self.positions)
        return self._where[pos]

    def procedure_params(self, name: str) -> list[str]:
        return self.procedure_parameters[name]

    def player_zones(self, name: str) -> str:
        return self.table(("zones", name))

    def table(self, what: tuple) -> str:
        """The Lua that reads a table of the board or the content, made once: `T[n]`."""
        if what not in self._table_names:
            number = len(self._table_names) + 1
            self._table_names[what] = f"T[{number}]"
            self.tables[number] = self._table_of(what)
        return self._table_names[what]

    def _table_of(self, what: tuple):
        board = self.board
        if what[0] == "zones":
            return {player: f"{what[1]}/{player}" for player in self.program.players}
        if what[0] == "step":
            via = what[1]
            return {location: {direction: target for (origin, direction, kind), target in board._steps.items()
                               if origin == location and kind in via and board.step(location, direction, via) == target}
                    for location in board.locations}
        _, via, length = what
        return {location: list(neighbours) for location, neighbours in board.neighbourhoods(via, length).items()}

    # The chunk ----------------------------------------------------------------------------------
    def _write(self) -> str:
        lines = ["local R, T = ...", "local F, P, A, H, ALWAYS = {}, {}, {}, {}, {}", "local PLAY"]
        modifiers, overrides = {}, {}
        for decl in self.program.declarations:
            if isinstance(decl, d.ModifyDecl):
                modifiers.setdefault(decl.name, []).append(decl)
            elif isinstance(decl, d.OverrideDecl):
                overrides.setdefault(decl.name, []).append(decl)
        for decl in self.program.declarations:
            if isinstance(decl, d.FunctionDecl):
                lines += self._function(decl, modifiers.get(decl.name, []), overrides.get(decl.name, []))
            elif isinstance(decl, d.ProcedureDecl):
                lines += self._routine(f"P{key(decl.name)}", decl.body, self.deciding.procedures.get(decl.name, False),
                                       {p: local(p) for p in decl.params})
            elif isinstance(decl, d.WhenDecl):
                lines += self._handler(decl)
            elif isinstance(decl, d.AlwaysDecl):
                lines += self._routine("ALWAYS[#ALWAYS + 1]", decl.body, False, {}, frame="{}")
            elif isinstance(decl, d.PlayDecl):
                lines += self._routine("PLAY", decl.body, True, {})
            elif isinstance(decl, (d.InsteadDecl, d.AnytimeDecl, d.CannotDecl)):
                raise NotOnLua(f"`{type(decl).__name__[:-4].lower()}` rules", decl.pos)
            elif isinstance(decl, d.OptionDecl):
                continue
            elif not isinstance(decl, DATA_DECLARATIONS):
                raise NotOnLua(f"`{type(decl).__name__}` declarations", getattr(decl, "pos", None))
        for ability, block in self.program.ability_blocks:
            if ability.value:
                raise NotOnLua("the functions of kinds of pieces (`test NAME of`)", None)
            lines.append(f"A{key(ability.name)} = A{key(ability.name)} or {{}}")
            lines += self._routine(f"A{key(ability.name)}{key(ability.kind)}", block,
                                   self.deciding.abilities.get(ability.name, False), {"self": "f.self"})
        lines.append("return {F = F, P = P, A = A, H = H, always = ALWAYS, play = PLAY}")
        return "\n".join(lines)

    def _function(self, decl: d.FunctionDecl, modifiers: list, overrides: list) -> list[str]:
        """`F["name"](G, a0, ...)`: the first override whose condition holds, else the base value plus
        every modifier. One that loops keeps its values in the game's memo (G.memo) until the state's
        version changes, as the Python backend's cached functions do."""
        params = [f"a{i}" for i in range(len(decl.params))]
        out = Routine(self, {}, resumable=False)
        for override in overrides:
            names = dict(zip(override.params, params))
            body = Code(self, names, out.lines, 1)
            test = body.truth(override.condition) if override.condition is not None else "true"
            body.line(f"if {test} then return {body.value(override.value)} end")
        parts = []
        for names, expr in [(decl.params, decl.body)] + [(m.params, m.amount) for m in modifiers]:
            parts.append(Code(self, dict(zip(names, params)), out.lines, 1).value(expr))
        out.line(f"return {' + '.join(parts)}")
        header = f"function({', '.join(['G'] + params)})"
        compute = [header, "  local S = G.S"] + out.lines + ["end"]
        looping = [decl.body] + [m.amount for m in modifiers] + [o.value for o in overrides]
        if not params or not any(quantified_code(e) for e in looping):
            return [f"F{key(decl.name)} = " + compute[0]] + compute[1:]
        name, number = key(decl.name), next(self._temps)
        return [f"local compute_{number} = " + compute[0]] + compute[1:] + [
            f"F{name} = function({', '.join(['G'] + params)})",
            f"  if {' or '.join(f'{p} == nil' for p in params)} then return compute_{number}(G, {', '.join(params)}) end",
            "  local memo = G.memo",
            "  if memo.version ~= G.S.version then memo = {version = G.S.version}; G.memo = memo end",
            f"  local values = memo{name}",
            f"  if values == nil then values = {{}}; memo{name} = values end",
            *[f"  if values[{p}] == nil then values[{p}] = {{}} end\n  values = values[{p}]" for p in params[:-1]],
            f"  local value = values[{params[-1]}]",
            "  if value == nil then",
            f"    value = compute_{number}(G, {', '.join(params)})",
            f"    values[{params[-1]}] = value",
            "  end",
            "  return value",
            "end"]

    def _routine(self, target: str, body, resumable: bool, names: dict, frame: str | None = None,
                 prologue: tuple = ()) -> list[str]:
        out = Routine(self, {"you": "f.you", "self": "f.self", **names}, resumable)
        for line in prologue:
            out.line(line)
        write_block(body, out, flat=resumable)
        header = f"{target} = function(G)" if frame is not None else f"{target} = function(G, f)"
        lines = out.function(header)
        if frame is not None:
            lines.insert(1, f"  local f = {frame}")
        return lines

    def _handler(self, decl: d.WhenDecl) -> list[str]:
        kind, event = decl.event
        if kind != "event":
            raise NotOnLua(f"`when` rules of `{kind} of {event}`", decl.pos)
        names = {p: local(p) for p in decl.params}
        prologue = [f"{local(p)} = f.values[{i}]" for i, p in enumerate(decl.params, 1)]
        if decl.condition is not None:
            test = Code(self, {"you": "f.you", **names}, [], 1)
            truth = test.truth(decl.condition)
            prologue += [line.strip() for line in test.lines] + [f"if not {truth} then return nil end"]
        resumable = self.deciding.events.get(decl.event, False)
        lines = [f"H{key(event)} = H{key(event)} or {{}}"]
        return lines + self._routine(f"H{key(event)}[#H{key(event)} + 1]", decl.body, resumable, names,
                                     prologue=tuple(prologue))

    def compile(self) -> LuaRules:
        runtime = sandboxed_runtime()
        limits = runtime.table_from({name: getattr(LIMITS, name) for name in (
            "steps_per_decision", "decisions_per_game", "settle_rounds", "largest_number", "longest_list")})
        source = resources.files(__package__).joinpath("runtime.lua").read_text()
        library = runtime.execute(source, limits, name="=runtime.lua")
        tables = runtime.table_from(self._static_tables(), recursive=True)
        for number, table in self.tables.items():
            tables[number] = runtime.table_from(table, recursive=True)
        compiled = runtime.execute(self.source, library, tables, name="=rules")
        return LuaRules(self, runtime, library, compiled, tables)

    def _static_tables(self) -> dict:
        board, program = self.board, self.program
        traits = {trait: {kind: True for kind in kinds} for trait, kinds in program.kinds_with_trait.items()}
        directions: dict = {}
        for (origin, target), direction in board._directions.items():
            directions.setdefault(origin, {})[target] = direction
        return {
            "locations": list(board.locations), "is_location": {loc: True for loc in board.locations},
            "index": dict(board.index), "kind_order": list(program.kind_order), "traits": traits,
            "directions": directions,
            "kind_properties": {k: v for k, v in program.kind_properties.items() if v},
            "location_attributes": {loc: attrs for loc, attrs in board.attributes.items() if attrs},
            "none": {}, "empty": {},
        }


@dataclass
class LuaDecision:
    name: str
    player: str
    options: list  # tuples of values; ("pass",) last where the decision may be passed

    def labels(self) -> list[str]:
        return [" ".join(str(v) for v in option) if isinstance(option, tuple) else option for option in self.options]


class LuaRules:
    """A ruleset compiled and loaded: makes games."""

    def __init__(self, writer: LuaProgram, runtime, library, compiled, tables):
        self.writer, self.runtime, self.R, self.compiled, self.tables = writer, runtime, library, compiled, tables
        self._templates: dict = {}  # seated players -> a game at the start of `play:`, the same for every seed

    def start(self, seed: int, players: list[str] | None):
        """A game at the start of `play:`. Variables and `setup:` run on the Python backend; where
        they drew nothing from the game's generator, the start is the same for every seed, and is
        made once, then copied inside Lua with its seed changed."""
        seated = tuple(seating(self.writer.ruleset, players))
        template = self._templates.get(seated)
        if template is not None:
            return self.R.reseeded(template, seed)
        ruleset = self.writer.ruleset
        state = ruleset.initial_state(seed, ruleset.program.chosen_options(None))
        ids = _start(ruleset, state, list(seated))
        S = _state_table(self.runtime, self.writer, state, ids)
        game = self.R.new_game(S, self.runtime.table_from(list(seated)), seed, self.compiled)
        if state.rng.getstate() == random.Random(seed).getstate():
            self._templates[seated] = game
            return self.R.reseeded(game, seed)
        return game

    def error(self, value) -> RuleRuntimeError:
        """A Lua error as the engine's: at its rules file, line and column where the runtime knows it."""
        if not isinstance(value, str) and value is not None and value["where"] is not None:
            where = value["where"]
            return RuleRuntimeError(self.writer.positions[int(where) - 1], str(value["message"]))
        message = str(value if isinstance(value, str) or value is None else value["message"])
        return RuleRuntimeError(None, re.sub(r"^\[?[^:]*:\d+:\s*", "", message))


class LuaGame:
    """A game run on the Lua backend, driven from Python as `Game` is: `decision`, `choose`, `result`."""

    def __init__(self, rules: LuaRules, seed: int = 0, players: list[str] | None = None, _game=None):
        self.rules, self.seed = rules, seed
        self.G = _game if _game is not None else rules.start(seed, players)
        self.decision: LuaDecision | None = None
        self.result: Result | None = None
        if _game is None:
            self._run()
        else:
            self._read()

    def _run(self) -> None:
        ok, waiting = self.rules.R.protected_run(self.G)
        if not ok:
            raise self.rules.error(waiting)
        self._read()

    def _read(self) -> None:
        G = self.G
        if G.result is not None:
            r = G.result
            winners = [r.winners[i] for i in range(1, len(r.winners) + 1)]
            scores = {p: r.scores[p] for p in G.players.values() if r.scores[p] is not None}
            self.result = Result(winners, scores, str(r.reason), str(r.decided_by or ""))
            self.decision = None
            return
        pending = G.pending
        columns = [pending.options[i] for i in range(1, len(pending.options) + 1)]
        options = [tuple(_label(G, column[n]) for column in columns) for n in range(1, int(pending.count) + 1
                                                                                      - (1 if pending.optional else 0))]
        if pending.optional:
            options.append("pass")
        self.decision = LuaDecision(str(pending.name), str(pending.player), options)

    @property
    def finished(self) -> bool:
        return self.result is not None

    def choose(self, index: int) -> None:
        self.G.answer = index + 1
        self.G.pending = None
        self.decision = None
        self._run()

    def copy(self) -> LuaGame:
        return LuaGame(self.rules, self.seed, _game=self.rules.R.copy(self.G))

    def play_random(self, trace: bool = False):
        """The game played on to its end inside Lua, each decision drawn at random from the game's
        own generator (Python's random.Random(seed), as the engine's random bots draw): the trace of
        (name, player, count, index) if asked."""
        table = self.rules.runtime.table() if trace else None
        ok, error = self.rules.R.play_random(self.G, table)
        if not ok:
            raise self.rules.error(error)
        self._read()
        if trace:
            return [tuple(step[i] for i in range(1, 5)) for step in table.values()]
        return None


def _label(G, value):
    """What an option's value shows: a text as itself, a component by its id."""
    if isinstance(value, str):
        return value
    if isinstance(value, float) and value.is_integer() or isinstance(value, int):
        return str(G.S.id[int(value)]) if G.S.id[int(value)] is not None else str(int(value))
    return str(value)


def _start(ruleset, state, seated) -> dict:
    """Variables and `setup:` run by the Python backend (they ask no decision), the state then handed
    to Lua: each component's number there, by its id."""
    program = ruleset.program
    rt = Runtime(state, ruleset.board, program)
    rt.players = seated
    for name, per_player, value, _ in program.variables:
        state.variables[name] = {p: value(rt, {"you": p}) for p in program.players} if per_player \
            else value(rt, {"you": None})
    if program.setup is not None:
        for _ in program.setup(rt, {"you": None}):
            raise NotOnLua("a `setup:` that asks for decisions", None)
    return {component_id: number for number, component_id in enumerate(state.components, 1)}


def _state_table(runtime, writer: LuaProgram, state, ids: dict):
    components = state.components
    properties = writer.symbols.properties

    def value(v):
        if isinstance(v, (str, int, float, bool)) or v is None:
            return v
        if hasattr(v, "kind") and hasattr(v, "zone"):
            return ids[v.id]
        if isinstance(v, dict):
            return runtime.table_from({k: value(x) for k, x in v.items()})
        if isinstance(v, (list, tuple)):
            return runtime.table_from([value(x) for x in v])
        raise NotOnLua(f"a variable holding {type(v).__name__}", None)

    S = {
        "zones": {zone: [ids[c.id] for c in items] for zone, items in state.zones.items()},
        "kind": {ids[i]: c.kind for i, c in components.items()},
        "owner": {ids[i]: c.owner for i, c in components.items() if c.owner is not None},
        "zone": {ids[i]: c.zone for i, c in components.items()},
        "id": {ids[i]: i for i in components},
        "props": {name: {ids[i]: c.props.get(name, default) for i, c in components.items()
                         if c.props.get(name, default) is not None} for name, default in properties.items()},
        "turns": state.turns, "version": 0,
    }
    table = runtime.table_from(S, recursive=True)
    table.vars = runtime.table_from({name: value(v) for name, v in state.variables.items()})
    return table
