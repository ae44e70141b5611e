"""`ludolex validate`: load rulesets and their scenario files, and gather every diagnostic."""
from __future__ import annotations

from pathlib import Path

from interpreter.agents.rule_of_thumb import Policy, bot_files, read_policy_file
from interpreter.content.manifest import MANIFEST
from interpreter.content.table_view import read_table_view
from interpreter.diagnostics.diagnostic import Diagnostic
from interpreter.diagnostics.errors import LudolexError
from interpreter.loading.stages import RulesCompiled, ruleset_of, run_stages
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
    """The diagnostics of a ruleset: its manifest, rules and content, its scenario files, its bots (a
    variant's own and those it inherits)."""
    return check_ruleset(folder)[0]


def check_ruleset(folder: Path) -> tuple[list[Diagnostic], RulesCompiled | None]:
    """`validate_ruleset`'s diagnostics, and what the loading stages found (None if the manifest
    could not be read): the language server answers from it."""
    diagnostics: list[Diagnostic] = []
    stages = None
    try:
        stages = run_stages(folder)
        ruleset = ruleset_of(stages)
    except LudolexError as error:
        diagnostics += error.diagnostics
        ruleset = None
    else:
        diagnostics += ruleset.warnings + provisional_notes(ruleset.content) + read_table_view(ruleset)[1]
    boundary = stages.boundary if stages is not None else Boundary.of_ruleset(folder)  # one count of the bytes read
    for scenario_file in sorted((folder / "tests").glob("*.yaml")):
        try:
            parsed = parse_scenario_file(scenario_file, boundary)
            if ruleset is not None:
                diagnostics += check_scenarios(ruleset, scenario_file, parsed)
        except LudolexError as error:
            diagnostics += error.diagnostics
    own_bots = sorted((folder / "bots").glob("*.yaml"))
    for bot_file in own_bots if ruleset is None else bot_files(ruleset).values():  # a variant's and its bases'
        try:
            if ruleset is None:  # the expressions cannot be compiled: check what can be
                read_policy_file(bot_file, boundary)
            else:
                Policy(bot_file, ruleset)
        except LudolexError as error:
            diagnostics += error.diagnostics
    return sorted(diagnostics, key=Diagnostic.sort_key), stages
