"""Expressions compile to Python source, one function each, executed once at load time.

A whole expression then runs as a single Python function (quantifiers become comprehensions,
`top(s)` an inline lookup) instead of a tree of closures: this is the simulation hot path.
All generated functions of a ruleset share one namespace, so functions may call each other
in any order of declaration.
"""
from __future__ import annotations

import functools
import itertools
import re
import warnings

from interpreter.engine.memo import Readers
from interpreter.language.reads import CodeReads
from interpreter.safety.limits import LIMITS


def python_identifier(name: str) -> str:
    """A rules name in generated code: `red.bonus` (local to a faction's file) as `red·bonus`,
    which no rules name can be (a name of the rules is ASCII)."""
    return name.replace(".", "·")


class CodeTooLarge(Exception):
    """The generated source went past LIMITS.compiled_characters."""


class CodeGen:
    def __init__(self, board=None):
        self.board = board  # the game's board, whose tables generated code may hold as constants
        self.namespace: dict = {"takewhile": itertools.takewhile, "MISSING": object()}
        self.part = ""  # the declaration being compiled: the names it generates are its own (`new_name`)
        self._counters: dict[str, itertools.count] = {}
        self.characters = 0  # of generated source so far
        self.warnings: list[str] = []  # Python's complaints about generated code: a bug of the compiler, kept for tests
        self.sources: dict[str, str] = {}  # name -> the source that defines it: to find what it reads
        self.read_as: dict[str, str] = {}  # a generated function -> the one whose code says what it reads
        self.code_reads = CodeReads(self.namespace, self.sources, self.read_as)
        self.readers = Readers()  # which cached functions read what: for the games' memos
        self._readers = self.constant(self.readers, "readers")
        self.compile_block = None  # the generated backend's compiler of blocks of statements; None: the reference's closures
        self.compile_procedure = None  # the generated backend's compiler of procedures' bodies, called with their parameters
        self.compile_trigger = None  # and of `when` rules

    def run(self, source: str, name: str) -> None:
        """Compile and run generated `source` in the shared namespace, printing nothing."""
        code, complaints = _compiled(source, name)
        self.warnings += complaints
        self.characters += len(source)
        if self.characters > LIMITS.compiled_characters:
            raise CodeTooLarge()
        exec(code, self.namespace)
        self.sources[name] = source
        self.read_as[name] = name

    def constant(self, value, hint: str = "c") -> str:
        name = self.new_name(hint)
        self.namespace[name] = value
        return name

    def literal(self, value) -> str:
        """Code for a value written in the rules or the content: none, a truth value and a number
        as themselves, anything else (a text) as the name of a constant, so that no text a
        designer wrote ever becomes part of the generated source."""
        if value is None or type(value) in (bool, int):
            return repr(value)
        return self.constant(value, "text")

    def temp(self) -> str:
        return self.new_name("t")

    def new_name(self, hint: str) -> str:
        """A name no other generated function has: `_HINT`, the declaration's part, a number counted
        within it; so a declaration unchanged is generated again as the same source (`_compiled`)."""
        counter = self._counters.get(self.part)
        if counter is None:
            counter = self._counters[self.part] = itertools.count()
        return f"_{hint}{self.part}{next(counter)}"

    def define(self, name: str, params: list[str], body: str, prologue: str = ""):
        """Define `def name(rt, *params): return body` in the shared namespace and return it."""
        lines = [f"def {name}(rt, {', '.join(params)}):" if params else f"def {name}(rt):"]
        if re.search(r"\bZ\b", body + prologue):
            lines.append("    Z = rt.state.zones")
        if prologue:
            lines.append(prologue)
        lines.append(f"    return {body}")
        source = "\n".join(lines)
        self.run(source, name)
        return self.namespace[name]

    def cached(self, name: str, number: int, params: list[str], compute: str):
        """`name(rt, *params)`: `compute`'s value, kept in the state's memo until something it
        read changes (engine.memo). What it reads is worked out (language.reads) at its first
        value, and `name` written again with it."""
        first = self.constant(functools.partial(self._first_value, name, number, params, compute), "first")
        args = ", ".join(["rt"] + params)
        self.run(f"def {name}({args}):\n    return {first}({args})", name)
        self.read_as[name] = compute
        return self.namespace[name]

    def _first_value(self, name: str, number: int, params: list[str], compute: str, rt, *args):
        """The first value asked of a cached function: what it reads is worked out, and the function
        written again to keep its values (not counted in the generated source's limit: once per
        function, and the program is already loaded)."""
        if number not in self.readers.group:
            reads = self.code_reads.reads(compute)
            self.readers.enter(number, reads)
            source = self._cached_source(name, number, params, compute, reads)
            exec(compile(source, f"<rules:{name}>", "exec"), self.namespace)
        return self.namespace[name](rt, *args)

    def _cached_source(self, name: str, number: int, params: list[str], compute: str, reads) -> str:
        """A cached function that knows what it reads. Its values are kept in the memo's table of the
        function, by arguments; those of a function that reads one zone named by its arguments, in
        one part of the table for each such zone, noted under the zone."""
        args, group = ", ".join(["rt"] + params), self.readers.group[number]
        zone = next(iter(reads.zones)) if reads.zones and len(reads.zones) == 1 else None
        if zone is None:
            part, key, lookup = None, _key(params), ""
        else:
            prefix, parameter = zone
            part = "None" if parameter is None else params[parameter]
            key, lookup = _key([p for p in params if p != part]), f"[{part}]"
        lines = [f"def {name}({args}):",
                 "    memo = rt.state.memo",
                 "    try:",
                 f"        return memo.tables[{number}]{lookup}[{key}]",
                 "    except KeyError:",
                 "        pass",
                 "    except TypeError:  # an unhashable argument (a list): computed every time",
                 f"        return {compute}({args})",
                 f"    value = {compute}({args})",
                 f"    table = memo.tables.get({number})",
                 "    if table is None:",
                 f"        table = memo.tables[{number}] = {{}}",
                 f"        memo.readers = {self._readers}"]
        if group is not None:
            lines.append(f"        memo.{group}.append({number})")
        lines.append("    try:")
        if zone is not None:
            name_of_zone = (self.literal(prefix) if parameter is None else part if not prefix else
                            f"({self.literal(prefix)} + {part} if type({part}) is str else None)")
            lines += [f"        if {part} not in table:",
                      f"            table[{part}] = {{}}",
                      f"            noted, zone = ({number}, {part}), {name_of_zone}",
                      "            if zone in memo.by_zone:",
                      "                memo.by_zone[zone].append(noted)",
                      "            else:",
                      "                memo.by_zone[zone] = [noted]",
                      f"        table = table[{part}]"]
        return "\n".join(lines + [f"        table[{key}] = value",
                                   "    except TypeError:  # its first value in this game, for a list: not kept",
                                   "        pass",
                                   "    return value"])

    def expression(self, body: str):
        """A function `f(rt, env)` evaluating generated code `body`."""
        return self.define(self.new_name("expr"), ["env"], body)


def _key(params: list[str]) -> str:
    """A cached function's arguments as the key of its values: the one argument itself, or a tuple."""
    return params[0] if len(params) == 1 else f"({', '.join(params)},)" if params else "()"


_COMPILED: dict[tuple[str, str], tuple] = {}  # (source, name) -> (code, Python's complaints about it)
MOST_COMPILED = 20_000  # a few states of every generated chunk of a large game (a language server's edits)


def _compiled(source: str, name: str) -> tuple:
    """`source` compiled, with Python's complaints about it: kept, since loading the same rules again
    (an edit elsewhere, a scenario's fixtures) generates the same source for what did not change."""
    key = (source, name)
    kept = _COMPILED.get(key)
    if kept is None:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            code = compile(source, f"<rules:{name}>", "exec")
        kept = (code, [f"{name}: {w.message}" for w in caught])
        if len(_COMPILED) >= MOST_COMPILED:
            _COMPILED.pop(next(iter(_COMPILED)))
        _COMPILED[key] = kept
    return kept
