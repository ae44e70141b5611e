"""YAML files read with ruamel.yaml (round-trip, so every node keeps its line and column)."""
from __future__ import annotations

import re
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError

from .diagnostics import Diagnostic, LudolexError, Position


def read_yaml(path: Path):
    """The document in `path`; a LudolexError at the offending line if it is not valid YAML."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise LudolexError([not_utf8(path, error)]) from None
    try:
        document = YAML(typ="rt").load(text)
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        position = Position(str(path), mark.line + 1, mark.column + 1) if mark else Position(str(path), 1, 1)
        if isinstance(error, DuplicateKeyError):
            key = (error.problem or "").split('"')[1] if '"' in (error.problem or "") else "a key"
            raise LudolexError([Diagnostic("LX208", f"key `{key}` appears twice in this mapping", position)])
        raise LudolexError([Diagnostic("LX202", f"invalid YAML: {error.problem or error.context}", position)])
    except Exception as error:  # ruamel raises a few unmarked errors (bad tags, recursion)
        raise LudolexError([Diagnostic("LX202", f"invalid YAML: {error}", Position(str(path), 1, 1))])
    tagged = _first_tag(document)
    if tagged is not None:
        tag, steps = tagged
        raise LudolexError([Diagnostic("LX202", f"YAML tags such as `{tag}` are not allowed in ludolex files",
                                       position_of(document, steps, str(path)), hint="remove the tag: write plain values")])
    return document


STANDARD_TAGS = {f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp")}


def _first_tag(document) -> tuple[str, tuple] | None:
    """The first explicit tag (`!foo`, `!!python/...`) in the document, and where it is."""
    stack, seen = [(document, ())], set()
    while stack:
        node, steps = stack.pop()
        if isinstance(node, (dict, list)):
            if id(node) in seen:  # an alias of a node already looked at ("billion laughs")
                continue
            seen.add(id(node))
        tag = getattr(getattr(node, "tag", None), "value", None)
        if tag and tag not in STANDARD_TAGS:
            return tag.replace("tag:yaml.org,2002:", "!!"), steps
        if isinstance(node, dict):
            stack.extend((value, steps + (key,)) for key, value in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((value, steps + (i,)) for i, value in reversed(list(enumerate(node))))
    return None


def not_utf8(path: Path, error: UnicodeDecodeError) -> Diagnostic:
    """LX201 at the first byte that is not UTF-8."""
    before = error.object[: error.start]
    line = before.count(b"\n") + 1
    column = len(before) - (before.rfind(b"\n") + 1) + 1
    return Diagnostic("LX201", f"this file is not UTF-8 text: byte 0x{error.object[error.start]:02x} here ({error.reason})",
                      Position(str(path), line, column), hint="save the file as UTF-8")


def read_yaml_fast(path: Path):
    """The document as plain data, parsed by the C parser when it is installed (no positions).

    For files that are usually right: on any problem, read them again with `read_yaml`, whose
    nodes know their line and column, to report it.
    """
    data = path.read_bytes()
    if _MAY_HAVE_TAG.search(data):  # tags are refused: let the careful reader say where
        return read_yaml(path)
    try:
        return YAML(typ="safe", pure=False).load(data)
    except Exception:
        return read_yaml(path)


_MAY_HAVE_TAG = re.compile(rb"(^|[\s\[{,:-])!", re.MULTILINE)


class Locator:
    """Positions in a YAML file, read (slowly, with positions) only when one is asked for."""

    def __init__(self, path: Path):
        self.path, self._document = path, None

    def __call__(self, *steps) -> Position:
        if self._document is None:
            self._document = read_yaml(self.path)
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
