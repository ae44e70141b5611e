"""A whole report of a run, in the order a designer reads it: the overview in plain words and the
glossary, then the tables (results, endings, seats, bots, lengths, scores, where the points came from,
options chosen); rendered for the terminal (rich) and as the body of the HTML page. The games that did
not end are counted in the overview and listed in their own table; every other table counts only the
games that ended.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from rich.console import Group, RenderableType
from rich.text import Text

from interpreter.reports.overview import GLOSSARY, RunContext, run_overview, run_title
from interpreter.reports.run_tally import RunTally
from interpreter.reports.seats import bot_sheets, first_mover_sheet, seat_sheet
from interpreter.reports.summary import (
    Record,
    Sheet,
    endings_sheets,
    html_table,
    length_sheets,
    results_sheet,
    rich_table,
    scores_sheets,
)


@dataclass
class Report:
    title: str
    overview: list[str]
    glossary: list[tuple[str, str]] = field(default_factory=lambda: list(GLOSSARY))
    failures: Sheet | None = None  # every game that did not end
    sheets: list[Sheet] = field(default_factory=list)


def report_of(run: RunTally, context: RunContext, most_options: int | None = None) -> Report:
    """The report of a run's games, tallied (those that failed too). With the table of options chosen
    when they were tallied, showing the `most_options` most chosen of each decision (None: all)."""
    report = Report(run_title(run, context), run_overview(run, context), failures=run.failures.sheet(context.replay))
    if len(run.ended.bots) < 2:
        report.glossary = [(term, meaning) for term, meaning in report.glossary if term != "bots compared"]
    if run.failures.finished:
        summary = run.summary.summary()
        movers = first_mover_sheet(run.ended)
        report.sheets = ([results_sheet(summary)] + endings_sheets(summary) + ([movers] if movers else []) +
                         [seat_sheet(run.ended)] + bot_sheets(run.ended) + length_sheets(summary) + scores_sheets(summary))
        points = run.points.sheet()
        report.sheets += [points] if points else []
        options = run.usage.sheet(most_options) if run.usage else None
        report.sheets += [options] if options else []
    return report



def render_report(report: Report) -> RenderableType:
    """The overview, the glossary and the tables, for `Console.print` (the failures are the caller's to
    list: a terminal shows a few)."""
    lines = [Text(report.title, style="bold")] + [Text(line) for line in report.overview] + [Text("Glossary:")]
    lines += [Text(f"  {term}: {meaning}.", style="dim") for term, meaning in report.glossary]
    return Group(*lines, *(rich_table(s) for s in report.sheets))


def _with_code(text: str) -> str:
    """Text as HTML, its `quoted` commands and names as code."""
    return re.sub(r"`([^`]*)`", r"<code>\1</code>", html.escape(text))


def html_body(report: Report, images: str = "") -> str:
    """The report as HTML: the overview, the glossary, `images` (already HTML), the failures, the tables."""
    parts = [f"<h1>{html.escape(report.title)}</h1>", "<section class='overview'>"]
    parts += [f"<p>{_with_code(line)}</p>" for line in report.overview]
    parts.append("</section><details class='glossary' open><summary>Glossary</summary><dl>")
    parts += [f"<dt>{html.escape(term)}</dt><dd>{html.escape(meaning)}</dd>" for term, meaning in report.glossary]
    parts.append("</dl></details>")
    parts.append(images)
    parts += [html_table(s) for s in ([report.failures] if report.failures else []) + report.sheets]
    return "\n".join(parts)
