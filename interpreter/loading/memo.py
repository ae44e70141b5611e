"""What loading the same texts again would find, kept from an earlier loading: the language server
loads the game at every keystroke, and a scenario file's fixtures load it again. Kept: each
declaration of a rules file as parsed, each rules file as prepared for checking (faction names
qualified, seats' copies made), and the content.

Only a result with no diagnostic is kept: one with diagnostics spent budgets (hints, "did you
mean") that a later loading must spend again, in the same order. The limits in force (`LIMITS`)
are part of each key: a smaller limit may refuse the same text. A result is kept pickled and given
back unpickled, a copy of its own: compiling writes into the rules' tree (types, qualified names),
and the stages after `read_content` into the content.
"""
from __future__ import annotations

import hashlib
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from interpreter.content.load import content_files, load_content
from interpreter.content.models import Content
from interpreter.diagnostics.diagnostic import Diagnostic, loaded_text
from interpreter.diagnostics.errors import LudolexError
from interpreter.language.declarations import FactionDecl
from interpreter.language.parser import HintBudget, declaration_chunks, parse_recovering
from interpreter.safety.files import Boundary, read_source
from interpreter.safety.limits import LIMITS

_DECLARATIONS: dict[tuple, tuple[bytes, frozenset[str]]] = {}  # (file, line, text, limits) -> (parsed, factions)
_PREPARED: dict[bytes, bytes] = {}  # digest of (file, text, factions present, players, seats, limits) -> declarations
_CONTENT: dict[bytes, bytes] = {}  # digest of (limits, places, (file, text)...) -> the content
MOST_DECLARATIONS = 20_000  # a few states of every declaration of a large game
MOST_FILES = 400  # a few states of every rules file
MOST_CONTENTS = 4  # the content of a game and of its variants, checked side by side in an editor
MOST_LINES = 2_000  # of a file parsed declaration by declaration (each costs the lines above it); a longer one whole


@dataclass
class ParsedRules:
    """A rules file as `parse_recovering` parses it, declaration by declaration: its syntax errors,
    the names its lost declarations gave, the factions it declares, and its declarations
    (`declarations()`, unpickled when asked: a prepared file kept needs none)."""
    diagnostics: list[Diagnostic]
    lost_names: set[str]
    factions: set[str]
    _parts: list  # per declaration, its declarations, or their pickle if kept from an earlier parse

    def declarations(self) -> list:
        return [d for part in self._parts for d in (pickle.loads(part) if isinstance(part, bytes) else part)]


def parse_rules_text(text: str, file: str, budget: HintBudget) -> ParsedRules:
    """`parse_recovering(text, file, budget)`; a declaration parsed clean earlier, with the same text
    on the same line, is not parsed again (`parse_recovering` parses each on its own)."""
    lines = text.split("\n")
    if len(lines) > MOST_LINES:
        found, diagnostics, lost = parse_recovering(text, file, budget)
        return ParsedRules(diagnostics, lost, {d.name for d in found if isinstance(d, FactionDecl)}, [found])
    parsed = ParsedRules([], set(), set(), [])
    for start, _, chunk in declaration_chunks(lines):
        key = (file, start, chunk, _limits())
        kept = _DECLARATIONS.get(key)
        if kept is None:
            found, diagnostics, lost = parse_recovering("\n" * start + chunk, file, budget)  # at its own line
            factions = frozenset(d.name for d in found if isinstance(d, FactionDecl))
            if diagnostics:
                parsed.diagnostics += diagnostics
                parsed.lost_names |= lost
                parsed.factions |= factions
                parsed._parts.append(found)
                continue
            _keep(_DECLARATIONS, key, _pickled(found), MOST_DECLARATIONS, factions)
            kept = (found, factions)
        parsed._parts.append(kept[0])
        parsed.factions |= kept[1]
    return parsed


def prepared_rules(key: tuple, prepare: Callable[[], tuple[list, list[Diagnostic]]]) -> tuple[list, list[Diagnostic]]:
    """`prepare()` (declarations, diagnostics), or a copy of what it gave for the same `key` with no diagnostic."""
    key = _digest((*key, _limits()))
    kept = _PREPARED.get(key)
    if kept is not None:
        return pickle.loads(kept), []
    declarations, diagnostics = prepare()
    if not diagnostics:
        _keep(_PREPARED, key, _pickled(declarations), MOST_FILES)
    return declarations, diagnostics


def read_content_files(places: list[Path], boundary: Boundary) -> tuple[Content | None, list[Diagnostic]]:
    """`load_content(places, boundary)`, from an earlier loading of the same files with the same texts."""
    try:
        texts = [(f, read_source(f, boundary)) for f in content_files(places)]
    except LudolexError:  # load_content reports it
        return load_content(places, boundary)
    key = _digest((_limits(), tuple(places), *texts))
    kept = _CONTENT.get(key)
    if kept is not None:
        return pickle.loads(kept), []
    content, diagnostics = load_content(places, boundary)
    if content is not None and not diagnostics and all(loaded_text(str(f)) == text for f, text in texts):
        _keep(_CONTENT, key, _pickled(content), MOST_CONTENTS)
    return content, diagnostics


def _pickled(value) -> bytes | None:
    try:
        return pickle.dumps(value)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):  # kept only if it can be copied
        return None


def _keep(table: dict, key, value: bytes | None, most: int, *more) -> None:
    """`value` (with `more`) kept under `key`, the oldest forgotten past `most`; nothing if it is None."""
    if value is None:
        return
    while len(table) >= most:
        table.pop(next(iter(table)))
    table[key] = (value, *more) if more else value


def _digest(key: tuple) -> bytes:
    """A short key for one that holds whole texts (of strings, numbers, paths and tuples of them)."""
    return hashlib.sha256(repr(key).encode()).digest()


def _limits() -> tuple:
    return tuple(vars(LIMITS).values())
