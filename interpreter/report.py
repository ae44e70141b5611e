"""What many simulated games say: summaries, comparisons, plots and a self-contained HTML report.

Everything here is a pure function of game records, plain dicts such as
    {"seed": 17, "players": ["a", "b"], "winner": "a" or None, "scores": {"a": 5, "b": 6} or {},
     "turns": 17, "decisions": 46, "score_curve": [[1, {"a": 1, "b": 0}], ...] or []}
where players[0] plays first and winner None is a draw (or a game nobody won).
"""
from __future__ import annotations

import base64
import html
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .stats import (Bin, Description, binomial_p_value, describe, histogram, two_proportion_test,
                    welch_test, wilson_interval)

Record = dict[str, Any]
SIGNIFICANCE = 0.05


@dataclass(frozen=True)
class Rate:
    """`count` out of `n`, with its 95% Wilson interval."""

    count: int
    n: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.count / self.n if self.n else 0.0


def rate(count: int, n: int) -> Rate:
    """A Rate with its 95% Wilson interval."""
    return Rate(count, n, *wilson_interval(count, n))


@dataclass(frozen=True)
class Summary:
    """What a batch of games says, see `summarize`."""

    games: int
    players: list[str]
    wins: dict[str, Rate]             # per player, over the games they took part in
    draws: Rate                       # games without a winner
    first_player: Rate                # wins of the player in seat 0, over all games
    first_player_fair: float          # 1 / number of players (averaged over games)
    first_player_p: float             # exact binomial test of first_player against first_player_fair
    turns: Description
    decisions: Description
    turns_histogram: list[Bin]
    decisions_histogram: list[Bin]
    scores: dict[str, Description]    # final score per player, over the games that have scores
    margin: Description               # winner's score minus the best other score, decided games with scores


def players_of(records: Iterable[Record]) -> list[str]:
    """Every player, in the seat order in which they first appear."""
    seen: dict[str, None] = {}
    for record in records:
        for player in record["players"]:
            seen.setdefault(player, None)
    return list(seen)


def summarize(records: Sequence[Record]) -> Summary:
    """Win rates, draws, first-player advantage, game length and score spread of `records`.

    The first player's "fair" win rate is 1 / number of players, so draws pull the observed rate under it.
    The margin is taken in games with a winner and final scores: the winner's score minus the best score
    of the others (negative when the rules let a lower score win).
    """
    players = players_of(records)
    wins = {p: rate(sum(r["winner"] == p for r in records), sum(p in r["players"] for r in records))
            for p in players}
    draws = rate(sum(r["winner"] is None for r in records), len(records))
    first = rate(sum(r["winner"] is not None and r["winner"] == r["players"][0] for r in records), len(records))
    fair = sum(1 / len(r["players"]) for r in records) / len(records) if records else 0.0
    turns = [r["turns"] for r in records]
    decisions = [r["decisions"] for r in records]
    scores = {p: describe([r["scores"][p] for r in records if p in (r.get("scores") or {})]) for p in players}
    margins = []
    for r in records:
        final = r.get("scores") or {}
        others = [s for p, s in final.items() if p != r["winner"]]
        if r["winner"] in final and others:
            margins.append(final[r["winner"]] - max(others))
    return Summary(
        games=len(records), players=players, wins=wins, draws=draws, first_player=first,
        first_player_fair=fair, first_player_p=binomial_p_value(first.count, first.n, fair),
        turns=describe(turns), decisions=describe(decisions),
        turns_histogram=histogram(turns), decisions_histogram=histogram(decisions),
        scores={p: d for p, d in scores.items() if d.n}, margin=describe(margins))


# Formatting ---------------------------------------------------------------------------------------

def percent(r: Rate) -> str:
    """`50.4% [47.3–53.5]`, or an em dash with no games."""
    if not r.n:
        return "—"
    return f"{100 * r.rate:.1f}% [{100 * r.low:.1f}–{100 * r.high:.1f}]"


def number(x: float) -> str:
    """Whole numbers as such, others to one decimal; NaN as an em dash."""
    if math.isnan(x):
        return "—"
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def p_cell(p: float) -> str:
    """A p-value for a table cell: `< 0.001` or three decimals."""
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def p_text(p: float) -> str:
    """A p-value in a sentence: `p < 0.001` or `p = 0.034`."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


@dataclass
class Sheet:
    """A table as plain strings, rendered both by rich and as HTML."""

    title: str
    columns: list[str]
    rows: list[list[str]] = field(default_factory=list)
    note: str = ""


def _bar(count: int, most: int, width: int = 30) -> str:
    return "█" * max(1 if count else 0, round(width * count / most)) if most else ""


def _histogram_sheet(title: str, bins: list[Bin]) -> Sheet:
    most = max((b.count for b in bins), default=0)
    rows = [[str(b.low) if b.low == b.high else f"{b.low}–{b.high}", str(b.count), _bar(b.count, most)]
            for b in bins]
    return Sheet(title, [title.split()[0], "Games", ""], rows)


def _description_row(name: str, d: Description) -> list[str]:
    return [name, str(d.n), number(d.mean), number(d.sd), number(d.min), number(d.q1), number(d.median),
            number(d.q3), number(d.max)]


DESCRIPTION_COLUMNS = ["", "n", "mean", "sd", "min", "q1", "median", "q3", "max"]


def summary_sheets(summary: Summary) -> list[Sheet]:
    """The tables of a summary, as strings."""
    results = Sheet(f"Results of {summary.games} games", ["Player", "Wins", "Games", "Win rate [95% CI]"])
    for player, r in summary.wins.items():
        results.rows.append([player, str(r.count), str(r.n), percent(r)])
    results.rows.append(["(no winner)", str(summary.draws.count), str(summary.draws.n), percent(summary.draws)])
    first = Sheet("First-player advantage", ["", "Wins", "Win rate [95% CI]", "Fair rate", "p vs fair"],
                  [["seat 0", str(summary.first_player.count), percent(summary.first_player),
                    f"{100 * summary.first_player_fair:.1f}%", p_cell(summary.first_player_p)]],
                  note="exact binomial test; draws count as games the first player did not win")
    length = Sheet("Game length", DESCRIPTION_COLUMNS,
                   [_description_row("turns", summary.turns), _description_row("decisions", summary.decisions)])
    sheets = [results, first, length, _histogram_sheet("Turns per game", summary.turns_histogram),
              _histogram_sheet("Decisions per game", summary.decisions_histogram)]
    if summary.scores:
        scores = Sheet("Final scores", DESCRIPTION_COLUMNS,
                       [_description_row(p, d) for p, d in summary.scores.items()],
                       note="margin: the winner's score minus the best other score, in games with a winner")
        if summary.margin.n:
            scores.rows.append(_description_row("margin", summary.margin))
        sheets.append(scores)
    return sheets


def rich_table(sheet: Sheet) -> Table:
    """A sheet as a rich Table: first column left, the others right."""
    table = Table(title=sheet.title, title_style="bold", caption=sheet.note or None, title_justify="left")
    for i, column in enumerate(sheet.columns):
        table.add_column(column, justify="left" if i == 0 or column == "" else "right")
    for row in sheet.rows:
        table.add_row(*row)
    return table


def html_table(sheet: Sheet) -> str:
    """A sheet as an HTML table with a heading."""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in sheet.columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in sheet.rows)
    note = f"<p class='note'>{html.escape(sheet.note)}</p>" if sheet.note else ""
    return f"<h2>{html.escape(sheet.title)}</h2><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{note}"


def render_summary(summary: Summary) -> RenderableType:
    """The summary as rich tables, for `Console.print`."""
    return Group(*(rich_table(s) for s in summary_sheets(summary)))


# Plots and the HTML page --------------------------------------------------------------------------

def mean_score_curves(records: Sequence[Record]) -> dict[str, tuple[list[int], list[float], list[float]]]:
    """For each player: turns, mean score after each turn and its standard deviation across games.

    A game that has ended keeps its last score up to the last turn of the longest game, so every point
    averages over all games whose curve has started for that player.
    """
    curves = [r["score_curve"] for r in records if r.get("score_curve")]
    if not curves:
        return {}
    last_turn = max(int(point[0]) for curve in curves for point in curve)
    result = {}
    for player in players_of(records):
        turns, means, sds = [], [], []
        filled = []
        for curve in curves:
            by_turn = {int(t): s[player] for t, s in curve if player in s}
            values, current = [], math.nan
            for turn in range(1, last_turn + 1):
                current = by_turn.get(turn, current)
                values.append(current)
            filled.append(values)
        for i in range(last_turn):
            column = [v[i] for v in filled if not math.isnan(v[i])]
            if column:
                d = describe(column)
                turns.append(i + 1)
                means.append(d.mean)
                sds.append(d.sd)
        if turns:
            result[player] = (turns, means, sds)
    return result


def _figure(size: tuple[float, float] = (7, 4)):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _plot_win_rates(summary: Summary, title: str, path: Path) -> None:
    figure = _figure()
    axes = figure.add_subplot()
    rates = list(summary.wins.items()) + [("(no winner)", summary.draws)]
    names = [n for n, _ in rates]
    values = [100 * r.rate for _, r in rates]
    errors = [[100 * (r.rate - r.low) for _, r in rates], [100 * (r.high - r.rate) for _, r in rates]]
    colours = [f"C{i}" for i in range(len(summary.wins))] + ["grey"]
    bars = axes.bar(names, values, yerr=errors, capsize=6, color=colours)
    axes.bar_label(bars, labels=[f"{v:.1f}%" for v in values], label_type="center", color="white")
    if summary.games:
        axes.axhline(100 * summary.first_player_fair, linestyle="--", color="black", linewidth=1,
                     label=f"fair share {100 * summary.first_player_fair:.1f}%")
        axes.legend(loc="upper right")
    axes.set_ylabel("% of games (95% interval)")
    axes.set_title(f"{title}\nwin rates over {summary.games} games", fontsize=10)
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
    axes.set_xlabel("turn")
    axes.set_ylabel("score (mean ± 1 sd)")
    axes.set_title(f"{title}\nscore after each turn (ended games keep their final score)", fontsize=10)
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


# Comparison ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Difference:
    """One measure in A and in B: the change B − A and the p-value of a test that they are equal."""

    measure: str                      # e.g. "purple's win rate", "mean turns"
    a: Rate | Description
    b: Rate | Description
    difference: float                 # B − A: a proportion for rates, the measure's unit for means
    p_value: float

    @property
    def significant(self) -> bool:
        return self.p_value < SIGNIFICANCE

    def change(self) -> str:
        """`+6.1 points` for a rate, `+2.30` for a mean."""
        if isinstance(self.a, Rate) and isinstance(self.b, Rate):
            return f"{100 * self.difference:+.1f} points" if self.a.n and self.b.n else "—"
        return "—" if math.isnan(self.difference) else f"{self.difference:+.2f}"


@dataclass(frozen=True)
class Comparison:
    """Two batches of games, A and B, measure by measure; see `compare`."""

    label_a: str
    label_b: str
    games_a: int
    games_b: int
    shared_seeds: int
    same_seeds: bool
    rows: list[Difference]

    @property
    def verdict(self) -> str:
        """One line: what changes significantly from A to B, or that nothing does."""
        found = sorted((d for d in self.rows if d.significant), key=lambda d: d.p_value)
        if not found:
            games = f"{self.games_a} games a side" if self.games_a == self.games_b else \
                f"{self.games_a} + {self.games_b} games"
            return f"no significant difference in {games}"
        parts = [f"{d.measure} by {d.change()}, {p_text(d.p_value)}" for d in found]
        return f"the change from {self.label_a} to {self.label_b} moves " + "; ".join(parts)


def _rate_row(measure: str, a: Rate, b: Rate) -> Difference:
    difference, p = two_proportion_test(b.count, b.n, a.count, a.n)
    return Difference(measure, a, b, difference, p)


def _mean_row(measure: str, a: Sequence[float], b: Sequence[float]) -> Difference:
    difference, p = welch_test(b, a)
    return Difference(measure, describe(a), describe(b), difference, p)


def compare(records_a: Sequence[Record], records_b: Sequence[Record], label_a: str = "A",
            label_b: str = "B") -> Comparison:
    """Each player's win rate, the draw rate, mean game length and each player's mean final score, in A and B.

    Rates are compared with the pooled two-proportion z-test, means with Welch's t-test; both treat
    A and B as independent samples even when they share seeds, which ignores the pairing (usually
    making the tests conservative). Differences are B − A.
    """
    summary_a, summary_b = summarize(records_a), summarize(records_b)
    rows = []
    for player in players_of([*records_a, *records_b]):
        if player in summary_a.wins and player in summary_b.wins:
            rows.append(_rate_row(f"{player}'s win rate", summary_a.wins[player], summary_b.wins[player]))
    rows.append(_rate_row("the no-winner rate", summary_a.draws, summary_b.draws))
    for key in ("turns", "decisions"):
        rows.append(_mean_row(f"mean {key}", [r[key] for r in records_a], [r[key] for r in records_b]))
    for player in players_of([*records_a, *records_b]):
        a = [r["scores"][player] for r in records_a if player in (r.get("scores") or {})]
        b = [r["scores"][player] for r in records_b if player in (r.get("scores") or {})]
        if a and b:
            rows.append(_mean_row(f"{player}'s mean final score", a, b))
    seeds_a, seeds_b = {r.get("seed") for r in records_a}, {r.get("seed") for r in records_b}
    return Comparison(label_a, label_b, len(records_a), len(records_b), len(seeds_a & seeds_b),
                      bool(records_a) and seeds_a == seeds_b, rows)


def _shown(value: Rate | Description) -> str:
    if isinstance(value, Rate):
        return percent(value)
    return "—" if not value.n else f"{number(value.mean)} ± {number(value.sd)}"


def comparison_sheet(comparison: Comparison) -> Sheet:
    """The comparison as a table of strings, with a note on seeds and on testing many measures."""
    c = comparison
    sheet = Sheet(f"{c.label_a} vs {c.label_b}", ["Measure", c.label_a, c.label_b, "Change (B − A)", "p-value", "Verdict"])
    for d in c.rows:
        sheet.rows.append([d.measure, _shown(d.a), _shown(d.b), d.change(), p_cell(d.p_value),
                           "significant at 5%" if d.significant else "not significant"])
    seeds = (f"{c.label_a} and {c.label_b} were played on the same {c.shared_seeds} seeds"
             if c.same_seeds else
             f"{c.label_a} and {c.label_b} were NOT played on the same seeds ({c.shared_seeds} shared, "
             f"{c.games_a} and {c.games_b} games)")
    sheet.note = (f"{seeds}; rates: two-proportion z-test, means (± sd): Welch's t-test, samples taken as "
                  f"independent. With {len(c.rows)} tests at 5%, about {len(c.rows) / 20:.1f} would flag by chance "
                  f"alone if nothing changed.")
    return sheet


def render_comparison(comparison: Comparison) -> RenderableType:
    """The comparison table and its one-line verdict, for `Console.print`."""
    verdict = Text(comparison.verdict, style="bold green" if any(d.significant for d in comparison.rows) else "bold")
    return Group(rich_table(comparison_sheet(comparison)), verdict)
