"""A variant: a game written as another game (its base) and what it changes, in its manifest:

    name: cheaper_cards
    base: mygame                              # a game's name, or its folder (from this one)
    overrides:                                # a kind, then each property and its new value
      a_card: {cost: 2}
    add: [winter.yaml]                        # files of this folder added to the base's (.rules, .yaml)
    remove: [a_faction.rules]                 # files of the base left out (by path, or by name)

The variant plays the base's rules and content (and any `*.rules` of its own folder), with the files
added and removed and the overrides applied after the content is read; a variant of a variant
applies its base's changes first. Each mistake is a diagnostic at the manifest's line and column.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from interpreter.content.models import Content, PieceKind
from interpreter.content.yaml_source import position_of
from interpreter.diagnostics.diagnostic import Diagnostic, Position
from interpreter.diagnostics.errors import LudolexError
from interpreter.diagnostics.suggestions import did_you_mean
from interpreter.safety.files import OUTSIDE_HINT, Boundary, resource_path

MANIFEST = "game.yaml"
VARIANT_KEYS = ("base", "overrides", "add", "remove")
FIELDS = ("count", "per_player", "traits", "starts_in", "back", "known", "only_if")  # a kind's own, overridable
ADDED_SUFFIXES = (".rules", ".yaml")


@dataclass(frozen=True)
class Override:
    """One property (or field) of one kind, given a new value by a variant's manifest."""

    kind: str
    key: str
    value: object  # plain data (lists, dicts, scalars)
    at_kind: Position
    at_key: Position
    at_value: Position


def manifest_problems(manifest, document, file: str) -> list[Diagnostic]:
    """What a manifest may not say: a variant's own `content:` or `rules:` (its base gives them), a
    variant's keys without a base, no content at all."""
    if manifest.base is not None:
        return [Diagnostic("LX203", f"`{key}` in a variant: it plays its base's {key}; name files of its own in "
                                    "`add:`", position_of(document, (key,), file))
                for key in ("content", "rules") if key in document]
    problems = [Diagnostic("LX203", f"`{key}` is for a variant: name the game it changes with `base:`",
                           position_of(document, (key,), file)) for key in VARIANT_KEYS[1:] if key in document]
    if manifest.content is None:
        problems.append(Diagnostic("LX204", "missing field `content` in the file", Position(file, 1, 1),
                                   hint="or `base: GAME` for a variant of another game"))
    return problems


def base_folder(manifest, document, directory: Path, boundary: Boundary, seen: frozenset[Path]) -> Path:
    """The folder of a variant's base: a folder from the variant's (`../root`), else a game beside it
    (`rulesets/root` beside `rulesets/mine`), else a game shipped with ludolex. A LudolexError if there
    is none, it is outside the project, or it is the variant itself or a variant of it."""
    where = position_of(document, ("base",), str(directory / MANIFEST), value=True)
    name = manifest.base
    candidates = [directory / name]
    if "/" not in name:  # a name: a game beside the variant, or a shipped one
        candidates += [directory.parent / name, resource_path("rulesets") / name]
    for candidate in candidates:
        try:
            if not (candidate / MANIFEST).is_file():
                continue
            found = candidate.resolve()
        except (OSError, ValueError):
            continue
        if not boundary.may_name(found):
            raise LudolexError([Diagnostic("LX209", f"base `{name}` is outside the project: only the project's own "
                                                    "files are read", where, hint=OUTSIDE_HINT)])
        if found in seen or found == directory.resolve():
            raise LudolexError([Diagnostic("LX212", f"base `{name}` is this variant itself, or a variant of it: "
                                                    "a variant's bases must end with a game that has content", where)])
        return found
    known = [p.name for folder in (directory.parent, resource_path("rulesets")) if folder.is_dir()
             for p in folder.iterdir() if (p / MANIFEST).is_file()]
    raise LudolexError([Diagnostic("LX001", f"no base game `{name}`: neither a folder from this one, nor a game "
                                            "beside it or shipped with ludolex", where,
                                   hint=did_you_mean(name, known))])


def variant_files(manifest, document, directory: Path, boundary: Boundary, base: str, rules: list[Path],
                  content: list[Path]) -> tuple[list[Path], list[Path], list[Diagnostic]]:
    """The base's rules and content files (resolved), without those `remove` names and with those `add`
    names; and every problem found with either list."""
    file = str(directory / MANIFEST)
    problems: list[Diagnostic] = []
    removed = set()
    for i, entry in enumerate(manifest.remove or []):
        where = position_of(document, ("remove", i), file)
        match = _base_file(entry, directory, rules + content)
        if isinstance(match, Path):
            removed.add(match)
        else:
            problems.append(Diagnostic("LX206", f"`{entry}` in `remove` is {match} of the base game `{base}`", where,
                                       hint=did_you_mean(Path(entry).name, [p.name for p in rules + content])))
    rules, content = [p for p in rules if p not in removed], [p for p in content if p not in removed]
    for i, entry in enumerate(manifest.add or []):
        where = position_of(document, ("add", i), file)
        try:
            path = (directory / entry).resolve()
            inside, exists = boundary.may_name(path), path.is_file()
        except (OSError, ValueError, RuntimeError):
            inside, exists = True, False
        if not inside:
            problems.append(Diagnostic("LX209", f"added file `{entry}` is outside the project: only the project's "
                                                "own files are read", where, hint=OUTSIDE_HINT))
        elif not exists or path.suffix not in ADDED_SUFFIXES:
            what = "not found" if not exists else "neither rules (`.rules`) nor content (`.yaml`)"
            problems.append(Diagnostic("LX206", f"added file `{entry}` {what}", where))
        elif path not in rules + content:
            (rules if path.suffix == ".rules" else content).append(path)
    return rules, content, problems


def _base_file(entry: str, directory: Path, files: list[Path]) -> Path | str:
    """The base's file that `entry` names: by its path from the variant's folder, or by its name alone
    when no other file of the base has it; else what is wrong, in words."""
    try:
        path = (directory / entry).resolve()
    except (OSError, ValueError, RuntimeError):
        path = None
    if path in files:
        return path
    named = [f for f in files if f.name == entry]
    if len(named) == 1:
        return named[0]
    return f"the name of {len(named)} files" if named else "not a file"


def read_overrides(manifest, document, file: str) -> list[Override]:
    """Each override of the manifest, in order, with where its kind, key and value are written."""
    found = []
    for kind, changes in (manifest.overrides or {}).items():
        for key, value in changes.items():
            found.append(Override(kind, key, _plain(value), position_of(document, ("overrides", kind), file),
                                  position_of(document, ("overrides", kind, key), file),
                                  position_of(document, ("overrides", kind, key), file, value=True)))
    return found


def _plain(value):
    """ruamel's lists, maps and scalars as Python's own (a YAML `2` stays an int, `yes` a text)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    for kind in (int, float, str):
        if isinstance(value, kind):
            return kind(value)
    return value


def apply_overrides(content: Content, overrides: list[Override]) -> list[Diagnostic]:
    """Give each overridden kind its new values, in order; every override that names no kind, no property
    of its kind, or a value of another type than the base's, is a diagnostic (and changes nothing)."""
    problems = []
    for override in overrides:
        kind = content.pieces.get(override.kind)
        if kind is None:
            if override.kind not in content.lost_kinds:  # a kind with an error of its own: reported already
                problems.append(Diagnostic("LX302", f"`{override.kind}` in `overrides` is not a kind of the game",
                                           override.at_kind, hint=did_you_mean(override.kind, content.pieces)))
            continue
        changed, problem = _changed(override, kind)
        if problem:
            problems.append(problem)
            continue
        content.pieces[override.kind] = changed
        if override.key in kind.properties:
            content.positions[("pieces", override.kind, "properties", override.key)] = override.at_value
        else:
            content.positions[("pieces", override.kind, override.key)] = override.at_value
    return problems


def _changed(override: Override, kind: PieceKind) -> tuple[PieceKind | None, Diagnostic | None]:
    name, key, value = override.kind, override.key, override.value
    if key in kind.properties:
        before = kind.properties[key]
        if not _same_type(before, value):
            return None, Diagnostic("LX205", f"`{key}` of `{name}` is {_type_of(before)} ({flow_text(before)}); "
                                             f"{flow_text(value)} is {_type_of(value)}", override.at_value)
        return kind.model_copy(update={"properties": {**kind.properties, key: value}}), None
    if key in FIELDS:
        try:
            return PieceKind.model_validate({**kind.model_dump(exclude_unset=True), key: value}), None
        except ValidationError as error:
            message = error.errors()[0]["msg"].removeprefix("Value error, ")
            return None, Diagnostic("LX205", f"`{key}` of `{name}`: {message}", override.at_value)
    properties = ", ".join(f"`{p}`" for p in kind.properties) or "none"
    return None, Diagnostic("LX308", f"`{name}` has no property `{key}` (its properties: {properties}; its fields "
                                     f"that may change: {', '.join(FIELDS)})", override.at_key,
                            hint=did_you_mean(key, [*kind.properties, *FIELDS]))


TYPE_NAMES = {bool: ("a yes or no", "yes-or-no values"), int: ("a whole number", "whole numbers"),
              str: ("a text", "texts"), float: ("a decimal number", "decimal numbers"), dict: ("a mapping", "mappings"),
              type(None): ("nothing", "nothings")}


def _type_of(value) -> str:
    """`a whole number`, `a list of texts`..."""
    if isinstance(value, list):
        kinds = sorted({TYPE_NAMES.get(type(v), ("", "values"))[1] for v in value})
        return f"a list of {' and '.join(kinds)}" if kinds else "an empty list"
    return TYPE_NAMES.get(type(value), (f"a {type(value).__name__}",))[0]


def _same_type(before, after) -> bool:
    """Whether `after` is of `before`'s type: the same scalar type, or a list of the types `before`'s
    items have (any scalars when it is empty)."""
    scalars = (bool, int, str)
    if isinstance(before, list):
        allowed = {type(v) for v in before} or set(scalars)
        return isinstance(after, list) and all(type(v) in allowed for v in after)
    return type(after) is type(before) and type(after) in scalars


def flow_text(value) -> str:
    """A value as YAML writes it in flow style: `[fox, fox]`, `true`, `2`."""
    if isinstance(value, list):
        return "[" + ", ".join(map(flow_text, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
