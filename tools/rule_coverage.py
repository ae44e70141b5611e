#!/usr/bin/env python3
"""Which rule IDs of a digest the scenario tests name, section by section.

    python tools/rule_coverage.py ../shared/rules/root-core.md rulesets/root [--sections 1,2,3,6,7]

An ID is a bold `**ID**` opening a bullet, or the first cell of a table row (`| N-card-3 |`);
ambiguity readings `**A12 ...**` count as IDs too. "Tested" means named in the `rules:` of a
scenario of the ruleset's tests/ folder; "in the rules" means named in a comment of its rules
or content files.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from interpreter.diagnostics.errors import LudolexError  # noqa: E402
from interpreter.scenarios.files import parse_scenario_file  # noqa: E402


BULLET = re.compile(r"^\s*- \*\*([A-Z]?[\w.\-]+?)(?:\*\*| )")
ROW = re.compile(r"^\| (N-[\w\-]+) \|")
SECTION = re.compile(r"^## (\d+|Ambiguities)")


def digest_ids(path: Path) -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current = "0"
    for line in path.read_text(encoding="utf-8").splitlines():
        if match := SECTION.match(line):
            current = match.group(1)
        elif match := BULLET.match(line) or ROW.match(line):
            sections.setdefault(current, []).append(match.group(1))
    return sections


def tested_ids(ruleset: Path) -> set[str]:
    found = set()
    for path in sorted((ruleset / "tests").glob("*.yaml")):
        try:
            scenarios = parse_scenario_file(path).scenarios
        except LudolexError as error:
            print(error, file=sys.stderr)
            continue
        for scenario in scenarios:
            found |= set(scenario.rules)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("digest", type=Path)
    parser.add_argument("ruleset", type=Path)
    parser.add_argument("--sections", default=None, help="Comma-separated section numbers (and `Ambiguities`).")
    args = parser.parse_args()
    wanted = args.sections.split(",") if args.sections else None
    tested = tested_ids(args.ruleset)
    missing_total = 0
    for section, ids in digest_ids(args.digest).items():
        if wanted and section not in wanted:
            continue
        missing = [i for i in ids if i not in tested]
        missing_total += len(missing)
        print(f"section {section}: {len(ids) - len(missing)}/{len(ids)} IDs named by a scenario")
        if missing:
            print("  not named: " + ", ".join(missing))
    sys.exit(1 if missing_total else 0)


if __name__ == "__main__":
    main()
