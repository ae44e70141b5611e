"""Reading a ruleset's files, and YAML with ruamel.yaml (round-trip, so every node keeps its line and column).

Rules, content, scenario, bot and manifest files may come from strangers (a pull request checked
in CI). They are read by one function, `read_source`, which reads only regular files inside the
ruleset's project (`Boundary`), each at most `LIMITS.file_bytes`, and keeps each text so that
diagnostics quote lines from it and never open a file themselves. A YAML text is checked
(`check_yaml_shape`) before any loader sees it: nesting, values counting every repeat of an
alias, tags.
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError
from ruamel.yaml.events import (AliasEvent, MappingEndEvent, MappingStartEvent, ScalarEvent, SequenceEndEvent,
                                SequenceStartEvent)

from .diagnostics import Diagnostic, LudolexError, Position, remember_text
from .limits import LIMITS
from .resources import resource_path


# --- which files may be read ----------------------------------------------------------------

@dataclass(frozen=True)
class Boundary:
    """The folders a ruleset's files may be read from (resolved): its project, and the games
    shipped with ludolex (public, so that a variant may name a shipped game's rules or content).
    A path is inside when it is still inside once every link on it is followed."""

    roots: tuple[Path, ...]

    @classmethod
    def of_ruleset(cls, folder: Path) -> "Boundary":
        shipped = tuple(resource_path(part).resolve() for part in ("rulesets", "cards"))
        return cls((project_root(folder),) + shipped)

    def contains(self, path: Path) -> bool:
        """Whether `path` (resolved) is one of the roots or inside one."""
        return any(path == root or root in path.parents for root in self.roots)


def project_root(folder: Path) -> Path:
    """The project of a ruleset folder: the nearest folder at or above it that holds `.git`; with
    none, the folder that holds the ruleset's parent (the layout `<project>/rulesets/<game>`
    beside `<project>/cards/<game>`, which is also that of the wheel, under `interpreter/`).

    Found from the path as written, before links are followed, so that a ruleset folder that
    is itself a link out of the project is outside it."""
    absolute = Path(os.path.abspath(folder))
    for candidate in (absolute, *absolute.parents):
        if (candidate / ".git").exists():
            return candidate.resolve()
    return absolute.parent.parent.resolve()


def read_source(path: Path, boundary: Boundary | None = None) -> str:
    """The text of one file of a ruleset: the one way ludolex reads rules, content, manifest,
    scenario and bot files. Its newlines are `\\n`; it is kept for diagnostics to quote.

    A LudolexError (at line 1, column 1 of `path`) if the file leads outside the project
    (LX209), is not a regular file (LX210), is larger than `LIMITS.file_bytes` (LX211) or is
    not UTF-8 (LX201). No message shows what the file holds.
    """
    data = read_source_bytes(path, boundary)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        remember_text(str(path), _universal_newlines(data.decode("utf-8", errors="replace")))
        raise LudolexError([not_utf8(path, error)]) from None
    text = _universal_newlines(text)
    remember_text(str(path), text)
    return text


def read_source_bytes(path: Path, boundary: Boundary | None = None) -> bytes:
    """The bytes of one file of a ruleset, read as `read_source` says (without decoding them)."""
    boundary = boundary or Boundary.of_ruleset(path.parent)
    start = Position(str(path), 1, 1)

    def refuse(code: str, message: str, hint: str | None = None) -> LudolexError:
        return LudolexError([Diagnostic(code, message, start, hint=hint)])

    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError, ValueError):  # no such file, a link to nothing or in a loop, a NUL byte
        raise refuse("LX210", f"`{path.name}` cannot be read: no such file, or a link that leads nowhere") from None
    if not boundary.contains(real):
        raise refuse("LX209", f"`{path.name}` leads outside the project: only the project's own files are read",
                      hint=OUTSIDE_HINT)
    try:
        if not stat.S_ISREG(os.stat(real).st_mode):  # before opening: opening a device may act on it
            raise refuse("LX210", f"`{path.name}` is not a regular file (a folder, a FIFO, a device...): it is not read")
        flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
        with os.fdopen(os.open(real, flags), "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):  # changed since: refuse it all the same
                raise refuse("LX210", f"`{path.name}` is not a regular file: it is not read")
            data = file.read(LIMITS.file_bytes + 1)
    except OSError as error:
        raise refuse("LX210", f"`{path.name}` cannot be read: {error.strerror or error}") from None
    if len(data) > LIMITS.file_bytes:
        raise refuse("LX211", f"`{path.name}` is larger than {LIMITS.file_bytes:,} bytes (LUDOLEX_FILE_BYTES)",
                      hint="split it into smaller files, or raise the limit (docs/limits.md)")
    return data


OUTSIDE_HINT = ("the project is the nearest folder above the ruleset that holds `.git` "
                "(without one, the folder above `rulesets/`): see docs/limits.md")


def _universal_newlines(text: str) -> str:
    """`\\r\\n` and `\\r` as `\\n`, as Python's text files read them."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def not_utf8(path: Path, error: UnicodeDecodeError) -> Diagnostic:
    """LX201 at the first byte that is not UTF-8."""
    before = error.object[: error.start]
    line = before.count(b"\n") + 1
    column = len(before) - (before.rfind(b"\n") + 1) + 1
    return Diagnostic("LX201", f"this file is not UTF-8 text: byte 0x{error.object[error.start]:02x} here ({error.reason})",
                      Position(str(path), line, column), hint="save the file as UTF-8")


# --- YAML ----------------------------------------------------------------------------------

def read_yaml(path: Path, boundary: Boundary | None = None):
    """The document in `path`, each node with its line and column; a LudolexError at the offending line if it is
    not valid YAML, or not one ludolex reads (`check_yaml_shape`)."""
    text = read_source(path, boundary)
    check_yaml_shape(text, str(path))
    return _load_round_trip(text, str(path))


def read_yaml_fast(path: Path, boundary: Boundary | None = None):
    """The document as plain data, parsed by the C parser when it is installed (no positions).

    For files that are usually right: on any problem, the text is read again by the round-trip
    loader, whose nodes know their line and column, to report it.
    """
    text = read_source(path, boundary)
    check_yaml_shape(text, str(path))
    try:
        return YAML(typ="safe", pure=False).load(text)
    except Exception:
        return _load_round_trip(text, str(path))


def _load_round_trip(text: str, file: str):
    try:
        return YAML(typ="rt").load(text)
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        position = Position(file, mark.line + 1, mark.column + 1) if mark else Position(file, 1, 1)
        if isinstance(error, DuplicateKeyError):
            key = (error.problem or "").split('"')[1] if '"' in (error.problem or "") else "a key"
            raise LudolexError([Diagnostic("LX208", f"key `{key}` appears twice in this mapping", position)])
        raise LudolexError([Diagnostic("LX202", f"invalid YAML: {error.problem or error.context}", position)])
    except Exception as error:  # ruamel raises a few unmarked errors
        raise LudolexError([Diagnostic("LX202", f"invalid YAML: {error}", Position(file, 1, 1))])


STANDARD_TAGS = {f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp")}
_OPEN = -1  # the size of an anchored collection not yet closed


def check_yaml_shape(text: str, file: str) -> None:
    """Refuse, before any loader builds it, a YAML text that could exhaust the loaders or what reads
    their documents: lists and mappings nested more than `LIMITS.yaml_depth` deep (the C
    loader recurses once per level, and crashes past some thousands), more than
    `LIMITS.yaml_values` values once every alias is expanded ("billion laughs"; a merge key
    `<<: *a` copies what `*a` names, so it is counted as well), a value that contains itself,
    or an explicit tag (`!foo`, `!!python/...`). The parser's events are read one by one
    (the parser does not recurse), in C when it is installed. A text the parser rejects is
    left to the loader, which reports the same error.
    """
    values = 0  # in the whole text, every alias counted as the values it names
    open_collections: list[list] = []  # [values in it so far, itself included; its anchor]
    sizes: dict[str, int] = {}  # anchor -> values in the node it names (_OPEN while that node is open)

    def refuse(code: str, event, message: str, hint: str | None = None) -> LudolexError:
        mark = event.start_mark
        return LudolexError([Diagnostic(code, message, Position(file, mark.line + 1, mark.column + 1), hint=hint)])

    try:
        for event in YAML(typ="safe", pure=False).parse(text):
            kind = type(event)
            if kind is MappingEndEvent or kind is SequenceEndEvent:
                size, anchor = open_collections.pop()
                if anchor is not None:
                    sizes[anchor] = size
                if open_collections:
                    open_collections[-1][0] += size
                continue
            if kind is AliasEvent:
                size = sizes.get(event.anchor, 1)  # an unknown anchor: the loader reports it
                if size == _OPEN:
                    raise refuse("LX202", event, f"invalid YAML: the alias `*{event.anchor}` is inside the value it "
                                 "names (a value that contains itself)")
            elif kind is ScalarEvent or kind is MappingStartEvent or kind is SequenceStartEvent:
                size = 1
                if event.tag is not None and event.tag not in STANDARD_TAGS:
                    tag = event.tag.replace("tag:yaml.org,2002:", "!!")
                    raise refuse("LX202", event, f"YAML tags such as `{tag}` are not allowed in ludolex files",
                                 hint="remove the tag: write plain values")
                if event.anchor is not None:
                    sizes[event.anchor] = 1 if kind is ScalarEvent else _OPEN
            else:
                continue
            values += size
            if values > LIMITS.yaml_values:
                raise refuse("LX211", event, f"YAML with too many values: more than {LIMITS.yaml_values:,} once every "
                             "alias is expanded (LUDOLEX_YAML_VALUES)",
                             hint="an alias (`*name`) repeats the whole value it names: write the values out, or fewer")
            if kind is ScalarEvent or kind is AliasEvent:
                if open_collections:
                    open_collections[-1][0] += size
            elif len(open_collections) == LIMITS.yaml_depth:
                raise refuse("LX211", event, f"YAML nested too deeply: more than {LIMITS.yaml_depth} lists and "
                             "mappings inside each other (LUDOLEX_YAML_DEPTH)", hint="flatten the data (docs/limits.md)")
            else:
                open_collections.append([1, event.anchor])
    except LudolexError:
        raise
    except Exception:  # the parser rejects the text (a syntax error, a NUL byte...): the loader reports it
        return


class Locator:
    """Positions in a YAML file, read (slowly, with positions) only when one is asked for."""

    def __init__(self, path: Path, boundary: Boundary | None = None):
        self.path, self.boundary, self._document = path, boundary, None

    def __call__(self, *steps) -> Position:
        if self._document is None:
            self._document = read_yaml(self.path, self.boundary)
        return position_of(self._document, steps, str(self.path))


def position_of(document, path: tuple, file: str, value: bool = False) -> Position:
    """The position of the node at `path` (keys and indexes), or of its nearest ancestor.

    `value`: for a key's value, point at the value rather than at the key.
    """
    node, line, column = document, 0, 0
    for number, step in enumerate(path):
        try:
            if isinstance(node, CommentedMap) and step in node:
                last = number == len(path) - 1
                line, column = node.lc.value(step) if (value and last) else node.lc.key(step)
                node = node[step]
            elif isinstance(node, CommentedSeq) and isinstance(step, int) and step < len(node):
                line, column = node.lc.item(step)
                node = node[step]
            else:
                break
        except (TypeError, KeyError, AttributeError, IndexError):  # a merged key, a tagged node: no position
            break
    return Position(file, line + 1, column + 1)


def value_position(document: CommentedMap, key: str, file: str) -> Position:
    return position_of(document, (key,), file, value=True)
