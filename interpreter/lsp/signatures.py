"""Signature help: inside the brackets of a call (`activate(t, |`), the function, procedure, event or
built-in called, its parameters and the one being written. Plain data; the server turns it into
LSP's types."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from interpreter.language import declarations as d
from interpreter.language.builtins import BUILTINS
from interpreter.language.grammar import reserved_words
from interpreter.lsp.answers import describe
from interpreter.lsp.project import Project
from interpreter.lsp.reference import builtin_lines

CALLED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\.[A-Za-z_][A-Za-z0-9_]*)?\s*$")  # `name` or `faction.name` before `(`
DECLARED = (d.FunctionDecl, d.ProcedureDecl, d.EventDecl)


@dataclass(frozen=True)
class Signature:
    label: str  # `activate(t)`
    parameters: tuple[tuple[int, int], ...]  # where each parameter is in the label
    active: int  # the parameter being written, from 0
    documentation: str  # Markdown


def signature_at(project: Project, file: Path, text: str, line: int, column: int) -> Signature | None:
    """The call whose brackets hold (line, column), in the declaration the place is in."""
    lines = text.split("\n")
    if not 0 < line <= len(lines):
        return None
    first = next((n for n in range(line - 1, -1, -1) if lines[n][:1] not in ("", " ", "\t", "#")), 0)
    before = [source.split("#")[0] for source in lines[first: line - 1]] + [lines[line - 1][: column - 1]]
    opened = _open_bracket("\n".join(before))
    if opened is None:
        return None
    at, commas = opened
    written = "\n".join(before)[:at]
    called = CALLED.search(written)
    if not called or called.group(1) in reserved_words() and not called.group(2):
        return None
    if not called.group(2) and called.group(1) in BUILTINS:
        return _builtin(called.group(1), commas)
    declaration = _declaration(project, file, called.group(0).strip())
    if declaration is None:
        return None
    return _signature(called.group(0).strip(), declaration.params, commas, describe(project, declaration.name))


def _open_bracket(text: str) -> tuple[int, int] | None:
    """Where the innermost `(` still open at the end of `text` is, and the commas written inside it since."""
    depth, commas = 0, 0
    for at in range(len(text) - 1, -1, -1):
        char = text[at]
        if char in ")]":
            depth += 1
        elif char in "([":
            if depth == 0:
                return (at, commas) if char == "(" else None
            depth -= 1
        elif char == "," and depth == 0:
            commas += 1
    return None


def _declaration(project: Project, file: Path, written: str):
    """The declaration a call names: `written` as the game knows it, or, in a faction's file, that
    faction's own (`recruit` for `red.recruit`)."""
    found = [x for x in (project.stages.declarations if project.stages else ()) if isinstance(x, DECLARED)]
    own = (x for x in found if x.name.endswith("." + written) and Path(x.pos.file).resolve() == file.resolve())
    return next((x for x in found if x.name == written), None) or next(own, None)


def _builtin(name: str, commas: int) -> Signature:
    """From the reference's line of the built-in: "`top(zone)`: the top component of a zone"."""
    described = builtin_lines()[name]
    found = re.match(r"`[a-z_]+\((.*?)\)`: (.*)", described, re.S)
    params = [p.strip() for p in found.group(1).split(",")] if found and found.group(1).strip() else []
    return _signature(name, params, commas, found.group(2) if found else described)


def _signature(name: str, params: list[str], commas: int, documentation: str) -> Signature:
    label, spans = f"{name}(", []
    for i, param in enumerate(params):
        label += ", " if i else ""
        spans.append((len(label), len(label) + len(param)))
        label += param
    return Signature(label + ")", tuple(spans), min(commas, max(len(params) - 1, 0)), documentation)
