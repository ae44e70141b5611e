"""Whether each change between two versions came into play, in the paired games of `compare`: in how
many games of each side it was moved (drawn, placed...) or chosen, how many pairs played identically,
and the effect among the pairs where it came into play. "No effect" and "never used" then read apart.

A change (see `simulation.changes`) names the component kinds and the decisions whose use shows it;
a record says which kinds moved in its game (`kinds_moved`) and what each player chose
(`option_counts`, a component by its kind). Pure functions of the records.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from interpreter.reports.paired import PairedMeasure, compare_paired
from interpreter.reports.summary import Record, Sheet, p_text


class ChangeLike(Protocol):
    subject: str
    detail: str
    kinds: tuple[str, ...]
    decisions: tuple[str, ...]
    everywhere: bool


@dataclass(frozen=True)
class Use:
    """How a change came into play in one game: moved, and the decisions it was chosen or asked in."""

    moved: bool
    decisions: frozenset[str]

    @property
    def in_play(self) -> bool:
        return self.moved or bool(self.decisions)


def use_in(change: ChangeLike, record: Record) -> Use:
    kinds = set(change.kinds)
    moved = bool(kinds.intersection(record.get("kinds_moved") or ()))
    decisions = set()
    for answers in (record.get("option_counts") or {}).values():
        for decision, options in answers.items():
            if decision in change.decisions or kinds.intersection(options):
                decisions.add(decision)
    return Use(moved, frozenset(decisions))


def identical(a: Record, b: Record) -> bool:
    """The two games of a pair went the same way: the same choices (the digest of their log) and result."""
    return (a["log_digest"], a["winners"], a["turns"], a.get("scores")) == \
        (b["log_digest"], b["winners"], b["turns"], b.get("scores"))


@dataclass
class UseRow:
    """One way a change came into play (`moved`, `chosen in craft`...): in how many games of A and of B,
    the pairs where it did on either side, how many of those went the same way, and the win rate that
    moved most among them (None: no pair)."""

    how: str
    games: tuple[int, int]
    pairs: int
    identical: int
    effect: PairedMeasure | None
    measures: int  # how many measures the effect was chosen from (Holm-corrected over them)


@dataclass
class ChangeUsage:
    change: ChangeLike
    rows: list[UseRow]  # moved (for a kind), then each decision it was chosen or asked in; none: never


def usage_of_changes(changes: Sequence[ChangeLike], pairs: Sequence[tuple[Record, Record]]) -> list[ChangeUsage]:
    """Each change's use over the pairs of games (A, B) of one seed: when its kind moved, then in each
    decision it was chosen (or, for a rule, asked) in."""
    found = []
    for change in changes:
        uses = [(use_in(change, a), use_in(change, b)) for a, b in pairs]
        ways = [("in every game", lambda use: True)] if change.everywhere else []
        ways += [("moved", lambda use: use.moved)] if change.kinds else []
        decisions = sorted({d for pair in uses for use in pair for d in use.decisions})
        verb = "chosen in" if change.kinds else "asked:"
        ways += [(f"{verb} {d}", lambda use, d=d: d in use.decisions) for d in decisions]
        rows = [_row(how, took, pairs, uses) for how, took in ways]
        found.append(ChangeUsage(change, [row for row in rows if row.games != (0, 0)]))
    return found


def _row(how: str, took, pairs, uses) -> UseRow:
    games = (sum(took(a) for a, _ in uses), sum(took(b) for _, b in uses))
    there = [pair for pair, (a, b) in zip(pairs, uses) if took(a) or took(b)]
    comparison = compare_paired([a for a, _ in there], [b for _, b in there]) if there else None
    rates = [m for m in comparison.measures if m.measure.endswith("'s win rate")] if comparison else []
    effect = min(rates, key=lambda m: (m.adjusted, -abs(m.b - m.a))) if rates else None
    return UseRow(how, games, len(there), sum(identical(a, b) for a, b in there), effect,
                  len(comparison.measures) if comparison else 0)


def _effect_text(row: UseRow) -> str:
    m = row.effect
    if m is None:
        return "—"
    player = m.measure.removesuffix("'s win rate")
    verdict = "" if m.significant else ": not significant"
    return f"{player} {100 * m.a:.1f}% -> {100 * m.b:.1f}% ({p_text(m.adjusted)}, Holm over {row.measures}){verdict}"


def change_usage_sheet(usages: Sequence[ChangeUsage], pairs: Sequence[tuple[Record, Record]],
                       label_a: str = "A", label_b: str = "B") -> Sheet:
    same = sum(identical(a, b) for a, b in pairs)
    sheet = Sheet(f"What changed from {label_a} to {label_b}, and whether it came into play",
                  ["Change", "Came into play", "Games (A / B)", "Pairs", "Identical pairs", "Largest effect there"],
                  text_columns=2)
    for usage in usages:
        c = usage.change
        subject = f"{c.subject}: {c.detail}"
        if not usage.rows:
            never = "not traced (it asks no decision)" if not c.kinds else "never (moved nor chosen)"
            sheet.rows.append([subject, never, "0 / 0" if c.kinds else "—", "0" if c.kinds else "—", "—", "—"])
        for i, row in enumerate(usage.rows):
            sheet.rows.append([subject if i == 0 else "", row.how, f"{row.games[0]} / {row.games[1]}",
                               str(row.pairs), str(row.identical), _effect_text(row)])
    sheet.note = (f"{len(pairs)} pairs, {same} of them played identically (the same choices and result): no change "
                  "could show in those. Moved: a component of the kind moved (drawn, placed, crafted into a zone). "
                  "Chosen in D: a player chose it in decision D. Asked: a changed rule's decision, answered. A rule "
                  "that asks no decision is listed, its use not traced; a property read where its component lies "
                  "shows in the pairs that differ, not here. Pairs: those where it came into play that way on either "
                  "side. Largest effect there: the player's win rate that moved most among those pairs (McNemar's "
                  "exact test, Holm-corrected over that comparison's measures, not over the rows; and pairs picked by "
                  "what happened in them are no random sample: read these as where to look, the verdict above as "
                  "the answer).")
    return sheet
