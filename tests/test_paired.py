"""`ludolex compare`: the paired design (the same seeds, seating and bots on both sides), its tests
checked against hand computations, and the command as a designer runs it."""
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.interfaces.cli import main
from interpreter.reports.paired import compare_paired
from interpreter.reports.stats import holm, mcnemar_exact, wilcoxon_signed_rank

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# The tests, by hand -------------------------------------------------------------------------------

def test_mcnemar_on_a_constructed_table():
    # 100 pairs: 40 won on both sides, 50 on neither, 2 in A only, 8 in B only. Only the 10 discordant
    # pairs count: P(X <= 2) + P(X >= 8) for X ~ Binomial(10, 1/2) = 2 (1 + 10 + 45) / 1024.
    assert mcnemar_exact(2, 8) == pytest.approx(112 / 1024, rel=1e-12)
    assert mcnemar_exact(8, 2) == pytest.approx(112 / 1024, rel=1e-12)
    assert mcnemar_exact(0, 5) == pytest.approx(2 / 32, rel=1e-12)  # 5 of 5 one way: 2 * (1/2)^5
    assert mcnemar_exact(0, 0) == 1.0 and mcnemar_exact(3, 3) == 1.0


def test_wilcoxon_exact_and_normal_against_hand_computations():
    # 5 differences, all positive: W+ = 15, the largest of 2^5 equally likely sums: p = 2 / 32.
    assert wilcoxon_signed_rank([1, 2, 3, 4, 5]) == (15.0, pytest.approx(2 / 32))
    # one of six negative, rank 2: W- = 2; the sign sets with W- <= 2 are {}, {1}, {2}: p = 2 * 3 / 64.
    assert wilcoxon_signed_rank([1, -2, 3, 4, 5, 6]) == (19.0, pytest.approx(6 / 64))
    # zeros are dropped: the same as above
    assert wilcoxon_signed_rank([0, 1, -2, 0, 3, 4, 5, 6])[1] == pytest.approx(6 / 64)
    # ties: |d| = 1,1,1 (ranks 2), 2,2,2 (ranks 5), 3 (rank 7); W+ = 26 of 28, n = 7, mean 14,
    # variance 7 * 8 * 15 / 24 - 2 * (27 - 3) / 48 = 34: z = 12 / sqrt(34), normal approximation.
    w, p = wilcoxon_signed_rank([1, 1, 2, -1, 3, 0, 2, 2])
    assert w == 26.0 and p == pytest.approx(math.erfc(12 / math.sqrt(34) / math.sqrt(2)), rel=1e-12)
    assert wilcoxon_signed_rank([0, 0, 0]) == (0.0, 1.0)
    # symmetric differences: W+ = W-, nothing to see
    assert wilcoxon_signed_rank([-1, 1, -2, 2, -3, 3, 4, -4])[1] == pytest.approx(1.0)


def test_holm_adjusts_each_p_value_by_its_rank():
    # sorted 0.01, 0.03, 0.04, 0.2: times 4, 3, 2, 1 = 0.04, 0.09, 0.08 -> 0.09 (never below the one before), 0.2
    assert holm([0.01, 0.04, 0.03, 0.2]) == pytest.approx([0.04, 0.09, 0.09, 0.2])
    assert holm([0.5, 0.6]) == pytest.approx([1.0, 1.0]) and holm([]) == []


# The comparison of two batches --------------------------------------------------------------------

def game(seed: int, winner: str | None, turns: int, score_a: int = 0) -> dict:
    return {"seed": seed, "players": ["a", "b"], "winner": winner, "winners": [winner] if winner else [],
            "scores": {"a": score_a, "b": 0}, "turns": turns, "decisions": 3 * turns, "error": None}


def test_compare_pairs_games_by_seed_and_tests_within_pairs():
    # 100 seeds. a wins 40 in A; in B a also wins 20 of the seeds b won in A: 60 (+50% relative).
    batch_a = [game(s, "a" if s < 40 else "b", 20) for s in range(100)]
    batch_b = [game(s, "a" if s < 60 else "b", 20 + (s % 2)) for s in range(100)]
    c = compare_paired(batch_a, batch_b, "root", "cheap")
    rows = {m.measure: m for m in c.measures}
    a_wins = rows["a's win rate"]
    assert (a_wins.a, a_wins.b, a_wins.down, a_wins.up, a_wins.pairs) == (0.4, 0.6, 0, 20, 100)
    assert a_wins.p_value == pytest.approx(2 * 0.5 ** 20)  # McNemar: 20 discordant pairs, all one way
    assert a_wins.effect() == "a wins 50.0% more often: 40.0% → 60.0%"
    turns = rows["turns"]
    assert (turns.down, turns.up) == (0, 50) and turns.effect() == "games last 2.5% more turns: 20.0 → 20.5"
    assert rows["a's final score"].p_value == 1.0
    assert rows["the no-winner rate"].effect() == "no change in the no-winner rate: 0.0% → 0.0%"
    ordered = sorted(c.measures, key=lambda m: m.p_value)  # Holm: the smallest p times the number of measures
    assert ordered[0].adjusted == pytest.approx(min(1.0, len(c.measures) * ordered[0].p_value))
    assert a_wins.significant and not rows["a's final score"].significant
    assert c.verdict.startswith("cheap against root: ")
    assert "a wins 50.0% more often: 40.0% → 60.0% (p < 0.001, corrected)" in c.verdict


def test_games_that_failed_on_a_side_are_left_out_of_the_pairs():
    batch_a = [game(s, "a", 10) for s in range(10)]
    batch_b = [game(s, "a", 10) for s in range(10)]
    batch_b[3] = dict(batch_b[3], error="boom", reason="error")
    c = compare_paired(batch_a, batch_b + [game(10, "b", 3)])
    assert (c.pairs, c.left_out) == (9, 2)


# The command --------------------------------------------------------------------------------------

def test_compare_checks_both_sides_before_playing_any_game(tmp_path):
    for name in ("one", "two"):
        folder = tmp_path / "rulesets" / name
        folder.mkdir(parents=True)
        (folder / "game.yaml").write_text(f"name: {name}\nbase: cernunos\noverrides:\n  tre: {{per_player: 3}}\n")
    db = tmp_path / "c.sqlite"
    result = run("compare", tmp_path / "rulesets" / "one", tmp_path / "rulesets" / "two", "--games", 5, "--jobs", 1,
                 "--db", db)
    assert result.exit_code == 1
    assert result.output.count("error LX302: `tre` in `overrides` is not a kind of the game") == 2
    assert "one/game.yaml:4:3" in result.output and "two/game.yaml:4:3" in result.output
    assert not db.exists()  # nothing played, nothing stored
    missing = run("compare", "cernunos", tmp_path / "nothing", "--db", db)
    assert missing.exit_code == 2 and "no ruleset" in missing.output and not db.exists()


def test_compare_the_same_version_warns_and_finds_nothing(tmp_path):
    result = run("compare", "cernunos", "cernunos", "--games", 6, "--jobs", 1, "--db", tmp_path / "c.sqlite")
    assert result.exit_code == 0, result.output
    assert "warning: cernunos and cernunos are the same version" in result.output
    assert "cernunos and cernunos are the same version: no difference can show" in result.output
    assert "significant" in result.output and "0 / 0" in result.output


def test_compare_a_variant_with_its_base_and_write_the_page(tmp_path):
    pytest.importorskip("matplotlib", reason="the plots need the report extra")
    folder = tmp_path / "rulesets" / "more_wolves"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text("name: more_wolves\nbase: cernunos\noverrides:\n  wolf: {per_player: 4}\n")
    result = run("compare", "cernunos", folder, "--games", 30, "--jobs", 1, "--db", tmp_path / "c.sqlite",
                 "--plots", tmp_path / "out")
    assert result.exit_code == 0, result.output
    words = " ".join(result.output.split())  # the table's title wraps where the folder's path is long
    assert "A = cernunos, B = " in words and "30 paired games" in words
    assert "Holm p" in result.output and "same version" not in result.output
    page = (tmp_path / "out" / "compare.html").read_text()
    assert page.count("data:image/png;base64,") == 2 and "McNemar" in page and "Holm p" in page
