"""Content only a scenario has (`fixtures:`): the game loaded again with it, checked like content.

    fixtures:
      overrides: {anvil: {cost: 0}}          # as a variant's: a kind, then properties and fields
      pieces:                                # kinds only the test has, as a content file writes them
        test_terrain: {count: 1, starts_in: deck, properties: {actions: 2}}

A file's `fixtures` apply to each of its scenarios, a scenario's own after them. The game with
fixtures is a Ruleset of its own, so the game outside the test never has them.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from pydantic import ValidationError

from interpreter.content import variants
from interpreter.content.load import merge_content
from interpreter.content.models import ContentFile
from interpreter.content.schema_errors import schema_diagnostics
from interpreter.content.yaml_source import read_yaml
from interpreter.diagnostics.errors import LudolexError
from interpreter.loading import stages
from interpreter.loading.ruleset import Ruleset
from interpreter.safety.files import Boundary
from interpreter.scenarios.files import Fixtures

Places = tuple[tuple, ...]  # where the fixtures to apply are written in the scenario file, in order
_LOADED: dict[tuple, tuple[Ruleset, Ruleset]] = {}  # (id of the game, file, places) -> (the game, it with its fixtures)
_KEPT = 16


def with_fixtures(ruleset: Ruleset, file: Path, places: Places) -> Ruleset:
    """`ruleset` with the fixtures written at `places` of scenario file `file`; a LudolexError with
    each mistake at its line and column in that file."""
    if not places:
        return ruleset
    key = (id(ruleset), str(file), places)
    if key not in _LOADED:
        if len(_LOADED) >= _KEPT:
            _LOADED.pop(next(iter(_LOADED)))
        _LOADED[key] = (ruleset, _load(ruleset, file, places))
    return _LOADED[key][1]


def _load(ruleset: Ruleset, file: Path, places: Places) -> Ruleset:
    boundary = ruleset.boundary or Boundary.of_ruleset(ruleset.directory)
    document = read_yaml(file, boundary)
    read = stages.read_content(stages.read_manifest(ruleset.directory))
    diagnostics = list(read.diagnostics)
    content = read.content
    if content is None:
        raise LudolexError(diagnostics)
    for place in places:
        node = _node_at(document, place)
        fixtures = Fixtures.model_validate(node)  # its shape was checked with the scenario file's
        try:
            added = ContentFile.model_validate({"pieces": fixtures.pieces})
        except ValidationError as error:
            raise LudolexError(schema_diagnostics(error, node, str(file), ContentFile)) from None
        merge_content(content, added, node, str(file), diagnostics)
        diagnostics += variants.apply_overrides(content, variants.read_overrides(fixtures, node, str(file)))
    if any(d.severity == "error" for d in diagnostics):
        raise LudolexError(diagnostics)
    done = stages.compile_rules(stages.check_names(stages.parse_rules(stages.build_board(
        dataclasses.replace(read, content=content, diagnostics=tuple(diagnostics))))))
    return stages.ruleset_of(done)


def _node_at(document, place: tuple):
    node = document
    for step in place:
        node = node[step]
    return node
