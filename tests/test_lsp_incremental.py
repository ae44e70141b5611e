"""The language server re-checks only what an edit can change, and still says exactly what
`ludolex validate` says of the edited files: its steps (the rules, then each scenario and bot
file, each skipped when its inputs are those of an earlier clean step) against `check_ruleset`
on every broken ruleset of the corpus and a game, twice (the second time from what was kept);
and through a real LSP client, after edits that make and then mend errors, against a fresh
`ludolex validate` of the same texts."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from test_diagnostics_corpus import CASES
from test_lsp import RULES, Editor, project, session  # noqa: F401 (project: the fixture)

from interpreter.lsp.checking import check_rules, later_steps, run_step
from interpreter.safety.limits import LIMITS
from interpreter.validation.validate import check_ruleset

REPO = Path(__file__).resolve().parent.parent


def in_steps(folder: Path) -> list:
    rules = check_rules(folder)
    found = list(rules.diagnostics)
    for step in later_steps(folder, rules):
        found += run_step(step, rules)
    return sorted(found, key=lambda d: d.sort_key())


def as_text(diagnostics) -> list[str]:
    return [f"{d.position}: {d.code} {d.message} ({d.hint})" for d in diagnostics]


@pytest.mark.parametrize("case", CASES + [REPO / "rulesets" / "cernunos"], ids=lambda c: c.name)
def test_the_steps_find_what_validate_finds(case: Path, monkeypatch):
    settings = case / "limits.txt"
    for line in settings.read_text(encoding="utf-8").splitlines() if settings.exists() else []:
        name, value = (part.strip() for part in line.split("="))
        monkeypatch.setattr(LIMITS, name, type(getattr(LIMITS, name))(value))
    first, again = as_text(in_steps(case)), as_text(in_steps(case))
    assert first == again == as_text(check_ruleset(case)[0])


def test_the_steps_find_what_validate_finds_in_a_table_description(tmp_path):
    game = tmp_path / "cernunos"
    shutil.copytree(REPO / "rulesets" / "cernunos", game)
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("../../cards", str(REPO / "cards")))
    table = game / "table.yaml"
    table.write_text(table.read_text() + "players:\n  grene: {mark: G}\n")
    found = as_text(in_steps(game))
    assert found == as_text(check_ruleset(game)[0]) and any("grene" in line for line in found)
    table.write_text(table.read_text().replace("grene", "green"))  # mended: the step sees the new text
    assert not any("grene" in line for line in as_text(in_steps(game)))


def validated(root: Path) -> dict[str, list[tuple]]:
    """What a fresh `ludolex validate` says of the game's files on disk, by file uri."""
    done = subprocess.run([sys.executable, "-m", "interpreter", "validate", "--format", "json", "rulesets/cernunos"],
                          cwd=root, capture_output=True, text=True, check=False)
    found: dict[str, list[tuple]] = {}
    for line in done.stdout.splitlines():
        d = json.loads(line)
        message = d["message"] + (f"\nhint: {d['hint']}" if d.get("hint") else "")
        found.setdefault((root / d["file"]).resolve().as_uri(), []).append(
            (d["line"] - 1, d["column"] - 1, d["end_column"] - 1, d["code"], message))
    return found


def published(editor: Editor) -> dict[str, list[tuple]]:
    return {uri: [(d.range.start.line, d.range.start.character, d.range.end.character, d.code, d.message) for d in found]
            for uri, found in editor.diagnostics.items() if found}


async def typed_and_saved(editor: Editor, relative: str, text: str) -> None:
    """Type the new text, save it too (so that `validate` reads it), and wait until everything the
    server published is what a fresh `validate` says."""
    (editor.root / relative).write_text(text)
    uri = editor.uri(relative)
    if uri not in editor.versions:
        editor.open(relative)
    editor.type(uri, text)
    expected = validated(editor.root)
    await editor.diagnostics_of(uri, lambda _: published(editor) == expected)


@session
async def test_diagnostics_after_edits_are_those_of_a_fresh_validate(editor: Editor):
    rules = (editor.root / RULES).read_text()
    broken = rules.replace("where t is tree)", "wher t is tree)", 1)  # a syntax error
    misnamed = broken.replace("d is deer", "d is dear", 1)  # and an unknown kind
    await typed_and_saved(editor, RULES, broken)
    await typed_and_saved(editor, RULES, misnamed)
    await typed_and_saved(editor, RULES, misnamed.replace("wher t is tree)", "where t is tree)", 1))
    await typed_and_saved(editor, RULES, rules)  # all mended
    assert published(editor) == {}
    scenario = "rulesets/cernunos/tests/cn_b_crow.yaml"
    text = (editor.root / scenario).read_text()
    assert "can_place(purple, deer" in text
    await typed_and_saved(editor, scenario, text.replace("can_place(purple, deer", "can_place(purple, dear", 1))
    assert [d.code for d in editor.diagnostics[editor.uri(scenario)]]
    await typed_and_saved(editor, scenario, text)
    assert published(editor) == {}
