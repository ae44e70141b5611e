"""`ludolex validate`: load rulesets and their scenario files, and gather every diagnostic."""
from __future__ import annotations

from pathlib import Path

from interpreter.agents.rule_of_thumb import Policy, read_policy_file
from interpreter.content.manifest import MANIFEST
from interpreter.diagnostics.diagnostic import Diagnostic
from interpreter.diagnostics.errors import LudolexError
from interpreter.loading.stages import load_ruleset
from interpreter.safety.files import Boundary
from interpreter.validation.provisional import provisional_notes
from interpreter.scenarios.check import check_scenarios
from interpreter.scenarios.files import parse_scenario_file


def ruleset_folders(path: Path) -> list[Path]:
    """The ruleset folders at or under `path` (a ruleset, or a folder of rulesets)."""
    if (path / MANIFEST).exists():
        return [path]
    return sorted(p.parent for p in path.glob(f"*/{MANIFEST}"))


def validate(path: Path) -> list[Diagnostic]:
    """Every diagnostic of every ruleset at or under `path`, in file order."""
    diagnostics: list[Diagnostic] = []
    for folder in ruleset_folders(path):
        diagnostics += validate_ruleset(folder)
    return sorted(diagnostics, key=Diagnostic.sort_key)


def validate_ruleset(folder: Path) -> list[Diagnostic]:
    """The diagnostics of a ruleset: its manifest, rules and content, its scenario files, its bots."""
    diagnostics: list[Diagnostic] = []
    try:
        ruleset = load_ruleset(folder)
    except LudolexError as error:
        diagnostics += error.diagnostics
        ruleset = None
    else:
        diagnostics += ruleset.warnings + provisional_notes(ruleset.content)
    boundary = Boundary.of_ruleset(folder)
    for scenario_file in sorted((folder / "tests").glob("*.yaml")):
        try:
            parsed = parse_scenario_file(scenario_file, boundary)
            if ruleset is not None:
                diagnostics += check_scenarios(ruleset, scenario_file, parsed)
        except LudolexError as error:
            diagnostics += error.diagnostics
    for bot_file in sorted((folder / "bots").glob("*.yaml")):
        try:
            if ruleset is None:  # the expressions cannot be compiled: check what can be
                read_policy_file(bot_file, boundary)
            else:
                Policy(bot_file, ruleset)
        except LudolexError as error:
            diagnostics += error.diagnostics
    return sorted(diagnostics, key=Diagnostic.sort_key)
