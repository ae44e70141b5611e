"""The two errors of the engine: a ruleset that does not load (with its diagnostics), a rule that fails while it runs."""
from __future__ import annotations

from dataclasses import dataclass, field

from interpreter.diagnostics.diagnostic import Diagnostic, Position


@dataclass
class LudolexError(Exception):
    """Raised when files cannot be loaded; carries every diagnostic found."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __str__(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)


class RefusedTable(ValueError):
    """The rules cannot set up a game at this table (`refuse`): like a table the content does not allow."""


class RuleRuntimeError(Exception):
    """A rule failed while the game ran (a bug in the rules, reported at the statement)."""

    def __init__(self, position: Position | None, message: str):
        super().__init__(f"{position}: {message}" if position else message)
        self.position, self.message = position, message

    def __reduce__(self):  # crosses process boundaries (simulation workers) intact
        return type(self), (self.position, self.message)
