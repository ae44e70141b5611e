"""A game's content (players, board, pieces) in YAML, validated by pydantic models."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .diagnostics import Diagnostic, LudolexError, Position, did_you_mean, loaded_text
from .yaml_source import Boundary, position_of, read_yaml

NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Grid(Strict):
    columns: int = Field(ge=1, le=26)
    rows: int = Field(ge=1, le=99)
    connections: list[Literal["orthogonal", "diagonal", "wrap"]] = ["orthogonal"]
    attributes: dict[str, dict[str, str | int | bool]] = {}


class Connection(Strict):
    from_: str = Field(alias="from")
    to: str
    type: str = Field(pattern=NAME_PATTERN)
    direction: str | None = None
    back: str | None = None
    one_way: bool = False


class BoardSpec(Strict):
    grid: Grid | None = None
    locations: dict[str, dict[str, str | int | bool]] | None = None
    connections: list[Connection] = []

    @model_validator(mode="after")
    def one_shape(self):
        if (self.grid is None) == (self.locations is None):
            raise ValueError("a board has either `grid` or `locations`")
        return self


Name = Annotated[str, Field(pattern=NAME_PATTERN)]


Count = Annotated[int, Field(ge=0, le=10_000)]
Scalar = str | int | bool


class PieceKind(Strict):
    # `per_player: 6` gives each player 6; `per_player: {red: 6}` gives only the players named.
    per_player: Count | dict[Name, Count] | None = None
    count: Count | None = None
    starts_in: str = Field(pattern=NAME_PATTERN)
    traits: list[Name] = []
    properties: dict[Name, Scalar | list[Scalar]] = {}  # fixed values of the kind: a suit, a cost...
    abilities: dict[Name, str] = {}

    def owned(self, players: list[str]) -> dict[str | None, int]:
        """How many components each owner has (`None`: shared)."""
        if self.per_player is None:
            return {None: self.count}
        if isinstance(self.per_player, dict):
            return {p: n for p, n in self.per_player.items() if p in players}
        return {p: self.per_player for p in players}

    @model_validator(mode="after")
    def one_count(self):
        if (self.per_player is None) == (self.count is None):
            raise ValueError("a piece kind has either `per_player` (each player's own) or `count` (shared)")
        return self


class ContentFile(Strict):
    players: list[Name] | None = None
    board: BoardSpec | None = None
    pieces: dict[Name, PieceKind] = {}

    @model_validator(mode="after")
    def players_once(self):
        if self.players and len(set(self.players)) != len(self.players):
            twice = sorted({p for p in self.players if self.players.count(p) > 1})
            raise ValueError(f"a player is listed twice: {', '.join(twice)}")
        return self


@dataclass
class Ability:
    kind: str
    name: str
    source: str
    file: str
    line: int  # line of the first line of the snippet in the file
    column: int
    block: bool  # a `|` block: every line is indented by `column - 1`


@dataclass
class Content:
    players: list[str] = field(default_factory=list)
    board: BoardSpec | None = None
    pieces: dict[str, PieceKind] = field(default_factory=dict)
    abilities: list[Ability] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    positions: dict[tuple, Position] = field(default_factory=dict)  # ("pieces", kind, key) -> where it is written


def load_content(places: Path | list[Path], boundary: Boundary | None = None) -> Content:
    """Every *.yaml file of these folders (and these single files), merged; all problems reported together.

    `boundary`: where files may be read from (by default, each file's project: see `read_yaml`)."""
    content = Content()
    diagnostics: list[Diagnostic] = []
    places = places if isinstance(places, list) else [places]
    files = [f for place in places for f in (sorted(place.glob("*.yaml")) if place.is_dir() else [place])]
    for path in files:
        content.files.append(path)
        try:
            document = read_yaml(path, boundary)
        except LudolexError as error:
            diagnostics += error.diagnostics
            continue
        if document is None:
            continue
        try:
            parsed = ContentFile.model_validate(document)
        except ValidationError as error:
            diagnostics += schema_diagnostics(error, document, str(path), ContentFile)
            continue
        _merge(content, parsed, document, str(path), diagnostics)
    if diagnostics:
        raise LudolexError(diagnostics)
    return content


def _merge(content: Content, parsed: ContentFile, document, file: str, diagnostics: list[Diagnostic]) -> None:
    if parsed.players is not None:
        if content.players:
            diagnostics.append(Diagnostic("LX301", "players are declared twice", position_of(document, ("players",), file)))
        content.players = parsed.players
        for i, player in enumerate(parsed.players):
            content.positions[("players", player)] = position_of(document, ("players", i), file)
    if parsed.board is not None:
        if content.board is not None:
            diagnostics.append(Diagnostic("LX301", "the board is declared twice", position_of(document, ("board",), file)))
        content.board = parsed.board
        content.positions[("board",)] = position_of(document, ("board",), file)
        for name in parsed.board.locations or {}:
            content.positions[("location", name)] = position_of(document, ("board", "locations", name), file)
        for i, _ in enumerate(parsed.board.connections):
            content.positions[("connection", i)] = position_of(document, ("board", "connections", i), file)
        if parsed.board.grid:
            for name in parsed.board.grid.attributes:
                content.positions[("attributes", name)] = position_of(document, ("board", "grid", "attributes", name), file)
    for kind, spec in parsed.pieces.items():
        if kind in content.pieces:
            diagnostics.append(Diagnostic("LX301", f"piece kind `{kind}` is declared twice", position_of(document, ("pieces", kind), file)))
        content.pieces[kind] = spec
        content.positions[("pieces", kind)] = position_of(document, ("pieces", kind), file)
        for key in ("starts_in", "traits", "per_player", "count"):
            content.positions[("pieces", kind, key)] = position_of(document, ("pieces", kind, key), file)
        for name, source in spec.abilities.items():
            abilities = document["pieces"][kind]["abilities"]
            line, column = abilities.lc.value(name)
            # A block scalar (`|`) starts on the line after its key; its text is indented.
            block = "\n" in source.rstrip("\n") or source.endswith("\n")
            if block:
                first_line, indent = _first_text_line(file, line + 2)
                source = source.lstrip("\n")
            else:
                quoted = _is_quoted(file, line + 1, column)
                first_line, indent = line + 1, column + (1 if quoted else 0)
            content.abilities.append(Ability(kind, name, source, file, first_line, indent + 1, block))


def _first_text_line(file: str, line: int) -> tuple[int, int]:
    """The first non-blank line from `line` on, and its indentation (a block scalar's text)."""
    lines = (loaded_text(file) or "").splitlines()
    while line <= len(lines) and not lines[line - 1].strip():
        line += 1
    text = lines[line - 1] if line <= len(lines) else ""
    return line, len(text) - len(text.lstrip())


def _is_quoted(file: str, line: int, column: int) -> bool:
    lines = (loaded_text(file) or "").splitlines()
    return 0 < line <= len(lines) and lines[line - 1][column:column + 1] in ("'", '"')


def schema_diagnostic(error: dict, document, file: str, model: type[BaseModel] | None = None) -> Diagnostic:
    is_key = bool(error["loc"]) and error["loc"][-1] == "[key]"
    location = _document_path(document, error["loc"])
    position = position_of(document, location, file)
    if error["type"] == "string_pattern_mismatch":
        name = location[-1] if is_key else error.get("input")
        return Diagnostic("LX205", f"`{name}` is not a name: use letters, digits and `_`, starting with a letter",
                          position if is_key else position_of(document, location, file, value=True),
                          hint=f"try `{_as_name(str(name))}`")
    where = ".".join(str(step) for step in location) or "the file"
    if error["type"] == "extra_forbidden":
        key = str(location[-1])
        known = _allowed_keys(location[:-1], model or ContentFile)
        return Diagnostic("LX203", f"unknown key `{key}`", position, hint=did_you_mean(key, known))
    if error["type"] == "missing":
        return Diagnostic("LX204", f"missing field `{location[-1]}` in {'.'.join(map(str, location[:-1])) or 'the file'}", position)
    return Diagnostic("LX205", f"{where}: {error['msg']}", position_of(document, location, file, value=True))


def schema_diagnostics(error: ValidationError, document, file: str, model: type[BaseModel]) -> list[Diagnostic]:
    """Every schema error of a file; a misspelled required key is one error (the unknown key, with
    its suggestion), not two."""
    if document is None or not isinstance(document, dict):
        what = "empty" if document is None else f"a {type(document).__name__}, not a mapping of keys"
        return [Diagnostic("LX205", f"the file is {what}", Position(file, 1, 1))]
    found, places = [], set()
    for e in error.errors():
        diagnostic = schema_diagnostic(e, document, file, model)
        place = (diagnostic.code, diagnostic.position)
        if place not in places:  # a value that fits no branch of a union: one error, the first branch's
            places.add(place)
            found.append(diagnostic)
    suggested = {d.hint for d in found if d.code == "LX203" and d.hint}
    return [d for d in found if not (d.code == "LX204" and f"did you mean `{d.message.split('`')[1]}`?" in suggested)]


def _as_name(text: str) -> str:
    import re

    name = re.sub(r"\W+", "_", text).strip("_") or "name"
    return name if not name[0].isdigit() else f"_{name}"


def _document_path(document, loc: tuple) -> tuple:
    """pydantic's location with the names of union branches it tried (`str`, `dict[str,str]`)
    left out: a step is kept when the document has it, or when it cannot be a branch's name."""
    node, kept = document, []
    for step in loc:
        present = (isinstance(node, dict) and step in node) or (isinstance(node, list) and isinstance(step, int) and step < len(node))
        if present:
            node = node[step]
            kept.append(step)
        elif not _is_union_branch(step):
            kept.append(step)
            node = None
    return tuple(kept)


def _is_union_branch(step) -> bool:
    """pydantic names the branch of a union it tried (`str`, `dict[str,str]`): not a YAML key."""
    return isinstance(step, str) and ("[" in step or step.startswith("constrained-")
                                      or step in ("str", "int", "bool", "float"))


def _allowed_keys(location: tuple, model: type[BaseModel]) -> list[str]:
    for step in location:
        if model is None:
            break
        field_info = model.model_fields.get(str(step))
        if field_info is None:
            continue  # a list index or a mapping key (a kind's name): the same model below
        annotation = field_info.annotation
        nested = [a for a in _inner_types(annotation) if isinstance(a, type) and issubclass(a, BaseModel)]
        model = nested[0] if nested else None
    return [f.alias or name for name, f in (model.model_fields.items() if model else [])]


def _inner_types(annotation) -> list:
    found, stack = [], [annotation]
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(getattr(current, "__args__", ()))
    return found
