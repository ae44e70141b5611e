"""Two versions of a game played on the same seeds, compared game by game (the paired design).

`ludolex compare A B` plays each seed on both versions with the same seating and the same bots, so a
pair of games (A, B) differs only by the version and by where the change led the game. Comparing
within pairs takes away what the seed alone decides (the deal, the dice, who sits first), which makes
the tests sharper than comparing two independent batches:

- a win (each player's, a game with no winner, a shared win): McNemar's exact test over the pairs
  whose outcome differs (won in A only, in B only);
- turns, decisions and each player's final score: Wilcoxon's signed-rank test of the differences B - A;
- the p-values of all the measures corrected together by Holm's method, so that the verdict's chance of
  any false alarm stays under 5%; the changes given in relative terms ("wins 12% more often: 48% -> 54%").

Only seeds whose game ended on both sides are paired; the others are counted and left out.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from interpreter.reports.failures import finished
from interpreter.reports.stats import holm, mcnemar_exact, wilcoxon_signed_rank
from interpreter.reports.summary import (
    SIGNIFICANCE,
    Rate,
    Record,
    Sheet,
    p_cell,
    p_text,
    percent,
    players_of,
    rate,
    rich_table,
    winners_of,
    won_together,
)


@dataclass(frozen=True)
class Wording:
    """How a measure's change reads: `red wins` `12% more often`, `games last` `8% fewer turns`."""

    subject: str
    more: str
    less: str


@dataclass
class PairedMeasure:
    """One measure over the pairs: its value in A and in B, how many pairs moved each way, the test."""

    measure: str  # the table's name for it: "red's win rate", "turns"
    wording: Wording
    is_rate: bool  # a rate (a share of games) or a mean
    a: float
    b: float
    down: int  # pairs where B is lower than A (for a rate: won in A only)
    up: int  # pairs where B is higher (won in B only)
    pairs: int
    p_value: float
    differences: list[float] = field(default_factory=list)  # B - A of each pair (means only), for the plots
    adjusted: float = math.nan  # the p-value after Holm's correction over every measure

    @property
    def significant(self) -> bool:
        return self.adjusted < SIGNIFICANCE

    @property
    def relative(self) -> float:
        """The change B / A - 1 (NaN when A is 0)."""
        return self.b / self.a - 1 if self.a else math.nan

    def shown(self, value: float) -> str:
        return f"{100 * value:.1f}%" if self.is_rate else f"{value:.1f}"

    def effect(self) -> str:
        """`red wins 12.0% more often: 48.0% → 53.8%`, `no change in turns: 20.1 → 20.1`."""
        w = self.wording
        values = f"{self.shown(self.a)} → {self.shown(self.b)}"
        if self.b == self.a:
            return f"no change in {self.measure}: {values}"
        words = w.more if self.b > self.a else w.less
        size = "" if math.isnan(self.relative) else f"{abs(100 * self.relative):.1f}% "
        return f"{w.subject} {size}{words}: {values}"


@dataclass
class PairedComparison:
    label_a: str
    label_b: str
    pairs: int  # seeds whose game ended on both sides
    left_out: int  # seeds played on both sides whose game did not end on one of them (or was not played on one)
    same_version: bool  # A and B are the same version at the same table: every pair is two equal games
    measures: list[PairedMeasure]

    @property
    def verdict(self) -> str:
        found = sorted((m for m in self.measures if m.significant), key=lambda m: m.adjusted)
        if self.same_version:
            return f"{self.label_a} and {self.label_b} are the same version: no difference can show"
        if not found:
            return (f"no significant difference in {self.pairs} paired games ({len(self.measures)} measures, "
                    "Holm-corrected), which is not proof that there is none")
        return f"{self.label_b} against {self.label_a}: " + "; ".join(
            f"{m.effect()} ({p_text(m.adjusted)}, corrected)" for m in found)

    @property
    def warning(self) -> str:
        if not self.same_version:
            return ""
        return (f"warning: {self.label_a} and {self.label_b} are the same version (the same rules, content and "
                "options): each seed gives the same game twice, so this compares nothing. Compare two different "
                "versions, such as a game and a variant of it.")


def ended_pairs(records_a: Sequence[Record], records_b: Sequence[Record]) -> list[tuple[Record, Record]]:
    """The games of each seed that ended on both sides, paired, by seed."""
    ended_a = {r["seed"]: r for r in finished(records_a)}
    ended_b = {r["seed"]: r for r in finished(records_b)}
    return [(ended_a[s], ended_b[s]) for s in sorted(ended_a.keys() & ended_b.keys())]


def _rate(measure: str, wording: Wording, pairs, happened: Callable[[Record], bool]) -> PairedMeasure:
    outcomes = [(happened(a), happened(b)) for a, b in pairs]
    down = sum(a and not b for a, b in outcomes)
    up = sum(b and not a for a, b in outcomes)
    n = len(outcomes)
    return PairedMeasure(measure, wording, True, sum(a for a, _ in outcomes) / n if n else 0.0,
                         sum(b for _, b in outcomes) / n if n else 0.0, down, up, n, mcnemar_exact(down, up))


def _mean(measure: str, wording: Wording, values: list[tuple[float, float]]) -> PairedMeasure:
    differences = [b - a for a, b in values]
    n = len(values)
    _, p = wilcoxon_signed_rank(differences)
    return PairedMeasure(measure, wording, False, math.fsum(a for a, _ in values) / n if n else math.nan,
                         math.fsum(b for _, b in values) / n if n else math.nan, sum(d < 0 for d in differences),
                         sum(d > 0 for d in differences), n, p, differences)


def compare_paired(records_a: Sequence[Record], records_b: Sequence[Record], label_a: str = "A", label_b: str = "B",
                   same_version: bool = False) -> PairedComparison:
    """Each player's win rate, the rate of games without a winner (and of shared and co-operative wins
    when there were some), the turns and decisions of a game, and each player's final score, compared
    within the pairs of games of A and B that share a seed (see the module's notes)."""
    pairs = ended_pairs(records_a, records_b)
    left_out = len({r["seed"] for r in records_a} | {r["seed"] for r in records_b}) - len(pairs)
    games = [g for pair in pairs for g in pair]
    measures = []
    for player in players_of(games):
        both = [(a, b) for a, b in pairs if player in a["players"] and player in b["players"]]
        if not both:  # a player of one side only: nothing to pair
            continue
        measures.append(_rate(f"{player}'s win rate", Wording(f"{player} wins", "more often", "less often"), both,
                             lambda g, player=player: player in winners_of(g)))
    if any(len(winners_of(g)) > 1 for g in games):
        measures.append(_rate("the shared-win rate", Wording("games are won by several players", "more often",
                                                             "less often"), pairs, lambda g: len(winners_of(g)) > 1))
    if any(won_together(g) for g in games):
        measures.append(_rate("the rate of winning all together", Wording("the players win together", "more often",
                                                                          "less often"), pairs, won_together))
    measures.append(_rate("the no-winner rate", Wording("games end without a winner", "more often", "less often"),
                          pairs, lambda g: not winners_of(g)))
    for key, verb in (("turns", "last"), ("decisions", "ask")):
        measures.append(_mean(key, Wording(f"games {verb}", f"more {key}", f"fewer {key}"),
                              [(a[key], b[key]) for a, b in pairs]))
    for player in players_of(games):
        scores = [(a["scores"][player], b["scores"][player]) for a, b in pairs
                  if player in (a.get("scores") or {}) and player in (b.get("scores") or {})]
        if scores:
            measures.append(_mean(f"{player}'s final score", Wording(f"{player} scores", "more", "less"), scores))
    for measure, adjusted in zip(measures, holm([m.p_value for m in measures])):
        measure.adjusted = adjusted
    return PairedComparison(label_a, label_b, len(pairs), left_out, same_version, measures)


def rates_of(comparison: PairedComparison) -> list[tuple[str, Rate, Rate]]:
    """Each rate measure in A and in B with its 95% interval (for the plots)."""
    return [(m.measure, rate(round(m.a * m.pairs), m.pairs), rate(round(m.b * m.pairs), m.pairs))
            for m in comparison.measures if m.is_rate]


def comparison_sheet(c: PairedComparison) -> Sheet:
    """The comparison as a table of strings, with a note on the pairs and the tests."""
    sheet = Sheet(f"A = {c.label_a}, B = {c.label_b}: {c.pairs} paired games",
                  ["Measure", "A", "B", "Change", "Pairs down / up", "p", "Holm p", "Verdict"])
    for m in c.measures:
        change = "—" if m.b == m.a or math.isnan(m.relative) else f"{100 * m.relative:+.1f}%"
        verdict = ("significant" if m.significant else
                   "not after correction" if m.p_value < SIGNIFICANCE else "not significant")
        a, b = (percent(rate(round(x * m.pairs), m.pairs)) if m.is_rate else m.shown(x) for x in (m.a, m.b))
        sheet.rows.append([m.measure, a, b, change, f"{m.down} / {m.up}", p_cell(m.p_value), p_cell(m.adjusted),
                           verdict])
    left = f"; {c.left_out} seed(s) left out, their game having stopped on an error or a limit on a side" \
        if c.left_out else ""
    sheet.note = (f"Each pair: one seed played by A and by B, with the same seating and bots{left}. "
                  "Change: B / A - 1. Pairs down / up: the pairs where B is lower / higher than A (for a win rate: "
                  "won in A only / in B only). p: McNemar's exact test for rates, Wilcoxon's signed-rank test for "
                  f"the others; Holm p: corrected for the {len(c.measures)} measures (Holm-Bonferroni); significant: "
                  "Holm p < 0.05.")
    return sheet


def render_paired(comparison: PairedComparison) -> RenderableType:
    """The warning (if A and B are the same version), the table and the verdict, for `Console.print`."""
    found = any(m.significant for m in comparison.measures)
    verdict = Text(comparison.verdict, style="bold green" if found else "bold")
    parts = [Text(comparison.warning, style="bold yellow")] if comparison.warning else []
    return Group(*parts, rich_table(comparison_sheet(comparison)), verdict)
