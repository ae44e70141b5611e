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
    """The two games of a pair went the same way: the same choices (their digest, when kept) and result."""
    same_result = (a["winners"], a["turns"], a["decisions"], a.get("scores")) == \
        (b["winners"], b["turns"], b["decisions"], b.get("scores"))
    if "log_digest" in a and "log_digest" in b:
        return same_result and a["log_digest"] == b["log_digest"]
    return same_result and a.get("option_counts") == b.get("option_counts")


@dataclass
class ChangeUsage:
    change: ChangeLike
    moved: tuple[int, int]  # games of A and of B in which one of its components moved
    chosen: dict[str, tuple[int, int]]  # decision: games of A and of B in which it was chosen (or asked)
    pairs_in_play: int  # pairs in which it came into play on one side at least
    identical_in_play: int  # of those, the pairs that went the same way
    effect: PairedMeasure | None  # the win rate that moved most significantly among those pairs (None: no pair)
    measures: int  # how many measures the effect was chosen from (Holm-corrected over them)


def usage_of_changes(changes: Sequence[ChangeLike], pairs: Sequence[tuple[Record, Record]]) -> list[ChangeUsage]:
    """Each change's use over the pairs of games (A, B) of one seed."""
    found = []
    for change in changes:
        uses = [(use_in(change, a), use_in(change, b)) for a, b in pairs]
        chosen: dict[str, list[int]] = {}
        for side in (0, 1):
            for use in (pair[side] for pair in uses):
                for decision in use.decisions:
                    chosen.setdefault(decision, [0, 0])[side] += 1
        in_play = [pair for pair, (a, b) in zip(pairs, uses) if change.everywhere or a.in_play or b.in_play]
        comparison = compare_paired([a for a, _ in in_play], [b for _, b in in_play]) if in_play else None
        rates = [m for m in comparison.measures if m.measure.endswith("'s win rate")] if comparison else []
        found.append(ChangeUsage(change, (sum(a.moved for a, _ in uses), sum(b.moved for _, b in uses)),
                                 {d: (n[0], n[1]) for d, n in sorted(chosen.items())}, len(in_play),
                                 sum(identical(a, b) for a, b in in_play),
                                 min(rates, key=lambda m: (m.adjusted, -abs(m.b - m.a))) if rates else None,
                                 len(comparison.measures) if comparison else 0))
    return found


def _effect_text(usage: ChangeUsage) -> str:
    m = usage.effect
    if m is None:
        return "—"
    moved = f"{m.measure.removesuffix(' win rate').removesuffix(chr(39) + 's')} {100 * m.a:.1f}% -> {100 * m.b:.1f}%"
    return f"{moved} ({p_text(m.adjusted)}, Holm over {usage.measures}){'' if m.significant else ': not significant'}"


def change_usage_sheet(usages: Sequence[ChangeUsage], pairs: Sequence[tuple[Record, Record]],
                       label_a: str = "A", label_b: str = "B") -> Sheet:
    same = sum(identical(a, b) for a, b in pairs)
    sheet = Sheet(f"What changed from {label_a} to {label_b}, and whether it came into play",
                  ["Change", "Moved in games (A / B)", "Chosen in games (A / B)", "Pairs where in play",
                   "Identical among them", "Largest effect there"], text_columns=1)
    for usage in usages:
        c = usage.change
        kinds = bool(c.kinds)
        sheet.rows.append([
            f"{c.subject}: {c.detail}",
            f"{usage.moved[0]} / {usage.moved[1]}" if kinds else "—",
            "; ".join(f"{d} {a} / {b}" for d, (a, b) in usage.chosen.items()) or ("none" if kinds or c.decisions
                                                                                  else "not traced"),
            "every pair" if c.everywhere else f"{usage.pairs_in_play} of {len(pairs)}",
            str(usage.identical_in_play), _effect_text(usage)])
    sheet.note = (f"{same} of {len(pairs)} pairs played identically (the same choices and result): no change could "
                  "show in them. Moved: a component of the kind moved (drawn, placed, crafted into a zone). Chosen: the "
                  "decisions where a player chose it (a changed rule: the decisions it asks, answered). A rule that "
                  "asks no decision is listed, its use not traced. Largest effect: the player's win rate that moved "
                  "most among the pairs where the change came into play (McNemar's exact test, Holm-corrected over "
                  "that comparison's measures).")
    return sheet
