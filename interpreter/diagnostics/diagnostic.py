"""A problem at a file, a line and a column, shown with the source line and a caret."""
from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

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
        found = source_line(text, self.position.line) if self.position and text is not None else None
        if found:
            line, column = _excerpt(text, *found, self.position.column)
            before = inert(printable(line[: column - 1], keep_tabs=True))
            lines.append(f"    {printable(line, keep_tabs=True)}")
            lines.append("    " + " " * len(before) + "^" * max(1, min(self.position.width, QUOTED_CHARACTERS)))
        if self.hint:
            lines.append(f"    hint: {printable(self.hint)}")
        return "\n".join(inert(line) for line in lines)


QUOTED_CHARACTERS = 2_000  # the most of a source line shown under a diagnostic


def _excerpt(text: str, start: int, end: int, column: int) -> tuple[str, int]:
    """The part of the line `text[start:end]` to show, and where `column` falls in it: the whole
    line, or a very long one cut around the column (marked `...`), so that the output stays in
    proportion. Only the part shown is copied: a file of one long line may have many diagnostics."""
    length = end - start
    if length <= QUOTED_CHARACTERS:
        return text[start:end], column
    first = max(0, min(column - 1 - QUOTED_CHARACTERS // 2, length - QUOTED_CHARACTERS))
    before, after = "..." if first else "", "..." if first + QUOTED_CHARACTERS < length else ""
    return before + text[start + first:start + first + QUOTED_CHARACTERS] + after, column - first + len(before)


def source_line(text: str, number: int) -> tuple[int, int] | None:
    """Where line `number` (from 1) of `text` starts and ends (a carriage return at its end left out),
    or None if it has no such line. Lines as the parsers count them: split at newlines only (not at
    form feeds, line separators...)."""
    starts = _line_starts(text)
    if not 0 < number <= len(starts):
        return None
    start = starts[number - 1]
    end = starts[number] - 1 if number < len(starts) else len(text) - text.endswith("\n")
    return start, end - (end > start and text[end - 1] == "\r")


@lru_cache(maxsize=16)
def _line_starts(text: str) -> tuple[int, ...]:
    """Where each line of `text` starts, found once per text (a file may have 20,000 diagnostics); a
    last newline ends the last line, it starts no other."""
    if not text:
        return ()
    return (0, *(newline.end() for newline in _NEWLINE.finditer(text, 0, len(text) - text.endswith("\n"))))


_NEWLINE = re.compile("\n")


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
