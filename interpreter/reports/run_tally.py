"""One pass over a run's games for its whole report: each game, as it is read from the results
database, is added to the tally of each part of the report, which keeps counts and sums rather than
the games (see `summary.Tally`); so a report of any number of games holds one game at a time. The
games that did not end count in the overview and the list of failures only.
"""
from __future__ import annotations

from interpreter.reports.failures import Failures
from interpreter.reports.points import PointsTally
from interpreter.reports.seats import SeatTally
from interpreter.reports.summary import Record, SummaryTally, Tally
from interpreter.reports.usage import UsageTally


class RunTally(Tally):
    """The tallies of every part of a run's report. `usage`: count the options chosen too;
    `failures_kept`: how many of the games that did not end to keep for their list (None: all)."""

    def __init__(self, usage: bool = True, failures_kept: int | None = None):
        self.failures = Failures(failures_kept)
        self.everyone = SeatTally()  # every game
        self.days: list[str] = []  # the first and the last day a game was stored
        self.ended = SeatTally()  # the games that ended, as every other tally
        self.summary = SummaryTally()
        self.points = PointsTally()
        self.usage = UsageTally() if usage else None

    def add(self, record: Record) -> None:
        self.failures.add(record)
        self.everyone.add(record)
        if record.get("finished_at"):
            day = record["finished_at"][:10]
            self.days = [min(self.days[0], day), max(self.days[1], day)] if self.days else [day, day]
        if record.get("error") is None:
            for tally in (self.ended, self.summary, self.points, self.usage):
                if tally is not None:
                    tally.add(record)
