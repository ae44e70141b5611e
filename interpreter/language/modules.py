"""Faction files: names local to the file that declares them.

A file that starts with `faction NAME` keeps the zones, variables, functions and procedures it
declares to itself: inside the file they are written as they are (`recruit`), from any other
file, a scenario or a bot as `NAME.recruit`. So ten factions can each have their own `recruit`.
The file's declarations are renamed here, once parsed, to their qualified names; everything
after (the checker, the compiler) sees only qualified names.

An extra seat of the content (`seats: {second_wanderer: wanderer}`) plays a copy of the faction's
file: in the copy the faction's name, the player, means the seat, and its names are the seat's
own (`second_wanderer.camp`), except the zones the file declares `common`, which every seat of
the faction shares (quests both wanderers may take).
"""
from __future__ import annotations

import copy

from interpreter.diagnostics.diagnostic import Diagnostic
from interpreter.diagnostics.suggestions import did_you_mean
from interpreter.language import declarations as d
from interpreter.language import expressions as e
from interpreter.language import statements as s
from interpreter.language.tree import nodes

LOCAL = (d.ZoneDecl, d.VariableDecl, d.FunctionDecl, d.ProcedureDecl)  # what a faction's file keeps to itself
GLOBAL = (d.PropertyDecl, d.OptionDecl)  # what it declares for the whole game: once, whoever plays it
NAMING = (e.Name, e.Call, s.CallProcedure, d.InsteadDecl, d.OverrideDecl, d.ModifyDecl, d.ShownDecl)  # what refers to a name


def factions_present(files: list[list]) -> set[str]:
    """The factions whose file is part of the game (each file's declarations, as parsed)."""
    return {x.name for declarations in files for x in declarations if isinstance(x, d.FactionDecl)}


def with_factions(declarations: list, present: set[str], players: list[str]) -> tuple[list, list[Diagnostic]]:
    """A file's declarations with each `with faction NAME:` block opened: its declarations kept, each
    applying only when NAME is seated, if NAME's file is part of the game (`present`); dropped if not.
    So a faction's file can reach another faction that a variant may remove."""
    kept, diagnostics = [], []
    for decl in declarations:
        if not isinstance(decl, d.WithFactionDecl):
            kept.append(decl)
        elif decl.faction not in present:
            diagnostics.append(Diagnostic("LX402", f"`with faction {decl.faction}`: the game has no file of faction "
                                          f"`{decl.faction}`: these rules are left out", decl.pos,
                                          hint=did_you_mean(decl.faction, players)))
        else:
            for inner in decl.declarations:
                if isinstance(inner, (d.FactionDecl, d.WithFactionDecl)):
                    diagnostics.append(Diagnostic("LX301", "a `with faction` block holds rules, not `faction` lines "
                                                  "or other `with faction` blocks", inner.pos))
                    continue
                _only_when_seated(inner, decl.faction)
                kept.append(inner)
    return kept, diagnostics


def seat_copies(declarations: list, seats: dict[str, str]) -> list:
    """The declarations of a faction's file again for each extra seat that plays the faction, as
    that seat's own (see above); none for a file of no faction, or of a faction no seat plays.
    `declarations`: as parsed, before `localize`."""
    header = next((x for x in declarations if isinstance(x, d.FactionDecl)), None)
    copies = []
    shared = frozenset(x.name for x in declarations if isinstance(x, d.ZoneDecl) and x.common)
    for seat in [seat for seat, faction in seats.items() if header is not None and faction == header.name]:
        own = [x for x in copy.deepcopy(declarations) if not isinstance(x, GLOBAL)
               and not (isinstance(x, d.ZoneDecl) and x.common)]
        for anytime in [x for x in own if isinstance(x, d.AnytimeDecl)]:
            anytime.seat = seat  # offered by the same name, to the seat (its condition names it)
        copies += localize(own, seat, shared)[0]
    return copies


def localize(declarations: list, seat: str | None = None, shared: frozenset[str] = frozenset()) \
        -> tuple[list, list[Diagnostic]]:
    """One file's declarations, with the names local to its faction qualified, and its `faction` line's
    problems. `seat`: the extra seat whose copy of the file this is (see `seat_copies`), without the
    `shared` zones, which stay the faction's."""
    headers = [x for x in declarations if isinstance(x, d.FactionDecl)]
    if not headers:
        return declarations, []
    diagnostics = [Diagnostic("LX301", "a file belongs to one faction: `faction` is written once, on its first line",
                              extra.pos) for extra in headers[1:]]
    header = headers[0]
    if declarations[0] is not header:
        diagnostics.append(Diagnostic("LX301", "`faction` comes first in its file, before what it declares", header.pos))
    local = {x.name: x for x in declarations if isinstance(x, LOCAL)}
    qualified = {name: f"{seat or header.name}.{name}" for name in local}
    if seat is not None:  # the seat's copy: the faction means the seat; the faction's common zones stay shared
        qualified |= {f"{header.name}.{name}": full for name, full in qualified.items()}
        qualified |= {name: f"{header.name}.{name}" for name in shared}
        qualified[header.name] = seat
        header.name = seat
    for decl in declarations:
        bound = set()
        for name, where, what in _bound_names(decl):
            bound.add(name)
            if name in local:
                diagnostics.append(Diagnostic(
                    "LX301", f"{what} `{name}` has the name of this faction's {_kind(local[name])} "
                    f"(line {local[name].pos.line}): give it another name", where))
        if isinstance(decl, LOCAL):
            decl.name = qualified[decl.name]
        _rename(decl, {name: full for name, full in qualified.items() if name not in bound})
        _only_when_seated(decl, header.name)
    return declarations, diagnostics


def _only_when_seated(decl, player: str) -> None:
    """What a faction's file does to the game (its `when`, `instead of`, `anytime`, `always`, `modify`,
    `override` and `cannot` rules) applies only in a game that seats its player. A `when`, `instead of`
    or `cannot` rule names the player in its `needs`, and a game without them leaves the rule out once
    (Runtime.triggers, Runtime.guards, program.make_replaced); the others get `player in players`
    added to their condition. The file's zones, pieces and names stay, for the other files to read."""
    if isinstance(decl, (d.InsteadDecl, d.WhenDecl, d.CannotDecl)):
        decl.needs = (*decl.needs, player)
        return
    seated = e.Binary(decl.pos, "in", e.Name(decl.pos, player), e.Name(decl.pos, "players"))
    if isinstance(decl, (d.AnytimeDecl, d.OverrideDecl)):
        decl.condition = seated if decl.condition is None else e.Binary(decl.pos, "and", seated, decl.condition)
    elif isinstance(decl, d.ModifyDecl):
        decl.amount = e.Conditional(decl.pos, seated, decl.amount, e.Literal(decl.pos, 0))
    elif isinstance(decl, d.AlwaysDecl):
        decl.body = s.Block([s.If(decl.pos, [(seated, decl.body)], None)])


def _kind(decl) -> str:
    return {d.ZoneDecl: "zone", d.VariableDecl: "variable", d.FunctionDecl: "function"}.get(type(decl), "procedure")


def _rename(decl, qualified: dict[str, str]) -> None:
    """Every reference to a local name inside `decl` (a name the declaration binds itself means its own)."""
    for node in nodes(decl):
        if node is not decl and isinstance(node, NAMING) and node.name in qualified:
            node.name = qualified[node.name]
    if isinstance(decl, (d.InsteadDecl, d.OverrideDecl, d.ModifyDecl, d.ShownDecl)) and decl.name in qualified:
        decl.name = qualified[decl.name]
    if isinstance(decl, d.ShownDecl) and decl.player in qualified:  # an extra seat's copy: the seat's zone
        decl.player = qualified[decl.player]


def _bound_names(decl):
    """(name, position, what) for every parameter of a declaration and every name its statements and expressions bind."""
    for param in getattr(decl, "params", None) or []:
        yield param, decl.pos, "the parameter"
    for node in nodes(decl):
        if isinstance(node, s.Let):
            yield node.name, node.pos, "the value"
        elif isinstance(node, (s.ForEach, e.Quantifier, e.SortedBy)):
            yield node.variable, node.pos, "the variable"
        elif isinstance(node, s.Choose):
            for name, _ in node.bindings:
                yield name, node.pos, "the choice"
