"""Top-level declarations of a rules file. Each one adds names to the Symbols, then compiles."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from interpreter.diagnostics.diagnostic import Position
from interpreter.language.expressions import Expr
from interpreter.language.statements import Block


@dataclass
class FactionDecl:
    """`faction NAME`, a file's first line: the names the file declares are local to it (see `modules`)."""

    pos: Position
    name: str


@dataclass
class WithFactionDecl:
    """`with faction NAME:` and declarations: they are part of the game only if that faction's file is
    (see `modules.with_factions`), and apply only when it is seated too."""

    pos: Position
    faction: str
    declarations: list


@dataclass
class AbilityDecl:
    """`ability NAME`: a moment the rules perform pieces' abilities at (`perform NAME of x`), which
    content may give a kind or not."""

    pos: Position
    name: str


@dataclass
class EventDecl:
    """`event NAME(params)`: an event the rules announce (`emit`), which any file may handle or not."""

    pos: Position
    name: str
    params: list[str]


@dataclass
class OptionDecl:
    """`option NAME in [VALUES] = DEFAULT`: a value chosen before the game starts (`--option NAME=VALUE`)."""

    pos: Position
    name: str
    choices: Expr
    default: Expr


@dataclass
class ZoneDecl:
    pos: Position
    name: str
    per_player: bool
    visibility: str
    unordered: bool = False  # a bag: whatever is moved into it lands at a random place
    common: bool = False  # a faction's zone that every seat playing the faction shares (see modules.py)
    face_down: bool = False  # `face down`: the components that start in it start face down, mixed


@dataclass
class ShownDecl:
    """`public hand(blue)`: one player's copy of a per-player zone, seen otherwise than the zone says."""

    pos: Position
    name: str  # the zone
    player: str
    visibility: str


@dataclass
class VariableDecl:
    pos: Position
    name: str
    per_player: bool
    value: Expr
    visibility: str = "public"  # private: each player observes only their own value; hidden: nobody observes it


@dataclass
class PropertyDecl:
    pos: Position
    name: str
    value: Expr


@dataclass
class FunctionDecl:
    pos: Position
    name: str
    params: list[str]
    body: Expr


@dataclass
class ModifyDecl:
    """modify NAME(params) by AMOUNT: a continuous effect added to a function's value."""

    pos: Position
    name: str
    params: list[str]
    amount: Expr


@dataclass
class ProcedureDecl:
    pos: Position
    name: str
    params: list[str]
    body: Block


@dataclass
class WhenDecl:
    """A triggered effect. `event` is ("event", name), ("start", name) or ("end", name)."""

    pos: Position
    event: tuple[str, str]
    params: list[str]
    condition: Expr | None
    body: Block
    label: str | None = None  # `as NAME`: how a player ordering several handlers sees this one
    precedence: int = 0  # `precedence N`: the rules of one moment run from the highest down
    needs: tuple = ()  # the players a game must seat for the rule to exist in it (its faction's, see modules)


@dataclass
class AlwaysDecl:
    """A continuous rule: applied after every change until nothing changes."""

    pos: Position
    name: str
    body: Block


@dataclass
class SetupDecl:
    pos: Position
    body: Block


@dataclass
class PlayDecl:
    pos: Position
    body: Block


@dataclass
class InsteadDecl:
    """instead of PROCEDURE(params) [if CONDITION] [as LABEL]: a body run in place of the procedure's."""

    pos: Position
    name: str
    params: list[str]
    condition: Expr | None
    label: str | None
    body: Block
    needs: tuple = ()  # the players a game must seat for the rule to exist in it (its faction's, see modules)


@dataclass
class OverrideDecl:
    """override FUNCTION(params) = VALUE [if CONDITION] [precedence N]: another value, where the
    condition holds; of several that hold, the highest precedence's, then the first declared."""

    pos: Position
    name: str
    params: list[str]
    condition: Expr | None
    value: Expr
    precedence: int = 0


@dataclass
class AnytimeDecl:
    """anytime NAME [during SPAN] [if CONDITION]: something a player may do at any `window` where the
    condition holds; with a span (`turn` or a phase), only the player whose turn it is, during it, and
    at every step of it (language/spans.py)."""

    pos: Position
    name: str
    condition: Expr | None
    body: Block
    span: str | None = None
    seat: str | None = None  # in an extra seat's copy of a faction's file: that seat (the name stays the faction's)


@dataclass
class CannotDecl:
    """cannot place X in SITE / move X from ORIGIN to TARGET / remove X from SITE, if CONDITION: a guard
    every `move` obeys (a piece it forbids stays where it is), unless written `ignoring limits`."""

    pos: Position
    action: str  # "place": onto the board from off it; "move": from one board location to another; "remove": off it
    params: list[str]  # the piece, then the location(s)
    condition: Expr
    needs: tuple = ()  # the players a game must seat for the rule to exist in it (its faction's, see modules)


def rule_label(rule) -> str:
    """What a decision that orders rules (`instead of`, `emit ... ordered by`) calls a `when` or an
    `instead of` rule: its `as LABEL`, else its file and line."""
    return rule.label or f"{Path(rule.pos.file).stem} line {rule.pos.line}"


Declaration = (FactionDecl | WithFactionDecl | EventDecl | AbilityDecl | ShownDecl | OptionDecl | ZoneDecl | VariableDecl | PropertyDecl | FunctionDecl | ModifyDecl | OverrideDecl | ProcedureDecl
               | InsteadDecl | AnytimeDecl | CannotDecl | WhenDecl | AlwaysDecl | SetupDecl | PlayDecl)
