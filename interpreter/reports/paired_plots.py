"""The plots of `compare --plots DIR` and the page that shows them, compare.html (matplotlib, imported
only here): the win rates of A and B side by side with their 95% intervals, and the paired differences
B - A of the game's length and of each player's final score."""
from __future__ import annotations

import base64
import html
import math
from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from interpreter.reports.page import PAGE
from interpreter.reports.paired import PairedComparison, comparison_sheet, rates_of
from interpreter.reports.summary import html_table


def _figure(size: tuple[float, float]):
    figure = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _plot_rates(c: PairedComparison, title: str, path: Path) -> None:
    """A pair of bars for each rate (A, B), each with its 95% interval and labelled above it."""
    rates = rates_of(c)
    figure = _figure((max(6.0, 1.3 * len(rates) + 2), 4))
    axes = figure.add_subplot()
    width = 0.38
    top = 0.0
    for side, (label, colour, shift) in enumerate(((c.label_a, "C0", -width / 2), (c.label_b, "C1", width / 2))):
        chosen = [r[1 + side] for r in rates]
        xs = [i + shift for i in range(len(rates))]
        values = [100 * r.rate for r in chosen]
        errors = [[100 * (r.rate - r.low) for r in chosen], [100 * (r.high - r.rate) for r in chosen]]
        axes.bar(xs, values, width, yerr=errors, capsize=4, color=colour, label=label)
        for x, r in zip(xs, chosen):
            axes.annotate(f"{100 * r.rate:.1f}%", (x, 100 * r.high), xytext=(0, 3), textcoords="offset points",
                          ha="center", va="bottom", fontsize=8)
            top = max(top, 100 * r.high)
    axes.set_xticks(range(len(rates)), [name.removesuffix("'s win rate").removeprefix("the ") for name, _, _ in rates],
                    fontsize=8)
    axes.set_ylim(0, min(115, top + 15))
    axes.set_ylabel("% of the paired games (95% interval)")
    axes.legend(fontsize=8, loc="upper right")
    axes.set_title(f"{title}\nwin rates over {c.pairs} paired games", fontsize=10)
    figure.savefig(path, dpi=100)


def _plot_differences(c: PairedComparison, title: str, path: Path) -> None:
    """For each mean measure, how the pairs' differences B - A spread, with 0 and their mean marked."""
    means = [m for m in c.measures if not m.is_rate and m.differences]
    columns = min(3, len(means))
    rows = math.ceil(len(means) / columns)
    figure = _figure((3.4 * columns, 2.8 * rows + 0.6))
    for i, m in enumerate(means):
        axes = figure.add_subplot(rows, columns, i + 1)
        low, high = math.floor(min(m.differences)), math.ceil(max(m.differences))
        bins = [x - 0.5 for x in range(low, high + 2)] if high - low <= 60 else 40
        axes.hist(m.differences, bins=bins, color="C2", edgecolor="white")
        axes.axvline(0, color="black", linewidth=1)
        mean = sum(m.differences) / len(m.differences)
        axes.axvline(mean, color="C3", linestyle="--", linewidth=1, label=f"mean {mean:+.2f}")
        axes.set_title(f"{m.measure}: B - A", fontsize=9)
        axes.set_xlabel(f"{c.label_b} minus {c.label_a}", fontsize=8)
        axes.set_ylabel("pairs", fontsize=8)
        axes.legend(fontsize=7)
    figure.suptitle(f"{title}: differences within the {c.pairs} pairs", fontsize=10)
    figure.savefig(path, dpi=100)


def write_comparison(c: PairedComparison, folder: Path | str, title: str) -> list[Path]:
    """Write rates.png, differences.png (when there are lengths or scores to compare) and compare.html,
    the comparison with its plots inline; returns the paths, compare.html last."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / "rates.png"]
    _plot_rates(c, title, written[0])
    if any(not m.is_rate and m.differences for m in c.measures):
        written.append(folder / "differences.png")
        _plot_differences(c, title, written[-1])
    images = "\n".join(f"<img alt='{p.stem}' src='data:image/png;base64,"
                       f"{base64.b64encode(p.read_bytes()).decode('ascii')}'>" for p in written)
    warning = f"<p><strong>{html.escape(c.warning)}</strong></p>" if c.warning else ""
    body = (f"<h1>{html.escape(title)}</h1>{warning}<p><strong>{html.escape(c.verdict)}</strong></p>\n"
            f"{html_table(comparison_sheet(c))}\n{images}")
    page = folder / "compare.html"
    page.write_text(PAGE.format(title=html.escape(title), body=body), encoding="utf-8")
    return written + [page]
