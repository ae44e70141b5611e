"""The generated backend: a block of statements compiled to one Python function.

The reference backend (statements.py) makes a closure of each statement and runs a block as a loop
over them; a block that asks for decisions is a generator that `yield from`s each statement's own
generator, so that a decision deep in a procedure crosses a chain of them. Here the whole body of a
procedure, rule or ability is one generated function: `if`, the loops, `let`, `set`, `move`,
`choose`, `turn`... are written inline, and a decision is one `yield` of that function. Four
statements run as their reference closure, called from the generated code: `simultaneously` and
`emit ... ordered by` (rare, and deciding in ways of their own), and `win`/`lose`/`draw` and
`end game ranked by`, which end the game. Both backends play identical games (tests/test_backends.py).

The block's names are Python locals (`l_NAME`, `l_you`, `l_self`), read from the `env` it is
given when it starts; a dictionary of them is made only where something outside reads one: a
decision (to explain it), a draw in playout mode, a statement run as its closure. A procedure's
body takes its parameters as the function's own (`proc_NAME(rt, you, *arguments)`), and a `when`
rule the event's values, testing its condition itself: no `env` is made to call either.

An error is reported at the innermost statement that was running, as the reference does: each line
of the function is noted with the position of the statement that wrote it, and the traceback gives
the line.
"""
from __future__ import annotations

import itertools
import re
from contextlib import contextmanager
from dataclasses import dataclass

from interpreter.diagnostics.diagnostic import Position
from interpreter.diagnostics.errors import RuleRuntimeError
from interpreter.engine.decisions import NO_OPTION, PASS, Decision
from interpreter.engine.runtime import EndTurn, Pause, Return, Signal
from interpreter.language import statements as s
from interpreter.language.codegen import python_identifier
from interpreter.language.expressions import Expr
from interpreter.language.scope import Scope

_HELPERS = {
    "_Decision": Decision, "_PASS": PASS, "_NO_OPTION": NO_OPTION, "_Return": Return, "_EndTurn": EndTurn, "_Pause": Pause, "_Signal": Signal,
    "_RuleRuntimeError": RuleRuntimeError, "_bounded": s.within_bounds, "_move": s.move_components,
    "_with_pass": s.with_pass, "_members": s.group_members, "_reason": s.named_reason, "_at": s._at,
    "_window": s.anytime_window, "_draw": s.draw_option, "_numbers": s.number_range,
}


class Writer:
    """The lines of one generated function, each noted with the position of the statement that wrote it."""

    def __init__(self, scope: Scope, deciding: s.Deciding):
        self.codegen, self.deciding = scope.codegen, deciding
        self.lines: list[str] = []
        self.positions: list[Position] = []
        self.depth = 0
        self._temps = itertools.count()

    def line(self, text: str, pos: Position) -> None:
        self.lines.append("    " * self.depth + text)
        self.positions.append(pos)

    @contextmanager
    def indented(self):
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1

    def temp(self) -> str:
        return f"_local{next(self._temps)}"

    def constant(self, value, hint: str) -> str:
        return self.codegen.constant(value, hint)

    def literal(self, value) -> str:
        return self.codegen.literal(value)


def install(codegen) -> None:
    """Compile every block of the ruleset with this backend."""
    codegen.namespace.update(_HELPERS)
    codegen.compile_block = compile_block
    codegen.compile_procedure = compile_procedure
    codegen.compile_trigger = compile_trigger


def procedure_name(name: str) -> str:
    """What generated code calls procedure `name` by: `proc_NAME(rt, you, *arguments)`."""
    return f"proc_{python_identifier(name)}"


@dataclass
class Entry:
    """A procedure's or a `when` rule's body, called with its parameters rather than an `env`: it counts
    a step as it starts, and its callers `yield from` it if `generator`. A `when` rule's takes the
    event's values as one list, tests its `condition` there, and returns () where it does not decide."""
    params: list[str]
    pos: Position
    generator: bool
    condition: str | None = None  # its code
    from_values: bool = False


def compile_procedure(block: s.Block, scope: Scope, deciding: s.Deciding, params: list[str], generator: bool,
                      pos: Position):
    """A procedure's body as `f(rt, you, *arguments)`; None where Python cannot compile it, for the
    caller to compile it as any block."""
    reported = len(scope.diagnostics)
    try:
        return _generated_block(block, scope, deciding, True, (), Entry(params, pos, generator))[0]
    except (SyntaxError, RecursionError, MemoryError):
        del scope.diagnostics[reported:]  # reported again as the caller compiles it otherwise
        return None


def compile_trigger(block: s.Block, scope: Scope, deciding: s.Deciding, params: list[str], condition: Expr | None,
                    pos: Position):
    """A `when` rule as `trigger(rt, you, values)` (program.make_trigger's protocol), with its `applies`;
    None where Python cannot compile it."""
    reported = len(scope.diagnostics)
    try:
        test = _code(condition, scope) if condition is not None else None
        trigger, _ = _generated_block(block, scope, deciding, True, (), Entry(params, pos, False, test, True))
        applies = scope.codegen.new_name("applies")
        lines = [f"def {applies}(rt, l_you, values):", *_from_values(params, "    ")]
        lines += ["    Z = rt.state.zones"] if test and re.search(r"\bZ\b", test) else []
        scope.codegen.run("\n".join(lines + [f"    return {f'bool({test})' if test else 'True'}"]), applies)
    except (SyntaxError, RecursionError, MemoryError):
        del scope.diagnostics[reported:]  # reported again as the caller compiles the rule otherwise
        return None
    trigger.applies = scope.codegen.namespace[applies]
    return trigger


def _from_values(params: list[str], indent: str) -> list[str]:
    """The line that takes a `when` rule's parameters from the event's values (none for those missing)."""
    if not params:
        return []
    names = "".join(f"{_local(p)}, " for p in params)
    return [f"{indent}({names}*_) = (*values, {'None, ' * len(params)})"]


def compile_block(block: s.Block, scope: Scope, deciding: s.Deciding, catch_return: bool = False,
                  keep: tuple[str, ...] = ()):
    """(function(rt, env), is_generator), as `Block.compile` returns it: `catch_return` for a procedure's
    body; `keep`, the names to leave in `env` for the caller. A block Python cannot compile (loops and
    `as`, `turn`, `because`... nested deeper than its 20 levels) is compiled by the reference backend."""
    reported = len(scope.diagnostics)
    try:
        return _generated_block(block, scope, deciding, catch_return, keep)
    except (SyntaxError, RecursionError, MemoryError):
        del scope.diagnostics[reported:]  # reported again as the reference compiles the block
        return block.compile_reference(scope, deciding, catch_return)


def _generated_block(block: s.Block, scope: Scope, deciding: s.Deciding, catch_return: bool, keep: tuple[str, ...],
                     entry: Entry | None = None):
    out = Writer(scope, deciding)
    out.depth = 2
    generator = write_block(block, scope, out) or (entry is not None and entry.generator)
    for kept in keep:
        out.line(f"env[{kept!r}] = {_local(kept)}", None)
    name = scope.codegen.new_name("block")
    if entry is None:
        head = [f"def {name}(rt, env):", "    l_you = env['you']"]
        head += ["    l_self = env['self']"] if scope.has_self else []
        head += [f"    {_local(local)} = env.get({local!r})" for local in sorted(scope.locals)]
    else:
        takes = "values" if entry.from_values else ", ".join(_local(p) for p in entry.params)
        head = [f"def {name}(rt, l_you{', ' + takes if takes else ''}):",
                "    rt.steps += 1",
                "    if rt.steps > rt.step_limit:",
                f"        raise rt.too_many_steps({out.constant(entry.pos, 'pos')})"]
        head += _from_values(entry.params, "    ") if entry.from_values else []
        head += [f"    {_local(local)} = None" for local in sorted(scope.locals - set(entry.params))]
    if scope.replacing is not None:
        head.append(f"    {_PROCEED} = env[{out.literal(s.PROCEED)}]")
    condition = entry.condition if entry is not None else None
    if any(re.search(r"\bZ\b", line) for line in out.lines + [condition or ""]):  # the zones, read by expressions written inline
        head.append("    Z = rt.state.zones")
    nothing = "()" if entry is not None and entry.from_values and not generator else ""  # what a caller iterates
    if condition is not None:
        head += [f"    if not {condition}:", "        return ()"]
    head.append("    try:")
    at_line = out.constant({len(head) + 1 + i: pos for i, pos in enumerate(out.positions)}, "lines")
    tail = ["    except _Return:", f"        return {nothing}"] if catch_return else []
    tail += ["    except _Signal:", "        raise",
             "    except Exception as error:",
             f"        raise _at(error, {at_line}.get(error.__traceback__.tb_lineno)) from error"]
    if generator and not any(re.search(r"\byield\b", line) for line in out.lines):
        tail += ["    return", "    yield  # a generator, as its callers expect, though nothing here decides"]
    if nothing:
        tail.append(f"    return {nothing}")
    scope.codegen.run("\n".join(head + out.lines + tail), name)
    return scope.codegen.namespace[name], generator


def write_block(block: s.Block, scope: Scope, out: Writer) -> bool:
    """Write the statements of `block`; True if they may ask for a decision."""
    block.warn_unreachable(scope)
    generator = False
    for statement in block.statements:
        writer = _WRITERS.get(type(statement))
        generator |= writer(statement, scope, out) if writer else _call_closure(statement, scope, out)
        if statement.binds():
            scope = scope.with_locals(*statement.binds())
    if not block.statements:
        out.line("pass", None)
    return generator


def _call_closure(statement: s.Stmt, scope: Scope, out: Writer) -> bool:
    """A statement without its own writer: its reference closure, called."""
    function, generator = statement.compile(scope, out.deciding)
    call = f"{out.constant(function, 'statement')}(rt, {_env_dict(scope, out)})"
    out.line(f"yield from {call}" if generator else call, statement.pos)
    return generator


def _code(expr: Expr, scope: Scope) -> str:
    return f"({expr.code(scope, _names(scope))})"


def _names(scope: Scope) -> dict[str, str]:
    """How generated code reads each name in view (see `expressions.env_names`)."""
    names = {local: _local(local) for local in scope.locals}
    names["you"], names["self"] = "l_you", "l_self"
    return names


def _local(name: str) -> str:
    """The Python local that holds a name of the rules (a local of the block)."""
    return f"l_{name}"


_PROCEED = "l_proceed·"  # in an `instead of` rule: what `proceed` runs (no name of the rules can be this)


def _env_dict(scope: Scope, out: Writer) -> str:
    """The code of the names in view as a dictionary, for what reads them outside the block."""
    items = ["'you': l_you"] + (["'self': l_self"] if scope.has_self else [])
    items += [f"{local!r}: {_local(local)}" for local in sorted(scope.locals)]
    if scope.replacing is not None:
        items.append(f"{out.literal(s.PROCEED)}: {_PROCEED}")
    return "{" + ", ".join(items) + "}"


def _count_step(pos: Position, out: Writer) -> None:
    out.line("rt.steps += 1", pos)
    out.line("if rt.steps > rt.step_limit:", pos)
    out.line(f"    raise rt.too_many_steps({out.constant(pos, 'pos')})", pos)


def _bounded(expr: Expr, code: str, pos: Position, out: Writer) -> str:
    return f"_bounded({code}, {out.constant(pos, 'pos')})" if s.is_bounded(expr) else code


def _run_handlers(key: tuple, values: str, pos: Position, out: Writer, deciding: bool, error: str = "") -> None:
    """Every `when` rule of event `key`, with the list `values`; where no decision is expected
    (not `deciding`), a handler that decides is the error `error`."""
    handler = out.temp()
    out.line(f"for {handler} in rt.triggers({out.constant(key, 'event')}):", pos)
    if deciding:
        out.line(f"    yield from {handler}(rt, l_you, {values})", pos)
    else:
        out.line(f"    for _ in {handler}(rt, l_you, {values}):", pos)
        out.line(f"        raise {error}", pos)


def write_let(node: s.Let, scope: Scope, out: Writer) -> bool:
    scope.check_name(node.name, node.pos)
    out.line(f"{_local(node.name)} = {_bounded(node.value, _code(node.value, scope), node.pos, out)}", node.pos)
    return False


def write_set(node: s.Set, scope: Scope, out: Writer) -> bool:
    value = _bounded(node.value, _code(node.value, scope), node.pos, out)
    what, *target = node.target_of(scope)
    if what == "local":
        out.line(f"{_local(target[0])} = {value}", node.pos)
    elif what == "variable":
        name = out.literal(target[0])
        out.line(f"rt.state.variables[{name}] = {value}", node.pos)
        out.line(f"rt.state.variable_changed({name})", node.pos)
    elif what == "player":
        name = out.literal(target[0])
        out.line(f"rt.state.variables[{name}][{_code(target[1], scope)}] = {value}", node.pos)
        out.line(f"rt.state.variable_changed({name})", node.pos)
    elif what == "property":
        name = out.literal(target[1])
        out.line(f"{_code(target[0], scope)}.props[{name}] = {value}", node.pos)
        out.line(f"rt.state.property_changed({name})", node.pos)
    else:
        out.line("pass", node.pos)
    return False


def write_move(node: s.Move, scope: Scope, out: Writer) -> bool:
    what, to = _code(node.what, scope), _code(node.to, scope)
    node.check_types(scope)
    how = node.how(scope)
    moved, values = out.temp(), out.temp()
    out.line(f"{moved} = {what}", node.pos)
    out.line(f"if {moved} is not None:", node.pos)
    with out.indented():
        out.line(f"{values} = _move(rt, {moved}, {to}, *{out.constant(how, 'how')})", node.pos)
        if not node.announced(scope):  # no rule listens: a move announces nothing
            return False
        deciding = node.decides(out.deciding)
        out.line(f"if {values}:", node.pos)
        with out.indented():
            error = f"_RuleRuntimeError({out.constant(node.pos, 'pos')}, " \
                    f"{out.literal('a `when moved` rule asked for a decision where none was expected')})"
            _run_handlers(s.MOVED, values, node.pos, out, deciding, error)
            _pause_if_asked(s.MOVED, node.pos, out)
    return deciding


def write_emit(node: s.Emit, scope: Scope, out: Writer) -> bool:
    if node.ordered_by is not None:
        return _call_closure(node, scope, out)
    node.check_event(scope)
    values, deciding = out.temp(), node.decides(out.deciding)
    out.line(f"{values} = [{''.join(_code(a, scope) + ', ' for a in node.args)}]", node.pos)
    error = f"_RuleRuntimeError(None, {out.literal('an event handler asked for a decision where none was expected')})"
    _run_handlers(("event", node.event), values, node.pos, out, deciding, error)
    _pause_if_asked(("event", node.event), node.pos, out)
    return deciding


def write_call(node: s.CallProcedure, scope: Scope, out: Writer) -> bool:
    node.check_call(scope)
    args = "".join(_code(a, scope) + ", " for a in node.args)
    call = f"{procedure_name(node.name)}(rt, l_you, {args})"
    deciding = node.decides(out.deciding)
    out.line(f"yield from {call}" if deciding else call, node.pos)
    return deciding


def write_perform(node: s.Perform, scope: Scope, out: Writer) -> bool:
    node.check_ability(scope)
    component, body = out.temp(), out.temp()
    deciding = node.decides(out.deciding)
    out.line(f"{component} = {_code(node.subject, scope)}", node.pos)
    node.check_subject(scope)
    out.line(f"{body} = rt.program.abilities.get(({component}.kind, {out.literal(node.ability)})) "
             f"if {component} is not None else None", node.pos)
    out.line(f"if {body} is not None:", node.pos)
    with out.indented():
        _count_step(node.pos, out)
        out.line("try:", node.pos)
        call = f"{body}(rt, {{'you': l_you, 'self': {component}}})"
        out.line(f"    yield from {call}" if deciding else f"    {call}", node.pos)
        out.line("except _Return:", node.pos)
        out.line("    pass", node.pos)
    return deciding


def write_effect(node: s.Effect, scope: Scope, out: Writer) -> bool:
    operands = [_code(operand, scope) for operand in node.operands()]
    node.check_operands(scope)
    out.line(f"{out.constant(node.effect(), 'effect')}(rt, {', '.join(operands)})", node.pos)
    return False


def write_window(node: s.Window, scope: Scope, out: Writer) -> bool:
    scope.symbols.note_decision(s.ANYTIME, ("action",))  # bots may value it like any decision
    out.line(f"yield from _window(rt, l_you, {out.constant(node.pos, 'pos')}, {node.steps})", node.pos)
    return True


def write_at_once(node: s.AtOnce, scope: Scope, out: Writer) -> bool:
    out.line("rt.batch += 1", node.pos)
    out.line("try:", node.pos)
    with out.indented():
        if write_block(node.body, scope, out):
            scope.error("LX316", "an `at once` block cannot ask for a decision", node.pos)
    out.line("finally:", node.pos)
    out.line("    rt.batch -= 1", node.pos)
    out.line("rt.settle()", node.pos)
    return False


def write_signal(node: s.Signalling, scope: Scope, out: Writer) -> bool:
    if node.what not in ("end turn", "return"):
        return _call_closure(node, scope, out)
    out.line("raise _EndTurn()" if node.what == "end turn" else "raise _Return()", node.pos)
    return False


def write_pass(node: s.Pass, scope: Scope, out: Writer) -> bool:
    out.line("pass", node.pos)
    return False


def write_proceed(node: s.Proceed, scope: Scope, out: Writer) -> bool:
    if scope.replacing is None:
        return _call_closure(node, scope, out)  # reports the error
    deciding = bool(out.deciding.procedures.get(scope.replacing))
    call = f"{_PROCEED}(rt)"
    out.line(f"yield from {call}" if deciding else call, node.pos)
    return deciding


def write_if(node: s.If, scope: Scope, out: Writer) -> bool:
    generator = False
    for number, (test, block) in enumerate(node.branches):
        out.line(f"{'if' if number == 0 else 'elif'} {_code(test, scope)}:", node.pos)
        with out.indented():
            generator |= write_block(block, scope, out)
    if node.otherwise is not None:
        out.line("else:", node.pos)
        with out.indented():
            generator |= write_block(node.otherwise, scope, out)
    return generator


def write_while(node: s.While, scope: Scope, out: Writer) -> bool:
    out.line(f"while {_code(node.test, scope)}:", node.pos)
    with out.indented():
        _count_step(node.pos, out)
        return write_block(node.body, scope, out)


def write_for_each(node: s.ForEach, scope: Scope, out: Writer) -> bool:
    item = out.temp()
    out.line(f"for {item} in {_code(node.selection(scope), scope)}:", node.pos)
    with out.indented():
        _count_step(node.pos, out)
        out.line(f"{_local(node.variable)} = {item}", node.pos)
        return write_block(node.body, scope.with_locals(node.variable), out)


def write_repeat(node: s.Repeat, scope: Scope, out: Writer) -> bool:
    times = _code(node.times, scope) if node.times else None
    node.check_times(scope)
    out.line("while True:" if times is None else f"for _ in range({times}):", node.pos)
    with out.indented():
        _count_step(node.pos, out)
        generator = write_block(node.body, scope, out)
    if times is None and not generator:
        scope.error("LX317", "`repeat:` without a count never ends unless it asks for a decision", node.pos)
    return generator


def write_choose(node: s.Choose, scope: Scope, out: Writer) -> bool:
    bounds, options_code, draw, numbers_pos = node.sources(scope, _names(scope))
    by = _code(node.by, scope) if node.by else "l_you"
    node.check_by(scope)
    names = tuple(node.binds())
    playout, options, player, chosen = (out.temp() for _ in range(4))
    bound, pos = f"{out.constant(names, 'names')}", node.pos
    # A copy replaying a game takes the option recorded (or that there was none) without making the
    # list; playout mode draws one without making the list, if it finds one soon.
    out.line(f"{playout} = rt.playout", pos)
    out.line(f"{chosen} = rt.replaying.take(rt) if rt.replaying is not None else None", pos)
    if draw is not None:
        out.line(f"if {chosen} is None and {playout} is not None and ({chosen} := _draw({draw}, {playout}, "
                 f"{node.optional})) is not None:", pos)
        out.line("    rt.decided_unasked()", pos)
    out.line(f"if {chosen} is None:", pos)
    with out.indented():
        if bounds is not None:
            options_code = f"_numbers(rt, {bounds}, {out.constant(numbers_pos, 'pos')})"
        out.line(f"{options} = {options_code}", pos)
        out.line(f"if not {options}:", pos)
        out.line(f"    {chosen} = _NO_OPTION", pos)
        out.line("    rt.taken.append(_NO_OPTION)", pos)
        out.line("else:", pos)
        with out.indented():
            _ask(node, scope, by, bound, options, player, chosen, playout, out)
    out.line(f"if {chosen} is _NO_OPTION:", pos)
    with out.indented():
        for name in names:
            out.line(f"{_local(name)} = None", pos)
        if node.otherwise is not None:
            write_block(node.otherwise, scope, out)
        elif not node.optional:  # "an effect with no target does nothing"; an optional one is simply passed
            out.line("raise _Return()", pos)
    out.line("else:", pos)
    with out.indented():
        _bind(names, chosen, pos, out)
    return True


def _ask(node: s.Choose, scope: Scope, by: str, bound: str, options: str, player: str, chosen: str, playout: str,
         out: Writer) -> None:
    """`chosen`: one of `options` (not empty), drawn at random in playout mode, else the answer of the player asked."""
    pos, rule = node.pos, out.constant(node.rule(scope), "rule")
    if node.optional:
        out.line(f"{options} = _with_pass({options})", pos)
    members = "()"
    if node.group:  # the players any of whom may answer, each once; the first is the one asked
        members = out.temp()
        out.line(f"{members} = _members({by})", pos)
        out.line(f"{player} = {members}[0] if {members} else None", pos)
    else:
        out.line(f"{player} = {by}", pos)
    out.line(f"if {player} is None:", pos)
    out.line(f"    raise {out.constant(node, 'choose')}.nobody_decides()", pos)
    out.line(f"if {playout} is not None:  # nothing drawn: a random option of the whole list", pos)
    out.line("    rt.decided_unasked()", pos)
    out.line(f"    {chosen} = {options}[{playout}.randrange(len({options}))]", pos)
    out.line("else:", pos)
    out.line(f"    {chosen} = {options}[(yield _Decision({out.literal(node.name)}, {player}, {bound}, {options}, "
             f"rt.handle_of, {members}, ({rule}, {_env_dict(scope, out)})))]", pos)


def _bind(names: tuple[str, ...], chosen: str, pos: Position, out: Writer) -> None:
    """The names of a `choose` hold the values of the option `chosen` (all none for `pass`)."""
    targets = ", ".join(_local(name) for name in names)
    out.line(f"if {chosen} is _PASS:", pos)
    out.line(f"    {' = '.join(_local(name) for name in names)} = None", pos)
    out.line("else:", pos)
    out.line(f"    {targets}, = {chosen}", pos)


def write_because(node: s.Because, scope: Scope, out: Writer) -> bool:
    reason = _code(node.reason, scope)
    node.check_reason(scope)
    if scope.symbols.score is None:  # nothing to record (LX335 said so)
        return write_block(node.body, scope, out)
    name, points, before = out.temp(), out.temp(), out.temp()
    out.line(f"{name} = _reason({reason}, {out.constant(node.reason.pos, 'pos')})", node.pos)
    out.line(f"{points} = rt.points_by_reason", node.pos)
    out.line(f"{before} = {points}.before(rt) if {name} is not None else None", node.pos)
    out.line("try:", node.pos)
    with out.indented():
        generator = write_block(node.body, scope, out)
    out.line("except _Signal:  # the game ends, a turn ends, a procedure returns: the points still count", node.pos)
    out.line(f"    if {name} is not None:", node.pos)
    out.line(f"        {points}.after(rt, {name}, {before})", node.pos)
    out.line("    raise", node.pos)
    out.line(f"if {name} is not None:", node.pos)
    out.line(f"    {points}.after(rt, {name}, {before})", node.pos)
    return generator


def _acting(node: s.As | s.Turn, scope: Scope, out: Writer) -> str:
    """`you` is the statement's player from here; the name of the local that keeps who it was."""
    player = _code(node.player, scope)
    node.check_player(scope)
    saved = out.temp()
    out.line(f"{saved} = l_you", node.pos)
    out.line(f"l_you = {player}", node.pos)
    return saved


def write_as(node: s.As, scope: Scope, out: Writer) -> bool:
    saved = _acting(node, scope, out)
    out.line("try:", node.pos)
    with out.indented():
        generator = write_block(node.body, scope, out)
    out.line("finally:", node.pos)
    out.line(f"    l_you = {saved}", node.pos)
    return generator


def _run_event(name: str, when: str, scope: Scope, pos: Position, out: Writer) -> None:
    """`start of NAME` or `end of NAME`, if some rule handles it."""
    key = (when, name)
    if key in scope.symbols.handled:
        _run_handlers(key, "[]", pos, out, deciding=True)


def write_turn(node: s.Turn, scope: Scope, out: Writer) -> bool:
    saved_turn = out.temp()
    out.line(f"{saved_turn} = rt.turn_player", node.pos)
    saved = _acting(node, scope, out)
    out.line("rt.turn_player = l_you", node.pos)
    out.line("rt.state.turns += 1", node.pos)
    out.line("try:", node.pos)
    with out.indented():
        _run_event("turn", "start", scope, node.pos, out)
        write_block(node.body, scope, out)
    out.line("except _EndTurn:", node.pos)
    out.line("    pass", node.pos)
    _run_event("turn", "end", scope, node.pos, out)
    out.line(f"l_you, rt.turn_player = {saved}, {saved_turn}", node.pos)
    out.line("if rt.start_phase is not None:", node.pos)
    out.line(f"    raise {out.constant(node, 'turn')}.missing_phase(rt.start_phase)", node.pos)
    out.line(f"if rt.pause_at == {out.constant(('end', 'turn'), 'key')}:", node.pos)
    out.line("    raise _Pause()", node.pos)
    return True


def write_phase(node: s.Phase, scope: Scope, out: Writer) -> bool:
    scope.symbols.phases.add(node.name)
    name = out.literal(node.name)
    out.line(f"if rt.start_phase is None or rt.start_phase == {name}:  # a scenario may start the turn at a later phase",
             node.pos)
    with out.indented():
        out.line("rt.start_phase = None", node.pos)
        out.line(f"rt.phase = {name}", node.pos)
        _run_event(node.name, "start", scope, node.pos, out)
        out.line("try:", node.pos)
        with out.indented():
            write_block(node.body, scope, out)
        out.line("except _EndTurn:  # the turn ends in this phase: the phase ends too", node.pos)
        with out.indented():
            _run_event(node.name, "end", scope, node.pos, out)
            out.line("rt.phase = None", node.pos)
            _pause_if_asked(("end", node.name), node.pos, out)
            out.line("raise", node.pos)
        _run_event(node.name, "end", scope, node.pos, out)
        out.line("rt.phase = None", node.pos)
        _pause_if_asked(("end", node.name), node.pos, out)
    return True


def _pause_if_asked(key: tuple, pos: Position, out: Writer) -> None:
    """A scenario may stop the game just after this point (`until:`)."""
    out.line(f"if rt.pause_at == {out.constant(key, 'key')}:", pos)
    out.line("    raise _Pause()", pos)


_WRITERS = {
    s.Let: write_let, s.Set: write_set, s.Move: write_move, s.Emit: write_emit, s.CallProcedure: write_call,
    s.Perform: write_perform, s.Signalling: write_signal, s.Pass: write_pass, s.Proceed: write_proceed,
    s.If: write_if, s.While: write_while, s.ForEach: write_for_each, s.Repeat: write_repeat, s.Choose: write_choose,
    s.Because: write_because, s.As: write_as, s.Turn: write_turn, s.Phase: write_phase, s.Shuffle: write_effect,
    s.Reveal: write_effect, s.Refuse: write_effect, s.Flip: write_effect, s.Window: write_window, s.AtOnce: write_at_once,
}
