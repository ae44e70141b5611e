"""Two versions of a game on the same seeds: which differences in win rates and lengths are significant."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from interpreter.reports.stats import Description, describe, two_proportion_test, welch_test
from interpreter.reports.summary import (
    SIGNIFICANCE,
    Rate,
    Record,
    Sheet,
    number,
    p_cell,
    p_text,
    percent,
    players_of,
    rich_table,
    summarize,
)

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
    A shared win counts as a win for each of its winners; when some game had one, the shared-win rate
    is compared too, and in a co-operative game the rate of winning all together.

    Rates are compared with the pooled two-proportion z-test, means with Welch's t-test; both treat
    A and B as independent samples even when they share seeds, which ignores the pairing (usually
    making the tests conservative). Differences are B − A.
    """
    summary_a, summary_b = summarize(records_a), summarize(records_b)
    rows = []
    for player in players_of([*records_a, *records_b]):
        if player in summary_a.wins and player in summary_b.wins:
            rows.append(_rate_row(f"{player}'s win rate", summary_a.wins[player], summary_b.wins[player]))
    if summary_a.shared.count or summary_b.shared.count:  # a shared win counts for each winner, above
        rows.append(_rate_row("the shared-win rate", summary_a.shared, summary_b.shared))
    if summary_a.cooperative or summary_b.cooperative:
        rows.append(_rate_row("the rate of winning all together", summary_a.together, summary_b.together))
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
