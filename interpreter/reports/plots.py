"""The report's plots as PNG files, and the HTML page that shows them (matplotlib, imported only here).

Each plot's title names the game and its bots; every rate is drawn with its 95% interval and labelled
above it; the score band is the middle half of the games (their first to third quartile), so it never
leaves the scores the games had (no band below zero when scores are never negative)."""
from __future__ import annotations

import math
from pathlib import Path
from typing import NamedTuple, Sequence

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from interpreter.reports.document import report_of
from interpreter.reports.failures import finished
from interpreter.reports.overview import RunContext
from interpreter.reports.page import write_page
from interpreter.reports.run_tally import RunTally
from interpreter.reports.seats import SeatTally, seat_name
from interpreter.reports.stats import describe
from interpreter.reports.summary import Rate, Record, Summary, players_of


class ScoreCurve(NamedTuple):
    """A player's score after each round, over the games: its mean, sd, first and third quartiles."""

    rounds: list[int]
    means: list[float]
    sds: list[float]
    q1s: list[float]
    q3s: list[float]


def round_of(point_turn: int, players: int) -> int:
    """A curve's point `[t, scores]` holds the scores as turn t starts, that is after turn t - 1: the
    round that turn belongs to (0: before anyone played). A round is one turn of each player."""
    return 0 if point_turn <= 1 else (point_turn - 2) // max(1, players) + 1


def mean_score_curves(records: Sequence[Record]) -> dict[str, ScoreCurve]:
    """For each player: rounds (0 the start), the mean score after each round, its standard deviation
    and quartiles across games. Within a round the last point counts; a game's curve ends with its final
    position.

    A game that has ended keeps its last score up to the last round of the longest game, so every point
    averages over all games whose curve has started for that player.
    """
    games = [(r["score_curve"], len(r["players"])) for r in records if r.get("score_curve")]
    if not games:
        return {}
    last_round = max(round_of(int(point[0]), n) for curve, n in games for point in curve)
    result = {}
    for player in players_of(records):
        averaged = ScoreCurve([], [], [], [], [])
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
                for values, value in zip(averaged, (number, d.mean, d.sd, d.q1, d.q3)):
                    values.append(value)
        if averaged.rounds:
            result[player] = averaged
    return result


def _figure(size: tuple[float, float] = (7, 4)):
    figure = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _rate_bars(axes, rates: list[tuple[str, Rate]], colours: list[str], fair: float | None) -> None:
    """Bars with their 95% intervals, each labelled above its interval (never on a bar's edge), from 0 to 100%."""
    names = [name for name, _ in rates]
    values = [100 * r.rate for _, r in rates]
    errors = [[100 * (r.rate - r.low) for _, r in rates], [100 * (r.high - r.rate) for _, r in rates]]
    axes.bar(names, values, yerr=errors, capsize=6, color=colours)
    for x, (_, r) in enumerate(rates):
        if r.n:
            axes.annotate(f"{100 * r.rate:.1f}%", (x, 100 * r.high), xytext=(0, 4), textcoords="offset points",
                          ha="center", va="bottom", fontsize=9)
    if fair is not None:
        axes.axhline(100 * fair, linestyle="--", color="black", linewidth=1, label=f"fair share {100 * fair:.1f}%")
        axes.legend(loc="upper right", fontsize=8)
    axes.set_ylim(0, min(112, max([100 * r.high for _, r in rates] + [0]) + 14))
    axes.set_ylabel("% of games (95% interval)")


def _plot_win_rates(summary: Summary, fair: float, title: str, path: Path) -> None:
    figure = _figure()
    axes = figure.add_subplot()
    extra = ([("(shared win)", summary.shared)] if summary.shared.count > summary.together.count else []) + \
        ([("(all together)", summary.together)] if summary.cooperative else [])
    rates = list(summary.wins.items()) + extra + [("(no winner)", summary.draws)]
    colours = [f"C{i}" for i in range(len(summary.wins))] + ["dimgrey"] * len(extra) + ["grey"]
    _rate_bars(axes, rates, colours, fair if summary.games else None)
    shared = "; a shared win counts for each winner" if summary.shared.count else ""
    axes.set_title(f"{title}\nwin rate of each player over {summary.games} games{shared}", fontsize=10)
    figure.savefig(path, dpi=100)


def _plot_seats_and_bots(games: SeatTally, title: str, path: Path) -> None:
    """The win rate of each seat, and with two bots or more, of each bot over the seats it played."""
    bots = games.bot_rates() if len(games.bots) > 1 else {}
    figure = _figure((9, 4) if bots else (7, 4))
    seats = games.seat_rates()
    axes = figure.add_subplot(1, 2 if bots else 1, 1)
    _rate_bars(axes, [(seat_name(s.seat), s.wins) for s in seats], [f"C{i}" for i in range(len(seats))],
               seats[0].fair if seats else None)
    axes.set_title("by seat", fontsize=10)
    if bots:
        axes = figure.add_subplot(1, 2, 2)
        _rate_bars(axes, list(bots.items()), [f"C{i + len(seats)}" for i in range(len(bots))], None)
        axes.set_ylabel("% of the seats it played (95% interval)")
        axes.set_title("by bot", fontsize=10)
    figure.suptitle(f"{title}: win rates over {games.everyone.games} games", fontsize=10)
    figure.savefig(path, dpi=100)


def _plot_lengths(turns: Sequence[int], title: str, path: Path) -> None:
    figure = _figure()
    axes = figure.add_subplot()
    if turns:
        low, high = min(turns), max(turns)
        bins = [x - 0.5 for x in range(low, high + 2)] if high - low <= 80 else 40
        axes.hist(turns, bins=bins, color="C0", edgecolor="white")
    axes.set_xlabel("turns")
    axes.set_ylabel("games")
    axes.set_title(f"{title}\ngame length over {len(turns)} games", fontsize=10)
    figure.savefig(path, dpi=100)


def _plot_score_curves(curves: dict[str, ScoreCurve], title: str, path: Path) -> None:
    figure = _figure()
    axes = figure.add_subplot()
    for i, (player, curve) in enumerate(curves.items()):
        axes.plot(curve.rounds, curve.means, color=f"C{i}", label=player)
        axes.fill_between(curve.rounds, curve.q1s, curve.q3s, color=f"C{i}", alpha=0.2)
    axes.set_xlabel("round (one turn of each player; 0: the start)")
    axes.set_ylabel("score: mean, and the middle half of games")
    axes.set_title(f"{title}\nscore after each round (ended games keep their final score)", fontsize=10)
    axes.legend()
    figure.savefig(path, dpi=100)


def write_plots(records: Sequence[Record], folder: Path | str, title: str | None = None,
                context: RunContext | None = None) -> list[Path]:
    """Write win_rates.png, seats.png, lengths.png, score_curves.png (when games have score curves) and
    report.html, the whole report with the images inline (see `page.write_page`).

    `records`: every game of the run; those that did not end are listed on the page, and left out of the
    plots. `context` says where the report comes from (default: a game called `title`). Returns the paths
    written, report.html last.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    context = context or RunContext(game=title or "games")
    run = RunTally.of(records)
    report = report_of(run, context)
    written = [folder / "win_rates.png", folder / "seats.png", folder / "lengths.png"]
    _plot_win_rates(run.summary.summary(), run.ended.everyone.share, report.title, written[0])
    _plot_seats_and_bots(run.ended, report.title, written[1])
    _plot_lengths(list(run.summary.turns), report.title, written[2])
    curves = mean_score_curves(finished(records))
    if curves:
        written.append(folder / "score_curves.png")
        _plot_score_curves(curves, report.title, written[-1])
    return written + [write_page(folder / "report.html", report, written)]
