"""Where the points came from, by player: the points of each reason (`because` in the rules), and
`other` for the rest of the score.

A record's `points_by_reason` holds, for each player, their points for each reason in that game and,
under `other`, what of their final score no reason took (see `engine.reasons`, `simulation.runner`).
"""
from __future__ import annotations

from collections import Counter

from interpreter.reports.summary import Record, Sheet, Tally

OTHER = "other"  # the points of a player's final score that no reason took


class PointsTally(Tally):
    """Each player's points by reason, summed over the games that gave them (`points_by_reason`)."""

    def __init__(self):
        self.games = 0
        self.played: Counter = Counter()  # games per player, in the order in which they first appear
        self.points: Counter = Counter()  # (reason, player)

    def add(self, record: Record) -> None:
        if not record.get("points_by_reason"):
            return
        self.games += 1
        self.played.update(record["players"])
        for player, reasons in record["points_by_reason"].items():
            for reason, n in reasons.items():
                self.points[reason, player] += n

    def sheet(self) -> Sheet | None:
        """A row per reason (`other` last, then the total): for each player, their mean points per game for
        it and its share of their mean final score. None when no game gave points a reason (a game without
        `because` in its rules or without a score, or games stored before results format 5)."""
        if not any(reason != OTHER for reason, _ in self.points):
            return None
        players, points = list(self.played), self.points
        mean = {key: n / self.played[key[1]] for key, n in points.items()}
        totals = {p: sum(v for (_, player), v in mean.items() if player == p) for p in players}
        reasons = sorted(dict.fromkeys(reason for reason, _ in points if reason != OTHER),  # ties: first seen first
                         key=lambda reason: -sum(abs(mean.get((reason, p), 0)) for p in players))
        sheet = Sheet("Where the points came from", ["Reason"] + players,
                      note=f"per game: the points a player scored for each reason (`because` in the rules) in an "
                           f"average game ({self.games} games); in brackets: its share of that player's final score. "
                           "`other`: the rest of the score, which no reason took; total: the score at the end, as the "
                           "game's `score` function gives it. A reason's points are how much the score changed where "
                           "the rules gave it, so they can be negative")

        def cell(reason: str, player: str) -> str:
            if (reason, player) not in mean:
                return "—"
            share = f" ({100 * mean[reason, player] / totals[player]:.0f}%)" if totals[player] > 0 else ""
            return f"{mean[reason, player]:.2f}{share}"

        for reason in reasons + ([OTHER] if any(key[0] == OTHER for key in points) else []):
            sheet.rows.append([reason] + [cell(reason, p) for p in players])
        sheet.rows.append(["total"] + [f"{totals[p]:.2f}" for p in players])
        return sheet
