"""Loading a game as a pipeline of stages, each a function of the previous stage's result:

    read_manifest -> read_content -> build_board -> parse_rules -> check_names -> compile_rules

Each result holds everything before it and the diagnostics found so far, so a stage can be run
alone on the result of the one before (an editor runs the first four on every keystroke).
`load_ruleset` runs them all and raises if any found an error. Only reading the manifest stops the
pipeline: without content the board is None, and parsing goes on to report the rules' own mistakes.
"""
from __future__ import annotations

import copy
import os
from dataclasses import dataclass, fields
from pathlib import Path

from pydantic import ValidationError

from interpreter.content import variants
from interpreter.content.load import content_files
from interpreter.content.manifest import MANIFEST, Manifest, find_ruleset, manifest_paths
from interpreter.content.models import Ability, Content
from interpreter.content.schema_errors import schema_diagnostics
from interpreter.content.yaml_source import position_of, read_yaml, value_position
from interpreter.diagnostics.diagnostic import Diagnostic, Position
from interpreter.diagnostics.errors import LudolexError
from interpreter.diagnostics.suggestions import did_you_mean, new_run
from interpreter.engine import board as boards
from interpreter.engine.state import BOX
from interpreter.language.checker import collect_symbols
from interpreter.language.compiler import compile_program
from interpreter.language.declarations import Declaration
from interpreter.language.modules import localize, seat_copies, with_factions
from interpreter.language.parser import HintBudget, parse
from interpreter.language.program import Program
from interpreter.language.scope import Symbols
from interpreter.language.statements import Block
from interpreter.loading.memo import parse_rules_text, prepared_rules, read_content_files
from interpreter.loading.ruleset import Ruleset
from interpreter.safety.files import Boundary, read_source


@dataclass(frozen=True)
class ManifestRead:
    directory: Path
    boundary: Boundary
    manifest: Manifest
    document: object  # the manifest's YAML, for the positions of its values
    content_places: tuple[Path, ...]
    rule_folders: tuple[Path, ...]
    extra_rules: tuple[Path, ...]  # rules files besides those of the folders (a variant's: its base's, its own)
    overrides: tuple[variants.Override, ...]  # a variant's changes to the content, its bases' first
    bases: tuple[Path, ...]  # a variant's base folder, that base's own base..., nearest first
    diagnostics: tuple[Diagnostic, ...]

    @property
    def manifest_path(self) -> Path:
        return self.directory / MANIFEST


@dataclass(frozen=True)
class ContentRead(ManifestRead):
    content: Content | None  # None when the content has errors


@dataclass(frozen=True)
class BoardBuilt(ContentRead):
    board: boards.Board | None  # None without content


@dataclass(frozen=True)
class RulesParsed(BoardBuilt):
    rule_files: tuple[Path, ...]
    declarations: tuple[Declaration, ...]
    abilities: tuple[tuple[Ability, Block], ...]  # the content's ability snippets, parsed
    lost_names: frozenset[str]  # names of declarations dropped for a syntax error ("*": a whole file)


@dataclass(frozen=True)
class NamesChecked(RulesParsed):
    symbols: Symbols | None  # None without content


@dataclass(frozen=True)
class RulesCompiled(NamesChecked):
    program: Program | None


def _next(previous, diagnostics=(), **added):
    """The result of the next stage: everything of `previous`, its new fields, the new diagnostics."""
    kept = {f.name: getattr(previous, f.name) for f in fields(previous)}
    kept["diagnostics"] = previous.diagnostics + tuple(diagnostics)
    stage = {ManifestRead: ContentRead, ContentRead: BoardBuilt, BoardBuilt: RulesParsed, RulesParsed: NamesChecked,
             NamesChecked: RulesCompiled}[type(previous)]
    return stage(**kept, **added)


def read_manifest(name_or_path: str | Path, _variants: frozenset[Path] = frozenset()) -> ManifestRead:
    """The ruleset's folder and manifest, and the content and rules folders it names (each inside the
    project and existing), or for a variant, its base's files and its changes (`content/variants.py`);
    raises LudolexError, since nothing else can be read without them. `_variants`: the variants being
    read whose base this is."""
    if not _variants:
        new_run()
    directory = find_ruleset(str(name_or_path))
    boundary = Boundary.of_ruleset(directory)
    manifest_path = directory / MANIFEST
    document = read_yaml(manifest_path, boundary)
    try:
        manifest = Manifest.model_validate(document)
    except ValidationError as error:
        raise LudolexError(schema_diagnostics(error, document, str(manifest_path), Manifest)) from None
    problems = variants.manifest_problems(manifest, document, str(manifest_path))
    if problems:
        raise LudolexError(problems)
    if manifest.base is not None:
        return _read_variant(directory, boundary, manifest, document, _variants)
    places = manifest_paths(directory, manifest.content_places(), document, manifest_path, "content",
                            lambda p: p.is_dir() or p.suffix == ".yaml" and p.is_file(), "content folder or file", boundary)
    rule_folders = manifest_paths(directory, manifest.rules, document, manifest_path, "rules", Path.is_dir,
                                  "rules folder", boundary)
    return ManifestRead(directory, boundary.including(*places, *rule_folders), manifest, document, tuple(places),
                        tuple(rule_folders), (), (), (), ())


def _read_variant(directory: Path, boundary: Boundary, manifest: Manifest, document, within: frozenset[Path]):
    """A variant: its base read first (a variant of a variant too), then its files and overrides added."""
    folder = variants.base_folder(manifest, document, directory, boundary, within)
    base = read_manifest(folder, within | {directory.resolve()})
    base_rules = [p.resolve() for p in rules_files(base)]
    base_content = [p.resolve() for p in content_files(list(base.content_places))]
    rules, content, problems = variants.variant_files(manifest, document, directory, boundary, base.manifest.name,
                                                      base_rules, base_content)
    if problems:
        raise LudolexError(problems)
    for key in ("score", "table", "encoding"):  # the base's, unless the variant gives its own
        if getattr(manifest, key) is None:
            manifest = manifest.model_copy(update={key: getattr(base.manifest, key)})
    overrides = base.overrides + tuple(variants.read_overrides(manifest, document, str(directory / MANIFEST)))
    added = [p for p in rules + content if p not in base_rules + base_content]  # read through the base's boundary
    boundary = boundary.including(*base.boundary.roots, *added)
    return ManifestRead(directory, boundary, manifest, document, tuple(content), (), tuple(rules), overrides,
                        (base.directory,) + base.bases, ())


def rules_files(read: ManifestRead) -> list[Path]:
    """Every `*.rules` file of the rules folders and the ruleset's folder, and the extra ones."""
    folders = read.rule_folders + (read.directory,)
    found = [f for folder in folders for f in sorted(folder.glob("*.rules"))] + list(read.extra_rules)
    return list({f.resolve(): f for f in found}.values())  # a variant may `add` a file of its own folder


def read_content(read: ManifestRead) -> ContentRead:
    content, diagnostics = read_content_files(list(read.content_places), read.boundary)
    if content is not None and read.overrides:
        diagnostics += variants.apply_overrides(content, list(read.overrides))
    if content is not None and read.manifest.table is not None:
        content.default_table = list(read.manifest.table)
        diagnostics += _table_problems(read, content)
    return _next(read, diagnostics, content=content)


def _table_problems(read: ManifestRead, content: Content) -> list[Diagnostic]:
    """The manifest's `table` seats players of the content, each once. A variant's inherited table
    leaves out the players whose files it removed."""
    if "table" not in (read.document or {}):
        return []
    problems = []
    for i, player in enumerate(read.manifest.table):
        where = position_of(read.document, ("table", i), str(read.manifest_path), value=True)
        if player not in content.players:
            problems.append(Diagnostic("LX302", f"`table`: no player `{player}` in the content", where,
                                       hint=did_you_mean(player, content.players)))
        elif read.manifest.table.index(player) != i:
            problems.append(Diagnostic("LX301", f"`table`: player `{player}` is seated twice", where))
    return problems


def build_board(read: ContentRead) -> BoardBuilt:
    if read.content is None:
        return _next(read, board=None)
    diagnostics: list[Diagnostic] = []
    board = _board_of(read.content, diagnostics, str(read.manifest_path))
    return _next(read, diagnostics, board=board)


VALUE_PREFIX = "let value = "


def parse_rules(built: BoardBuilt) -> RulesParsed:
    """Every `*.rules` file of the rules folders and the ruleset's folder, and the content's abilities."""
    diagnostics: list[Diagnostic] = []
    rule_files = rules_files(built)
    declarations, lost_names, budget, parsed = [], set(), HintBudget(), []
    for path in rule_files:
        try:
            text = read_source(path, built.boundary)
        except LudolexError as error:  # not UTF-8, outside the project, not a regular file, too large
            diagnostics += error.diagnostics
            lost_names.add("*")  # a whole file unread: its names are unknown, say nothing of them
            continue
        found = parse_rules_text(text, str(path), budget)
        parsed.append((str(path), text, found))
        diagnostics += found.diagnostics
        lost_names |= found.lost_names
    present = {faction for _, _, found in parsed for faction in found.factions}
    players = built.content.players if built.content else []
    seats = built.content.seats if built.content else None
    for file, text, found in parsed:
        key = (file, text, tuple(sorted(present)), tuple(players), tuple(seats.items()) if seats is not None else None)
        prepared, problems = prepared_rules(key, lambda found=found: _prepared(found.declarations(), present, players, seats))
        declarations += prepared
        diagnostics += problems
    lost_names |= built.content.lost_kinds if built.content else set()
    abilities = []
    for ability in built.content.abilities if built.content else ():
        prefix = VALUE_PREFIX if ability.value else ""  # a card's function: an expression, kept as `let value = ...`
        try:
            body = parse(prefix + ability.source, ability.file, start="snippet", line_offset=ability.line - 1,
                         column_offset=ability.column - 1 - len(prefix), block=ability.block, budget=budget)
            abilities.append((ability, body))
        except LudolexError as error:
            diagnostics += error.diagnostics
    return _next(built, diagnostics, rule_files=tuple(rule_files), declarations=tuple(declarations),
                 abilities=tuple(abilities), lost_names=frozenset(lost_names))


def _prepared(found: list, present: set[str], players: list[str], seats: dict[str, str] | None) -> tuple[list, list]:
    """One file's declarations ready to check: `with faction` blocks opened, faction names qualified,
    a copy for each extra seat of its faction (`seats`: None without content)."""
    found, guarded_problems = with_factions(found, present, players)
    copies = seat_copies(found, seats) if seats is not None else []
    found, faction_problems = localize(found)
    return found + copies, guarded_problems + faction_problems


def check_names(parsed: RulesParsed) -> NamesChecked:
    """The names the rules and the content declare, checked against each other and the manifest's `score`."""
    if parsed.content is None:  # names cannot be checked without the content that declares them
        return _next(parsed, symbols=None)
    diagnostics: list[Diagnostic] = []
    symbols = collect_symbols(parsed.content, parsed.board, list(parsed.declarations), list(parsed.abilities), diagnostics)
    score = parsed.manifest.score
    if score and symbols.functions.get(score) != 1:
        diagnostics.append(Diagnostic("LX315", f"`score: {score}` in the manifest must name a function of one player",
                                      value_position(parsed.document, "score", str(parsed.manifest_path))))
    else:
        symbols.score = score
    diagnostics += _encoding_problems(parsed, symbols)
    return _next(parsed, _not_lost(diagnostics, parsed.lost_names), symbols=symbols)


def _encoding_problems(parsed: RulesParsed, symbols) -> list[Diagnostic]:
    """The manifest's `encoding` (how learning agents see the game) names zones and variables of the game."""
    encoding = parsed.manifest.encoding
    if encoding is None or "encoding" not in (parsed.document or {}):  # a variant's inherited one was checked in its base
        return []
    zones = set(symbols.zones) | set(symbols.locations) | {BOX}
    named = [(("listed", name), name, zones | {"board"}, "zone") for name in encoding.listed]
    named += [(("left_out", i), name, zones, "zone") for i, name in enumerate(encoding.left_out)]
    named += [(("variables", i), name, set(symbols.variables) | set(symbols.options), "variable")
              for i, name in enumerate(encoding.variables or [])]
    problems = []
    for path, name, known, what in named:
        if name not in known:
            where = position_of(parsed.document, ("encoding", *path), str(parsed.manifest_path), value=path[0] != "listed")
            problems.append(Diagnostic("LX302", f"`encoding`: no {what} `{name}` in the game", where,
                                       hint=did_you_mean(name, sorted(known))))
    return problems


def compile_rules(checked: NamesChecked, backend: str | None = None) -> RulesCompiled:
    """Every rule compiled, and checked as it is compiled (types, unknown names, what may decide), by
    `backend` (see `compile_program`; None: LUDOLEX_BACKEND, else "generated")."""
    if checked.symbols is None:
        return _next(checked, program=None)
    diagnostics: list[Diagnostic] = []
    first = Position(str(checked.rule_files[0]), 1, 1) if checked.rule_files else Position(str(checked.manifest_path), 1, 1)
    symbols = copy.deepcopy(checked.symbols)  # compiling adds to the table; the checked stage keeps its own
    program = compile_program(checked.content, checked.board, list(checked.declarations), list(checked.abilities),
                              symbols, diagnostics, first, backend or os.environ.get("LUDOLEX_BACKEND", "generated"))
    score = checked.manifest.score
    if score:  # the manifest's score function is used by reports, not by the rules
        diagnostics = [d for d in diagnostics if not (d.code == "LX325" and f"`{score}`" in d.message)]
    return _next(checked, _not_lost(diagnostics, checked.lost_names), program=program)


def load_ruleset(name_or_path: str | Path, backend: str | None = None) -> Ruleset:
    """A game ready to play (`interpreter.load`): a folder holding a `game.yaml`, or the name of a
    shipped game (its folder's name under `rulesets/`). Runs every stage; if any finds an error, raises
    `LudolexError`, whose `diagnostics` list every error (file, line, column) in file order. The
    warnings of a game that loads are in `Ruleset.warnings`."""
    return ruleset_of(run_stages(name_or_path, backend))


def run_stages(name_or_path: str | Path, backend: str | None = None) -> RulesCompiled:
    """Every stage, whatever they find (raises only if the manifest cannot be read)."""
    return compile_rules(check_names(parse_rules(build_board(read_content(read_manifest(name_or_path))))), backend)


def ruleset_of(done: RulesCompiled) -> Ruleset:
    """The game the stages loaded; a LudolexError listing every error, in file order, if they found any."""
    diagnostics = list(done.diagnostics)
    if any(d.severity == "error" for d in diagnostics):  # "never used" is noise beside real errors
        diagnostics = [d for d in diagnostics if d.code != "LX325"]
    if done.program is None or any(d.severity == "error" for d in diagnostics):
        raise LudolexError(_in_file_order(diagnostics))
    return Ruleset(done.manifest.name, done.directory, done.manifest, done.content, done.board, done.program,
                   list(done.rule_files), _in_file_order(diagnostics), bases=done.bases, boundary=done.boundary)


def _not_lost(diagnostics: list[Diagnostic], lost_names: frozenset[str]) -> list[Diagnostic]:
    return [d for d in diagnostics if not _about_lost_names(d, lost_names)]


def _in_file_order(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    unique = {(d.code, d.message, d.sort_key()): d for d in diagnostics}
    return sorted(unique.values(), key=Diagnostic.sort_key)


CONSEQUENCES = {"LX302", "LX303", "LX312", "LX313", "LX314", "LX315", "LX319", "LX320", "LX322", "LX325"}


def _about_lost_names(diagnostic: Diagnostic, lost_names: set[str]) -> bool:
    """A complaint caused by a declaration dropped for a syntax error, or a piece kind for a content error (reported already)."""
    if "*" in lost_names:
        return diagnostic.code in CONSEQUENCES
    if diagnostic.code == "LX320":
        return "play" in lost_names
    return diagnostic.code in ("LX302", "LX303", "LX309", "LX312", "LX313", "LX319", "LX315") and any(
        f"`{name}`" in diagnostic.message or f"`{name}(" in diagnostic.message for name in lost_names
    )


def _board_of(content: Content, diagnostics: list[Diagnostic], file: str) -> boards.Board:
    """The content's board, and after its own locations those the files add beside it (`locations`)."""
    graph = _declared_graph(content, diagnostics, file)
    for name, attributes in content.added_locations.items():
        if name in graph:
            diagnostics.append(Diagnostic("LX301", f"location `{name}` is already a location of the board",
                                          content.positions.get(("added location", name))))
            continue
        graph.add_node(name)
        graph.nodes[name].update(attributes)
    return boards.Board(graph)


def _declared_graph(content: Content, diagnostics: list[Diagnostic], file: str):
    """The graph of the board the content declares (a grid, or a map of locations)."""
    spec = content.board
    if spec is None:
        where = Position(str(content.files[0]), 1, 1) if content.files else Position(file, 1, 1)
        diagnostics.append(Diagnostic("LX207", "the content declares no `board`", where))
        return boards.grid_graph(1, 1, [])
    if spec.grid:
        graph = boards.grid_graph(spec.grid.columns, spec.grid.rows, spec.grid.connections, spec.grid.attributes)
        for name in spec.grid.attributes:
            if name not in graph:
                diagnostics.append(Diagnostic("LX302", f"attributes for `{name}`, which is not a square of the grid",
                                              content.positions.get(("attributes", name)), hint=did_you_mean(name, list(graph))))
        return graph
    locations = spec.locations or {}
    for i, link in enumerate(spec.connections):
        for end in (link.from_, link.to):
            if end not in locations:
                diagnostics.append(Diagnostic("LX302", f"connection to `{end}`, which is not a location of the board",
                                              content.positions.get(("connection", i)), hint=did_you_mean(end, locations)))
    links = [c.model_dump(by_alias=True) for c in spec.connections if c.from_ in locations and c.to in locations]
    return boards.explicit_graph(locations, links)
