"""Blocks of statements written as Lua functions `fn(G, f)`, `f` the frame of the rule running.

A routine that may stop for a decision (a procedure, ability or `when` rule the front end found
deciding, and `play:`) is written flat: every statement that may stop sits at the top level of the
function, its control flow made of labels and `goto`, its locals kept in the frame (`f["v_NAME"]`),
and each place it may resume at numbered; the function starts with a jump to `f.pc`. So a routine
stopped at a decision is data (its frame), and a game can be copied. Statements that cannot stop
are written as plain Lua inside `do ... end`. A routine that never stops is called directly.

Every routine returns nil when it is done and R.CALL when it pushed a frame or unwound the stack
(`end turn`, the end of the game): a caller gets CALL back from a call and returns it at once.
"""
from __future__ import annotations

import itertools

from interpreter.backends.lua.expressions import Code, NotOnLua, key, lua_string
from interpreter.language import expressions as e
from interpreter.language import statements as s
from interpreter.language.expressions import Quantifier
from interpreter.language.types import ANY


def local(name: str) -> str:
    """Where a frame keeps the rules' local `name`."""
    return f"f{key('v_' + name)}"


class Routine(Code):
    """The Lua of one routine. `resumable`: written flat, with numbered resume points."""

    def __init__(self, program, names: dict[str, str], resumable: bool):
        super().__init__(program, names)
        self.resumable = resumable
        self.resume_points: list[int] = []
        self._labels = itertools.count(1)

    def label(self) -> str:
        return f"L{next(self._labels)}"

    def resume_point(self) -> int:
        """A new place to resume at: its number (f.pc) is also its label's, `::P<n>::`."""
        number = len(self.resume_points) + 1
        self.resume_points.append(number)
        return number

    def where(self, pos) -> int:
        return self.program.where(pos)

    def function(self, header: str) -> list[str]:
        lines = [header, "  local S = G.S"]
        if self.resume_points:
            lines.append("  local pc = f.pc")
            for number in self.resume_points:
                lines.append(f"  if pc == {number} then goto P{number} end")
        return lines + self.lines + ["  return nil", "end"]


def write_block(block: s.Block, out: Routine, flat: bool) -> None:
    """The statements of `block`; `flat`: at the routine's top level (those that may stop written flat)."""
    for statement in block.statements:
        write_statement(statement, out, flat)
        for name in statement.binds():
            out.names[name] = local(name)


def write_statement(statement, out: Routine, flat: bool) -> None:
    if flat and statement.decides(out.program.deciding):
        writer = FLAT.get(type(statement))
        if writer is None:
            raise NotOnLua(f"`{type(statement).__name__}` statements that ask for decisions", statement.pos)
        writer(statement, out)
        return
    writer = PLAIN.get(type(statement))
    if writer is None:
        raise NotOnLua(f"`{type(statement).__name__}` statements", statement.pos)
    if flat:  # its locals kept inside, away from the labels of the routine
        out.line("do")
        writer(statement, _inner(out))
        out.line("end")
    else:
        writer(statement, out)


def _inner(out: Routine) -> Routine:
    """Lines one level deeper in the same routine (its lines, resume points and labels), with its own names."""
    deeper = Routine.__new__(Routine)
    deeper.__dict__.update(out.__dict__)
    deeper.names = dict(out.names)
    deeper.depth = out.depth + 1
    return deeper


def _plain_block(block: s.Block, out: Routine) -> None:
    write_block(block, _inner(out), flat=False)


# Statements that never stop ----------------------------------------------------------------------

def _bounded(out: Routine, expr, value: str, pos) -> str:
    return f"R.bounded({value}, {out.where(pos)})" if expr.type in (ANY, "number", "list", "text") else value


def plain_let(node: s.Let, out: Routine) -> None:
    out.line(f"{local(node.name)} = {_bounded(out, node.value, out.value(node.value), node.pos)}")


def plain_set(node: s.Set, out: Routine) -> None:
    value = _bounded(out, node.value, out.value(node.value), node.pos)
    target = node.target
    symbols = out.program.symbols
    if isinstance(target, e.Name) and target.name in out.names:
        out.line(f"{out.names[target.name]} = {value}")
        return
    if isinstance(target, e.Name) and target.name in symbols.variables and not symbols.variables[target.name]:
        out.line(f"S.vars{key(target.name)} = {value}")
    elif isinstance(target, e.Call) and symbols.variables.get(target.name):
        out.line(f"S.vars{key(target.name)}[{out.value(target.args[0])}] = {value}")
    elif isinstance(target, e.Attribute) and target.name in symbols.properties:
        out.line(f"S.props{key(target.name)}[{out.value(target.subject)}] = {value}")
    else:
        raise NotOnLua("this `set`", node.pos)
    out.line("S.version = S.version + 1")


def plain_move(node: s.Move, out: Routine) -> None:
    if node.at_bottom or node.facing is not None or s.MOVED in out.program.symbols.handled or out.program.guarded:
        raise NotOnLua("`move` to the bottom, face up or down, announced or guarded", node.pos)
    what, to = out._simple(out.value(node.what)), out._simple(out.value(node.to))
    where = out.where(node.pos)
    if node.what.type == "component":
        out.line(f"if {what} ~= nil then R.move(G, {what}, {to}, {where}) end")
    else:
        out.line(f"if type({what}) == 'table' then")
        out.line(f"  for i = 1, #{what} do R.move(G, {what}[i], {to}, {where}) end")
        out.line(f"elseif {what} ~= nil then R.move(G, {what}, {to}, {where}) end")


def plain_call(node: s.CallProcedure, out: Routine) -> None:
    frame = _frame_of(out, out.program.procedure_params(node.name), node.args)
    out.line(f"R.step(G, {out.where(node.pos)})")
    out.line(f"if P{key(node.name)}(G, {frame}) then return R.CALL end")


def plain_perform(node: s.Perform, out: Routine) -> None:
    c = out._simple(out.value(node.subject))
    body = out.temp("ability")
    out.line(f"local {body} = (A{key(node.ability)} or T.none)[S.kind[{c}]]")
    out.line(f"if {body} ~= nil then")
    out.line(f"  R.step(G, {out.where(node.pos)})")
    out.line(f"  if {body}(G, {{you = f.you, self = {c}}}) then return R.CALL end")
    out.line("end")


def plain_emit(node: s.Emit, out: Routine) -> None:
    if node.ordered_by is not None:
        raise NotOnLua("`emit ... ordered by`", node.pos)
    values = "{" + ", ".join(out.value(a) for a in node.args) + "}"
    handlers = f"H{key(node.event)}"
    out.line(f"local values = {values}")
    out.line(f"for i = 1, #({handlers} or T.empty) do")
    out.line(f"  if {handlers}[i](G, {{you = f.you, values = values}}) then return R.CALL end")
    out.line("end")


def plain_signal(node: s.Signalling, out: Routine) -> None:
    if node.what == "return":
        out.line("do return nil end")
    elif node.what == "end turn":
        out.line("do return R.end_turn(G) end")
    elif node.what == "lose" and node.ending is None:
        out.line(f"do return R.lose(G, {out.value(node.player)}, {out.where(node.pos)}) end")
    else:
        raise NotOnLua(f"`{node.what}`", node.pos)


def plain_rank(node: s.Rank, out: Routine) -> None:
    if node.ties_share:
        raise NotOnLua("`ties share`", node.pos)
    keys = ", ".join(f"{{{'true' if order == 'most' else 'false'}, F{key(name)}, {lua_string(name)}}}"
                     for order, name in node.keys)
    out.line(f"do return R.rank(G, {{{keys}}}) end")


def plain_pass(node: s.Pass, out: Routine) -> None:
    pass


def plain_if(node: s.If, out: Routine) -> None:
    _plain_branches(node.branches, node.otherwise, out)


def _plain_branches(branches: list, otherwise: s.Block | None, out: Routine) -> None:
    """if / else if as nested `if`s: a test's prelude runs only when the tests before it failed."""
    test, block = branches[0]
    out.line(f"if {out.truth(test)} then")
    _plain_block(block, out)
    if len(branches) > 1 or otherwise is not None:
        out.line("else")
        inner = _inner(out)
        if len(branches) > 1:
            _plain_branches(branches[1:], otherwise, inner)
        else:
            write_block(otherwise, inner, flat=False)
    out.line("end")


def plain_while(node: s.While, out: Routine) -> None:
    out.line("while true do")
    body = _inner(out)
    body.line(f"if not {body.truth(node.test)} then break end")
    body.line(f"R.step(G, {out.where(node.pos)})")
    write_block(node.body, body, flat=False)
    out.line("end")


def _selection(node: s.ForEach) -> Quantifier:
    return Quantifier(node.pos, "select", node.variable, node.source, node.where, None, None)


def plain_for_each(node: s.ForEach, out: Routine) -> None:
    items, index = out.value(_selection(node)), out.temp("i")
    out.line(f"for {index} = 1, #{items} do")
    body = _inner(out)
    body.line(f"R.step(G, {out.where(node.pos)})")
    body.line(f"{local(node.variable)} = {items}[{index}]")
    body.names[node.variable] = local(node.variable)
    write_block(node.body, body, flat=False)
    out.line("end")


def plain_repeat(node: s.Repeat, out: Routine) -> None:
    if node.times is None:
        raise NotOnLua("`repeat:` that never asks for a decision", node.pos)
    out.line(f"for _ = 1, {out.value(node.times)} do")
    body = _inner(out)
    body.line(f"R.step(G, {out.where(node.pos)})")
    write_block(node.body, body, flat=False)
    out.line("end")


def plain_at_once(node: s.AtOnce, out: Routine) -> None:
    if any(isinstance(x, s.Signalling) for x in _all_statements(node.body)):
        raise NotOnLua("`return`, `end turn` or an ending inside `at once`", node.pos)
    out.line("G.batch = G.batch + 1")
    write_block(node.body, _inner(out), flat=False)
    out.line("G.batch = G.batch - 1")
    out.line("R.settle(G)")


def plain_as(node: s.As, out: Routine) -> None:
    saved = out.temp("you")
    out.line(f"local {saved} = f.you")
    out.line(f"f.you = {out.value(node.player)}")
    write_block(node.body, _inner(out), flat=False)
    out.line(f"f.you = {saved}")


def _all_statements(block: s.Block):
    for statement in block.statements:
        yield statement
        for sub in statement.substatements():
            yield from _all_statements(s.Block([sub]))


def _frame_of(out: Routine, params: list[str], args) -> str:
    values = [out.value(a) for a in args]
    fields = ["you = f.you"] + [f"{key('v_' + p)} = {v}" for p, v in zip(params, values)]
    return "{" + ", ".join(fields) + "}"


PLAIN = {
    s.Let: plain_let, s.Set: plain_set, s.Move: plain_move, s.CallProcedure: plain_call, s.Perform: plain_perform,
    s.Emit: plain_emit, s.Signalling: plain_signal, s.Rank: plain_rank, s.Pass: plain_pass, s.If: plain_if,
    s.While: plain_while, s.ForEach: plain_for_each, s.Repeat: plain_repeat, s.AtOnce: plain_at_once, s.As: plain_as,
}


# Statements that may stop: written flat ----------------------------------------------------------

def _test(out: Routine, test, jump: str, when_false: bool = True) -> None:
    """`goto jump` when `test` is false (or true), its prelude kept inside `do ... end`."""
    out.line("do")
    inner = _inner(out)
    truth = inner.truth(test)
    inner.line(f"if {'not ' if when_false else ''}{truth} then goto {jump} end")
    out.line("end")


def _push(out: Routine, function: str, frame: str, pos) -> None:
    """Push a frame for `function` and resume here once it is done."""
    point = out.resume_point()
    out.line(f"do R.step(G, {out.where(pos)}); f.pc = {point}; return R.push(G, {function}, {frame}) end")
    out.line(f"::P{point}::")


def flat_call(node: s.CallProcedure, out: Routine) -> None:
    out.line("do")
    inner = _inner(out)
    frame = _frame_of(inner, out.program.procedure_params(node.name), node.args)
    inner.line(f"f.next = {frame}")
    out.line("end")
    _push(out, f"P{key(node.name)}", "f.next", node.pos)


def flat_perform(node: s.Perform, out: Routine) -> None:
    done = out.label()
    out.line("do")
    inner = _inner(out)
    c = inner._simple(inner.value(node.subject))
    inner.line(f"f.next_fn = (A{key(node.ability)} or T.none)[S.kind[{c}]]")
    inner.line(f"f.next = {{you = f.you, self = {c}}}")
    inner.line(f"if f.next_fn == nil then goto {done} end")
    out.line("end")
    _push(out, "f.next_fn", "f.next", node.pos)
    out.line(f"::{done}::")


def flat_emit(node: s.Emit, out: Routine) -> None:
    if node.ordered_by is not None:
        raise NotOnLua("`emit ... ordered by`", node.pos)
    values, number = out.temp("values"), out.temp("h")
    handlers = f"(H{key(node.event)} or T.empty)"
    out.line("do")
    inner = _inner(out)
    inner.line(f"f.{values} = {{{', '.join(inner.value(a) for a in node.args)}}}")
    inner.line(f"f.{number} = 0")
    out.line("end")
    top, done = out.label(), out.label()
    out.line(f"::{top}::")
    out.line(f"f.{number} = f.{number} + 1")
    out.line(f"if f.{number} > #{handlers} then goto {done} end")
    _push(out, f"{handlers}[f.{number}]", f"{{you = f.you, values = f.{values}}}", node.pos)
    out.line(f"goto {top}")
    out.line(f"::{done}::")
    out.line(f"f.{values} = nil")


def flat_if(node: s.If, out: Routine) -> None:
    end = out.label()
    for test, block in node.branches:
        following = out.label()
        _test(out, test, following)
        write_block(block, out, flat=True)
        out.line(f"goto {end}")
        out.line(f"::{following}::")
    if node.otherwise is not None:
        write_block(node.otherwise, out, flat=True)
    out.line(f"::{end}::")


def flat_while(node: s.While, out: Routine) -> None:
    top, end = out.label(), out.label()
    out.line(f"::{top}::")
    _test(out, node.test, end)
    out.line(f"R.step(G, {out.where(node.pos)})")
    write_block(node.body, out, flat=True)
    out.line(f"goto {top}")
    out.line(f"::{end}::")


def flat_for_each(node: s.ForEach, out: Routine) -> None:
    items, index = out.temp("items"), out.temp("i")
    out.line("do")
    inner = _inner(out)
    inner.line(f"f.{items} = {inner.value(_selection(node))}")
    inner.line(f"f.{index} = 0")
    out.line("end")
    top, end = out.label(), out.label()
    out.line(f"::{top}::")
    out.line(f"f.{index} = f.{index} + 1")
    out.line(f"if f.{index} > #f.{items} then goto {end} end")
    out.line(f"R.step(G, {out.where(node.pos)})")
    out.line(f"{local(node.variable)} = f.{items}[f.{index}]")
    out.names[node.variable] = local(node.variable)
    write_block(node.body, out, flat=True)
    out.line(f"goto {top}")
    out.line(f"::{end}::")
    out.line(f"f.{items} = nil")


def flat_repeat(node: s.Repeat, out: Routine) -> None:
    top, end, count, times = out.label(), out.label(), out.temp("n"), out.temp("times")
    if node.times is not None:
        out.line("do")
        inner = _inner(out)
        inner.line(f"f.{times} = {inner.value(node.times)}")
        inner.line(f"f.{count} = 0")
        out.line("end")
    out.line(f"::{top}::")
    if node.times is not None:
        out.line(f"f.{count} = f.{count} + 1")
        out.line(f"if f.{count} > f.{times} then goto {end} end")
    out.line(f"R.step(G, {out.where(node.pos)})")
    write_block(node.body, out, flat=True)
    out.line(f"goto {top}")
    out.line(f"::{end}::")


def flat_as(node: s.As, out: Routine) -> None:
    saved = out.temp("you")
    out.line("do")
    inner = _inner(out)
    inner.line(f"f.{saved} = f.you")
    inner.line(f"f.you = {inner.value(node.player)}")
    out.line("end")
    write_block(node.body, out, flat=True)
    out.line(f"f.you = f.{saved}")


def flat_turn(node: s.Turn, out: Routine) -> None:
    handled = out.program.symbols.handled
    if ("start", "turn") in handled or ("end", "turn") in handled:
        raise NotOnLua("`start of turn` and `end of turn` rules", node.pos)
    saved, saved_turn, end = out.temp("you"), out.temp("turn"), out.resume_point()
    out.line("do")
    inner = _inner(out)
    inner.line(f"f.{saved}, f.{saved_turn} = f.you, G.turn_player")
    inner.line(f"f.you = {inner.value(node.player)}")
    inner.line("G.turn_player = f.you")
    inner.line("S.turns = S.turns + 1")
    inner.line(f"G.turn_marks[#G.turn_marks + 1] = {{depth = #G.stack, pc = {end}}}")
    out.line("end")
    write_block(node.body, out, flat=True)
    out.line(f"::P{end}::")
    out.line("G.turn_marks[#G.turn_marks] = nil")
    out.line("G.phase = nil")
    out.line(f"f.you, G.turn_player = f.{saved}, f.{saved_turn}")


def flat_phase(node: s.Phase, out: Routine) -> None:
    handled = out.program.symbols.handled
    if ("start", node.name) in handled or ("end", node.name) in handled:
        raise NotOnLua("`start of` and `end of` a phase rules", node.pos)
    out.line(f"G.phase = {lua_string(node.name)}")
    write_block(node.body, out, flat=True)
    out.line("G.phase = nil")


def flat_choose(node: s.Choose, out: Routine) -> None:
    if node.group:
        raise NotOnLua("`choose ... by any of`", node.pos)
    names = list(node.binds())
    options, count, chosen = out.temp("options"), out.temp("count"), out.temp("chosen")
    out.line("do")
    build = _inner(out)
    columns = [build.temp("o") for _ in names]
    build.line(f"local {', '.join(columns)} = {', '.join('{}' for _ in columns)}")
    build.line("local n = 0")
    bound: dict[str, str] = {}
    level = build
    closers = []
    for number, (name, source) in enumerate(node.bindings):
        items, index, item = level.temp("l"), level.temp("i"), level.temp("b")
        level.line(f"local {items} = {level.value(source)}")
        level.line(f"for {index} = 1, #{items} do")
        closers.append(level)
        level = _inner(level)
        level.line(f"local {item} = {items}[{index}]")
        bound[name] = item
        level.names = {**level.names, name: item}
    if node.where is not None:
        level.line(f"if {level.truth(node.where)} then")
        closers.append(level)
        level = _inner(level)
    level.line("n = n + 1")
    for column, name in zip(columns, names):
        level.line(f"{column}[n] = {bound[name]}")
    for opened in reversed(closers):
        opened.line("end")
    build.line(f"f.{options}, f.{count} = {{{', '.join(columns)}}}, n")
    out.line("end")
    asking, after = out.label(), out.label()
    out.line(f"if f.{count} > 0 then goto {asking} end")
    for name in names:
        out.line(f"{local(name)} = nil")
    if node.otherwise is not None:
        write_block(node.otherwise, out, flat=True)
    elif not node.optional:
        out.line("do return nil end")  # an effect with no option does nothing
    out.line(f"goto {after}")
    out.line(f"::{asking}::")
    point, got = out.resume_point(), out.label()
    player = "f.you"
    out.line("do")
    ask = _inner(out)
    if node.by is not None:
        player = ask._simple(ask.value(node.by))
    ask.line(f"if {player} == nil then R.fail({out.where(node.pos)}, "
             f"{lua_string(f'nobody decides `{node.name}` (the player is none)')}) end")
    optional = "true" if node.optional else "false"
    ask.line(f"local i = R.ask(G, {lua_string(node.name)}, {player}, f.{count} + {1 if node.optional else 0}, "
             f"f.{options}, {optional})")
    ask.line(f"if i == nil then f.pc = {point}; return R.SUSPEND end")
    ask.line(f"f.{chosen} = i")
    out.line("end")
    out.line(f"goto {got}")
    out.line(f"::P{point}::")
    out.line(f"f.{chosen} = G.answer")
    out.line(f"::{got}::")
    out.line(f"if f.{chosen} > f.{count} then")
    for name in names:
        out.line(f"  {local(name)} = nil")
    out.line("else")
    for number, name in enumerate(names, 1):
        out.line(f"  {local(name)} = f.{options}[{number}][f.{chosen}]")
    out.line("end")
    out.line(f"f.{options} = nil")
    out.line(f"::{after}::")
    for name in names:
        out.names[name] = local(name)


FLAT = {
    s.CallProcedure: flat_call, s.Perform: flat_perform, s.Emit: flat_emit, s.If: flat_if, s.While: flat_while,
    s.ForEach: flat_for_each, s.Repeat: flat_repeat, s.As: flat_as, s.Turn: flat_turn, s.Phase: flat_phase,
    s.Choose: flat_choose,
}
