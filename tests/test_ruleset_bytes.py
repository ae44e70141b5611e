"""`ruleset_bytes`: the files one ruleset reads are bounded together, not only one by one
(docs/limits.md): many files, each under `file_bytes`, would otherwise cost `validate` without
bound (about 30 CPU seconds per megabyte of rules)."""
import shutil
from pathlib import Path

import pytest

from interpreter.safety.limits import LIMITS, Limits, SourceBytes
from interpreter.validation.validate import validate_ruleset

REPO = Path(__file__).resolve().parent.parent


def test_each_file_counts_once_at_its_latest_size(monkeypatch):
    monkeypatch.setattr(LIMITS, "ruleset_bytes", 100)
    read = SourceBytes()
    assert read.count(Path("/game/a.rules"), 60)
    assert read.count(Path("/game/a.rules"), 60)  # read again (each edit, in the language server): nothing more
    assert read.count(Path("/game/b.yaml"), 40) and read.total == 100
    assert not read.count(Path("/game/c.yaml"), 1)  # the file that goes past it
    assert read.count(Path("/game/a.rules"), 59)  # a file made smaller: within it again


def test_the_limit_is_a_setting():
    assert Limits().ruleset_bytes == 2_000_000
    assert Limits.from_environment({"LUDOLEX_RULESET_BYTES": "1000"}).ruleset_bytes == 1000
    with pytest.raises(SystemExit, match="LUDOLEX_RULESET_BYTES"):
        Limits.from_environment({"LUDOLEX_RULESET_BYTES": "0"})


def test_validate_reports_the_file_that_goes_past_the_ruleset_total(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    game = tmp_path / "rulesets" / "cernunos"
    shutil.copytree(REPO / "rulesets" / "cernunos", game)
    shutil.copytree(REPO / "cards" / "cernunos", tmp_path / "cards" / "cernunos")
    assert not [d for d in validate_ruleset(game) if d.code == "LX211"]
    total = sum(p.stat().st_size for p in tmp_path.rglob("*") if p.suffix in (".rules", ".yaml"))
    monkeypatch.setattr(LIMITS, "ruleset_bytes", total // 2)
    past = [d for d in validate_ruleset(game) if d.code == "LX211"]
    assert past and all("LUDOLEX_RULESET_BYTES" in d.message for d in past)
    assert (past[0].position.line, past[0].position.column) == (1, 1)
    assert Path(past[0].position.file).resolve().is_relative_to(tmp_path.resolve())
