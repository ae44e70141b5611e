"""The names a ruleset declares, checked against each other and the content; and which rules can stop for a decision."""
from __future__ import annotations

import json
from pathlib import Path

from interpreter.content.models import Content
from interpreter.diagnostics.diagnostic import Diagnostic, Position
from interpreter.diagnostics.suggestions import did_you_mean
from interpreter.engine import board as boards
from interpreter.engine.state import BOX
from interpreter.language import declarations as d
from interpreter.language import statements
from interpreter.language.builtins import COMPONENT_ATTRIBUTES
from interpreter.language.expressions import ListOf, Literal, Name, Negate
from interpreter.language.grammar import reserved_words
from interpreter.language.scope import Symbols
from interpreter.language.statements import Deciding
from interpreter.safety.limits import LIMITS


def _constant(decl: d.PropertyDecl, diagnostics: list[Diagnostic]):
    if isinstance(decl.value, Negate) and isinstance(decl.value.operand, Literal) and isinstance(decl.value.operand.value, int):
        return -decl.value.operand.value
    if not isinstance(decl.value, Literal):
        message = "a property's default must be a plain value (a number, text, true/false or none)"
        diagnostics.append(Diagnostic("LX321", message, decl.pos))
        return None
    return decl.value.value


def _option_values(decl: d.OptionDecl, diagnostics: list[Diagnostic]) -> list | None:
    """An option's values, its default first, if they are written as plain values (LX332 otherwise)."""
    choices = decl.choices.items if isinstance(decl.choices, ListOf) else None
    if not choices or not all(isinstance(c, Literal) and c.value is not None for c in choices) \
            or not isinstance(decl.default, Literal):
        diagnostics.append(Diagnostic("LX332", f"option `{decl.name}`: its values and its default are plain values "
                                      "(texts, numbers, true or false), written out: `option NAME in [\"A\", \"B\"] = \"A\"`",
                                      decl.pos))
        return None
    values = [c.value for c in choices]
    if decl.default.value not in values:
        diagnostics.append(Diagnostic("LX332", f"option `{decl.name}`: the default {json.dumps(decl.default.value)} is "
                                      f"not one of its values {json.dumps(values)}", decl.default.pos))
        return None
    return [decl.default.value] + [v for v in values if v != decl.default.value]


def collect_symbols(content: Content, board: boards.Board, declarations: list, abilities: list,
                     diagnostics: list[Diagnostic]) -> Symbols:
    symbols = Symbols(
        kinds=list(content.pieces),
        traits={t for spec in content.pieces.values() for t in spec.traits},
        players=list(content.players),
        seats=dict(content.seats),
        connections=set(board.connection_types),
        locations=set(board.locations),
        kind_properties={name for spec in content.pieces.values() for name in spec.properties},
        kind_property_types=_kind_property_types(content),
        backs=any(spec.back for spec in content.pieces.values()),
        properties_of_kind={kind: frozenset(spec.properties) for kind, spec in content.pieces.items()},
        location_attributes={name for _, data in board.graph.nodes(data=True) for name in data},
        abilities={a.name for a, _ in abilities if not a.value},
        card_values={a.name for a, _ in abilities if a.value},
        zones={BOX: False},
        trait_members={t: frozenset(k for k, s in content.pieces.items() if t in s.traits)
                       for spec in content.pieces.values() for t in spec.traits},
    )
    seen: dict[str, Position | None] = {}

    def declare(name: str, pos: Position, table: dict, value) -> None:
        if name in reserved_words():
            diagnostics.append(Diagnostic("LX329", f"`{name}` is a reserved word of the language: choose another name", pos))
        if name == BOX:
            diagnostics.append(Diagnostic("LX301", f"`{BOX}` is given by the language (the zone of pieces out of play)", pos))
            return
        if name in seen or symbols.kind_of(name) not in (None, "location"):
            content_name = None if name in seen else CONTENT_NAMES.get(symbols.kind_of(name))
            if content_name:
                diagnostics.append(Diagnostic("LX301", f"`{name}` is declared twice: it is already a {content_name} of the content",
                                              pos, hint="choose another name for one of them"))
            else:
                diagnostics.append(Diagnostic("LX301", f"`{name}` is declared twice{_first_at(seen.get(name), pos)}", pos))
            return  # the first declaration stands
        seen[name] = pos
        table[name] = value

    for decl in declarations:
        for param in getattr(decl, "params", None) or []:
            if param in reserved_words():
                diagnostics.append(Diagnostic("LX329", f"`{param}` is a reserved word of the language: choose another name", decl.pos))
        params = getattr(decl, "params", None) or []
        if len(set(params)) != len(params):
            diagnostics.append(Diagnostic("LX301", "a parameter is named twice", decl.pos))

    for decl in declarations:
        if isinstance(decl, d.FactionDecl) and decl.name not in symbols.players:
            diagnostics.append(Diagnostic("LX302", f"`faction {decl.name}`: `{decl.name}` is not a player of the game",
                                          decl.pos, hint=did_you_mean(decl.name, symbols.players)))
        elif isinstance(decl, d.OptionDecl):
            declare(decl.name, decl.pos, symbols.variables, False)
            values = _option_values(decl, diagnostics)
            if values is not None and decl.name in symbols.variables:
                symbols.options[decl.name] = values
        elif isinstance(decl, d.ZoneDecl):
            declare(decl.name, decl.pos, symbols.zones, decl.per_player)
            if decl.unordered and decl.name not in symbols.unordered and decl.name in symbols.zones:
                symbols.unordered.append(decl.name)
        elif isinstance(decl, d.VariableDecl):
            declare(decl.name, decl.pos, symbols.variables, decl.per_player)
        elif isinstance(decl, d.FunctionDecl):
            declare(decl.name, decl.pos, symbols.functions, len(decl.params))
        elif isinstance(decl, d.ProcedureDecl):
            declare(decl.name, decl.pos, symbols.procedures, len(decl.params))
        elif isinstance(decl, d.PropertyDecl):
            if decl.name in COMPONENT_ATTRIBUTES:
                diagnostics.append(_shadowed_attribute(decl.name, decl.pos))
            if decl.name in symbols.properties or decl.name in symbols.kind_properties:
                diagnostics.append(Diagnostic("LX301", f"property `{decl.name}` is declared twice", decl.pos,
                                              hint="pieces' `properties:` in the content declare it already"
                                              if decl.name in symbols.kind_properties else None))
            symbols.properties[decl.name] = _constant(decl, diagnostics)
        elif isinstance(decl, (d.SetupDecl, d.PlayDecl)):
            block = "setup" if isinstance(decl, d.SetupDecl) else "play"
            if block in seen:
                diagnostics.append(Diagnostic("LX301", f"`{block}:` is declared twice", decl.pos))
            seen[block] = decl.pos
        elif isinstance(decl, d.AbilityDecl):
            if decl.name in symbols.declared_abilities:
                diagnostics.append(Diagnostic("LX301", f"ability `{decl.name}` is declared twice", decl.pos))
            symbols.declared_abilities.add(decl.name)
        elif isinstance(decl, d.EventDecl):
            if decl.name in symbols.declared_events:
                diagnostics.append(Diagnostic("LX301", f"event `{decl.name}` is declared twice", decl.pos))
            symbols.declared_events.setdefault(decl.name, len(decl.params))
        elif isinstance(decl, d.WhenDecl):
            symbols.handled.add(decl.event)
            if decl.event[0] == "event":
                symbols.events[decl.event[1]] = len(decl.params)
            if decl.event == ("event", "moved") and len(decl.params) != 3:
                diagnostics.append(Diagnostic("LX307", "every `move` announces `moved` with 3 values: the components "
                                              "moved, the zone they came from (none if several), the zone they went to",
                                              decl.pos))
    _handled_as_declared(declarations, symbols, diagnostics)
    _content_clashes(content, board, symbols, diagnostics)
    total = 0
    for kind, spec in content.pieces.items():
        for option, wanted in spec.only_if.items():
            where = content.positions.get(("pieces", kind, "only_if"))
            if option not in symbols.options:
                diagnostics.append(Diagnostic("LX332", f"pieces `{kind}` exist only if option `{option}`..., but the "
                                              "rules declare no such option", where,
                                              hint=did_you_mean(option, symbols.options)))
            elif any(v not in symbols.options[option] for v in (wanted if isinstance(wanted, list) else [wanted])):
                diagnostics.append(Diagnostic("LX332", f"pieces `{kind}`: option `{option}` is one of "
                                              f"{json.dumps(symbols.options[option])}, not {json.dumps(wanted)}", where))
        total += sum(spec.owned(content.players, content.seats).values())
        if total > LIMITS.components >= total - sum(spec.owned(content.players, content.seats).values()):
            diagnostics.append(Diagnostic("LX205", f"with `{kind}`, the game has more than {LIMITS.components:,} components "
                                          "(LUDOLEX_COMPONENTS)", content.positions.get(("pieces", kind))))
        for owner in spec.per_player if isinstance(spec.per_player, dict) else ():
            if owner not in content.players:
                diagnostics.append(Diagnostic("LX302", f"pieces `{kind}` are given to `{owner}`, who is not a player",
                                              content.positions.get(("pieces", kind, "per_player")),
                                              hint=did_you_mean(owner, content.players)))
        if spec.count is not None and symbols.zones.get(spec.starts_in):
            diagnostics.append(Diagnostic("LX322", f"shared pieces `{kind}` (a `count`, no owner) cannot start in "
                                          f"`{spec.starts_in}`, which belongs to each player",
                                          content.positions.get(("pieces", kind, "starts_in"))))
        if spec.starts_in not in symbols.zones:
            diagnostics.append(Diagnostic("LX322", f"pieces `{kind}` start in `{spec.starts_in}`, which no `zone` declares",
                                          content.positions.get(("pieces", kind, "starts_in")),
                                          hint=did_you_mean(spec.starts_in, symbols.zones)))
    return symbols


def _kind_property_types(content: Content) -> dict[str, str]:
    """The type of each fixed value of the kinds that every kind having it gives as a number, or every
    one as a list (a kind without it reads it as none, which every place accepts). A text may name a
    player, a zone, a kind...: its type is not known."""
    types: dict[str, set] = {}
    for spec in content.pieces.values():
        for name, value in spec.properties.items():
            types.setdefault(name, set()).add("list" if isinstance(value, list) else "number" if type(value) is int else "any")
    return {name: found.pop() for name, found in types.items() if len(found) == 1 and found != {"any"}}


# What the names the content gives are (`Symbols.kind_of`), in the words of a message.
CONTENT_NAMES = {"kind": "kind of piece", "trait": "trait", "player": "player", "connection": "connection type"}


def _handled_as_declared(declarations: list, symbols: Symbols, diagnostics: list[Diagnostic]) -> None:
    """A declared event (`event NAME(params)`) may have no handler; each handler takes its values."""
    for decl in declarations:
        if isinstance(decl, d.WhenDecl) and decl.event[0] == "event" and decl.event[1] in symbols.declared_events:
            wanted = symbols.declared_events[decl.event[1]]
            if len(decl.params) != wanted:
                diagnostics.append(Diagnostic("LX307", f"event `{decl.event[1]}` announces {wanted} value(s), not "
                                              f"{len(decl.params)}", decl.pos))
    symbols.events.update(symbols.declared_events)


def _content_clashes(content: Content, board: boards.Board, symbols: Symbols, diagnostics: list[Diagnostic]) -> None:
    """Kinds, players, traits, connection types and locations share one space of names."""
    named: dict[str, str] = {}
    groups = [(CONTENT_NAMES["kind"], symbols.kinds, lambda n: content.positions.get(("pieces", n))),
              (CONTENT_NAMES["player"], symbols.players, lambda n: content.positions.get(("players", n))),
              (CONTENT_NAMES["trait"], sorted(symbols.traits), lambda n: None),
              (CONTENT_NAMES["connection"], sorted(symbols.connections), lambda n: content.positions.get(("board",))),
              ("location", board.locations, lambda n: content.positions.get(("location", n), content.positions.get(("board",))))]
    for what, names, where in groups:
        for name in names:
            if name in named and named[name] != what:
                diagnostics.append(Diagnostic("LX301", f"`{name}` names both a {named[name]} and a {what}", where(name)))
            named.setdefault(name, what)
    for kind, spec in content.pieces.items():
        for name in spec.properties:
            if name in COMPONENT_ATTRIBUTES:
                diagnostics.append(_shadowed_attribute(name, content.positions.get(("pieces", kind, "properties", name)), True))
    for name in board.locations:
        if name in symbols.zones:
            diagnostics.append(Diagnostic("LX301", f"location `{name}` has the name of a zone",
                                          content.positions.get(("location", name), content.positions.get(("board",)))))


def _first_at(first: Position | None, again: Position) -> str:
    """Where a name declared twice was declared first, for the message about the second."""
    if first is None:
        return ""
    if first.file == again.file:
        return f" (first at line {first.line})"
    return f" (first at {Path(first.file).name}:{first.line})"


def _shadowed_attribute(name: str, pos: Position | None, in_content: bool = False) -> Diagnostic:
    hint = f"rename the property; until then `x.kind.{name}` reads the kind's value" if in_content else "rename the property"
    return Diagnostic("LX334", f"property `{name}` has the name of an attribute every component has: `x.{name}` "
                      f"reads that attribute, never this property", pos, hint=hint)


def find_deciding(declarations: list, abilities: list) -> Deciding:
    """Which procedures, abilities and events can stop for a decision: those that decide themselves
    (a `choose`, a `turn`...), then, through the calls, everything that reaches one of them."""
    bodies: dict[tuple, list] = {}  # ("procedures", name) / ("abilities", name) / ("events", key) -> bodies
    replaced: dict[str, int] = {}  # procedure -> how many `instead of` rules replace it
    handlers: dict[tuple, int] = {}  # event -> how many `when` rules handle it (`emit ... ordered by` asks if several)
    for x in declarations:
        if isinstance(x, (d.ProcedureDecl, d.InsteadDecl)):  # an `instead of P` rule runs as P
            bodies.setdefault(("procedures", x.name), []).append(x.body)
        if isinstance(x, d.InsteadDecl):
            replaced[x.name] = replaced.get(x.name, 0) + 1
        elif isinstance(x, d.WhenDecl):
            bodies.setdefault(("events", x.event), []).append(x.body)
            handlers[x.event] = handlers.get(x.event, 0) + 1
    for ability, body in abilities:
        bodies.setdefault(("abilities", ability.name), []).append(body)
    callers: dict[tuple, list] = {}
    found = []
    for node, blocks in bodies.items():
        calls: set = set()
        recorder = Deciding(*(_Recorder(table, calls) for table in ("procedures", "abilities", "events")), handlers)
        several_rules = node[0] == "procedures" and replaced.get(node[1], 0) > 1  # the player chooses the first
        if any([body.decides(recorder) for body in blocks]) or several_rules:  # a list: every call is recorded
            found.append(node)
        for called in calls:
            callers.setdefault(called, []).append(node)
    deciding = Deciding(procedures={x.name: False for x in declarations if isinstance(x, d.ProcedureDecl)},
                        handlers=handlers)
    while found:
        table, name = node = found.pop()
        if getattr(deciding, table).get(name):
            continue
        getattr(deciding, table)[name] = True
        found += callers.get(node, [])
    return deciding


def check_deciders(declarations: list, abilities: list, diagnostics: list[Diagnostic]) -> None:
    """LX337: a `choose` without `by` (or `by you`) that runs where no player acts, so that nobody could
    answer it: in `setup:` or `play:` outside any `turn` or `as` (where `you` is none), or in a
    procedure, `when` rule or ability that such a place runs. LX338: an `end turn` that runs outside
    any `turn` the same way."""
    def acting(statement) -> bool:
        return isinstance(statement, (statements.Turn, statements.As)) and not _is_you(statement.player)

    for statement, caller in _run_outside(declarations, abilities, acting):
        if isinstance(statement, statements.Choose) and (statement.by is None or _is_you(statement.by)) \
                and not _never_asked(statement):
            diagnostics.append(_nobody_decides(statement, caller))
    for statement, caller in _run_outside(declarations, abilities, lambda s: isinstance(s, statements.Turn)):
        if isinstance(statement, statements.Signalling) and statement.what == "end turn":
            where = "" if caller is None else f"; it runs from {Path(caller.file).name}:{caller.line}"
            diagnostics.append(Diagnostic("LX338", f"`end turn` outside any `turn`: there is no turn to end where it "
                                                   f"runs{where}", statement.pos,
                                          hint="move it inside `turn PLAYER:`, or end the loop another way"))


def _run_outside(declarations: list, abilities: list, inside) -> list[tuple]:
    """(statement, caller) for every statement that `setup:` or `play:` runs outside the blocks for which
    `inside(statement)` holds, directly or through the procedures, `when` rules and abilities they run;
    caller: where `setup:` or `play:` runs it, if not there. Each statement once."""
    bodies: dict[tuple, list] = {}  # ("procedure", name) / ("event", key) / ("ability", name) -> bodies
    for x in declarations:
        if isinstance(x, (d.ProcedureDecl, d.InsteadDecl)):
            bodies.setdefault(("procedure", x.name), []).append(x.body)
        elif isinstance(x, d.WhenDecl):
            bodies.setdefault(("event", x.event), []).append(x.body)
    for ability, body in abilities:
        bodies.setdefault(("ability", ability.name), []).append(body)
    waiting = [(x.body.statements, None) for x in declarations if isinstance(x, (d.SetupDecl, d.PlayDecl))]
    reached, found, seen = set(), [], set()
    while waiting:
        block, caller = waiting.pop()
        for statement in block:
            if inside(statement):
                continue
            if id(statement) not in seen:
                seen.add(id(statement))
                found.append((statement, caller))
            for runs in _runs(statement):
                if runs in bodies and runs not in reached:
                    reached.add(runs)
                    waiting += [(body.statements, caller or statement.pos) for body in bodies[runs]]
            waiting.append((statement.substatements(), caller))
    return found


def _is_you(expr) -> bool:
    return isinstance(expr, Name) and expr.name == "you"


def _never_asked(choose) -> bool:
    """A `choose` that can never have an option (LX326) is never asked of anyone."""
    empty = any(isinstance(source, ListOf) and not source.items for _, source in choose.bindings)
    return empty or (isinstance(choose.where, Literal) and not choose.where.value)


def _runs(statement) -> list[tuple]:
    """What else a statement runs, with the `you` of the rule that runs it."""
    if isinstance(statement, statements.CallProcedure):
        return [("procedure", statement.name)]
    if isinstance(statement, statements.Emit):
        return [("event", ("event", statement.event))]
    if isinstance(statement, statements.Perform):
        return [("ability", statement.ability)]
    if isinstance(statement, statements.Move):
        return [("event", statements.MOVED)]
    if isinstance(statement, statements.Phase):
        return [("event", ("start", statement.name)), ("event", ("end", statement.name))]
    return []


def _nobody_decides(choose, caller: Position | None) -> Diagnostic:
    where = "" if caller is None else f"; it runs from {Path(caller.file).name}:{caller.line}"
    return Diagnostic("LX337", f"nobody can decide `{choose.name}`: this `choose` has no `by`, and no player acts where "
                      f"it runs (outside any `turn` or `as`, `you` is none){where}", choose.pos,
                      hint="say who decides with `by PLAYER`, or run it inside `turn PLAYER:` or `as PLAYER:`")


class _Recorder(dict):
    """A table of `Deciding` that answers "no" to every question and notes what was asked."""

    def __init__(self, table: str, asked: set):
        super().__init__()
        self.table, self.asked = table, asked

    def get(self, key, default=None):
        self.asked.add((self.table, key))
        return False
