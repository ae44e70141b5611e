"""A game's content (players, board, pieces) in YAML, validated by pydantic models."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .diagnostics import Diagnostic, LudolexError, Position, did_you_mean
from .yaml_source import position_of, read_yaml

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


class PieceKind(Strict):
    per_player: int | None = Field(default=None, ge=0, le=10_000)
    count: int | None = Field(default=None, ge=0, le=10_000)
    starts_in: str = Field(pattern=NAME_PATTERN)
    traits: list[str] = []
    properties: dict[str, str | int | bool] = {}  # fixed values of the kind: a suit, a cost...
    abilities: dict[str, str] = {}

    @model_validator(mode="after")
    def one_count(self):
        if (self.per_player is None) == (self.count is None):
            raise ValueError("a piece kind has either `per_player` (each player's own) or `count` (shared)")
        return self


class ContentFile(Strict):
    players: list[str] | None = None
    board: BoardSpec | None = None
    pieces: dict[str, PieceKind] = {}


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


def load_content(directory: Path) -> Content:
    """Every *.yaml file of `directory`, merged; all problems reported together."""
    content = Content()
    diagnostics: list[Diagnostic] = []
    for path in sorted(directory.glob("*.yaml")):
        content.files.append(path)
        try:
            document = read_yaml(path)
        except LudolexError as error:
            diagnostics += error.diagnostics
            continue
        if document is None:
            continue
        try:
            parsed = ContentFile.model_validate(document)
        except ValidationError as error:
            diagnostics += [schema_diagnostic(e, document, str(path)) for e in error.errors()]
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
    if parsed.board is not None:
        if content.board is not None:
            diagnostics.append(Diagnostic("LX301", "the board is declared twice", position_of(document, ("board",), file)))
        content.board = parsed.board
        content.positions[("board",)] = position_of(document, ("board",), file)
    for kind, spec in parsed.pieces.items():
        if kind in content.pieces:
            diagnostics.append(Diagnostic("LX301", f"piece kind `{kind}` is declared twice", position_of(document, ("pieces", kind), file)))
        content.pieces[kind] = spec
        for key in ("starts_in", "traits", "per_player", "count"):
            content.positions[("pieces", kind, key)] = position_of(document, ("pieces", kind, key), file)
        for name, source in spec.abilities.items():
            abilities = document["pieces"][kind]["abilities"]
            line, column = abilities.lc.value(name)
            # A block scalar (`|`) starts on the line after its key; its text is indented.
            block = "\n" in source
            first_line = line + 2 if block else line + 1
            indent = _indent_of(file, first_line) if block else column
            content.abilities.append(Ability(kind, name, source, file, first_line, indent + 1, block))


def _indent_of(file: str, line: int) -> int:
    try:
        text = Path(file).read_text(encoding="utf-8").splitlines()[line - 1]
    except (OSError, IndexError):
        return 0
    return len(text) - len(text.lstrip())


def schema_diagnostic(error: dict, document, file: str) -> Diagnostic:
    location = tuple(error["loc"])
    position = position_of(document, location, file)
    where = ".".join(str(step) for step in location) or "the file"
    if error["type"] == "extra_forbidden":
        key = str(location[-1])
        known = _allowed_keys(location[:-1])
        return Diagnostic("LX203", f"unknown key `{key}`", position, hint=did_you_mean(key, known))
    if error["type"] == "missing":
        return Diagnostic("LX204", f"missing field `{location[-1]}` in {'.'.join(map(str, location[:-1])) or 'the file'}", position)
    return Diagnostic("LX205", f"{where}: {error['msg']}", position)


def _allowed_keys(location: tuple) -> list[str]:
    model: type[BaseModel] | None = ContentFile
    for step in location:
        field_info = model.model_fields.get(str(step)) if model else None
        if field_info is None:
            break
        annotation = field_info.annotation
        model = next((a for a in getattr(annotation, "__args__", (annotation,)) if isinstance(a, type) and issubclass(a, BaseModel)), None)
        if model is None and str(step) == "pieces":
            model = PieceKind
    return [f.alias or name for name, f in (model.model_fields.items() if model else [])]
