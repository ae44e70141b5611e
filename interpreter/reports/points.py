"""Where the points came from, by player: the points of each reason (`because` in the rules), and
`other` for the rest of the score.

A record's `points_by_reason` holds, for each player, their points for each reason in that game and,
under `other`, what of their final score no reason took (see `engine.reasons`, `simulation.runner`).
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from interpreter.reports.summary import Record, Sheet, players_of

OTHER = "other"  # the points of a player's final score that no reason took


def points_sheet(records: Sequence[Record]) -> Sheet | None:
    """A row per reason (`other` last, then the total): for each player, their mean points per game for
    it and its share of their mean final score. None when no game gave points a reason (a game without
    `because` in its rules or without a score, or games stored before results format 5)."""
    counted = [r for r in records if r.get("points_by_reason")]
    if not any(reason != OTHER for r in counted for reasons in r["points_by_reason"].values() for reason in reasons):
        return None
    players = players_of(counted)
    games = Counter(p for r in counted for p in r["players"])
    points: Counter = Counter()  # (reason, player)
    for r in counted:
        for player, reasons in r["points_by_reason"].items():
            for reason, n in reasons.items():
                points[reason, player] += n
    mean = {key: n / games[key[1]] for key, n in points.items()}
    totals = {p: sum(v for (_, player), v in mean.items() if player == p) for p in players}
    reasons = sorted({reason for reason, _ in points if reason != OTHER},
                     key=lambda reason: -sum(abs(mean.get((reason, p), 0)) for p in players))
    sheet = Sheet("Where the points came from", ["Reason"] + players,
                  note=f"per game: the points a player scored for each reason (`because` in the rules) in an average "
                       f"game ({len(counted)} games); in brackets: its share of that player's final score. `other`: "
                       "the rest of the score, which no reason took; total: the score at the end, as the game's `score` "
                       "function gives it. A reason's points are how much the score changed where the rules gave it, so "
                       "they can be negative")

    def cell(reason: str, player: str) -> str:
        if (reason, player) not in mean:
            return "—"
        share = f" ({100 * mean[reason, player] / totals[player]:.0f}%)" if totals[player] > 0 else ""
        return f"{mean[reason, player]:.2f}{share}"

    for reason in reasons + ([OTHER] if any(key[0] == OTHER for key in points) else []):
        sheet.rows.append([reason] + [cell(reason, p) for p in players])
    sheet.rows.append(["total"] + [f"{totals[p]:.2f}" for p in players])
    return sheet
