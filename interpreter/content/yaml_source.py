"""YAML read with ruamel.yaml (round-trip, so every node keeps its line and column), and where a value is.

A YAML text is read through `read_source` (the project's files only), then checked
(`check_yaml_shape`) before any loader sees it: nesting, values counting every repeat of an
alias, tags.
"""
from __future__ import annotations

import re
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError
from ruamel.yaml.events import (
    AliasEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

from interpreter.diagnostics.diagnostic import Diagnostic, Position, loaded_text
from interpreter.diagnostics.errors import LudolexError
from interpreter.safety.files import Boundary, read_source
from interpreter.safety.limits import LIMITS

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
        message, at_context, hint = _in_plain_words(error.problem or "", error.context or "")
        if at_context and error.context_mark:
            position = Position(file, error.context_mark.line + 1, error.context_mark.column + 1)
        raise LudolexError([Diagnostic("LX202", message, position, hint=hint)])
    except Exception as error:  # ruamel raises a few unmarked errors
        raise LudolexError([Diagnostic("LX202", f"invalid YAML: {error}", Position(file, 1, 1))])


# ruamel's problems as a person would say them: (problem, context) -> (message, whether the
# context's place is where the mistake is, hint). The first pattern that matches wins.
YAML_PROBLEMS = [
    (r"expected ',' or '\]'", "flow sequence", "this `[` list is never closed", True,
     "close it with `]` on the same line, or separate its items with `,`"),
    (r"expected ',' or '\}'", "flow mapping", "this `{` mapping is never closed", True,
     "close it with `}` on the same line, or separate its entries with `,`"),
    (r"could not find expected ':'", "simple key", "this line has no `:` after its key", True, "write `key: value`"),
    (r"end of stream", "quoted scalar", "this quoted text is never closed", True, "end it with the same quote it opened with"),
    (r"expected <block end>", "", "this line is indented like no key or item above it", False,
     "indent it exactly like the lines of the mapping or list it belongs to"),
    (r"did not find expected key", "", "this line is indented like no key above it", False,
     "indent it exactly like the keys of its mapping"),
    (r"did not find expected '-' indicator", "", "this line is indented like no item of the list above it", False,
     "start each item of a list with `- `, all indented alike"),
    (r"character '\\t'", "", "a tab: YAML indents with spaces only", False, "replace the tab with spaces"),
    (r"mapping values are not allowed here", "", "a `:` where a plain value was expected", False,
     "is the line before missing its `:`, or this line indented too far? A text holding `: ` needs quotes"),
    (r"unknown escape character", "", "an unknown escape (`\\`) in a double-quoted text", False,
     "write `\\\\` for a backslash, or quote the text with single quotes"),
]


def _in_plain_words(problem: str, context: str) -> tuple[str, bool, str | None]:
    for pattern, context_word, message, at_context, hint in YAML_PROBLEMS:
        if re.search(pattern, problem) and context_word in context:
            return message, at_context, hint
    return f"invalid YAML: {problem or context}", False, None


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
        return position_of(self.document, steps, str(self.path))

    @property
    def document(self):
        if self._document is None:
            self._document = read_yaml(self.path, self.boundary)
        return self._document

    def text(self, *steps) -> tuple[Position, bool]:
        """`text_place` of the text at `steps`."""
        return text_place(self.document, steps, str(self.path))


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


def text_place(document, path: tuple, file: str) -> tuple[Position, bool]:
    """Where the text of the value at `path` starts, and whether it is a block scalar (`|`, `|-`,
    `>`), whose every line is indented: past an opening quote, or for a block on its first line that
    is not empty, at its indentation (the empty lines a block starts with are part of its text:
    leave them out of it)."""
    start = position_of(document, path, file, value=True)
    lines = (loaded_text(file) or "").splitlines()
    opening = lines[start.line - 1][start.column - 1:start.column] if 0 < start.line <= len(lines) else ""
    if opening not in ("|", ">"):
        return Position(file, start.line, start.column + (opening in ("'", '"'))), False
    line = start.line + 1
    while line <= len(lines) and not lines[line - 1].strip():
        line += 1
    text = lines[line - 1] if line <= len(lines) else ""
    return Position(file, line, len(text) - len(text.lstrip()) + 1), True


def value_position(document: CommentedMap, key: str, file: str) -> Position:
    return position_of(document, (key,), file, value=True)
