"""Each game's rules reference (`rulesets/<game>/RULES.md`) covers every rule ID its scenarios name.

An entry of a reference is a line starting `- **ID**` (the rule in the project's words follows,
then a `Source:` line saying where the rulebook has it). The digests that define the IDs live
outside the repository, so only the repository's own files are compared here: the IDs named
under `rules:` by the scenarios of `rulesets/<game>/tests/*.yaml` must all have an entry.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.scenarios.files import parse_scenario_file

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.parent.name for p in (ROOT / "rulesets").glob("*/tests") if any(p.glob("*.yaml")))
ENTRY = re.compile(r"^- \*\*([A-Za-z0-9][\w.\-]*?)\*\*(?=\s)")


def named_ids(game: str) -> dict[str, list[str]]:
    """Each rule ID the game's scenarios name -> the scenario files that name it."""
    named: dict[str, list[str]] = {}
    for path in sorted((ROOT / "rulesets" / game / "tests").glob("*.yaml")):
        for scenario in parse_scenario_file(path).scenarios:
            for rule in scenario.rules:
                files = named.setdefault(rule, [])
                if path.name not in files:
                    files.append(path.name)
    return named


def reference_entries(text: str) -> list[tuple[str, str]]:
    """(ID, the entry's whole text) for each entry of a RULES.md, in order."""
    entries: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if match := ENTRY.match(line):
            entries.append((match.group(1), [line]))
        elif entries and line.startswith("  ") and line.strip():
            entries[-1][1].append(line)
        elif entries and not line.strip():
            entries.append(("", []))  # a blank line ends the entry
    return [(rule, "\n".join(lines)) for rule, lines in entries if rule]


def test_every_game_with_scenarios_is_checked():
    assert "cernunos" in GAMES and "root" in GAMES


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_reference_has_an_entry_for_every_rule_id_the_scenarios_name(game):
    reference = ROOT / "rulesets" / game / "RULES.md"
    assert reference.is_file(), f"rulesets/{game}/RULES.md is missing: each game folder carries its rules reference"
    named = named_ids(game)
    listed = {rule for rule, _ in reference_entries(reference.read_text(encoding="utf-8"))}
    missing = [rule for rule in sorted(named, key=_order) if rule not in listed]
    assert not missing, (
        f"rulesets/{game}/RULES.md has no entry (a line `- **ID** ...`) for {len(missing)} rule ID(s) "
        "named by its scenarios:\n" + "\n".join(f"  {rule}  (named in {', '.join(named[rule])})" for rule in missing))


@pytest.mark.parametrize("game", GAMES)
def test_each_entry_is_listed_once_and_says_the_rule_and_its_source(game):
    entries = reference_entries((ROOT / "rulesets" / game / "RULES.md").read_text(encoding="utf-8"))
    seen: set[str] = set()
    twice = sorted({rule for rule, _ in entries if rule in seen or seen.add(rule)}, key=_order)
    assert not twice, f"rulesets/{game}/RULES.md lists these IDs more than once: {', '.join(twice)}"
    incomplete = [rule for rule, body in entries
                  if "Source:" not in body or not body.split("**", 2)[2].split("Source:")[0].strip()]
    assert not incomplete, (
        f"rulesets/{game}/RULES.md: these entries lack the rule in words or a `Source:`: {', '.join(incomplete)}")


def test_an_entry_is_a_bullet_opening_with_a_bold_id():
    text = ("# T\n\n**Format.** prose, not an entry\n\n- **CN-1** The board.\n  Source: rulebook.\n"
            "- **4.3.1.II** Ambush.\n  Source: Law.\n\n- **N-map-c12** A clearing.\n  Source: x.\n- **A7** Reading.\n")
    assert [rule for rule, _ in reference_entries(text)] == ["CN-1", "4.3.1.II", "N-map-c12", "A7"]


def _order(rule: str) -> list[tuple[int, object]]:
    """Natural order (CN-2 before CN-10, 4.3.2 before 4.3.10), for readable failure messages."""
    return [(0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", rule)]
