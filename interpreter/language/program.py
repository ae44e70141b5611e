"""A compiled ruleset: every declaration turned into closures the runtime calls."""
from __future__ import annotations

from dataclasses import dataclass, field

from interpreter.diagnostics.errors import RuleRuntimeError
from interpreter.engine.runtime import Return
from interpreter.language.parser import parse
from interpreter.language.scope import Scope
from interpreter.language.statements import Deciding


@dataclass
class Program:
    players: list[str]
    kind_order: list[str]
    kinds_with_trait: dict[str, frozenset]
    functions: dict = field(default_factory=dict)  # name -> f(rt, *args)
    function_positions: dict = field(default_factory=dict)  # name -> where it is declared
    procedures: dict = field(default_factory=dict)  # name -> f(rt, caller_env, args)
    abilities: dict = field(default_factory=dict)  # (kind, ability) -> f(rt, env)
    triggers: dict = field(default_factory=dict)  # event key -> [generator(rt, you, values)]
    always: list = field(default_factory=list)  # f(rt, env)
    variables: list = field(default_factory=list)  # (name, per_player, f(rt, env), position)
    setup: object = None  # generator(rt, env)
    play: object = None  # generator(rt, env)
    zones: dict = field(default_factory=dict)  # name -> (per_player, visibility)
    symbols: object = None  # the checker's table of names, kept to compile expressions later
    codegen: object = None
    kind_properties: dict = field(default_factory=dict)  # kind -> {property: value}, from the content
    backs: dict = field(default_factory=dict)  # kind -> what a face-down component of it shows (content `back`)
    known: dict = field(default_factory=dict)  # kind -> who knows its face-down components ("owner" or "nobody")
    private_variables: dict = field(default_factory=dict)  # name -> "private" (each their own) or "hidden" (nobody)
    unordered: tuple = ()  # the state's names of the unordered zones (bags), in a fixed order

    def function_from_outside(self, name: str):
        """Function `name`, for a caller outside the rules (the manifest's score): a failure is a
        rule error at the function's declaration, as it would be at a rule that called it."""
        function, position = self.functions[name], self.function_positions.get(name)

        def call(rt, *args):
            try:
                return function(rt, *args)
            except RuleRuntimeError:
                raise
            except Exception as error:
                raise RuleRuntimeError(position, f"`{name}`: {type(error).__name__}: {error}") from error

        return call

    def compile_value(self, source: str, file: str = "<expression>", names: tuple = (), line: int = 1, column: int = 1):
        """An expression of the rules language, written at (line, column) of `file`, as a function
        (rt, env) -> value, env holding `you` and `names`; and the checker's diagnostics."""
        prefix = "let value = "  # compiled as a statement; positions still point into `file`
        block = parse(f"{prefix}{source}\n", file, start="snippet", line_offset=line - 1,
                      column_offset=column - 1 - len(prefix))
        diagnostics: list = []
        statement, _ = block.compile(Scope(self.symbols, diagnostics, codegen=self.codegen).with_locals(*names), Deciding())

        def value(rt, env):
            statement(rt, env)
            return env["value"]

        return value, diagnostics


def make_procedure(params, body, position):
    """`body` catches `return` itself; a deciding body returns its generator to the caller."""

    def procedure(rt, caller, args):
        rt.steps += 1
        if rt.steps > rt.step_limit:
            raise rt.too_many_steps(position)
        env = dict(zip(params, args))
        env["you"] = caller["you"]
        return body(rt, env)

    return procedure


def make_trigger(params, condition, body, generator, position):
    def trigger(rt, you, values):
        rt.steps += 1
        if rt.steps > rt.step_limit:
            raise rt.too_many_steps(position)
        env = dict(zip(params, values))
        env["you"] = you
        if condition is not None and not condition(rt, env):
            return
        try:
            if generator:
                yield from body(rt, env)
            else:
                body(rt, env)
        except Return:
            pass

    return trigger
