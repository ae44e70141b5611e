"""The outline of a rules file (document symbols): its declarations, each from its first line to its
last, found by their first word as the parser finds them (`declaration_chunks`), so that a file
with syntax errors still has one. Plain data (lines and columns from 1)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from interpreter.language.parser import declaration_chunks

HEADER = re.compile(r"(with faction|instead of|faction|event|option|zone|variable|property|function|modify|override"
                    r"|procedure|anytime|when|always|setup|play|public|private|hidden)\b\s*")
NAMING = {"faction", "event", "option", "zone", "variable", "property", "function", "procedure"}  # then the name they give
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
CONDITION = re.compile(r"\s(?:=|by|if|as|precedence)\s")  # what a rule's first line says after what it is about
LONGEST = 60  # characters of a rule's first line shown as its name


@dataclass(frozen=True)
class Symbol:
    name: str  # the name a declaration gives, or what a rule is about (`when moved(c, from, to)`)
    what: str  # its first word: "function", "when", "with faction"...
    line: int  # its first line
    end_line: int  # its last line (not blank, not a comment)
    column: int  # where its name (or first word) starts
    width: int
    children: tuple[Symbol, ...] = ()  # the declarations of a `with faction` block


def outline(text: str) -> list[Symbol]:
    lines = text.split("\n")
    found = (_symbol(lines, start, end) for start, end, _ in declaration_chunks(lines))
    return [symbol for symbol in found if symbol]


def _symbol(lines: list[str], start: int, end: int) -> Symbol | None:
    """The declaration at lines[start:end] (from 0), its first line starting at its indentation."""
    indent = len(lines[start]) - len(lines[start].lstrip())
    header = HEADER.match(lines[start], indent)
    if not header:
        return None
    what = header.group(1)
    last = max(n for n in range(start, end) if lines[n].strip() and not lines[n].lstrip().startswith("#"))
    name = NAME.match(lines[start], header.end()) if what in NAMING or what == "with faction" else None
    if name:
        title, column, width = name.group(), name.start(), len(name.group())
    else:
        title = CONDITION.split(lines[start][indent:].split("#")[0], 1)[0].strip().rstrip(":").strip()
        title = title if len(title) <= LONGEST else title[: LONGEST - 3] + "..."
        column, width = indent, len(what)
    children = tuple(_inner(lines, start + 1, last + 1)) if what == "with faction" else ()
    return Symbol(title, what, start + 1, last + 1, column + 1, width, children)


def _inner(lines: list[str], start: int, end: int):
    """The declarations of a block's lines: those at the indentation of its first line."""
    code = [n for n in range(start, end) if lines[n].strip() and not lines[n].lstrip().startswith("#")]
    if not code:
        return
    indent = len(lines[code[0]]) - len(lines[code[0]].lstrip())
    starts = [n for n in code if len(lines[n]) - len(lines[n].lstrip()) == indent]
    for first, after in zip(starts, starts[1:] + [end]):
        symbol = _symbol(lines, first, after)
        if symbol:
            yield symbol
