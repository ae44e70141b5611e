"""Statement nodes. Each checks itself and compiles to a closure `f(rt, env)`.

A statement that can stop the game for a player's decision compiles to a generator that yields
the `Decision` and receives the chosen index; every other statement is a plain function. The
`Deciding` table (worked out before compiling) says which procedures, abilities and events decide.
"""
from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field

from interpreter.diagnostics.diagnostic import Position
from interpreter.diagnostics.errors import RuleRuntimeError
from interpreter.diagnostics.suggestions import did_you_mean
from interpreter.engine.decisions import LONGEST_RANGE, PASS, Decision, NumberRange, Simultaneous, render_value
from interpreter.engine.knowledge import sees_zone
from interpreter.engine.reasons import reason_name
from interpreter.engine.runtime import EndTurn, GameOver, Pause, Result, Return, Signal, TableRefused, joined
from interpreter.engine.state import Component
from interpreter.language.builtins import forbidden, land_at_random
from interpreter.language.explaining import ChoiceRule
from interpreter.language.expressions import Attribute, Call, Expr, ListOf, Literal, Name, Quantifier, env_names, is_none
from interpreter.language.failures import in_plain_words
from interpreter.language.scope import Scope
from interpreter.language.tree import nodes
from interpreter.language.types import ANY, check
from interpreter.safety.limits import LIMITS, LimitExceeded

ANYTIME = "anytime"  # the decision a `window` asks: which `anytime` action, or pass
MOVED = ("event", "moved")  # the event every `move` announces, if some rule handles it
PROCEED = "__proceed__"  # in the locals of an `instead of` rule: what `proceed` runs (no name can be this)


@dataclass
class Deciding:
    """Which callables may stop for a decision (a fixpoint over the call graph)."""

    procedures: dict[str, bool] = field(default_factory=dict)
    abilities: dict[str, bool] = field(default_factory=dict)
    events: dict[tuple, bool] = field(default_factory=dict)
    handlers: dict[tuple, int] = field(default_factory=dict)  # event -> how many `when` rules handle it


class Stmt:
    pos: Position

    def decides(self, deciding: Deciding) -> bool:
        return any(s.decides(deciding) for s in self.substatements())

    def substatements(self) -> list["Stmt"]:
        return []

    def binds(self) -> tuple[str, ...]:
        """Names this statement adds to the rest of its block."""
        return ()

    def always_exits(self) -> bool:
        """Does control never reach the statement after this one?"""
        return False

    def compile(self, scope: Scope, deciding: Deciding):
        """Returns (closure, is_generator)."""
        raise NotImplementedError


@dataclass
class Block:
    statements: list[Stmt]

    def decides(self, deciding):
        return any(s.decides(deciding) for s in self.statements)

    def always_exits(self) -> bool:
        return any(s.always_exits() for s in self.statements)

    def warn_unreachable(self, scope: Scope) -> None:
        for before, statement in zip(self.statements, self.statements[1:]):
            if before.always_exits():
                scope.warn("LX324", "this statement can never run: the one before it always leaves the block", statement.pos)

    def compile(self, scope: Scope, deciding: Deciding, catch_return: bool = False, keep: tuple[str, ...] = ()):
        """Returns (closure, is_generator). `catch_return`: the block is a procedure's body. `keep`: the
        names whose values the caller reads in `env` once the block has run. With the generated backend
        (`CodeGen.compile_block`), the whole block is one generated function."""
        if scope.codegen is not None and scope.codegen.compile_block is not None:
            return scope.codegen.compile_block(self, scope, deciding, catch_return, keep)
        return self.compile_reference(scope, deciding, catch_return)

    def compile_reference(self, scope: Scope, deciding: Deciding, catch_return: bool = False):
        """The reference backend's `compile`: a closure per statement, run in turn."""
        self.warn_unreachable(scope)
        steps = []
        for statement in self.statements:
            function, generator = statement.compile(scope, deciding)
            steps.append((function, generator, statement.pos))
            if statement.binds():
                scope = scope.with_locals(*statement.binds())
        stop = Return if catch_return else _Never
        if not any(generator for _, generator, _ in steps):
            plain = [(f, pos) for f, _, pos in steps]

            def run(rt, env):
                for function, pos in plain:
                    try:
                        function(rt, env)
                    except stop:
                        return
                    except Signal:
                        raise
                    except Exception as error:
                        raise _at(error, pos) from error

            return run, False

        def run_deciding(rt, env):
            for function, generator, pos in steps:
                try:
                    if generator:
                        yield from function(rt, env)
                    else:
                        function(rt, env)
                except stop:
                    return
                except Signal:
                    raise
                except Exception as error:
                    raise _at(error, pos) from error

        return run_deciding, True


def _at(error: Exception, pos: Position) -> RuleRuntimeError:
    """The error as a rule error at the innermost statement that was running."""
    if isinstance(error, LimitExceeded) and error.position is None:  # the watchdog does not know where
        return LimitExceeded(pos, error.message)
    if isinstance(error, RuleRuntimeError):
        return error
    return RuleRuntimeError(pos, in_plain_words(error))


def bounded(expr: Expr, value, pos: Position):
    """`value` (the compiled `expr`), refusing a number or a list larger than the limits allow: what a
    loop keeps in a variable could otherwise double at each turn until memory runs out. Values that
    cannot grow (a component, a location, a truth value...) are not checked."""
    if not is_bounded(expr):
        return value

    def checked(rt, env):
        return within_bounds(value(rt, env), pos)

    return checked


def is_bounded(expr: Expr) -> bool:
    """Is the value of `expr` checked against the limits when a variable keeps it (see `bounded`)?"""
    return expr.type in (ANY, "number", "list", "text")


def within_bounds(result, pos: Position):
    """`result`, or LimitExceeded at `pos` for a number or a list larger than the limits allow."""
    kind = type(result)
    if kind is int:
        if not -LIMITS.largest_number <= result <= LIMITS.largest_number:
            digits = str(result)
            raise LimitExceeded(pos, f"the number {digits[:20]}{'...' if len(digits) > 20 else ''} is larger than "
                                     f"{LIMITS.largest_number:,} (LUDOLEX_LARGEST_NUMBER)")
    elif (kind is list or kind is str) and len(result) > LIMITS.longest_list:
        raise LimitExceeded(pos, f"a {'list' if kind is list else 'text'} of {len(result):,} items is longer than "
                                 f"{LIMITS.longest_list:,} (LUDOLEX_LONGEST_LIST)")
    return result


class _Never(Exception):
    """Caught by nothing: a block that is not a procedure's body lets `Return` through."""


def run_body(body, generator):
    """Adapt a compiled block so that callers can always `yield from` it."""
    if generator:
        return body

    def as_generator(rt, env):
        body(rt, env)
        return
        yield  # pragma: no cover - makes this a generator

    return as_generator


@dataclass
class Let(Stmt):
    pos: Position
    name: str
    value: Expr

    def binds(self):
        return (self.name,)

    def compile(self, scope, deciding):
        scope.check_name(self.name, self.pos)
        value, name = bounded(self.value, self.value.compile(scope), self.pos), self.name

        def let(rt, env):
            env[name] = value(rt, env)

        return let, False


@dataclass
class Set(Stmt):
    pos: Position
    target: Expr
    value: Expr

    def target_of(self, scope: Scope) -> tuple:
        """What `set` changes: ("local", name), ("variable", name), ("player", name, player expression)
        or ("property", subject expression, name); ("nothing",) after reporting a target it cannot set."""
        target, symbols = self.target, scope.symbols
        if isinstance(target, Attribute) and target.faction_name(scope, {}):  # `set red.tally = ...`
            target = target.faction_name(scope, {})
        if isinstance(target, Name) and target.name in scope.locals:
            return "local", target.name
        if isinstance(target, Name) and target.name in symbols.options:
            scope.error("LX311", f"`{target.name}` is an option, chosen before the game starts: no rule can set it", self.pos)
            return ("nothing",)
        if isinstance(target, Name) and target.name in symbols.variables and not symbols.variables[target.name]:
            return "variable", target.name
        if isinstance(target, Call) and symbols.variables.get(target.name) and len(target.args) == 1:
            return "player", target.name, target.args[0]
        if isinstance(target, Attribute) and target.name in symbols.properties:
            return "property", target.subject, target.name
        if isinstance(target, Attribute) and target.name == "controller":  # `none`: back to its owner
            if self.value.type not in ("player", "none", ANY):
                scope.error("LX323", "a component's controller is a player (or none: its owner again)", self.value.pos)
            return "property", target.subject, "controller"
        if isinstance(target, Call) and target.name in symbols.variables:
            scope.error("LX305", f"variable `{target.name}` is shared, not per player: write `set {target.name} = ...`", self.pos)
        elif isinstance(target, Name) and symbols.variables.get(target.name):
            scope.error("LX305", f"variable `{target.name}` belongs to each player: write `set {target.name}(player) = ...`", self.pos)
        else:
            scope.error("LX311", "`set` needs a variable, a player's variable `name(player)` or a property `piece.name`", self.pos)
        return ("nothing",)

    def compile(self, scope: Scope, deciding):
        value = bounded(self.value, self.value.compile(scope), self.pos)
        what, *target = self.target_of(scope)
        if what == "local":
            name = target[0]

            def set_local(rt, env):
                env[name] = value(rt, env)

            return set_local, False
        if what == "variable":
            name = target[0]

            def set_variable(rt, env):
                rt.state.variables[name] = value(rt, env)
                rt.state.variable_changed(name)

            return set_variable, False
        if what == "player":
            name, player = target[0], target[1].compile(scope)

            def set_player_variable(rt, env):
                rt.state.variables[name][player(rt, env)] = value(rt, env)
                rt.state.variable_changed(name)

            return set_player_variable, False
        if what == "property":
            subject, name = target[0].compile(scope), target[1]

            def set_property(rt, env):
                subject(rt, env).props[name] = value(rt, env)
                rt.state.property_changed(name)

            return set_property, False
        return (lambda rt, env: None), False


@dataclass
class Move(Stmt):
    pos: Position
    what: Expr
    to: Expr
    at_bottom: bool = False
    facing: str | None = None  # "up" or "down": how the components lie once moved; None: as they were
    guarded: bool = True  # the `cannot` rules apply (False: written `ignoring limits`)

    def decides(self, deciding):
        return deciding.events.get(MOVED, False)

    def check_types(self, scope: Scope) -> None:
        """Once `what` and `to` are compiled (their types known)."""
        check(scope, self.what.pos, "movable", self.what.type, "what `move` moves")
        check(scope, self.to.pos, "zone", self.to.type, "where `move` puts it")

    @staticmethod
    def announced(scope: Scope) -> bool:
        """Does some rule listen to `moved`? Only then is it worth its values."""
        return MOVED in scope.symbols.handled

    def how(self, scope: Scope) -> tuple:
        """The arguments of `move_components` after the components and the destination."""
        face_down = None if self.facing is None else self.facing == "down"
        bags = frozenset(scope.symbols.unordered_zones())  # unordered zones: a component lands at a random place
        return self.at_bottom, bags, face_down, self.announced(scope), self.pos, self.guarded

    def compile(self, scope, deciding):
        what, to = self.what.compile(scope), self.to.compile(scope)
        self.check_types(scope)
        how, announced = self.how(scope), self.announced(scope)

        def move(rt, env):
            moved = what(rt, env)
            return None if moved is None else move_components(rt, moved, to(rt, env), *how)

        if not announced:  # no rule listens: a move announces nothing
            return move, False
        if self.decides(deciding):
            def move_announced(rt, env):
                values = move(rt, env)
                for trigger in rt.triggers(MOVED) if values else ():
                    yield from trigger(rt, env["you"], values)
                if values and rt.pause_at == MOVED:
                    raise Pause()
            return move_announced, True

        def move_announced_plain(rt, env):
            values = move(rt, env)
            for trigger in rt.triggers(MOVED) if values else ():
                for _ in trigger(rt, env["you"], values):
                    raise RuleRuntimeError(self.pos, "a `when moved` rule asked for a decision where none was expected")
            if values and rt.pause_at == MOVED:
                raise Pause()

        return move_announced_plain, False


PUBLIC_ATTRIBUTES = frozenset({"owner", "controller", "zone", "location"})  # what everyone sees of a component


def identity_read(expr: Expr, scope: Scope) -> str | None:
    """`x.kind` (or `x.id`, or a property of x's kind) where `expr` reads it of the components of
    `pieces(...)` or `pieces_in(...)` in a quantifier's value (`select(x in pieces(site) : x.kind)`);
    None if it reads none."""
    for node in nodes(expr):
        if not (isinstance(node, Quantifier) and node.value is not None and isinstance(node.source, Call)
                and node.source.name in ("pieces", "pieces_in")):
            continue
        for read in nodes(node.value):
            if (isinstance(read, Attribute) and isinstance(read.subject, Name) and read.subject.name == node.variable
                    and read.name not in PUBLIC_ATTRIBUTES and read.name not in scope.symbols.properties):
                return f"{node.variable}.{read.name}"
    return None


def move_components(rt, moved, destination, at_bottom: bool, bags: frozenset, face_down: bool | None, announced: bool,
                    pos: Position, guarded: bool = True):
    """`move`: the component (or list of them) `moved` to zone `destination`, but those a `cannot`
    rule forbids (unless not `guarded`). When `moved` is announced, returns its values: the
    components, the zone they all came from (or none), the zone they went to; None if nothing moved."""
    if destination is None:
        raise RuleRuntimeError(pos, "cannot move to nowhere (the destination is none)")
    group = moved if isinstance(moved, list) else [moved]
    if guarded and rt.guards:
        group = [component for component in group if not forbidden(rt, component, destination)]
    origins = {component.zone for component in group} if announced else None
    for component in group:
        rt.state.move(component, destination, at_bottom)
        if bags and destination in bags:
            land_at_random(rt, component)
        if face_down is not None:
            component.face_down, component.known_to = face_down, frozenset()
        elif component.known_to:  # shown to some: they lose track of it where they cannot see it go
            component.known_to = frozenset(p for p in component.known_to if sees_zone(rt, p, destination))
    rt.settle()
    if announced and group:
        return [list(group), origins.pop() if len(origins) == 1 else None, destination]
    return None


class Effect(Stmt):
    """A statement that works out its operands, then does one thing with their values: `effect()(rt, *values)`."""

    def operands(self) -> list[Expr]:
        raise NotImplementedError

    def check_operands(self, scope: Scope) -> None:
        """Once the operands are compiled (their types known)."""

    def effect(self):
        raise NotImplementedError

    def compile(self, scope, deciding):
        operands = [operand.compile(scope) for operand in self.operands()]
        self.check_operands(scope)
        effect = self.effect()

        def run(rt, env):
            effect(rt, *[operand(rt, env) for operand in operands])

        return run, False


@dataclass
class Shuffle(Effect):
    pos: Position
    zone: Expr

    def operands(self):
        return [self.zone]

    def check_operands(self, scope):
        check(scope, self.zone.pos, "zone", self.zone.type, "what `shuffle` shuffles")

    def effect(self):
        return shuffle_zone


def shuffle_zone(rt, name: str) -> None:
    items = rt.state.zones[name]
    rt.state.rng.shuffle(items)
    for component in items:  # shuffled, a component once shown can no longer be told apart
        component.known_to = frozenset()
    rt.state.zone_changed(name)


@dataclass
class Refuse(Effect):
    """refuse MESSAGE: the game cannot be set up at this table (a mix of players, or a number of them,
    the rules do not give): it does not start, and `MESSAGE` says why."""

    pos: Position
    message: Expr

    def operands(self):
        return [self.message]

    def check_operands(self, scope):
        check(scope, self.message.pos, "text", self.message.type, "what `refuse` says")

    def effect(self):
        return refuse_table


def refuse_table(rt, message) -> None:
    raise TableRefused(str(message))


@dataclass
class Reveal(Effect):
    """reveal ZONE to PLAYER: the player sees what the zone holds, until the end of the turn.
    reveal COMPONENTS to PLAYERS: they know those components while the components stay face down."""

    pos: Position
    zone: Expr
    player: Expr

    def operands(self):
        return [self.zone, self.player]

    def check_operands(self, scope):
        check(scope, self.zone.pos, "revealable", self.zone.type, "what `reveal` shows")
        check(scope, self.player.pos, "players", self.player.type, "to whom `reveal` shows it")

    def effect(self):
        return reveal_to


def reveal_to(rt, what, who) -> None:
    players = [p for p in (who if isinstance(who, list) else [who]) if p is not None]
    if isinstance(what, (Component, list)):
        for component in what if isinstance(what, list) else [what]:
            component.known_to |= set(players)
        rt.state.knowledge_changed()
        return
    for seen in ([p, what, rt.state.turns] for p in players):
        if seen not in rt.state.revealed:
            rt.state.revealed.append(seen)
            rt.state.knowledge_changed()


@dataclass
class Flip(Effect):
    """flip COMPONENTS face up|down: face up, everybody knows them; face down, only those the
    content names (the owner, unless `known: nobody`)."""

    pos: Position
    what: Expr
    facing: str

    def operands(self):
        return [self.what]

    def check_operands(self, scope):
        check(scope, self.what.pos, "movable", self.what.type, f"what `flip ... face {self.facing}` turns over")

    def effect(self):
        return functools.partial(flip_components, face_down=self.facing == "down")


def flip_components(rt, turned, face_down: bool) -> None:
    """A change only where something turns over (or stops being known to some): a continuous rule
    that keeps pieces face down settles once they are."""
    changed = False
    for component in turned if isinstance(turned, list) else ([] if turned is None else [turned]):
        if component.face_down != face_down or component.known_to:
            component.face_down, component.known_to = face_down, frozenset()
            changed = True
    if changed:
        rt.state.changed()


def _no_event(rt, env):
    return
    yield  # pragma: no cover - makes this a generator


def _start_and_end(scope: Scope, name: str):
    """The runners of `start of NAME` and `end of NAME`; nothing to run if no rule listens."""
    handled = scope.symbols.handled
    start = _event_runner(("start", name), [], True)[0] if ("start", name) in handled else _no_event
    end = _event_runner(("end", name), [], True)[0] if ("end", name) in handled else _no_event
    return start, end


END_OF_TURN = ("end", "turn")  # where `until: end of turn` stops a scenario (Runtime.pause_at)


def _event_runner(key, args, generator, ordered_by=None):
    if ordered_by is not None:
        def emit_ordered(rt, env):  # `emit ... ordered by P`: P orders the handlers whose conditions hold
            values, you, chooser = [a(rt, env) for a in args], env["you"], ordered_by(rt, env)
            waiting = [t for t in rt.triggers(key) if t.applies(rt, you, values)]  # highest precedence first
            while waiting:
                index, tied = 0, [t for t in waiting if t.precedence == waiting[0].precedence]
                if len(tied) > 1 and chooser is not None:
                    index = yield Decision(f"order_{key[1]}", chooser, ("rule",), [(t.label,) for t in tied])
                yield from waiting.pop(index)(rt, you, values)
            if rt.pause_at == key:
                raise Pause()
        return emit_ordered, True

    def emit(rt, env):
        values = [a(rt, env) for a in args]
        for trigger in rt.triggers(key):
            yield from trigger(rt, env["you"], values)
        if rt.pause_at == key:
            raise Pause()

    def emit_plain(rt, env):
        values = [a(rt, env) for a in args]
        for trigger in rt.triggers(key):
            for _ in trigger(rt, env["you"], values):
                raise RuleRuntimeError(None, "an event handler asked for a decision where none was expected")
        if rt.pause_at == key:
            raise Pause()

    return (emit, True) if generator else (emit_plain, False)


@dataclass
class Emit(Stmt):
    pos: Position
    event: str
    args: list[Expr]
    ordered_by: Expr | None = None  # who orders the handlers whose conditions hold, when there are several

    def decides(self, deciding):
        key = ("event", self.event)
        several = self.ordered_by is not None and deciding.handlers.get(key, 0) > 1
        return several or deciding.events.get(key, False)

    def check_event(self, scope: Scope) -> None:
        declared = scope.symbols.events
        if self.event not in declared:
            scope.error("LX312", f"no `when {self.event}(...)` rule handles event `{self.event}`", self.pos,
                        hint=did_you_mean(self.event, declared))
        elif declared[self.event] != len(self.args):
            scope.error("LX307", f"event `{self.event}` takes {declared[self.event]} value(s), not {len(self.args)}", self.pos)

    def compile(self, scope, deciding):
        self.check_event(scope)
        args = [a.compile(scope) for a in self.args]
        ordered_by = None
        if self.ordered_by is not None:
            ordered_by = self.ordered_by.compile(scope)
            check(scope, self.ordered_by.pos, "player", self.ordered_by.type, "who orders the handlers")
        if ordered_by is not None and self.decides(deciding):
            return _event_runner(("event", self.event), args, True, ordered_by)
        return _event_runner(("event", self.event), args, self.decides(deciding))


@dataclass
class CallProcedure(Stmt):
    pos: Position
    name: str
    args: list[Expr]

    def decides(self, deciding):
        return deciding.procedures.get(self.name, False)

    def check_call(self, scope: Scope) -> None:
        procedures = scope.symbols.procedures
        scope.symbols.used.add(self.name)
        if self.name not in procedures:
            hint = scope.symbols.local_to_a_faction(self.name) or did_you_mean(self.name, procedures)
            if self.name in scope.symbols.functions:
                hint = f"`{self.name}` is a function (a value); use it inside an expression"
            scope.error("LX313", f"unknown procedure `{self.name}`", self.pos, hint=hint)
        elif procedures[self.name] != len(self.args):
            scope.error("LX307", f"`{self.name}` takes {procedures[self.name]} argument(s), not {len(self.args)}", self.pos)

    def compile(self, scope: Scope, deciding):
        self.check_call(scope)
        args, name = [a.compile(scope) for a in self.args], self.name
        if self.decides(deciding):
            def call(rt, env):  # returns the procedure's generator, for the caller to `yield from`
                return rt.program.procedures[name](rt, env["you"], *[a(rt, env) for a in args])
            return call, True

        def call_plain(rt, env):
            rt.program.procedures[name](rt, env["you"], *[a(rt, env) for a in args])

        return call_plain, False


@dataclass
class Perform(Stmt):
    pos: Position
    ability: str
    subject: Expr

    def decides(self, deciding):
        return deciding.abilities.get(self.ability, False)

    def check_ability(self, scope: Scope) -> None:
        if self.ability not in scope.symbols.abilities and self.ability not in scope.symbols.declared_abilities:
            scope.error("LX314", f"no kind of piece has an ability `{self.ability}`", self.pos,
                        hint=did_you_mean(self.ability, scope.symbols.abilities))

    def check_subject(self, scope: Scope) -> None:
        """Once the subject is compiled (its type known)."""
        check(scope, self.subject.pos, "component", self.subject.type, f"what `perform {self.ability} of` acts on")

    def compile(self, scope, deciding):
        self.check_ability(scope)
        subject, ability = self.subject.compile(scope), self.ability
        self.check_subject(scope)
        generator = self.decides(deciding)

        pos = self.pos

        def perform(rt, env):
            component = subject(rt, env)
            body = rt.program.abilities.get((component.kind, ability)) if component is not None else None
            if body is None:
                return
            rt.steps += 1
            if rt.steps > rt.step_limit:
                raise rt.too_many_steps(pos)
            inner = {"you": env["you"], "self": component}
            try:
                if generator:
                    yield from body(rt, inner)
                else:
                    body(rt, inner)
            except Return:
                pass

        if generator:
            return perform, True

        def perform_plain(rt, env):
            for _ in perform(rt, env):
                pass

        return perform_plain, False


@dataclass
class Signalling(Stmt):
    """end turn / return / win P / lose P / draw, the last three with `by ENDING` (how the game ended)."""

    pos: Position
    what: str
    player: Expr | None = None
    ending: Expr | None = None

    def always_exits(self):
        return True

    def compile(self, scope, deciding):
        what = self.what
        player = self.player.compile(scope) if self.player else None
        if self.player:
            check(scope, self.player.pos, "players", self.player.type, f"who `{what}` names")
        ending = self.ending.compile(scope) if self.ending else None
        if self.ending:
            check(scope, self.ending.pos, "text", self.ending.type, f"how the game ended (`{what} ... by`)")
        if what == "end turn":
            def end_turn(rt, env):
                raise EndTurn()
            return end_turn, False
        if what == "return":
            def leave(rt, env):
                raise Return()
            return leave, False

        position = self.pos

        def finish(rt, env):
            scores = {}  # a game ended by a rule, not by a ranking, has no scores
            how = str(ending(rt, env)) if ending else ""
            if what == "draw":
                raise GameOver(Result(None, scores, "draw", ending=how))
            named = _players_named(rt, player(rt, env), what, position)
            if what == "win":  # everyone named wins, the others lose
                raise GameOver(Result(named, scores, outcome_words(named, "wins", rt.players), ending=how))
            others = [p for p in rt.players if p not in named]  # the one player left wins; with more, nobody
            raise GameOver(Result(others if len(others) == 1 else [], scores, outcome_words(named, "loses", rt.players),
                                  ending=how))

        return finish, False


def _players_named(rt, value, what: str, position: Position) -> list[str]:
    """The players that `win X` / `lose X` name (X a player or a list of players), in seating order."""
    named = list(value) if isinstance(value, (list, tuple)) else [value]
    for p in named:
        if not isinstance(p, str) or p not in rt.players:
            shown = "none" if p is None else str(p) if isinstance(p, (str, int)) else f"a {type(p).__name__.lower()}"
            raise RuleRuntimeError(position, f"`{what}` names {shown}, which is not a player of this game")
    if not named:
        raise RuleRuntimeError(position, f"`{what}` names nobody (an empty list)")
    return [p for p in rt.players if p in named]


def outcome_words(named: list[str], verb: str, players: list[str]) -> str:
    """`red wins`, `red and blue win together`, `everybody loses`: a result's reason."""
    if len(named) == 1:
        return f"{named[0]} {verb}"
    if verb == "wins":
        return f"{joined(named)} win together"
    return "everybody loses" if len(named) == len(players) else f"{joined(named)} lose"


@dataclass
class Rank(Stmt):
    """end game ranked by most A, fewest B, ... [, ties share]: the best player wins; a full tie is a
    draw, or with `ties share` a win shared by the players tied first."""

    pos: Position
    keys: list[tuple[str, str]]  # (most|fewest, function name)
    ties_share: bool = False

    def always_exits(self):
        return True

    def compile(self, scope, deciding):
        for _, name in self.keys:
            scope.symbols.used.add(name)
            arity = scope.symbols.functions.get(name)
            if arity != 1:
                hint = (f"`{name}` takes {arity} parameter(s); a ranking function takes exactly one, the player"
                        if arity is not None else did_you_mean(name, scope.symbols.functions))
                scope.error("LX315", f"`ranked by` needs a function of one player; `{name}` is not one", self.pos, hint=hint)
        keys, ties_share = self.keys, self.ties_share

        def rank(rt, env):
            def value(name, player):
                return rt.program.functions[name](rt, player)

            table = {p: tuple(value(n, p) * (1 if order == "most" else -1) for order, n in keys) for p in rt.players}
            leaders, decided_by = list(rt.players), ""
            for i, (order, name) in enumerate(keys):  # each key ranks the players the earlier keys left tied
                top = max(table[p][i] for p in leaders)
                leaders = [p for p in leaders if table[p][i] == top]
                if len(leaders) == 1:
                    decided_by = f"{order} {name}"
                    break
            scores = {p: value(keys[0][1], p) for p in rt.players}
            if len(leaders) == 1 or ties_share:  # `ties share`: everyone tied first on every key wins
                raise GameOver(Result(leaders, scores, "ranking", decided_by))
            raise GameOver(Result(None, scores, "draw", decided_by))

        return rank, False


@dataclass
class Pass(Stmt):
    pos: Position

    def compile(self, scope, deciding):
        return (lambda rt, env: None), False


@dataclass
class Window(Stmt):
    """window: each player, `you` first then the others in seating order, may take any of their
    `anytime` actions whose conditions hold, as many as they like, until they pass. A step's window
    (`steps`, placed by language/spans.py, not written) offers only the `anytime ... during` actions,
    to `you`, the player whose turn it is."""

    pos: Position
    steps: bool = False

    def decides(self, deciding):
        return True

    def compile(self, scope, deciding):
        scope.symbols.note_decision(ANYTIME, ("action",))  # bots may value it like any decision
        pos, steps = self.pos, self.steps

        def window(rt, env):
            return anytime_window(rt, env["you"], pos, steps)

        return window, True


def offered_now(rt, action, player) -> bool:
    """May `player` be offered the `anytime` action (name, condition, body, span) at this window? One
    with a span only by the player whose turn it is, in its span (`turn`, or that phase)."""
    span = action[3]
    return span is None or (player == rt.turn_player and (span == "turn" or span == rt.phase))


def anytime_window(rt, you, pos: Position, steps: bool = False):
    """`window`: each player, `you` first then the others in seating order, takes `anytime` actions
    until they pass. A step's window: `you` alone, and only the actions with a span."""
    actions = rt.program.span_actions if steps else rt.program.anytime_actions
    if not actions:
        return
    players = rt.players
    if steps:
        players = [you] if you in players else []
    first = players.index(you) if you in players else 0
    for player in players[first:] + players[:first]:
        inner = {"you": player}
        while True:
            rt.steps += 1
            if rt.steps > rt.step_limit:
                raise rt.too_many_steps(pos)
            offered = [a for a in actions if offered_now(rt, a, player) and (a[1] is None or a[1](rt, inner))]
            if not offered:
                break
            index = yield Decision(ANYTIME, player, ("action",), [(a[0],) for a in offered] + [PASS],
                                   origin=(rt.program.anytime_guards, inner))
            if index == len(offered):
                break
            yield from offered[index][2](rt, dict(inner))


@dataclass
class Proceed(Stmt):
    """proceed: inside `instead of P`, do P as it would have been done without this rule (the other
    rules that replace it, then its own body)."""

    pos: Position

    def compile(self, scope, deciding):
        if scope.replacing is None:
            scope.error("LX331", "`proceed` is only meaningful inside an `instead of` rule", self.pos)
            return (lambda rt, env: None), False
        if deciding.procedures.get(scope.replacing):
            def proceed(rt, env):  # the rest of the chain, for the caller to `yield from`
                return env[PROCEED](rt)
            return proceed, True

        def proceed_plain(rt, env):
            env[PROCEED](rt)

        return proceed_plain, False


@dataclass
class If(Stmt):
    pos: Position
    branches: list[tuple[Expr, Block]]
    otherwise: Block | None

    def substatements(self):
        blocks = [b for _, b in self.branches] + ([self.otherwise] if self.otherwise else [])
        return [s for b in blocks for s in b.statements]

    def always_exits(self):
        return self.otherwise is not None and self.otherwise.always_exits() and all(
            b.always_exits() for _, b in self.branches)

    def compile(self, scope, deciding):
        branches = [(test.compile(scope), *block.compile(scope, deciding)) for test, block in self.branches]
        otherwise = self.otherwise.compile(scope, deciding) if self.otherwise else None
        if any(g for _, _, g in branches) or (otherwise and otherwise[1]):
            branches = [(t, run_body(b, g)) for t, b, g in branches]
            other = run_body(*otherwise) if otherwise else None

            def if_deciding(rt, env):
                for test, body in branches:
                    if test(rt, env):
                        yield from body(rt, env)
                        return
                if other is not None:
                    yield from other(rt, env)

            return if_deciding, True
        if len(branches) == 1 and otherwise is None:
            test, body, _ = branches[0]

            def if_simple(rt, env):
                if test(rt, env):
                    body(rt, env)

            return if_simple, False
        other = otherwise[0] if otherwise else None

        def if_plain(rt, env):
            for test, body, _ in branches:
                if test(rt, env):
                    body(rt, env)
                    return
            if other is not None:
                other(rt, env)

        return if_plain, False


@dataclass
class While(Stmt):
    pos: Position
    test: Expr
    body: Block

    def substatements(self):
        return self.body.statements

    def compile(self, scope, deciding):
        test, (body, generator), pos = self.test.compile(scope), self.body.compile(scope, deciding), self.pos
        if generator:
            def loop(rt, env):
                while test(rt, env):
                    rt.steps += 1
                    if rt.steps > rt.step_limit:
                        raise rt.too_many_steps(pos)
                    yield from body(rt, env)
            return loop, True

        def loop_plain(rt, env):
            while test(rt, env):
                rt.steps += 1
                if rt.steps > rt.step_limit:
                    raise rt.too_many_steps(pos)
                body(rt, env)

        return loop_plain, False


@dataclass
class ForEach(Stmt):
    pos: Position
    variable: str
    source: Expr
    where: Expr | None
    body: Block

    def substatements(self):
        return self.body.statements

    def selection(self, scope: Scope) -> Quantifier:
        """The items the loop goes over, selected once when it starts (the body may then change the state)."""
        scope.check_name(self.variable, self.pos)
        return Quantifier(self.pos, "select", self.variable, self.source, self.where, None, None)

    def compile(self, scope, deciding):
        inner = scope.with_locals(self.variable)
        source = self.selection(scope).compile(scope)  # checks that the source is a list
        body, generator = self.body.compile(inner, deciding)
        var, pos = self.variable, self.pos
        if generator:
            def loop(rt, env):
                for item in source(rt, env):
                    rt.steps += 1
                    if rt.steps > rt.step_limit:
                        raise rt.too_many_steps(pos)
                    env[var] = item
                    yield from body(rt, env)
            return loop, True

        def loop_plain(rt, env):
            for item in source(rt, env):
                rt.steps += 1
                if rt.steps > rt.step_limit:
                    raise rt.too_many_steps(pos)
                env[var] = item
                body(rt, env)

        return loop_plain, False


@dataclass
class Repeat(Stmt):
    pos: Position
    times: Expr | None
    body: Block

    def always_exits(self):
        return self.times is None  # `repeat:` ends only by ending the game or the turn

    def substatements(self):
        return self.body.statements

    def check_times(self, scope: Scope) -> None:
        """Once the count is compiled (its type known)."""
        if self.times is None:
            return
        check(scope, self.times.pos, "number", self.times.type, "how many times `repeat` runs")
        if is_none(self.times):
            scope.error("LX336", "`repeat none times`: the count must be a number", self.times.pos)

    def compile(self, scope, deciding):
        times = self.times.compile(scope) if self.times else None
        self.check_times(scope)
        body, generator = self.body.compile(scope, deciding)
        pos = self.pos
        if generator:
            def repeat(rt, env):
                for _ in itertools.count() if times is None else range(times(rt, env)):
                    rt.steps += 1
                    if rt.steps > rt.step_limit:
                        raise rt.too_many_steps(pos)
                    yield from body(rt, env)
            return repeat, True
        if times is None:
            scope.error("LX317", "`repeat:` without a count never ends unless it asks for a decision", self.pos)

        def repeat_plain(rt, env):
            for _ in range(times(rt, env)):
                rt.steps += 1
                if rt.steps > rt.step_limit:
                    raise rt.too_many_steps(pos)
                body(rt, env)

        return repeat_plain, False


@dataclass
class Choose(Stmt):
    """choose x in A, y in B where C as NAME [by P | by any of PLAYERS] [or pass] [otherwise: ...]"""

    pos: Position
    bindings: list[tuple[str, Expr]]
    where: Expr | None
    name: str
    by: Expr | None
    optional: bool
    otherwise: Block | None
    group: bool = False  # `by any of PLAYERS`: any of them may answer (the first is asked)

    def decides(self, deciding):
        return True

    def binds(self):
        return tuple(name for name, _ in self.bindings)

    def substatements(self):
        return self.otherwise.statements if self.otherwise else []

    def sources(self, scope: Scope, names: dict[str, str]) -> tuple:
        """The generated code of the options, reading the names in view as `names` says: for a number
        chosen from a range, (the code of its bounds, None, None, the position of `numbers`); else (None,
        the code of the list of options, the code of what playout mode draws them from, None). See
        `_number_range`, `_options` and `_drawing`."""
        number_range = self._number_range(scope, names)
        if number_range is not None:
            bounds, pos = number_range
            return bounds, None, None, pos
        code = self._option_code(scope, names)
        twice = sorted({name for name in self.binds() if self.binds().count(name) > 1})
        if twice:  # reported; no code for playout mode, whose function would take the name twice
            scope.error("LX301", f"`choose ... as {self.name}` binds `{twice[0]}` twice", self.pos)
            return None, self._options(*code), None, None
        return None, self._options(*code), self._drawing(*code), None

    def option_source(self, scope: Scope):
        """`f(rt, env)` giving the options without `pass`: a `NumberRange` for a number chosen from a
        range (`choose n in numbers(a, b) as NAME`, no `where`), else the list of every combination."""
        return self._option_functions(scope)[0]

    def _option_functions(self, scope: Scope) -> tuple:
        """(`f(rt, env)` giving the options without `pass`, `draw(rt, env, rng, optional)` for playout
        mode or None): the reference backend's."""
        bounds, options, lists_and_test, pos = self.sources(scope, env_names(scope))
        if bounds is not None:
            bounds = scope.codegen.expression(bounds)
            return (lambda rt, env: number_range(rt, bounds(rt, env), pos)), None
        if lists_and_test is None:
            return scope.codegen.expression(options), None
        lists_and_test = scope.codegen.expression(lists_and_test)
        return scope.codegen.expression(options), lambda rt, env, rng, optional: draw_option(
            lists_and_test(rt, env), rng, optional)

    def check_by(self, scope: Scope) -> None:
        """Once `by` is compiled (its type known)."""
        if self.by and self.group:
            check(scope, self.by.pos, "players", self.by.type, "who decides together (`by any of`)")
        elif self.by:
            check(scope, self.by.pos, "player", self.by.type, "who decides (`by`)")

    def rule(self, scope: Scope) -> ChoiceRule:
        """Noted among the game's decisions; where its decision comes from, to explain it."""
        scope.symbols.note_decision(self.name, tuple(self.binds()), scope.names_in_view())
        self.check_labels(scope)
        return ChoiceRule(self, scope)

    def check_labels(self, scope: Scope) -> None:
        """LX340: options that are what components are (`x.kind`, a kind's property, `x.id`), read from
        the pieces of a zone or a location, in a game whose components may lie face down (a kind with
        a `back`): a player who cannot tell those components apart would read in the options, and in
        the log, which they are. Offering the components themselves shows them by their handles."""
        if not scope.symbols.backs:
            return
        for _, options in self.bindings:
            read = identity_read(options, scope)
            if read is not None:
                scope.warn("LX340", f"the options of `{self.name}` are `{read}` of components: who cannot tell them "
                           "apart would read which they are", options.pos,
                           hint="offer the components (`choose x in ...`), one of each kind if need be: a player "
                                "who cannot tell one apart sees its handle (`chip@a1`)")
                return

    def compile(self, scope: Scope, deciding):
        enumerate_options, draw = self._option_functions(scope)
        by = self.by.compile(scope) if self.by else (lambda rt, env: env["you"])
        self.check_by(scope)
        otherwise = run_body(*self.otherwise.compile(scope, deciding)) if self.otherwise else None
        names, decision_name, optional, group = tuple(self.binds()), self.name, self.optional, self.group
        rule = self.rule(scope)

        def choose(rt, env):
            playout = rt.playout
            if playout is not None and draw is not None:
                drawn = draw(rt, env, playout, optional)
                if drawn is not None:
                    rt.decided_unasked()
                    bind(env, names, drawn)
                    return
            options = enumerate_options(rt, env)
            if not options:
                for name in names:
                    env[name] = None
                if otherwise is not None:
                    yield from otherwise(rt, env)
                elif not optional:  # "an effect with no target does nothing"; an optional one is simply passed
                    raise Return()
                return
            if optional:
                options = with_pass(options)
            members = ()
            if group:  # the players any of whom may answer, each once; the first is the one asked
                members = group_members(by(rt, env))
                player = members[0] if members else None
            else:
                player = by(rt, env)
            if player is None:
                raise self.nobody_decides()
            if playout is not None:  # nothing drawn: a random option of the whole list
                rt.decided_unasked()
                bind(env, names, options[playout.randrange(len(options))])
                return
            index = yield Decision(decision_name, player, names, options, rt.handle_of, members, (rule, env))
            bind(env, names, options[index])

        return choose, True

    def nobody_decides(self) -> RuleRuntimeError:
        return RuleRuntimeError(self.pos, f"nobody is to decide `{self.name}`: say who with `by` or `as`"
                                + (" (`by any of` names no player)" if self.group else ""))

    def _drawing(self, sources: list[str], condition: str | None) -> str:
        """For playout mode: the code of a function for each name's list of values (of the values
        drawn before it) and of the `where` test (of every value), for `draw_option`."""
        parts = [f"(lambda {', '.join(f'v_{n}' for n, _ in self.bindings[:i])}: {code})" for i, code in enumerate(sources)]
        parts.append(f"(lambda {', '.join(f'v_{n}' for n, _ in self.bindings)}: {condition or 'True'})")
        return "(" + ", ".join(parts) + ",)"

    def _number_range(self, scope: Scope, names: dict[str, str]) -> tuple[str, Position] | None:
        """For `choose n in numbers(LOW, HIGH) as NAME` (one name, no `where`): the code of (LOW, HIGH),
        for `number_range`, and where `numbers` is written. None for any other choose."""
        if self.where is not None or len(self.bindings) != 1:
            return None
        name, source = self.bindings[0]
        if not (isinstance(source, Call) and source.name == "numbers" and len(source.args) == 2
                and "numbers" not in scope.symbols.functions):
            return None
        scope.check_name(name, self.pos)
        low, high = (arg.code(scope, names) for arg in source.args)
        for number, arg in enumerate(source.args, 1):
            check(scope, arg.pos, "number", arg.type, f"argument {number} of `numbers`")
        source.type = "list"
        return f"({low}, {high})", source.pos

    def _option_code(self, scope: Scope, names: dict[str, str]) -> tuple[list[str], str | None]:
        """The generated code of each name's list of values (reading the names bound before it as
        `v_NAME`) and of the `where` condition, checked."""
        sources, inner = [], scope
        for name, source in self.bindings:
            scope.check_name(name, self.pos)
            if isinstance(source, ListOf) and not source.items:
                scope.error("LX326", f"`choose ... as {self.name}`: `{name}` has no value to choose from", source.pos)
            sources.append(source.code(inner, names))
            check(scope, source.pos, "list", source.type, f"the options of `{name}`")
            if is_none(source):
                scope.error("LX336", f"`choose ... as {self.name}`: `{name}` is chosen in none, where a list is needed", source.pos)
            inner = inner.with_locals(name)
            names = {**names, name: f"v_{name}"}
        if isinstance(self.where, Literal) and not self.where.value:
            scope.error("LX326", f"`choose ... as {self.name}`: the condition is never true", self.where.pos)
        return sources, self.where.code(inner, names) if self.where else None

    def _options(self, sources: list[str], condition: str | None) -> str:
        """The code of every combination of the bound values, in order, that satisfies `where`: one
        comprehension. The stack of a location a name holds (`Z.get(v_NAME)`, for `top(NAME)`) is looked
        up once per value, not at each use in the lists after it and the condition."""
        loops, later = [], [*sources[1:], condition or ""]
        for number, ((name, _), code) in enumerate(zip(self.bindings, sources)):
            loops.append(f"for v_{name} in {code}")
            stack, rest = f"Z.get(v_{name})", later[number:]
            if any(stack in part for part in rest) and not any(f"for v_{name} in" in part for part in rest):
                loops.append(f"for s_{name} in [{stack}]")
                later[number:] = [part.replace(stack, f"s_{name}") for part in rest]
        values = "".join(f"v_{name}, " for name, _ in self.bindings)
        condition = later[-1]
        return f"[({values}) {' '.join(loops)}{f' if {condition}' if condition else ''}]"


DRAWS = 8  # tries at drawing an option in playout mode before the whole list is made


def draw_option(lists_and_test: tuple, rng, optional: bool):
    """Playout mode: an option drawn at random without making the list of them, or None when it
    draws nothing (the caller then makes the list). `lists_and_test`: the functions `Choose._drawing`
    writes.

    Each try draws one value for each name from its list in turn (a later list may depend on the
    values drawn before it), or `pass` when it may (as one more option among all the combinations),
    and keeps the combination if it satisfies `where`, else tries again. When no list depends on
    another, every option and `pass` are equally likely, as from the whole list; when one does, a
    value of a shorter list is likelier. After DRAWS failed tries, None."""
    *lists, test = lists_and_test
    for _ in range(DRAWS):
        values, combinations = [], 1
        for values_of in lists:
            pool = values_of(*values)
            if not pool:
                break
            combinations *= len(pool)
            values.append(pool[rng.randrange(len(pool))])
        else:
            if optional and rng.randrange(combinations + 1) == combinations:
                return PASS
            if test(*values):
                return tuple(values)
    return None


def number_range(rt, bounds: tuple, pos: Position) -> NumberRange:
    """The options of a number chosen from `numbers(LOW, HIGH)`, made on demand: `bounds` is (LOW, HIGH)."""
    low, high = bounds
    if type(low) is not int or type(high) is not int:
        raise RuleRuntimeError(pos, f"`numbers` takes two numbers, not {render_value(low)} and {render_value(high)}")
    if high - low + 1 > LONGEST_RANGE:
        raise LimitExceeded(pos, f"numbers({low}, {high}) offers {high - low + 1:,} numbers to choose from, "
                                 f"more than {LONGEST_RANGE:,}")
    rt.steps += 1  # two numbers, whatever the range: no list is made (a list of n numbers costs n steps)
    if rt.steps > rt.step_limit:
        raise rt.too_many_steps(pos)
    return NumberRange(low, high)


def with_pass(options):
    """The options (a list made for this decision, or a range) and then `pass`, the last."""
    if isinstance(options, NumberRange):
        return options.with_pass()
    options.append(PASS)
    return options


def group_members(who) -> tuple:
    """The players any of whom may answer a `by any of` decision, each once, in order."""
    return tuple(dict.fromkeys(p for p in (who if isinstance(who, list) else [who]) if p is not None))


def bind(env: dict, names: tuple[str, ...], chosen) -> None:
    """The names of a `choose` hold the values of the option chosen (all `none` for `pass`)."""
    for name, value in zip(names, (None,) * len(names) if chosen is PASS else chosen):
        env[name] = value


@dataclass
class Simultaneously(Stmt):
    """simultaneously for each p in L: a `choose ... by p` for every p at once and in secret, then the
    rest of the block for each p in turn, with p's answer (no one's block sees another's bindings)."""

    pos: Position
    variable: str
    source: Expr
    body: Block

    def decides(self, deciding):
        return True

    def substatements(self):
        return self.body.statements

    def compile(self, scope: Scope, deciding):
        first = self.body.statements[0]
        if not (isinstance(first, Choose) and isinstance(first.by, Name) and first.by.name == self.variable
                and first.otherwise is None and not first.group):
            scope.error("LX333", f"`simultaneously for each {self.variable}` starts with the decision each player "
                        f"makes in secret: `choose ... as NAME by {self.variable}` (with `or pass` if they may pass; "
                        "no `otherwise`)", first.pos)
            return (lambda rt, env: None), False
        source, variable = self.source.compile(scope), self.variable
        check(scope, self.source.pos, "list", self.source.type, "who decides at once (`simultaneously for each`)")
        inner = scope.with_locals(variable)
        options_of = first.option_source(inner)
        names, decision_name, optional = first.binds(), first.name, first.optional
        scope.symbols.note_decision(decision_name, names, inner.names_in_view())
        rule = ChoiceRule(first, inner)
        rest = run_body(*Block(self.body.statements[1:]).compile(inner.with_locals(*names), deciding))

        def simultaneously(rt, env):
            each, parts = [], []
            for player in source(rt, env):  # every decision is made on the same state, before any is applied
                own = dict(env)
                own[variable] = player
                options = options_of(rt, own)
                options = with_pass(options) if optional else options
                if options:  # a player with nothing to choose (and no pass) takes no part
                    each.append((own, options))
                    parts.append(Decision(decision_name, player, names, options, rt.handle_of, origin=(rule, own)))
            answers = (yield Simultaneous(parts)) if parts else []
            for (own, options), index in zip(each, answers):
                bind(own, names, options[index])
                yield from rest(rt, own)

        return simultaneously, True


@dataclass
class AtOnce(Stmt):
    pos: Position
    body: Block

    def substatements(self):
        return self.body.statements

    def compile(self, scope, deciding):
        body, generator = self.body.compile(scope, deciding)
        if generator:
            scope.error("LX316", "an `at once` block cannot ask for a decision", self.pos)

        def at_once(rt, env):
            rt.batch += 1
            try:
                body(rt, env)
            finally:
                rt.batch -= 1
            rt.settle()

        return at_once, False


@dataclass
class Because(Stmt):
    """`STATEMENT because REASON`, or `because REASON:` over a block: the points the statements make any
    player score are that player's points for REASON (see `engine.reasons`)."""

    pos: Position
    reason: Expr
    body: Block
    line: bool = False  # written after one statement, not over a block

    def substatements(self):
        return self.body.statements

    def binds(self):
        return self.body.statements[0].binds() if self.line else ()

    def always_exits(self):
        return self.body.always_exits()

    def check_reason(self, scope: Scope) -> None:
        """Once the reason is compiled (its type known)."""
        check(scope, self.reason.pos, "reason", self.reason.type, "the reason of `because`")
        _check_because(self, scope)

    def compile(self, scope, deciding):
        reason = self.reason.compile(scope)
        self.check_reason(scope)
        body, generator = self.body.compile(scope, deciding)
        pos = self.reason.pos
        if scope.symbols.score is None:  # nothing to record (LX335 said so)
            return body, generator

        def named(rt, env):
            return named_reason(reason(rt, env), pos)

        if generator:
            def because(rt, env):
                name = named(rt, env)
                if name is None:
                    yield from body(rt, env)
                    return
                points, before = rt.points_by_reason, rt.points_by_reason.before(rt)
                try:
                    yield from body(rt, env)
                except Signal:  # the game ends, a turn ends, a procedure returns: the points still count
                    points.after(rt, name, before)
                    raise
                points.after(rt, name, before)
            return because, True

        def because_plain(rt, env):
            name = named(rt, env)
            if name is None:
                body(rt, env)
                return
            points, before = rt.points_by_reason, rt.points_by_reason.before(rt)
            try:
                body(rt, env)
            except Signal:
                points.after(rt, name, before)
                raise
            points.after(rt, name, before)

        return because_plain, False


def named_reason(reason, pos: Position) -> str | None:
    """The name under which `because` records points for `reason`."""
    try:
        return reason_name(reason)
    except ValueError as error:
        raise RuleRuntimeError(pos, str(error)) from None


def _check_because(node: Because, scope: Scope) -> None:
    """LX335: a `because` that can record nothing (no score in the manifest, or a statement that scores nothing)."""
    if scope.symbols.score is None:
        scope.warn("LX335", "`because` records points for a reason, but the manifest names no `score` function: "
                   "it records nothing", node.reason.pos,
                   hint="name the function of one player that gives the score in game.yaml: `score: NAME`")
        return
    statement = node.body.statements[0]
    if not node.line or not isinstance(statement, (Let, Signalling, Rank, Pass)):
        return
    word = "end game" if isinstance(statement, Rank) else statement.what if isinstance(statement, Signalling) \
        else type(statement).__name__.lower()
    ending = word in ("win", "lose", "draw")
    scope.warn("LX335", f"`{word}` makes nobody score: `because` has no points to give a reason here", node.reason.pos,
               hint="to say how the game ended, write `by` in place of `because`" if ending else None)


@dataclass
class As(Stmt):
    pos: Position
    player: Expr
    body: Block

    def check_player(self, scope: Scope) -> None:
        check(scope, self.player.pos, "player", self.player.type, "who acts (`as`)")

    def substatements(self):
        return self.body.statements

    def compile(self, scope, deciding):
        player = self.player.compile(scope)
        self.check_player(scope)
        body, generator = self.body.compile(scope, deciding)
        if generator:
            def as_player(rt, env):
                saved = env["you"]
                env["you"] = player(rt, env)
                try:
                    yield from body(rt, env)
                finally:
                    env["you"] = saved
            return as_player, True

        def as_player_plain(rt, env):
            saved = env["you"]
            env["you"] = player(rt, env)
            try:
                body(rt, env)
            finally:
                env["you"] = saved

        return as_player_plain, False


@dataclass
class Turn(Stmt):
    pos: Position
    player: Expr
    body: Block

    def decides(self, deciding):
        return True

    def check_player(self, scope: Scope) -> None:
        check(scope, self.player.pos, "player", self.player.type, "whose `turn` it is")

    def missing_phase(self, phase: str) -> RuleRuntimeError:
        return RuleRuntimeError(self.pos, f"the scenario starts at phase `{phase}`, which this turn does not have")

    def compile(self, scope, deciding):
        player = self.player.compile(scope)
        self.check_player(scope)
        body = run_body(*self.body.compile(scope, deciding))
        start, end = _start_and_end(scope, "turn")

        def turn(rt, env):
            saved, saved_turn = env["you"], rt.turn_player
            env["you"] = rt.turn_player = player(rt, env)
            rt.state.turns += 1
            try:
                yield from start(rt, env)
                yield from body(rt, env)
            except EndTurn:
                pass
            yield from end(rt, env)
            env["you"], rt.turn_player = saved, saved_turn
            if rt.start_phase is not None:
                raise self.missing_phase(rt.start_phase)
            if rt.pause_at == END_OF_TURN:
                raise Pause()

        return turn, True


@dataclass
class Phase(Stmt):
    pos: Position
    name: str
    body: Block

    def decides(self, deciding):
        return True

    def compile(self, scope, deciding):
        body = run_body(*self.body.compile(scope, deciding))
        start, end = _start_and_end(scope, self.name)
        name, ended = self.name, ("end", self.name)
        scope.symbols.phases.add(name)

        def phase(rt, env):
            if rt.start_phase is not None:  # a scenario starts the turn at a later phase
                if rt.start_phase != name:
                    return
                rt.start_phase = None
            rt.phase = name
            yield from start(rt, env)
            try:
                yield from body(rt, env)
            except EndTurn:  # the turn ends in this phase: the phase ends too
                yield from end(rt, env)
                rt.phase = None
                if rt.pause_at == ended:
                    raise Pause() from None
                raise
            yield from end(rt, env)
            rt.phase = None
            if rt.pause_at == ended:
                raise Pause()

        return phase, True
