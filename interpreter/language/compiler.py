"""The whole rules to a `Program`: every declaration compiled, with the checker's diagnostics."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from interpreter.content.models import Content
from interpreter.diagnostics.diagnostic import Diagnostic, Position
from interpreter.diagnostics.suggestions import did_you_mean
from interpreter.engine import board as boards
from interpreter.engine.state import BOX
from interpreter.language import block_code
from interpreter.language import declarations as d
from interpreter.language.checker import check_deciders, find_deciding
from interpreter.language.codegen import CodeGen, CodeTooLarge, python_identifier
from interpreter.language.explaining import GuardedOptions
from interpreter.language.expressions import function_result, quantified_code
from interpreter.language.parameters import check_calls, find_needs
from interpreter.language.precedence import ordered_overrides
from interpreter.language.program import Program, make_procedure, make_replaced, make_trigger
from interpreter.language.scope import Scope, Symbols
from interpreter.language.spans import add_step_windows
from interpreter.language.statements import Deciding, run_body
from interpreter.language.types import check
from interpreter.safety.limits import LIMITS


def compile_program(content: Content, board: boards.Board, declarations: list, abilities: list, symbols: Symbols,
                    diagnostics: list[Diagnostic], start: Position | None = None, backend: str = "generated") -> Program:
    """`symbols` is the checker's table of names (`collect_symbols`); compiling adds what is used to it.
    `backend`: "generated" (each block one generated function, language.block_code) or "reference"
    (a closure per statement, language.statements)."""
    program = Program(
        players=list(content.players),
        table=list(content.table),
        seats=dict(content.seats),
        excludes={p: list(others) for p, others in content.excludes.items() if others},
        kind_order=list(content.pieces),
        kinds_with_trait={t: frozenset(k for k, s in content.pieces.items() if t in s.traits) for t in symbols.traits},
        zones={z.name: (z.per_player, z.visibility) for z in declarations if isinstance(z, d.ZoneDecl)},
        face_down_zones=frozenset(z.name for z in declarations if isinstance(z, d.ZoneDecl) and z.face_down),
        kind_properties={kind: dict(spec.properties) for kind, spec in content.pieces.items()},
        backs={kind: spec.back for kind, spec in content.pieces.items() if spec.back},
        known={kind: spec.known for kind, spec in content.pieces.items()},
    )
    program.zones.setdefault(BOX, (False, "public"))
    program.unordered = symbols.unordered_zones()
    program.options = symbols.options
    program.symbols = symbols
    program.declarations, program.ability_blocks = declarations, abilities
    codegen = program.codegen = CodeGen(board)
    if backend == "generated":
        block_code.install(codegen)
    scope = Scope(symbols, diagnostics, codegen=codegen)
    program.anytime_guards = GuardedOptions({}, scope)
    add_step_windows(declarations)
    deciding = find_deciding(declarations, abilities)

    modifiers = _changes(declarations, d.ModifyDecl, symbols.functions, "modify", "function to modify", scope)
    overrides = _changes(declarations, d.OverrideDecl, symbols.functions, "override", "function to override", scope)
    for name, found in overrides.items():
        overrides[name] = ordered_overrides(found, set(symbols.players), scope)
    replacements = _changes(declarations, d.InsteadDecl, symbols.procedures, "instead of", "procedure to replace", scope)
    for decl in declarations:
        if isinstance(decl, d.FunctionDecl) and decl.name not in overrides:
            parts = [(decl.params, decl.body)] + [(m.params, m.amount) for m in modifiers.get(decl.name, [])]
            if not any(quantified_code(expr) for _, expr in parts):
                symbols.inlinable[decl.name] = parts
        if isinstance(decl, d.FunctionDecl):  # what gives its value: the types of its value (`function_result`)
            symbols.function_parts[decl.name] = ([(decl.params, decl.body)]
                                                 + [(m.params, m.amount) for m in modifiers.get(decl.name, [])]
                                                 + [(o.params, o.value) for o in overrides.get(decl.name, [])])
    where = start
    try:
        for name in symbols.function_parts:  # the type of each function's value, before any call is checked
            function_result(scope, name)
        for number, decl in enumerate(declarations):
            where, codegen.part = decl.pos, _part_name(decl)
            if isinstance(decl, d.OptionDecl) and decl.name in symbols.options:  # its default; a game may choose another
                program.variables.append((decl.name, False, decl.default.compile(scope), decl.pos))
            elif isinstance(decl, d.ShownDecl):
                _shown(decl, program, symbols, scope)
            elif isinstance(decl, d.VariableDecl):
                program.variables.append((decl.name, decl.per_player, decl.value.compile(scope), decl.pos))
                symbols.variable_types[decl.name] = decl.value.type
                if decl.visibility != "public":
                    program.private_variables[decl.name] = decl.visibility
                if decl.visibility == "private" and not decl.per_player:
                    scope.error("LX330", f"variable `{decl.name}` is private but not `per player`: a private variable "
                                "is each player's own", decl.pos, hint="write `per player private`, or `hidden` for a "
                                "value no player observes")
            elif isinstance(decl, d.FunctionDecl):
                try:
                    program.functions[decl.name] = _function(number, decl, modifiers.get(decl.name, []),
                                                             overrides.get(decl.name, []), scope)
                    program.function_positions[decl.name] = decl.pos
                    program.definitions[decl.name] = (decl, modifiers.get(decl.name, []), overrides.get(decl.name, []))
                except (RecursionError, MemoryError):  # Python refuses code this deep
                    scope.error("LX105", f"function `{decl.name}` is nested too deeply once compiled: split it", decl.pos)
            elif isinstance(decl, d.ProcedureDecl):
                program.procedures[decl.name] = _procedure(decl, replacements.get(decl.name), scope, deciding)
            elif isinstance(decl, d.WhenDecl):
                trigger = _trigger(decl, scope, deciding)
                trigger.needs = decl.needs  # Runtime.triggers leaves it out of a game without these players
                trigger.precedence = decl.precedence
                program.triggers.setdefault(decl.event, []).append(trigger)
            elif isinstance(decl, d.AnytimeDecl):
                if decl.seat is None and any(action[0] == decl.name for action in program.anytime_actions):
                    scope.error("LX301", f"`anytime {decl.name}` is declared twice", decl.pos)
                condition = decl.condition.compile(scope) if decl.condition else None
                if decl.condition:
                    check(scope, decl.condition.pos, "bool", decl.condition.type, "the condition of an `anytime` action")
                body = run_body(*decl.body.compile(scope, deciding, catch_return=True))
                program.anytime_actions.append((decl.name, condition, body, decl.span))
                if decl.span:
                    program.span_actions.append(program.anytime_actions[-1])
                program.anytime_guards.conditions[decl.name] = decl.condition
            elif isinstance(decl, d.CannotDecl):
                program.guards.setdefault(decl.action, []).append((decl.needs, _guard(number, decl, scope)))
            elif isinstance(decl, d.AlwaysDecl):
                body, generator = decl.body.compile(scope, deciding)
                if generator:
                    scope.error("LX316", f"continuous rule `{decl.name}` cannot ask for a decision", decl.pos)
                program.always.append(body)
            elif isinstance(decl, (d.SetupDecl, d.PlayDecl)):
                body = run_body(*decl.body.compile(scope, deciding))
                setattr(program, "setup" if isinstance(decl, d.SetupDecl) else "play", body)
        for ability, body in abilities:
            where, codegen.part = Position(ability.file, ability.line, ability.column), _part_name(ability)
            compiled, generator = body.compile(Scope(symbols, diagnostics, has_self=True, codegen=codegen), deciding,
                                               keep=("value",) if ability.value else ())
            if ability.value:
                program.card_values[(ability.kind, ability.name)] = compiled
                continue
            wanted = deciding.abilities.get(ability.name, False)
            program.abilities[(ability.kind, ability.name)] = run_body(compiled, generator) if wanted else compiled
    except CodeTooLarge:
        scope.error("LX106", f"the rules compile to more than {LIMITS.compiled_characters:,} characters of Python "
                    "(LUDOLEX_COMPILED_CHARACTERS): make them smaller", where)
        return program
    for handlers in program.triggers.values():  # the highest precedence first, then as declared
        handlers.sort(key=lambda trigger: -trigger.precedence)
    for decl in declarations:
        if isinstance(decl, d.AnytimeDecl) and decl.span and decl.span != "turn" and decl.span not in symbols.phases:
            scope.error("LX302", f"`anytime {decl.name} during {decl.span}`: no phase `{decl.span}` (a span is `turn` "
                        "or a phase of the turn)", decl.pos, hint=did_you_mean(decl.span, sorted(symbols.phases)))
    check_deciders(declarations, abilities, diagnostics)
    find_needs(declarations, symbols)
    check_calls(declarations + [body for _, body in abilities], symbols, diagnostics)
    if symbols.score in program.functions:
        program.score = program.function_from_outside(symbols.score)
    hooks = set(modifiers) | set(overrides) | set(replacements)  # what a rule changes is meant to be there
    for decl in declarations:
        if isinstance(decl, (d.FunctionDecl, d.ProcedureDecl)) and decl.name not in symbols.used | hooks:
            what = "function" if isinstance(decl, d.FunctionDecl) else "procedure"
            scope.warn("LX325", f"{what} `{decl.name}` is never used", decl.pos)
    if program.play is None:
        diagnostics.append(Diagnostic("LX320", "the rules have no `play:` block (the game's flow)", start))
    return program


def _changes(declarations: list, kind: type, names: dict, keyword: str, what: str, scope: Scope) -> dict[str, list]:
    """The `modify`, `override` or `instead of` declarations, by the name they change, each checked to
    name a function (or procedure) with as many parameters."""
    found: dict[str, list] = {}
    for decl in declarations:
        if not isinstance(decl, kind):
            continue
        if decl.name not in names:
            noun, _, purpose = what.partition(" ")
            scope.error("LX319", f"`{keyword} {decl.name}`: no {noun} `{decl.name}` {purpose}", decl.pos,
                        hint=did_you_mean(decl.name, names))
        elif len(decl.params) != names[decl.name]:
            scope.error("LX307", f"`{decl.name}` takes {names[decl.name]} parameter(s)", decl.pos)
        else:
            found.setdefault(decl.name, []).append(decl)
    return found


def _shown(decl: d.ShownDecl, program: Program, symbols: Symbols, scope: Scope) -> None:
    """`public hand(blue)`: that player's copy of a per-player zone is seen as it says."""
    if not symbols.zones.get(decl.name):
        what = "a zone of each player (`per player`)" if decl.name in symbols.zones else "a zone"
        scope.error("LX302", f"`{decl.visibility} {decl.name}({decl.player})`: `{decl.name}` is not {what}", decl.pos,
                    hint=did_you_mean(decl.name, [z for z, per in symbols.zones.items() if per]))
    elif decl.player not in program.players:
        scope.error("LX302", f"`{decl.visibility} {decl.name}({decl.player})`: `{decl.player}` is not a player",
                    decl.pos, hint=did_you_mean(decl.player, program.players))
    elif (decl.name, decl.player) in program.shown:
        scope.error("LX301", f"how `{decl.name}({decl.player})` is seen is declared twice", decl.pos)
    else:
        program.shown[(decl.name, decl.player)] = decl.visibility


def _procedure(decl: d.ProcedureDecl, replacements: list | None, scope: Scope, deciding: Deciding):
    """`procedure(rt, you, *arguments)`, which generated code calls as `proc_NAME` (block_code.procedure_name).
    With the generated backend, where Python can compile it, it is the body itself, taking its
    parameters; with `instead of` rules, the body is still what a game runs that seats none of their
    factions (program.make_replaced)."""
    wanted, inner, codegen = deciding.procedures[decl.name], scope.with_locals(*decl.params), scope.codegen
    fast = None
    if codegen.compile_procedure is not None:
        fast = codegen.compile_procedure(decl.body, inner, deciding, decl.params, wanted, decl.pos)
    procedure = None if replacements else fast
    if procedure is None:
        body, generator = decl.body.compile(inner, deciding, catch_return=True)
        body = run_body(body, generator) if wanted else body
        plain = fast or make_procedure(decl.params, body, decl.pos)
        if replacements:
            rules = [_replacement(rule, scope, deciding, wanted) for rule in replacements]
            needs = [rule.needs for rule in replacements]
            procedure = make_replaced(decl.name, decl.params, body, rules, wanted, decl.pos, plain, needs)
        else:
            procedure = plain
    codegen.namespace[block_code.procedure_name(decl.name)] = procedure
    return procedure


def _trigger(decl: d.WhenDecl, scope: Scope, deciding: Deciding):
    """A `when` rule as `trigger(rt, you, values)` (program.make_trigger), with its `applies` and `label`."""
    inner, codegen = scope.with_locals(*decl.params), scope.codegen
    label = d.rule_label(decl)
    if codegen.compile_trigger is not None:
        trigger = codegen.compile_trigger(decl.body, inner, deciding, decl.params, decl.condition, decl.pos)
        if trigger is not None:
            trigger.label = label
            return trigger
    condition = decl.condition.compile(inner) if decl.condition else None
    body, generator = decl.body.compile(inner, deciding, catch_return=True)
    return make_trigger(decl.params, condition, body, generator, decl.pos, label)


def _replacement(rule: d.InsteadDecl, scope: Scope, deciding: Deciding, generator: bool) -> tuple:
    """(params, condition, body, label) of an `instead of` rule, its body a generator if the procedure is one."""
    inner = replace(scope.with_locals(*rule.params), replacing=rule.name)
    condition = rule.condition.compile(inner) if rule.condition else None
    if rule.condition:
        check(inner, rule.condition.pos, "bool", rule.condition.type, "the condition of `instead of`")
    body, is_generator = rule.body.compile(inner, deciding, catch_return=True)
    label = d.rule_label(rule)
    return rule.params, condition, run_body(body, is_generator) if generator else body, label


def _function(number: int, decl: d.FunctionDecl, modifiers: list[d.ModifyDecl], overrides: list[d.OverrideDecl],
              scope: Scope):
    """`fn_NAME(rt, a0, a1...)`: the first override whose condition holds, else the base expression
    plus every modifier; cached if it loops."""
    params = [f"a{i}" for i in range(len(decl.params))]
    identifier = python_identifier(decl.name)
    pure = replace(scope, pure=True)
    parts = []
    for names, expr in [(decl.params, decl.body)] + [(m.params, m.amount) for m in modifiers]:
        parts.append(expr.code(pure.with_locals(*names), dict(zip(names, params))))
    code = " + ".join(f"({p})" for p in parts)
    for override in reversed(overrides):  # the first declared is tried first
        inner = pure.with_locals(*override.params)
        value = override.value.code(inner, dict(zip(override.params, params)))
        condition = override.condition.code(inner, dict(zip(override.params, params))) if override.condition else "True"
        code = f"(({value}) if ({condition}) else {code})"
    compute = scope.codegen.define(f"compute_{identifier}", params, code)
    looping = [decl.body] + [m.amount for m in modifiers] + [o.value for o in overrides]
    looping += [o.condition for o in overrides if o.condition]
    if any(quantified_code(e) for e in looping):
        return scope.codegen.cached(f"fn_{identifier}", number, params, f"compute_{identifier}")
    scope.codegen.namespace[f"fn_{identifier}"] = compute
    return compute


def _guard(number: int, decl: d.CannotDecl, scope: Scope):
    """A `cannot` rule as `fn(rt, piece, *locations)`: true where it forbids the move."""
    function = d.FunctionDecl(decl.pos, f"cannot_{decl.action}_{number}", decl.params, decl.condition)
    guard = _function(number, function, [], [], scope)
    check(scope, decl.condition.pos, "bool", decl.condition.type, f"the condition of `cannot {decl.action}`")
    return guard


def _part_name(decl) -> str:
    """What the generated names of `decl` carry (`CodeGen.new_name`): its kind and name (a rule with
    no name of its own: where it is written), so that they stay the same while it does."""
    name = getattr(decl, "name", None)
    if isinstance(decl, d.WhenDecl) or not name:
        name = f"{Path(decl.pos.file).stem}_{decl.pos.line}"
    return "_" + re.sub(r"\W", "_", f"{type(decl).__name__}_{getattr(decl, 'kind', '')}_{name}") + "_"
