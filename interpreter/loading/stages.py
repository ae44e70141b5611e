"""Loading a game: its manifest, content and rules files, checked and compiled into a Ruleset."""
from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from interpreter.content.load import load_content
from interpreter.content.manifest import MANIFEST, Manifest, find_ruleset, manifest_paths
from interpreter.content.models import Content
from interpreter.content.schema_errors import schema_diagnostics
from interpreter.content.yaml_source import read_yaml, value_position
from interpreter.diagnostics.diagnostic import Diagnostic, Position
from interpreter.diagnostics.errors import LudolexError
from interpreter.diagnostics.suggestions import did_you_mean, new_run
from interpreter.engine import board as boards
from interpreter.language.compiler import compile_program
from interpreter.language.parser import parse, parse_recovering
from interpreter.loading.ruleset import Ruleset
from interpreter.safety.files import Boundary, read_source


def load_ruleset(name_or_path: str | Path) -> Ruleset:
    new_run()
    directory = find_ruleset(str(name_or_path))
    boundary = Boundary.of_ruleset(directory)
    manifest_path = directory / MANIFEST
    document = read_yaml(manifest_path, boundary)
    try:
        manifest = Manifest.model_validate(document)
    except ValidationError as error:
        raise LudolexError(schema_diagnostics(error, document, str(manifest_path), Manifest)) from None
    places = manifest_paths(directory, manifest.content_places(), document, manifest_path, "content",
                             lambda p: p.is_dir() or p.suffix == ".yaml" and p.is_file(), "content folder or file", boundary)
    rule_dirs = manifest_paths(directory, manifest.rules, document, manifest_path, "rules", Path.is_dir, "rules folder",
                                boundary)

    diagnostics: list[Diagnostic] = []
    try:
        content = load_content(places, boundary)
    except LudolexError as error:
        content = None
        diagnostics += error.diagnostics
    rule_files = [f for folder in rule_dirs + [directory] for f in sorted(folder.glob("*.rules"))]
    declarations, lost_names = [], set()
    for path in rule_files:
        try:
            found, syntax_errors, lost = parse_recovering(read_source(path, boundary), str(path))
        except LudolexError as error:  # not UTF-8, outside the project, not a regular file, too large
            diagnostics += error.diagnostics
            lost_names.add("*")  # a whole file unread: its names are unknown, say nothing of them
            continue
        declarations += found
        diagnostics += syntax_errors
        lost_names |= lost
    if content is None:  # names cannot be checked without the content that declares them
        raise LudolexError(_in_file_order(diagnostics))
    board = _build_board(content, diagnostics, str(manifest_path))
    abilities = []
    for ability in content.abilities:
        try:
            body = parse(ability.source, ability.file, start="snippet", line_offset=ability.line - 1,
                         column_offset=ability.column - 1, block=ability.block)
            abilities.append((ability, body))
        except LudolexError as error:
            diagnostics += error.diagnostics
    meaning: list[Diagnostic] = []
    first_rules = Position(str(rule_files[0]), 1, 1) if rule_files else Position(str(manifest_path), 1, 1)
    program = compile_program(content, board, declarations, abilities, meaning, first_rules)
    if manifest.score and program.symbols.functions.get(manifest.score) != 1:
        meaning.append(Diagnostic("LX315", f"`score: {manifest.score}` in the manifest must name a function of one player",
                                  value_position(document, "score", str(manifest_path))))
    if manifest.score:  # the manifest's score function is used by reports, not by the rules
        meaning = [d for d in meaning if not (d.code == "LX325" and f"`{manifest.score}`" in d.message)]
    diagnostics += [d for d in meaning if not _about_lost_names(d, lost_names)]
    if any(d.severity == "error" for d in diagnostics):  # "never used" is noise beside real errors
        diagnostics = [d for d in diagnostics if d.code != "LX325"]
    if any(d.severity == "error" for d in diagnostics):
        raise LudolexError(_in_file_order(diagnostics))
    return Ruleset(manifest.name, directory, manifest, content, board, program, rule_files, _in_file_order(diagnostics))


def _in_file_order(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    unique = {(d.code, d.message, d.sort_key()): d for d in diagnostics}
    return sorted(unique.values(), key=Diagnostic.sort_key)


CONSEQUENCES = {"LX302", "LX303", "LX312", "LX313", "LX314", "LX315", "LX319", "LX320", "LX322", "LX325"}


def _about_lost_names(diagnostic: Diagnostic, lost_names: set[str]) -> bool:
    """A complaint caused by a declaration dropped for a syntax error (reported already)."""
    if "*" in lost_names:
        return diagnostic.code in CONSEQUENCES
    if diagnostic.code == "LX320":
        return "play" in lost_names
    return diagnostic.code in ("LX302", "LX303", "LX312", "LX313", "LX319", "LX315") and any(
        f"`{name}`" in diagnostic.message or f"`{name}(" in diagnostic.message for name in lost_names
    )


def _build_board(content: Content, diagnostics: list[Diagnostic], file: str) -> boards.Board:
    spec = content.board
    if spec is None:
        where = Position(str(content.files[0]), 1, 1) if content.files else Position(file, 1, 1)
        diagnostics.append(Diagnostic("LX207", "the content declares no `board`", where))
        return boards.Board(boards.grid_graph(1, 1, []))
    if spec.grid:
        board = boards.Board(boards.grid_graph(spec.grid.columns, spec.grid.rows, spec.grid.connections, spec.grid.attributes))
        for name in spec.grid.attributes:
            if name not in board.index:
                diagnostics.append(Diagnostic("LX302", f"attributes for `{name}`, which is not a square of the grid",
                                              content.positions.get(("attributes", name)), hint=did_you_mean(name, board.locations)))
        return board
    locations = spec.locations or {}
    for i, link in enumerate(spec.connections):
        for end in (link.from_, link.to):
            if end not in locations:
                diagnostics.append(Diagnostic("LX302", f"connection to `{end}`, which is not a location of the board",
                                              content.positions.get(("connection", i)), hint=did_you_mean(end, locations)))
    links = [c.model_dump(by_alias=True) for c in spec.connections if c.from_ in locations and c.to in locations]
    return boards.Board(boards.explicit_graph(locations, links))
