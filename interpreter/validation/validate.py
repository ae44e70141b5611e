"""`ludolex validate`: load rulesets and their scenario files, and gather every diagnostic."""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable

from interpreter.agents.rule_of_thumb import Policy, bot_files, policy_parts, read_policy_file
from interpreter.content.manifest import MANIFEST
from interpreter.content.table_view import read_table_view, table_files
from interpreter.diagnostics.diagnostic import Diagnostic
from interpreter.diagnostics.errors import LudolexError
from interpreter.loading.ruleset import Ruleset
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
    could not be read): the language server answers from it, and checks in the same steps."""
    diagnostics, stages, ruleset, boundary = load_and_check(folder)
    for check in file_checks(folder, ruleset, boundary):
        diagnostics += check.run()
    return sorted(diagnostics, key=Diagnostic.sort_key), stages


@dataclass(frozen=True)
class FileCheck:
    """The check of one file after the rules (a scenario file, a bot, the table description)."""
    file: Path
    run: Callable[[], list[Diagnostic]]
    reads: tuple[Path, ...]  # the files it reads besides the game's: its own, a bot's or a table's parts


def load_and_check(folder: Path) -> tuple[list[Diagnostic], RulesCompiled | None, Ruleset | None, Boundary]:
    """The game loaded (its manifest, content and rules, every loading stage), what that found, and
    the boundary that counts the bytes read, then shared by the file checks."""
    diagnostics: list[Diagnostic] = []
    stages = ruleset = None
    try:
        stages = run_stages(folder)
        ruleset = ruleset_of(stages)
    except LudolexError as error:
        diagnostics += error.diagnostics
    else:
        diagnostics += ruleset.warnings + provisional_notes(ruleset.content)
    boundary = stages.boundary if stages is not None else Boundary.of_ruleset(folder)  # one count of the bytes read
    return diagnostics, stages, ruleset, boundary


def file_checks(folder: Path, ruleset: Ruleset | None, boundary: Boundary) -> list[FileCheck]:
    """Each scenario file, each bot (a variant's own and those it inherits), the table description.
    Without a loaded game, a bot's expressions cannot be compiled: what can be is checked."""
    checks = [FileCheck(f, partial(_scenarios, ruleset, f, boundary), (f,))
              for f in sorted((folder / "tests").glob("*.yaml"))]
    if ruleset is None:
        return checks + [FileCheck(f, partial(_problems, read_policy_file, f, boundary), (f,))
                         for f in sorted((folder / "bots").glob("*.yaml"))]
    players = ruleset.program.players
    checks += [FileCheck(f, partial(_problems, Policy, f, ruleset), tuple(policy_parts(f, players)))
               for f in bot_files(ruleset).values()]
    table = table_files(ruleset)
    if table:  # with the parts of the factions the game has
        checks.append(FileCheck(table[0], lambda: read_table_view(ruleset)[1], tuple(table)))
    return checks


def _scenarios(ruleset: Ruleset | None, file: Path, boundary: Boundary) -> list[Diagnostic]:
    try:
        parsed = parse_scenario_file(file, boundary)
        return check_scenarios(ruleset, file, parsed) if ruleset is not None else []
    except LudolexError as error:
        return error.diagnostics


def _problems(read, *arguments) -> list[Diagnostic]:
    """The diagnostics of `read(*arguments)`, which raises them."""
    try:
        read(*arguments)
    except LudolexError as error:
        return error.diagnostics
    return []
