"""A compiled ruleset: every declaration turned into closures the runtime calls."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from interpreter.diagnostics.errors import RuleRuntimeError
from interpreter.engine.decisions import Decision
from interpreter.language.failures import in_plain_words
from interpreter.language.parameters import check_calls
from interpreter.language.parser import parse
from interpreter.language.scope import Scope
from interpreter.language.statements import PROCEED, Deciding
from interpreter.language.expressions import Conditional
from interpreter.language.types import ANY, check


@dataclass
class Program:
    players: list[str]  # every player, the extra seats included
    table: list[str]  # the players a game seats when nobody says which (the content's, without its extra seats)
    kind_order: list[str]
    kinds_with_trait: dict[str, frozenset]
    functions: dict = field(default_factory=dict)  # name -> f(rt, *args)
    function_positions: dict = field(default_factory=dict)  # name -> where it is declared
    definitions: dict = field(default_factory=dict)  # function name -> (declaration, modifiers, overrides): to explain
    explained: dict = field(default_factory=dict)  # sub-expressions compiled on their own, to explain (see explaining)
    procedures: dict = field(default_factory=dict)  # name -> f(rt, you, *arguments)
    abilities: dict = field(default_factory=dict)  # (kind, ability) -> f(rt, env)
    card_values: dict = field(default_factory=dict)  # (kind, function) -> f(rt, env) leaving env["value"]

    def card_value(self, rt, name: str, component, you):
        """The value of a component's function `name` (none if it is none, or its kind has no such function)."""
        compute = self.card_values.get((component.kind, name)) if component is not None else None
        if compute is None:
            return None
        env = {"you": you, "self": component}
        compute(rt, env)
        return env["value"]
    triggers: dict = field(default_factory=dict)  # event key -> [generator(rt, you, values)]
    always: list = field(default_factory=list)  # f(rt, env)
    variables: list = field(default_factory=list)  # (name, per_player, f(rt, env), position)
    setup: object = None  # generator(rt, env)
    play: object = None  # generator(rt, env)
    zones: dict = field(default_factory=dict)  # name -> (per_player, visibility)
    shown: dict = field(default_factory=dict)  # (zone, player) -> that player's copy's own visibility (`public hand(p)`)
    symbols: object = None  # the checker's table of names, kept to compile expressions later
    codegen: object = None
    kind_properties: dict = field(default_factory=dict)  # kind -> {property: value}, from the content
    backs: dict = field(default_factory=dict)  # kind -> what a face-down component of it shows (content `back`)
    known: dict = field(default_factory=dict)  # kind -> who knows its face-down components ("owner" or "nobody")
    face_down_zones: frozenset = frozenset()  # the zones declared `face down`: what starts there starts face down
    guards: dict = field(default_factory=dict)  # "place", "move" or "remove" -> the `cannot` rules' (needs, fn(rt, piece, *locations))
    anytime_actions: list = field(default_factory=list)  # (name, condition(rt, env) or None, generator body(rt, env), span)
    span_actions: list = field(default_factory=list)  # those with a span (`during`): what a step's window offers
    anytime_guards: object = None  # the `anytime` actions' conditions, to explain (explaining.GuardedOptions)
    private_variables: dict = field(default_factory=dict)  # name -> "private" (each their own) or "hidden" (nobody)
    unordered: tuple = ()  # the state's names of the unordered zones (bags), in a fixed order
    options: dict = field(default_factory=dict)  # option -> its values, the default first
    seats: dict = field(default_factory=dict)  # an extra seat -> the player whose faction it plays
    excludes: dict = field(default_factory=dict)  # a player -> the players it never sits at a table with
    score: object = None  # the manifest's score, f(rt, player) -> number, or None (reports, `because`)
    declarations: list = field(default_factory=list)  # the checked syntax tree, for other backends (backends/)
    ability_blocks: list = field(default_factory=list)  # (content.models.Ability, its checked Block)

    def chosen_options(self, given: dict | None) -> dict:
        """Every option's value for a game: the ones `given` (a value or its text, as `--option NAME=VALUE`
        writes it), the default for the others. Raises ValueError for an unknown option or value."""
        chosen = {name: values[0] for name, values in self.options.items()}
        for name, value in (given or {}).items():
            if name not in self.options:
                known = ", ".join(self.options) or "none"
                raise ValueError(f"the game has no option `{name}` (its options: {known})")
            values = self.options[name]
            matching = [v for v in values if v == value or str(v).lower() == str(value).lower()]
            if not matching:
                raise ValueError(f"option `{name}` is one of {', '.join(map(str, values))}, not `{value}`")
            chosen[name] = matching[0]
        return chosen

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
                raise RuleRuntimeError(position, f"`{name}`: {in_plain_words(error)}") from error

        return call

    def compile_value(self, source: str, file: str = "<expression>", names: tuple = (), line: int = 1, column: int = 1,
                      expected: tuple[str, str] | None = None, seat: str | None = None):
        """An expression of the rules language, written at (line, column) of `file`, as a function
        (rt, env) -> value, env holding `you` and `names`; and the checker's diagnostics. `expected`:
        (the type its value must have, what it is in a message), if it is checked. `seat`: an extra seat
        whose own copy of its faction's names the expression means (see `Symbols.outside_name`)."""
        prefix = "let value = "  # compiled as a statement; positions still point into `file`
        block = parse(f"{prefix}{source}\n", file, start="snippet", line_offset=line - 1,
                      column_offset=column - 1 - len(prefix))
        for statement in block.statements:  # an error of the whole `let` is the expression's: it starts at `column`
            statement.pos = replace(statement.pos, column=column) if statement.pos.line == line else statement.pos
        diagnostics: list = []
        scope = Scope(self.symbols, diagnostics, codegen=self.codegen, outside=True, seat=seat).with_locals(*names)
        statement, _ = block.compile(scope, Deciding(), keep=("value",))
        check_calls([block], self.symbols, diagnostics)
        if expected is not None and not diagnostics:
            given = block.statements[0].value
            check(scope, given.pos, expected[0], given.type, expected[1])
            if isinstance(given, Conditional) and given.type == ANY:
                given.check_branches(scope, *expected)

        def value(rt, env):
            statement(rt, env)
            return env["value"]

        return value, diagnostics


def make_procedure(params, body, position):
    """`procedure(rt, you, *args)`, called by `you`. `body` catches `return` itself; a deciding body
    returns its generator to the caller."""

    def procedure(rt, you, *args):
        rt.steps += 1
        if rt.steps > rt.step_limit:
            raise rt.too_many_steps(position)
        return body(rt, env_of(params, args, you))

    return procedure


def env_of(names, values, you) -> dict:
    """The names a procedure, rule or ability starts with: its parameters' values, and `you`."""
    env = dict(zip(names, values))
    env["you"] = you
    return env


def make_replaced(name, params, base, rules, generator, position, plain, needs):
    """Procedure `name` with its `instead of` rules, each (params, condition, body, label). Called,
    the rules whose condition holds run in place of `base`; of several, the player acting chooses
    which first (1.1.3 of Root: the affected player orders simultaneous effects), and `proceed`
    goes on down the chain: the rules left, then `base`. `needs`: for each rule, the players a game
    must seat for it to exist there (a faction's); in a game with none of the rules, the procedure
    is `plain`, its body alone (the generated backend's, without the chain's cost)."""

    def seated_rules(rt):
        found = rt.seated_rules.get(name)
        if found is None:
            found = rt.seated_rules[name] = [r for r, need in zip(rules, needs) if all(p in rt.players for p in need)]
        return found

    def applicable(rt, args, you, active):
        found = []
        for rule in active:
            rule_params, condition, _, _ = rule
            if condition is None or condition(rt, env_of(rule_params, args, you)):
                found.append(rule)
        return found

    def chain(rt, left, args, you):
        if not left:
            yield from base(rt, env_of(params, args, you))
            return
        chosen = left[0]
        if len(left) > 1 and you is not None:
            index = yield Decision(f"replace_{name}", you, ("rule",), [(label,) for _, _, _, label in left])
            chosen = left[index]
        rest = [rule for rule in left if rule is not chosen]
        env = env_of(chosen[0], args, you)
        env[PROCEED] = lambda rt: chain(rt, rest, args, you)
        yield from chosen[2](rt, env)

    def run(rt, left, args, you):  # never more than one rule applies here: the checker made it `chain` otherwise
        if not left:
            return base(rt, env_of(params, args, you))
        env = env_of(left[0][0], args, you)
        env[PROCEED] = lambda rt: run(rt, left[1:], args, you)
        return left[0][2](rt, env)

    def procedure(rt, you, *args):
        active = seated_rules(rt)
        if not active:
            return plain(rt, you, *args)
        rt.steps += 1
        if rt.steps > rt.step_limit:
            raise rt.too_many_steps(position)
        return (chain if generator else run)(rt, applicable(rt, args, you, active), args, you)

    return procedure


def make_trigger(params, condition, body, generator, position, label=""):
    def applies(rt, you, values) -> bool:
        return condition is None or bool(condition(rt, env_of(params, values, you)))

    def trigger(rt, you, values):
        """What the caller runs with `yield from` (or a loop over it, where no decision is expected): the
        generator of a deciding body, else nothing, the body done. `body` catches `return` itself."""
        rt.steps += 1
        if rt.steps > rt.step_limit:
            raise rt.too_many_steps(position)
        env = env_of(params, values, you)
        if condition is not None and not condition(rt, env):
            return ()
        if generator:
            return body(rt, env)
        body(rt, env)
        return ()

    trigger.applies, trigger.label = applies, label  # for `emit ... ordered by`
    return trigger
