"""A ruleset checked in the steps of `ludolex validate` (`validation.validate`: the game loaded, then
one check per scenario file, bot and table description), which the language server publishes one
by one and may stop between when a newer edit comes (`check_rules`, `later_steps`), each skipped
when it found nothing before with the same inputs (tests/test_lsp_incremental.py).

A step whose inputs are those of an earlier one that found nothing is not run again: for the rules,
the texts of the manifests, rules and content files (with the limits and the backend); for a
later step, those and its own files' texts. Only what found nothing is kept, as the loader keeps
only clean parses (loading/memo.py): what found something spent budgets ("did you mean") that the
steps after it spend from.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from interpreter.content.load import content_files
from interpreter.content.manifest import MANIFEST
from interpreter.diagnostics.diagnostic import Diagnostic, loaded_text
from interpreter.diagnostics.errors import LudolexError
from interpreter.loading.ruleset import Ruleset
from interpreter.loading.stages import RulesCompiled, read_manifest, rules_files
from interpreter.safety.files import Boundary, read_source
from interpreter.safety.limits import LIMITS
from interpreter.validation.validate import FileCheck, file_checks, load_and_check

MOST_KEPT = 2048  # clean steps remembered: a few states of every scenario and bot file of a large game


@dataclass(frozen=True)
class RulesChecked:
    stages: RulesCompiled | None  # None if the manifest could not be read
    ruleset: Ruleset | None  # None if the game did not load
    diagnostics: list[Diagnostic]
    boundary: Boundary
    inputs: str  # a digest of what the game was loaded from: texts, limits ("" if it did not load)


Step = FileCheck  # the check of one file after the rules (validation.validate)


_RULES: dict[str, RulesChecked] = {}  # the digest of what a game was loaded from -> what was found
MOST_RULES = 4  # a game and its variants, checked side by side


def check_rules(folder: Path) -> RulesChecked:
    """What `check_ruleset` finds before it reads the scenario and bot files. Loaded again only if
    a text it is loaded from changed since a loading whose stages found nothing."""
    texts = _loaded_from(folder)
    key = hashlib.sha256(repr(texts).encode()).hexdigest() if texts else ""
    if key in _RULES:
        return _RULES[key]
    found = _check_rules(folder, key)
    unchanged = texts and all(loaded_text(file) == text for file, text in texts[3:])  # read as the key says
    if unchanged and found.stages is not None and not found.stages.diagnostics:  # and no budget spent
        while len(_RULES) >= MOST_RULES:
            _RULES.pop(next(iter(_RULES)))
        _RULES[key] = found
    return found


def _loaded_from(folder: Path) -> tuple | None:
    """What loading the game reads: the limits, the backend, then each of its manifests, rules and
    content files with its text; None if the manifest cannot be read (loading reports it)."""
    try:
        read = read_manifest(folder)
        files = [read.manifest_path, *(base / MANIFEST for base in read.bases), *rules_files(read),
                 *content_files(list(read.content_places))]
        texts = [(str(f), read_source(f, read.boundary)) for f in files]
    except LudolexError:
        return None
    return (str(folder), tuple(vars(LIMITS).values()), os.environ.get("LUDOLEX_BACKEND"), *texts)


def _check_rules(folder: Path, inputs: str) -> RulesChecked:
    diagnostics, stages, ruleset, boundary = load_and_check(folder)
    return RulesChecked(stages, ruleset, diagnostics, boundary, inputs if ruleset else "")


def later_steps(folder: Path, rules: RulesChecked) -> list[Step]:
    """What `check_ruleset` checks after the rules: each scenario file, each bot, the table description."""
    return file_checks(folder, rules.ruleset, rules.boundary)


_CLEAN: dict[str, None] = {}  # digests of the inputs of steps that found nothing, oldest first


def run_step(step: Step, rules: RulesChecked) -> list[Diagnostic]:
    """The step's diagnostics, or none without running it if it found none with the same inputs."""
    try:
        texts = (rules.inputs, str(step.file), *((str(f), read_source(f, rules.boundary)) for f in step.reads))
        key = hashlib.sha256(repr(texts).encode()).hexdigest()
    except LudolexError:  # the step reports it
        return step.run()
    if key in _CLEAN:
        return []
    found = step.run()
    if not found and all(loaded_text(file) == text for file, text in texts[2:]):  # read as the key says
        while len(_CLEAN) >= MOST_KEPT:
            _CLEAN.pop(next(iter(_CLEAN)))
        _CLEAN[key] = None
    return found
