"""Errors that point at a file, a line and a column, shown with the source line and a caret."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Position:
    file: str
    line: int
    column: int
    width: int = 1

    def shifted(self, lines: int, columns: int, every_line: bool = False) -> "Position":
        """The same place in a file, for text that starts at (lines + 1, columns + 1) of it.

        `every_line`: the text is an indented block (a YAML `|` scalar), so every line is shifted.
        """
        shift = columns if (every_line or self.line == 1) else 0
        return Position(self.file, self.line + lines, self.column + shift, self.width)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass
class Diagnostic:
    code: str
    message: str
    position: Position | None
    severity: str = ""  # from the code's entry in interpreter/codes.py unless given
    hint: str | None = None

    def __post_init__(self):
        if not self.severity:
            from .codes import severity

            self.severity = severity(self.code)

    def sort_key(self) -> tuple:
        p = self.position
        return (p.file, p.line, p.column) if p else ("", 0, 0)

    def as_dict(self) -> dict:
        p = self.position
        return {
            "code": self.code, "severity": self.severity, "message": self.message, "hint": self.hint,
            "file": p.file if p else None, "line": p.line if p else None, "column": p.column if p else None,
            "end_column": p.column + p.width if p else None,
        }

    def render(self, source: str | None = None) -> str:
        where = f"{self.position}: " if self.position else ""
        lines = [f"{where}{self.severity} {self.code}: {self.message}"]
        text = source if source is not None else _read(self.position)
        if self.position and text is not None:
            source_lines = text.splitlines()
            if 0 < self.position.line <= len(source_lines):
                line = source_lines[self.position.line - 1]
                lines.append(f"    {line}")
                lines.append("    " + " " * (self.position.column - 1) + "^" * max(1, self.position.width))
        if self.hint:
            lines.append(f"    hint: {self.hint}")
        return "\n".join(lines)


def _read(position: Position | None) -> str | None:
    if position is None:
        return None
    try:
        return Path(position.file).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


@dataclass
class LudolexError(Exception):
    """Raised when files cannot be loaded; carries every diagnostic found."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __str__(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)


class RuleRuntimeError(Exception):
    """A rule failed while the game ran (a bug in the rules, reported at the statement)."""

    def __init__(self, position: Position | None, message: str):
        super().__init__(f"{position}: {message}" if position else message)
        self.position, self.message = position, message

    def __reduce__(self):  # crosses process boundaries (simulation workers) intact
        return type(self), (self.position, self.message)


def did_you_mean(name: str, candidates) -> str | None:
    import difflib

    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None
