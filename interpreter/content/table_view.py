"""A game's table description (`rulesets/<game>/table.yaml`): what the terminal and the web page show of
its table, as data. The scores and tracks of each player, the turn line, which zones make up a player's
board (and which are left out while empty), how a stack of pieces and a card read, how the board's
sites are named and coloured, how a decision and its options read, each player's mark (docs/tables.md).

Nothing in it runs: a template is text with `{field}` or `{field.attribute}` put in, from a list of
fields its place allows, each checked when the file is read. What it shows is what the seat already
sees (the interfaces fill it from the seat's observation), so a description cannot reveal anything.
A variant without a table description of its own uses its base's.

A faction's part of the description is a file of its own, `table/FACTION.yaml` beside `table.yaml`
(its zones, pieces, decisions, mark), read only where the game has that player: a variant that
removes the faction leaves its part out with it. Parts add to the description: lists are extended,
maps merged, and a value a part gives replaces the one before.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError, model_validator

from interpreter.content.models import Name, Strict
from interpreter.content.schema_errors import schema_diagnostics
from interpreter.content.yaml_source import position_of, read_yaml
from interpreter.diagnostics.diagnostic import Diagnostic, Position
from interpreter.diagnostics.errors import LudolexError
from interpreter.diagnostics.suggestions import did_you_mean

TABLE_FILE = "table.yaml"
PARTS_FOLDER = "table"  # a faction's part: `table/FACTION.yaml`
FIELD = re.compile(r"\{([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?\}")
Template = str | list[str]  # a text, or its parts: a part with a field that has no value is left out
BOARD = "board"  # `count: board`: every location of the board


class Score(Strict):
    """One number of each player: a per-player variable, or how many components a zone holds."""
    label: str
    variable: Name | None = None  # a `per player` variable: the player's value
    count: str | None = None  # a zone: the player's copy of a per-player one, else the player's components in it
    kind: Name | None = None  # with `count`: only the components of this kind or trait
    top: bool = False  # with `count: board`: only the top component of each location (the locations held)
    when: Name | None = None  # shown only where this per-player variable is true (`in_battle`)

    @model_validator(mode="after")
    def one_source(self):
        if (self.variable is None) == (self.count is None):
            raise ValueError("a score is either a `variable` or a `count`")
        return self


class Zones(Strict):
    each_player: list[Name] = []  # per-player zones, on each player's board, in this order
    player: dict[Name, list[str]] = {}  # zones on one player's board only (a faction's own)
    shared: list[str] = []  # zones of nobody's board, after the players'
    empty: Literal["hide", "show"] = "hide"  # a zone holding nothing
    others: Literal["hide", "show"] = "show"  # the zones named nowhere above, last


class Sites(Strict):
    label: Template = "{name}"  # a location, on the board and in options: its `name` and attributes
    colour: Name | None = None  # the attribute whose value colours a location on the page
    colours: dict[str, str] = {}  # that attribute's value -> a colour (`"#d9643a"`, `orange`)


class Piece(Strict):
    name: str | None = None  # how one reads (default: its kind)
    plural: str | None = None  # how several read (default: the name and `s`)
    text: Template | None = None  # a component the seat knows, from its properties (`{units} units`)


class DecisionView(Strict):
    title: str | None = None  # what is decided, in words
    option: Template | None = None  # how an option reads, from the values it names
    phase: str | dict[Name, str] | None = None  # the phase this decision is made in (by player, if it depends)


class PlayerLook(Strict):
    mark: str | None = Field(default=None, min_length=1, max_length=2)  # beside the colour: a letter or a sign
    colour: str | None = None  # a colour both a terminal and a page know: a name (`orange1`) or `#rrggbb`


class TableView(Strict):
    turn: Template = []  # the turn line
    scores: list[Score] = []
    zones: Zones = Zones()
    stacks: Literal["ordered", "grouped"] = "ordered"  # ordered: runs of alike pieces; grouped: alike pieces counted
    sites: Sites = Sites()
    pieces: dict[Name, Piece] = {}  # by kind or trait
    decisions: dict[Name, DecisionView] = {}
    players: dict[Name, PlayerLook] = {}


def fields_of(template: Template) -> list[tuple[str, str | None]]:
    """The fields of a template: (name, attribute or None)."""
    parts = [template] if isinstance(template, str) else template
    return [(name, attribute or None) for part in parts for name, attribute in FIELD.findall(part)]


def fill(template: Template, value_of) -> str | None:
    """`template` with each field put in (`value_of(name, attribute)` gives its text, None if it has
    none): None when a field has none. A template of parts joins those whose fields all have a value
    with `, ` (None if none has)."""
    if not isinstance(template, str):
        parts = [text for text in (fill(part, value_of) for part in template) if text]
        return ", ".join(parts) or None
    missing = False

    def put(match: re.Match) -> str:
        nonlocal missing
        text = value_of(match.group(1), match.group(2))
        if text is None:
            missing = True
            return ""
        return text

    filled = FIELD.sub(put, template)
    return None if missing else filled


def table_file(ruleset) -> Path | None:
    """The table description of a ruleset: its own, else its base's (a variant's)."""
    for folder in (ruleset.directory, *ruleset.bases):
        if (folder / TABLE_FILE).is_file():
            return folder / TABLE_FILE
    return None


def table_files(ruleset) -> list[Path]:
    """The files of the ruleset's table description: `table.yaml`, then the parts of the factions
    the game has; none if it has no description."""
    path = table_file(ruleset)
    if path is None:
        return []
    players = set(ruleset.program.symbols.players)
    return [path, *(p for p in sorted((path.parent / PARTS_FOLDER).glob("*.yaml")) if p.stem in players)]


def read_table_view(ruleset) -> tuple[TableView | None, list[Diagnostic]]:
    """The ruleset's table description (None if it has none, or one with errors), with the parts of
    the factions the game has, and their errors."""
    files = table_files(ruleset)
    if not files:
        return None, []
    merged, problems = {}, []
    for file in files:
        view, found = _read_one(file, ruleset)
        problems += found
        if view is not None:
            merged = _merged(merged, view.model_dump(exclude_unset=True))
    return (None if problems else TableView.model_validate(merged)), problems


def _read_one(path: Path, ruleset) -> tuple[TableView | None, list[Diagnostic]]:
    try:
        document = read_yaml(path, ruleset.boundary)
    except LudolexError as error:
        return None, error.diagnostics
    if document is None:
        return None, [Diagnostic("LX205", "the table description is empty", Position(str(path), 1, 1))]
    try:
        view = TableView.model_validate(document)
    except ValidationError as error:
        return None, schema_diagnostics(error, document, str(path), TableView)
    problems = name_problems(view, document, str(path), ruleset)
    return (None if problems else view), problems


def _merged(before, after):
    """`after` added to `before`: lists extended, maps merged key by key, any other value replaced."""
    if isinstance(before, dict) and isinstance(after, dict):
        return {**before, **{key: _merged(before[key], value) if key in before else value
                             for key, value in after.items()}}
    if isinstance(before, list) and isinstance(after, list):
        return before + after
    return after


_views: dict[int, tuple] = {}  # id(ruleset) -> (ruleset, view, problems)


def table_view_of(ruleset) -> tuple[TableView | None, list[Diagnostic]]:
    """`read_table_view`, read once per loaded ruleset."""
    kept = _views.get(id(ruleset))
    if kept is None or kept[0] is not ruleset:
        if len(_views) > 16:
            _views.clear()
        kept = _views[id(ruleset)] = (ruleset, *read_table_view(ruleset))
    return kept[1], kept[2]


# --- names checked against the game ------------------------------------------------------------
def name_problems(view: TableView, document, file: str, ruleset) -> list[Diagnostic]:
    """Every name of the description that the game does not have, at its line and column."""
    symbols = ruleset.program.symbols
    per_player = {name for name, each in symbols.variables.items() if each}
    shared = {name for name, each in symbols.variables.items() if not each}
    zones, players = symbols.zones, symbols.players
    kinds = set(symbols.kinds) | set(symbols.traits)
    attributes = set(symbols.location_attributes)
    properties = set(symbols.kind_properties) | set(symbols.properties)
    problems: list[Diagnostic] = []

    def unknown(path: tuple, what: str, name: str, known, key: bool = False) -> None:
        problems.append(Diagnostic("LX302", f"{what} `{name}`: the game has none of that name",
                                   position_of(document, path, file, value=not key), hint=did_you_mean(name, known)))

    def check(path: tuple, name, known, what: str, key: bool = False) -> None:
        if name is not None and name not in known:
            unknown(path, what, name, known, key)

    def check_template(path: tuple, template: Template, names, attributes_known) -> None:
        if not isinstance(template, str):
            for i, part in enumerate(template):
                check_template((*path, i), part, names, attributes_known)
            return
        for name, attribute in fields_of(template):
            if name not in names:
                unknown(path, "no field", name, names)
            elif attribute is not None and attribute not in attributes_known:
                unknown(path, "no attribute", attribute, attributes_known)

    check_template(("turn",), view.turn, {"turns", "player", "phase"} | shared, attributes | properties)
    for i, score in enumerate(view.scores):
        check(("scores", i, "variable"), score.variable, per_player, "no per-player variable")
        check(("scores", i, "when"), score.when, per_player, "no per-player variable")
        check(("scores", i, "count"), score.count, set(zones) | {BOARD}, "no zone")
        check(("scores", i, "kind"), score.kind, kinds, "no kind or trait")
    for i, zone in enumerate(view.zones.each_player):
        if zone in zones and not zones[zone]:
            problems.append(Diagnostic("LX305", f"`{zone}` is not a per-player zone: list it under `shared`",
                                       position_of(document, ("zones", "each_player", i), file, value=True)))
        check(("zones", "each_player", i), zone, zones, "no zone")
    for player, listed in view.zones.player.items():
        check(("zones", "player", player), player, players, "no player", key=True)
        for i, zone in enumerate(listed):
            check(("zones", "player", player, i), zone, zones, "no zone")
    for i, zone in enumerate(view.zones.shared):
        check(("zones", "shared", i), zone, zones, "no zone")
    check_template(("sites", "label"), view.sites.label, {"name"} | attributes, set())
    check(("sites", "colour"), view.sites.colour, attributes, "no location attribute")
    for kind, piece in view.pieces.items():
        check(("pieces", kind), kind, kinds, "no kind or trait", key=True)
        if piece.text:
            check_template(("pieces", kind, "text"), piece.text, {"kind", "owner"} | properties, set())
    for name, decision in view.decisions.items():
        binds = symbols.decisions.get(name) or ({("action",): None} if name == "anytime" else None)
        if binds is None:
            unknown(("decisions", name), "no decision", name, symbols.decisions, key=True)
            continue
        if decision.option:
            check_template(("decisions", name, "option"), decision.option, {v for bound in binds for v in bound},
                           attributes | properties)
        for player in decision.phase if isinstance(decision.phase, dict) else ():
            check(("decisions", name, "phase", player), player, players, "no player", key=True)
    for player in view.players:
        check(("players", player), player, players, "no player", key=True)
    return problems
