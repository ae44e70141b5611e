"""Statistics and reports over game records: known numbers, hand-written records, files on disk."""
import base64
import io
import math
import re
from pathlib import Path

import pytest
from rich.console import Console

from interpreter import load
from interpreter.reports.comparison import compare, render_comparison
from interpreter.reports.summary import percent, rate, render_summary, summarize
from interpreter.reports.stats import describe, histogram, two_proportion_test, welch_test, wilson_interval
from interpreter.simulation.runner import play_one

PNG = b"\x89PNG\r\n\x1a\n"


def plots():
    """The plots module, or the test is skipped: matplotlib is an extra (pip install 'ludolex[report]')."""
    return pytest.importorskip("interpreter.reports.plots", reason="the plots need matplotlib, an extra")


def record(seed, players, winner, scores=None, turns=10, decisions=20, curve=None):
    return {"seed": seed, "players": players, "winner": winner, "scores": scores or {}, "turns": turns,
            "decisions": decisions, "score_curve": curve or []}


# Four games by hand: green wins twice, purple once, one draw; the player in seat 0 wins three times.
RECORDS = [
    record(1, ["green", "purple"], "green", {"green": 5, "purple": 3}, 10, 20,
           [[1, {"green": 1, "purple": 0}], [2, {"green": 3, "purple": 2}]]),
    record(2, ["purple", "green"], "purple", {"green": 4, "purple": 7}, 12, 30,
           [[1, {"green": 2, "purple": 1}], [2, {"green": 2, "purple": 4}], [3, {"green": 4, "purple": 7}]]),
    record(3, ["green", "purple"], "green", {"green": 6, "purple": 6}, 14, 40),
    record(4, ["green", "purple"], None, {"green": 2, "purple": 2}, 8, 10),
]


def text_of(renderable) -> str:
    console = Console(record=True, width=160, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def batch(wins_first: int, games: int = 1000, turns: int = 10, seed0: int = 0) -> list[dict]:
    """`games` games where 'a' wins the first `wins_first` and 'b' the rest."""
    return [record(seed0 + i, ["a", "b"], "a" if i < wins_first else "b", {"a": i % 7, "b": i % 5},
                   turns + i % 3, 3 * turns) for i in range(games)]


# stats --------------------------------------------------------------------------------------------

def test_wilson_interval_known_values():
    assert wilson_interval(50, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    narrower = wilson_interval(500, 1000, confidence=0.9)
    assert narrower[0] > wilson_interval(500, 1000)[0]


def test_two_proportion_test():
    difference, p = two_proportion_test(45, 100, 55, 100)  # z = -0.1 / sqrt(0.25 * 0.02) = -1.414
    assert difference == pytest.approx(-0.10)
    assert p == pytest.approx(0.1573, abs=1e-4)
    difference, p = two_proportion_test(600, 1000, 400, 1000)  # z = 8.94
    assert difference == pytest.approx(0.2) and p < 1e-15
    assert two_proportion_test(500, 1000, 500, 1000) == (0.0, 1.0)
    assert two_proportion_test(0, 10, 0, 20)[1] == 1.0  # pooled rate 0: undefined
    assert two_proportion_test(3, 10, 0, 0)[1] == 1.0


def test_welch_test():
    difference, p = welch_test([10, 11, 12, 13, 14] * 10, [1, 2, 3, 4, 5] * 10)
    assert difference == pytest.approx(9.0) and p < 1e-10
    difference, p = welch_test([1, 2, 3, 4], [1, 2, 3, 4])
    assert difference == 0.0 and p == pytest.approx(1.0)
    assert welch_test([3, 3, 3], [3, 3, 3]) == (0.0, 1.0)
    assert welch_test([1], [1, 2])[1] == 1.0
    assert math.isnan(welch_test([], [1, 2])[0])


def test_describe_and_histogram():
    d = describe([1, 2, 3, 4, 5])
    assert (d.n, d.mean, d.min, d.q1, d.median, d.q3, d.max) == (5, 3, 1, 2, 3, 4, 5)
    assert d.sd == pytest.approx(1.5811, abs=1e-4)
    assert describe([7]).sd == 0.0 and describe([]).n == 0 and math.isnan(describe([]).mean)
    bins = histogram([1, 1, 2, 5, 25], bins=5)
    assert [(b.low, b.high) for b in bins][:2] == [(1, 5), (6, 10)]
    assert [b.count for b in bins] == [4, 0, 0, 0, 1]
    assert sum(b.count for b in histogram(list(range(100)))) == 100


# summarize ----------------------------------------------------------------------------------------

def test_summarize_hand_written_records():
    s = summarize(RECORDS)
    assert s.games == 4 and s.players == ["green", "purple"]
    assert (s.wins["green"].count, s.wins["green"].n, s.wins["purple"].count) == (2, 4, 1)
    assert s.wins["green"].rate == 0.5
    assert (s.wins["green"].low, s.wins["green"].high) == pytest.approx(wilson_interval(2, 4))
    assert s.draws.count == 1
    assert s.first_player.count == 3 and s.first_player.rate == 0.75 and s.first_player_fair == 0.5
    assert s.first_player_p == pytest.approx(0.625)  # exact binomial, 3 of 4 against 1/2
    assert (s.turns.mean, s.turns.min, s.turns.max) == (11, 8, 14)
    assert s.decisions.mean == 25
    assert sum(b.count for b in s.turns_histogram) == 4
    assert s.scores["green"].mean == 4.25 and s.scores["purple"].mean == 4.5
    # margins in the three decided games: 5 - 3, 7 - 4, 6 - 6; the draw has none
    assert s.margin.n == 3 and s.margin.mean == pytest.approx(5 / 3)
    assert s.margin.sd == pytest.approx(math.sqrt(7 / 3))


def test_margin_is_signed_when_a_lower_score_wins():
    s = summarize([record(1, ["a", "b"], "a", {"a": 2, "b": 5}), record(2, ["a", "b", "c"], "c", {"a": 1, "b": 4, "c": 9})])
    assert s.margin.min == -3 and s.margin.max == 5  # 2 - 5, and 9 - 4 against the best of the others


def test_summary_without_scores_and_render():
    s = summarize([record(i, ["x", "y", "z"], "z" if i % 2 else None) for i in range(6)])
    assert s.scores == {} and s.margin.n == 0
    assert s.first_player.count == 0 and s.first_player_fair == pytest.approx(1 / 3)
    assert s.wins["z"].count == 3 and s.draws.count == 3
    text = text_of(render_summary(summarize(RECORDS)))
    assert "50.0% [15.0–85.0]" in text and "Final scores" in text and "margin" in text
    assert percent(rate(504, 1000)) == "50.4% [47.3–53.5]"


def test_score_curves_are_by_round_and_carry_final_scores_forward():
    curves = plots().mean_score_curves(RECORDS)
    rounds, means, sds, q1s, q3s = curves["green"]
    assert rounds == [0, 1]  # 2 players: turns 1 and 2 make round 1; a point at turn t is the score after turn t - 1
    assert means == pytest.approx([1.5, 3.5])  # game 2's round 1 ends with its last point (4), game 1's with 3
    assert sds[0] == pytest.approx(math.sqrt(0.5))
    assert q1s == pytest.approx([1.25, 3.25]) and q3s == pytest.approx([1.75, 3.75])  # the band: the middle half
    assert plots().mean_score_curves([record(1, ["a", "b"], "a")]) == {}


# files --------------------------------------------------------------------------------------------

def test_write_plots(tmp_path):
    paths = plots().write_plots(RECORDS, tmp_path / "out", "Trial <run>")
    assert [p.name for p in paths] == ["win_rates.png", "seats.png", "lengths.png", "score_curves.png", "report.html"]
    for path in paths[:-1]:
        assert path.read_bytes().startswith(PNG)
    page = paths[-1].read_text(encoding="utf-8")
    assert page.count("data:image/png;base64,") == 4
    embedded = re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", page)
    assert [base64.b64decode(data) for data in embedded] == [path.read_bytes() for path in paths[:-1]]
    assert "<table>" in page and "Trial &lt;run&gt;" in page and "50.0% [15.0–85.0]" in page
    assert "http" not in page and ".png'" not in page  # nothing to fetch


def test_write_plots_without_curves(tmp_path):
    paths = plots().write_plots(batch(300, games=50), tmp_path, "no curves")
    assert [p.name for p in paths] == ["win_rates.png", "seats.png", "lengths.png", "report.html"]
    assert not (tmp_path / "score_curves.png").exists()


# compare ------------------------------------------------------------------------------------------

def test_compare_flags_a_large_difference():
    c = compare(batch(400), batch(550), "before", "after")
    rows = {d.measure: d for d in c.rows}
    assert rows["a's win rate"].difference == pytest.approx(0.15) and rows["a's win rate"].significant
    assert rows["b's win rate"].difference == pytest.approx(-0.15) and rows["b's win rate"].significant
    assert not rows["mean turns"].significant and not rows["the no-winner rate"].significant
    assert c.same_seeds and c.shared_seeds == 1000
    assert c.verdict.startswith("the change from before to after moves a's win rate by +15.0 points, p < 0.001")
    text = text_of(render_comparison(c))
    assert "significant at 5%" in text and "same 1000 seeds" in text and "+15.0 points" in text


def test_compare_flags_longer_games():
    c = compare(batch(500, turns=10), batch(500, turns=12))
    rows = {d.measure: d for d in c.rows}
    assert rows["mean turns"].difference == pytest.approx(2.0) and rows["mean turns"].significant
    assert rows["mean decisions"].significant and not rows["a's win rate"].significant


def test_compare_identical_samples():
    c = compare(batch(500), batch(500), "A", "B")
    assert not any(d.significant for d in c.rows)
    assert {d.measure for d in c.rows} >= {"a's win rate", "b's win rate", "the no-winner rate", "mean turns",
                                            "mean decisions", "a's mean final score", "b's mean final score"}
    assert c.verdict == "no significant difference in 1000 games a side"
    text = text_of(render_comparison(c))
    assert "not significant" in text and "significant at 5%" not in text


def test_compare_notices_different_seeds():
    c = compare(batch(500, games=100), batch(500, games=100, seed0=50))
    assert not c.same_seeds and c.shared_seeds == 50
    assert "NOT played on the same seeds" in text_of(render_comparison(c))


def test_a_simulated_games_score_curve_ends_with_its_final_position():
    record = play_one(load(Path(__file__).resolve().parent.parent / "rulesets" / "cernunos"), 0)
    last_turn, last_scores = record["score_curve"][-1]
    assert last_turn == record["turns"] + 1 and last_scores == record["scores"]
