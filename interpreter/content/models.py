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
    """A board of squares named column letter then row number (`a1` to `d3`), in order row by row."""
    columns: int = Field(ge=1, le=26, description="How many columns, 1 to 26: columns a, b, c...")
    rows: int = Field(ge=1, le=99, description="How many rows, 1 to 99: rows 1, 2, 3...")
    connections: list[Literal["orthogonal", "diagonal", "wrap"]] = Field(
        ["orthogonal"], description="How squares are linked: `orthogonal` (beside it: n, s, e, w), `diagonal` (at its "
                                    "corners: ne, nw, se, sw), `wrap` (an edge to the opposite edge)")
    attributes: dict[str, dict[str, str | int | bool]] = Field(
        {}, description="Values attached to some squares, read as `b2.terrain`: `b2: {terrain: forest, cost: 2}`")


class Connection(Strict):
    """A link between two locations of a map, both ways unless `one_way`."""
    from_: str = Field(alias="from", description="The location it starts from")
    to: str = Field(description="The location it leads to")
    type: str = Field(pattern=NAME_PATTERN, description="Its type, named in the rules' `adjacent(l, TYPE)`: road...")
    direction: str | None = Field(None, description="The name of the way from `from` to `to` (for `step`, `ray`...)")
    back: str | None = Field(None, description="The name of the way back, from `to` to `from`")
    one_way: bool = Field(False, description="true: it leads from `from` to `to` only")


class BoardSpec(Strict):
    """The board: either a `grid` of squares or a map of named `locations` and their `connections`."""
    grid: Grid | None = Field(None, description="A board of squares (instead of `locations`)")
    locations: dict[str, dict[str, str | int | bool]] | None = Field(
        None, description="A map: each location, in board order, with its attributes (maybe none): "
                          "`castle: {terrain: hill}`")
    connections: list[Connection] = Field([], description="A map's links between locations")

    @model_validator(mode="after")
    def one_shape(self):
        if (self.grid is None) == (self.locations is None):
            raise ValueError("a board has either `grid` or `locations`")
        return self


Name = Annotated[str, Field(pattern=NAME_PATTERN)]


Count = Annotated[int, Field(ge=0, le=10_000)]
Scalar = str | int | bool


class PieceKind(Strict):
    """A kind of piece or card: how many there are, where they start, what they carry."""
    # `per_player: 6` gives each player 6; `per_player: {red: 6}` gives only the players named.
    per_player: Count | dict[Name, Count] | None = Field(
        None, description="Each player owns this many (`per_player: 12`); or only the players named, each their "
                          "number (`per_player: {red: 25, blue: 20}`). Exactly one of `per_player` and `count`")
    count: Count | None = Field(None, description="This many, owned by nobody (shared cards, tokens)")
    starts_in: str = Field(pattern=ZONE_PATTERN, description="The zone where they all start: a zone of the rules, or "
                                                             "`box`; a per-player zone holds each player's own")
    traits: list[Name] = Field([], description="Names shared by several kinds, tested with `is` (`c is weapon`)")
    properties: dict[Name, Scalar | list[Scalar]] = Field(
        {}, description="Fixed values of the kind, read as `c.value`: `{value: 3, suit: spades, costs: [0, 1]}`")
    abilities: dict[Name, str] = Field(
        {}, description="Named effects in the rules language (statements), run by `perform NAME of c`; `self` is "
                        "the piece")
    functions: dict[Name, str] = Field(
        {}, description="Named values the card carries, each an expression of the rules language, read by "
                        "`test NAME of c`")
    back: Name | None = Field(None, description="What a player who cannot tell which one it is sees of a face-down "
                                                "component of this kind (`card`, `plot`); without it, `hidden`")
    known: Literal["owner", "nobody"] = Field(
        "owner", description="Who knows a face-down component of this kind without being shown it")
    face_down: bool = Field(False, description="The components start face down (a faction's plots in its "
                                               "supply): only those `known` names know which is which")
    only_if: dict[Name, Scalar | list[Scalar]] = Field(
        {}, description="The game has these pieces only under these options: `{ally_deck: C}` (an option -> its value "
                        "or values)")

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
    """A file of a game's content (`cards/<game>/*.yaml`): its players, its board, its pieces."""
    players: list[Name] | None = Field(
        None, description="The players, in seating order; each file may add its own (a faction's file, its player)")
    own: dict[Name, Count] = Field(
        {}, description="How many of a kind every faction has (declared `per_player: {}`) this file's players each "
                        "own: `{stone: 20}`")
    excludes: list[Name] = Field([], description="Players this file's players never sit at a table with")
    seats: dict[Name, Name] = Field(
        {}, description="Extra seats, each with the player whose faction it plays: `{second_wanderer: wanderer}`")
    board: BoardSpec | None = Field(None, description="The board: a `grid`, or a map of `locations` (once in a game)")
    locations: dict[Name, dict[str, str | int | bool]] = Field(
        {}, description="Locations this file adds beside the board, joined to none of it (a faction's own space off "
                        "the map: `vault: {terrain: vault}`); each with its attributes, after the board's in board order")
    pieces: dict[Name, PieceKind] = Field({}, description="The kinds of pieces and cards, by name")

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
    added_locations: dict[str, dict] = field(default_factory=dict)  # the files' `locations`, beside the board
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
