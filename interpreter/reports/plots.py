"""The report as PNG plots and an HTML page (matplotlib, imported only here)."""
from __future__ import annotations

import base64
import html
import math
from pathlib import Path
from typing import Sequence

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from interpreter.reports.stats import describe
from interpreter.reports.summary import Record, Summary, html_table, players_of, summarize, summary_sheets


def round_of(point_turn: int, players: int) -> int:
    """A curve's point `[t, scores]` holds the scores as turn t starts, that is after turn t - 1: the
    round that turn belongs to (0: before anyone played). A round is one turn of each player."""
    return 0 if point_turn <= 1 else (point_turn - 2) // max(1, players) + 1


def mean_score_curves(records: Sequence[Record]) -> dict[str, tuple[list[int], list[float], list[float]]]:
    """For each player: rounds (0 the start), mean score after each round and its standard deviation
    across games. Within a round the last point counts; a game's curve ends with its final position.

    A game that has ended keeps its last score up to the last round of the longest game, so every point
    averages over all games whose curve has started for that player.
    """
    games = [(r["score_curve"], len(r["players"])) for r in records if r.get("score_curve")]
    if not games:
        return {}
    last_round = max(round_of(int(point[0]), n) for curve, n in games for point in curve)
    result = {}
    for player in players_of(records):
        rounds, means, sds = [], [], []
        filled = []
        for curve, n in games:
            by_round = {round_of(int(t), n): s[player] for t, s in curve if player in s}
            values, current = [], math.nan
            for number in range(last_round + 1):
                current = by_round.get(number, current)
                values.append(current)
            filled.append(values)
        for number in range(last_round + 1):
            column = [v[number] for v in filled if not math.isnan(v[number])]
            if column:
                d = describe(column)
                rounds.append(number)
                means.append(d.mean)
                sds.append(d.sd)
        if rounds:
            result[player] = (rounds, means, sds)
    return result


def _figure(size: tuple[float, float] = (7, 4)):
    figure = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _plot_win_rates(summary: Summary, title: str, path: Path) -> None:
    figure = _figure()
    axes = figure.add_subplot()
    extra = ([("(shared win)", summary.shared)] if summary.shared.count > summary.together.count else []) + \
        ([("(all together)", summary.together)] if summary.cooperative else [])
    rates = list(summary.wins.items()) + extra + [("(no winner)", summary.draws)]
    names = [n for n, _ in rates]
    values = [100 * r.rate for _, r in rates]
    errors = [[100 * (r.rate - r.low) for _, r in rates], [100 * (r.high - r.rate) for _, r in rates]]
    colours = [f"C{i}" for i in range(len(summary.wins))] + ["dimgrey"] * len(extra) + ["grey"]
    bars = axes.bar(names, values, yerr=errors, capsize=6, color=colours)
    axes.bar_label(bars, labels=[f"{v:.1f}%" for v in values], label_type="center", color="white")
    if summary.games:
        axes.axhline(100 * summary.first_player_fair, linestyle="--", color="black", linewidth=1,
                     label=f"fair share {100 * summary.first_player_fair:.1f}%")
        axes.legend(loc="upper right")
    axes.set_ylabel("% of games (95% interval)")
    shared = "; a shared win counts for each winner" if summary.shared.count else ""
    axes.set_title(f"{title}\nwin rates over {summary.games} games{shared}", fontsize=10)
    figure.savefig(path, dpi=100)


def _plot_lengths(records: Sequence[Record], title: str, path: Path) -> None:
    figure = _figure()
    axes = figure.add_subplot()
    turns = [r["turns"] for r in records]
    if turns:
        low, high = min(turns), max(turns)
        bins = [x - 0.5 for x in range(low, high + 2)] if high - low <= 80 else 40
        axes.hist(turns, bins=bins, color="C0", edgecolor="white")
    axes.set_xlabel("turns")
    axes.set_ylabel("games")
    axes.set_title(f"{title}\ngame length over {len(records)} games", fontsize=10)
    figure.savefig(path, dpi=100)


def _plot_score_curves(curves: dict[str, tuple[list[int], list[float], list[float]]], title: str,
                       path: Path) -> None:
    figure = _figure()
    axes = figure.add_subplot()
    for i, (player, (turns, means, sds)) in enumerate(curves.items()):
        axes.plot(turns, means, color=f"C{i}", label=player)
        axes.fill_between(turns, [m - s for m, s in zip(means, sds)], [m + s for m, s in zip(means, sds)],
                          color=f"C{i}", alpha=0.2)
    axes.set_xlabel("round (one turn of each player; 0: the start)")
    axes.set_ylabel("score (mean ± 1 sd)")
    axes.set_title(f"{title}\nscore after each round (ended games keep their final score)", fontsize=10)
    axes.legend()
    figure.savefig(path, dpi=100)


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }}
table {{ border-collapse: collapse; margin: 0.5rem 0; }}
th, td {{ padding: 0.2rem 0.7rem; border-bottom: 1px solid #ddd; text-align: right; }}
th:first-child, td:first-child, td:last-child {{ text-align: left; }}
.note {{ color: #666; font-size: 0.9rem; margin-top: 0; }}
img {{ max-width: 100%; display: block; margin: 1rem 0; }}
</style></head><body>
<h1>{title}</h1>
{tables}
{images}
</body></html>
"""


def write_plots(records: Sequence[Record], folder: Path | str, title: str) -> list[Path]:
    """Write win_rates.png, lengths.png, score_curves.png (when games have score curves) and report.html.

    report.html holds the summary tables and the images inline (base64 data URIs): it opens with no
    network and no other file. Returns the paths written, report.html last.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    summary = summarize(records)
    written = [folder / "win_rates.png", folder / "lengths.png"]
    _plot_win_rates(summary, title, written[0])
    _plot_lengths(records, title, written[1])
    curves = mean_score_curves(records)
    if curves:
        written.append(folder / "score_curves.png")
        _plot_score_curves(curves, title, written[-1])
    images = "\n".join(
        f"<img alt='{path.stem.replace('_', ' ')}' src='data:image/png;base64,"
        f"{base64.b64encode(path.read_bytes()).decode('ascii')}'>" for path in written)
    tables = "\n".join(html_table(s) for s in summary_sheets(summary))
    page = folder / "report.html"
    page.write_text(PAGE.format(title=html.escape(title), tables=tables, images=images), encoding="utf-8")
    return written + [page]
