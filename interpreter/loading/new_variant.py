"""`ludolex variant new`: the folder of a new variant, whose manifest names its base and changes nothing
yet, with an example override taken from the base's own content (see `content/variants.py`)."""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from interpreter.content.manifest import MANIFEST
from interpreter.content.models import NAME_PATTERN
from interpreter.content.variants import flow_text
from interpreter.loading.ruleset import Ruleset
from interpreter.loading.stages import load_ruleset
from interpreter.safety.files import resource_path


def write_variant(name: str, base: str, into: Path) -> Path:
    """Write `into/NAME/game.yaml`, a variant of `base` (a game's name or folder); returns its path.
    A ValueError for a name or a folder that cannot be used (nothing written), a LudolexError if the
    base has errors, or if the variant would not load from where it is (what was written is removed)."""
    if not re.fullmatch(NAME_PATTERN, name):
        raise ValueError(f"`{name}`: a variant's name is letters, digits and `_`, and does not start with a digit")
    folder = into / name
    if folder.exists():
        raise ValueError(f"{folder} already exists: nothing written")
    ruleset = load_ruleset(base)
    text = manifest_text(name, _reference(ruleset.directory, folder), ruleset)
    folder.mkdir(parents=True)
    path = folder / MANIFEST
    try:
        path.write_text(text, encoding="utf-8")
        load_ruleset(folder)
    except BaseException:
        shutil.rmtree(folder)  # only what was just written
        raise
    return path


def _reference(base: Path, folder: Path) -> str:
    """How the variant names its base: by its name when the variant finds it so (a game beside the
    variant, or shipped with ludolex), else by its folder from the variant's."""
    for candidate in (folder.parent / base.name, resource_path("rulesets") / base.name):
        if (candidate / MANIFEST).is_file():
            if candidate.resolve() == base.resolve():
                return base.name
            break
    return Path(os.path.relpath(base.resolve(), folder.resolve())).as_posix()


def manifest_text(name: str, base: str, ruleset: Ruleset) -> str:
    """The new variant's manifest: its name, its base, and the keys of its changes with examples."""
    kind, key, value = _example(ruleset)
    rules = sorted(p.name for p in ruleset.rule_files)
    return (f"# A variant of {ruleset.manifest.title or ruleset.name}: it plays {base}'s rules, content and\n"
            f"# bots, with the changes below. `ludolex validate` checks it; `ludolex compare {base} <this folder>`\n"
            "# measures them.\n"
            f"name: {name}\n"
            f"title: {_quoted((ruleset.manifest.title or ruleset.name) + ', variant ' + name)}\n"
            f"base: {base}\n"
            "# A kind of piece or card, then each property to change and its new value, e.g.\n"
            f"# ({kind}'s {key} is {value} in {ruleset.name}):\n"
            "overrides:\n"
            f"  # {kind}: {{{key}: {value}}}\n"
            "# Files of this folder added to the base's rules (.rules) or content (.yaml):\n"
            "add:\n"
            "  # - more.yaml\n"
            "# Files of the base left out, by name:\n"
            "remove:\n"
            f"  # - {rules[-1] if rules else 'a_file.rules'}\n")


def _example(ruleset: Ruleset) -> tuple[str, str, str]:
    """A kind of the base, one of its properties (a number or a list if one has one) and its value."""
    pieces = ruleset.content.pieces
    properties = [(kind, key, value) for kind, spec in pieces.items() for key, value in spec.properties.items()]
    numbers_or_lists = [p for p in properties if isinstance(p[2], list) or type(p[2]) is int]
    for kind, key, value in numbers_or_lists + properties:
        return kind, key, flow_text(value)
    if not pieces:
        return "a_kind", "count", "1"
    kind, spec = next(iter(pieces.items()))
    return kind, "count" if spec.count is not None else "per_player", flow_text(spec.count or spec.per_player)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
