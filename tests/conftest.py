collect_ignore = ["diagnostics"]  # broken rulesets on purpose: read by test_diagnostics_corpus.py, not run

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))


@pytest.fixture(scope="session")
def cernunos():
    from interpreter import load

    return load(ROOT / "rulesets" / "cernunos")
