"""Golden files: each folder of tests/diagnostics/ is a small broken ruleset (or file), and its
`expected.txt` is exactly what `ludolex validate --format text` prints for it, paths relative to
the folder. Together the cases cover every diagnostic code of interpreter/diagnostics/codes.py.

A case that needs a smaller limit than the default (interpreter/safety/limits.py) names it in a file
`limits.txt` beside its manifest, one `name = value` a line (e.g. `compiled_characters = 2000`).

To write or refresh the golden files after a deliberate change of wording:
    LUDOLEX_UPDATE_GOLDEN=1 pytest tests/test_diagnostics_corpus.py   (then read the diff!)
"""
import os
import re
from pathlib import Path

import pytest

from interpreter.diagnostics.codes import CODES
from interpreter.diagnostics.errors import LudolexError
from interpreter.safety.limits import LIMITS
from interpreter.diagnostics.formats import as_text
from interpreter.validation.validate import validate_ruleset

CORPUS = Path(__file__).resolve().parent / "diagnostics"
CASES = sorted(p for p in CORPUS.iterdir() if p.is_dir()) if CORPUS.is_dir() else []


def output_for(case: Path) -> str:
    previous = os.getcwd()
    os.chdir(case)  # paths in the output are relative to the case
    try:
        try:
            diagnostics = validate_ruleset(Path("."))
        except LudolexError as error:  # e.g. no manifest at all
            diagnostics = error.diagnostics
        return as_text(diagnostics, colour=False).replace(str(case) + os.sep, "") + "\n"
    finally:
        os.chdir(previous)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case_reports_exactly_the_expected_diagnostics(case, monkeypatch):
    settings = case / "limits.txt"
    for line in settings.read_text(encoding="utf-8").splitlines() if settings.exists() else []:
        name, value = (part.strip() for part in line.split("="))
        monkeypatch.setattr(LIMITS, name, type(getattr(LIMITS, name))(value))
    expected = case / "expected.txt"
    actual = output_for(case)
    if os.environ.get("LUDOLEX_UPDATE_GOLDEN"):
        expected.write_text(actual, encoding="utf-8")
    assert expected.exists(), f"{case.name}: no expected.txt (run with LUDOLEX_UPDATE_GOLDEN=1 and review it)"
    assert actual == expected.read_text(encoding="utf-8")
    assert "no errors" not in actual, f"{case.name}: a broken case that reports nothing"


def test_the_corpus_is_large_and_covers_every_code():
    assert len(CASES) >= 40
    seen = set()
    for case in CASES:
        seen |= set(re.findall(r"\b(?:error|warning|note) (LX\d{3}):", (case / "expected.txt").read_text(encoding="utf-8")))
    missing = sorted(set(CODES) - seen)
    assert not missing, f"codes no case produces: {missing}"
