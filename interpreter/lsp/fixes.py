"""Quick fixes: a diagnostic whose hint says "did you mean `stone`?" offers to write `stone` in place
of the misspelt word it points at. Plain data (lines and columns from 1); the server turns it
into LSP's code actions."""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

SUGGESTION = re.compile(r"did you mean `([^`]+)`\?")
QUOTED_NAME = re.compile(r"`([A-Za-z_][A-Za-z0-9_.]*)`")


@dataclass(frozen=True)
class Fix:
    title: str
    line: int  # of the misspelt word, from 1
    column: int
    width: int
    new_text: str


def did_you_mean_fix(text: str, message: str, line: int, column: int, width: int) -> Fix | None:
    """The fix of a diagnostic (its message with its hint, and where it points) in the file's `text`:
    the word the message quotes, found where the diagnostic points, written as the hint says."""
    suggestion = SUGGESTION.search(message)
    lines = text.split("\n")
    if not suggestion or not 0 < line <= len(lines):
        return None
    new = suggestion.group(1)
    quoted = [w for w in QUOTED_NAME.findall(message[: suggestion.start()]) if w != new]
    source = lines[line - 1]
    start, end = column - 1, max(column - 1 + width, column)
    spots = [(m.start(), m.group()) for w in quoted
             for m in re.finditer(rf"(?<!\w){re.escape(w)}(?!\w)", source) if start <= m.start() < end]
    if not spots:
        return None
    at, wrong = max(spots, key=lambda spot: difflib.SequenceMatcher(None, spot[1], new).ratio())
    return Fix(f"Change `{wrong}` to `{new}`", line, at + 1, len(wrong), new)
