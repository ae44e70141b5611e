"""A problem at a file, a line and a column, shown with the source line and a caret."""
from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass

from interpreter.diagnostics.codes import severity


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
        """The diagnostic as text: its place, the source line with a caret under the mistake, the hint.

        The source line is quoted from `source`, or from the text the loader read (`loaded_text`):
        a file named in a diagnostic is never opened here. Whatever came from a file is shown
        inert: control characters escaped, and no line a CI log would take for a command.
        """
        where = f"{printable(str(self.position))}: " if self.position else ""
        lines = [f"{where}{self.severity} {self.code}: {printable(self.message)}"]
        text = source if source is not None else loaded_text(self.position.file) if self.position else None
        if self.position and text is not None:
            # lines as the parsers count them: split at "\n" only (not at \x0c, \u2028...)
            source_lines = text.removesuffix("\n").split("\n") if text else []
            if 0 < self.position.line <= len(source_lines):
                line, column = _excerpt(source_lines[self.position.line - 1].removesuffix("\r"), self.position.column)
                before = inert(printable(line[: column - 1], keep_tabs=True))
                lines.append(f"    {printable(line, keep_tabs=True)}")
                lines.append("    " + " " * len(before) + "^" * max(1, min(self.position.width, QUOTED_CHARACTERS)))
        if self.hint:
            lines.append(f"    hint: {printable(self.hint)}")
        return "\n".join(inert(line) for line in lines)


QUOTED_CHARACTERS = 2_000  # the most of a source line shown under a diagnostic


def _excerpt(line: str, column: int) -> tuple[str, int]:
    """The part of `line` to show, and where `column` falls in it: the whole line, or a very long
    one cut around the column (marked `...`), so that the output stays in proportion."""
    if len(line) <= QUOTED_CHARACTERS:
        return line, column
    start = max(0, min(column - 1 - QUOTED_CHARACTERS // 2, len(line) - QUOTED_CHARACTERS))
    before, after = "..." if start else "", "..." if start + QUOTED_CHARACTERS < len(line) else ""
    return before + line[start:start + QUOTED_CHARACTERS] + after, column - start + len(before)


# --- the texts the loader read, for quoting source lines -----------------------------------

_LOADED: dict[str, str] = {}  # absolute path of a file -> its text, the oldest first
_LOADED_CHARACTERS = 64_000_000  # the most kept; the oldest texts are forgotten first
_loaded_characters = 0


def remember_text(file: str, text: str) -> None:
    """Keep the text of a file the loader read, so that diagnostics can quote its lines."""
    global _loaded_characters
    key = os.path.abspath(file)
    _loaded_characters += len(text) - len(_LOADED.pop(key, ""))
    _LOADED[key] = text
    while _loaded_characters > _LOADED_CHARACTERS and len(_LOADED) > 1:
        _loaded_characters -= len(_LOADED.pop(next(iter(_LOADED))))


def loaded_text(file: str) -> str | None:
    """The text of `file` as the loader read it, or None if it did not read it (or forgot it)."""
    return _LOADED.get(os.path.abspath(file))


# --- text safe to print --------------------------------------------------------------------

# Control characters, and the invisible ones that reorder or hide text (bidi overrides, zero
# width, line and paragraph separators): a name read from a file must not end a line of the
# log, move the cursor, colour the terminal or disguise what is shown.
_HIDDEN_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"}
_MAYBE_HIDDEN = re.compile(r"[\x00-\x1f\x7f-\U0010ffff]")


def printable(text: str, keep_tabs: bool = False) -> str:
    """`text` with every control or invisible character written as an escape (`\\n`, `\\x1b`, `\\u202e`)."""
    def escaped(match: re.Match) -> str:
        char = match.group()
        if (char == "\t" and keep_tabs) or (char >= "\xa0" and unicodedata.category(char) not in _HIDDEN_CATEGORIES):
            return char
        return char.encode("unicode_escape").decode("ascii")

    return _MAYBE_HIDDEN.sub(escaped, text)


def inert(line: str) -> str:
    """A line of output that no CI log takes for a command.

    GitHub Actions runs a line that starts with `::` once leading spaces are trimmed
    (`::error::...`, `::add-mask::...`), and one that holds `##[command]` anywhere (the older
    form, `##[stop-commands]` among them). The first colon, or the second `#`, is written `\\x3a`
    or `\\x23`.
    """
    stripped = line.lstrip()
    if stripped.startswith("::"):
        line = line[: len(line) - len(stripped)] + "\\x3a" + stripped[1:]
    return line.replace("##[", "#\\x23[")
