"""A game's content (players, board, pieces) in YAML, validated by pydantic models."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from interpreter.diagnostics.diagnostic import Position

NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"
ZONE_PATTERN = r"^([A-Za-z_][A-Za-z0-9_]*\.)?[A-Za-z_][A-Za-z0-9_]*$"  # `faction.zone` for a zone local to a faction's file


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
    starts_in: str = Field(pattern=ZONE_PATTERN)
    traits: list[Name] = []
    properties: dict[Name, Scalar | list[Scalar]] = {}  # fixed values of the kind: a suit, a cost...
    abilities: dict[Name, str] = {}
    functions: dict[Name, str] = {}  # values the card carries, each an expression (`test NAME of c` in the rules)
    back: Name | None = None  # what players who do not know a face-down component of this kind see of it
    known: Literal["owner", "nobody"] = "owner"  # who knows a face-down component without being shown it
    only_if: dict[Name, Scalar | list[Scalar]] = {}  # option -> the value(s) under which the game has these pieces

    def in_game(self, options: dict) -> bool:
        """Whether the game has pieces of this kind under the options chosen."""
        return all(options.get(name) in (wanted if isinstance(wanted, list) else [wanted])
                   for name, wanted in self.only_if.items())

    def owned(self, players: list[str], seats: dict[str, str] | None = None) -> dict[str | None, int]:
        """How many components each owner has (`None`: shared). `seats`: each extra seat and the player
        whose faction it plays, whose components it has too."""
        if self.per_player is None:
            return {None: self.count}
        if isinstance(self.per_player, dict):
            owned = {p: n for p, n in self.per_player.items() if p in players}
            owned |= {seat: self.per_player[faction] for seat, faction in (seats or {}).items()
                      if faction in self.per_player and seat in players}
            return owned
        return {p: self.per_player for p in players}

    @model_validator(mode="after")
    def one_count(self):
        if (self.per_player is None) == (self.count is None):
            raise ValueError("a piece kind has either `per_player` (each player's own) or `count` (shared)")
        return self


class ContentFile(Strict):
    players: list[Name] | None = None  # each file may add its own (a faction's file, its player)
    own: dict[Name, Count] = {}  # kind -> how many this file's players each have of a kind declared for all
    excludes: list[Name] = []  # players this file's players never sit at a table with
    seats: dict[Name, Name] = {}  # an extra seat -> the player whose faction it plays (one faction seated twice)
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
    value: bool = False  # one of the kind's `functions` (an expression), not an ability


@dataclass
class Content:
    players: list[str] = field(default_factory=list)  # every player, the extra seats (last) included
    seats: dict[str, str] = field(default_factory=dict)  # an extra seat -> the player whose faction it plays
    board: BoardSpec | None = None
    pieces: dict[str, PieceKind] = field(default_factory=dict)
    abilities: list[Ability] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    positions: dict[tuple, Position] = field(default_factory=dict)  # ("pieces", kind, key) -> where it is written
    lost_kinds: set[str] = field(default_factory=set)  # kinds left out for an error in their entry (reported)
    default_table: list[str] | None = None  # the manifest's `table`
    owned: list = field(default_factory=list)  # each file's `own`: (kind, number, its players, where)
    excludes: dict[str, list[str]] = field(default_factory=dict)  # player -> players it never sits with

    @property
    def table(self) -> list[str]:
        """The players a game seats when nobody says which: the manifest's `table` (less the players
        the content does not have: a variant without a faction), else every player but the extra seats."""
        if self.default_table is not None:
            return [p for p in self.default_table if p in self.players]
        return [p for p in self.players if p not in self.seats]
