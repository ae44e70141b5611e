"""The games that did not end: how many, said in the report's first line, and each one listed with its
seed, its error and the command that replays it to the error.

A record that failed has an `error` and a `reason`: "limit" (a rule ran past a limit of what it may
cost), "worker" (its worker process died or could not load the rules: a resumed run plays it again),
or anything else (an error in the rules, a bot or the engine).
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable

from interpreter.reports.summary import Record, Sheet, Tally

HOW_THEY_STOPPED = {"limit": "stopped by a limit",
                    "worker": "lost with their worker process (played again by the next run)"}
ON_AN_ERROR = "stopped on an error"
LONGEST_LINE = 300  # characters of an error's first line in the terminal


class Failures(Tally):
    """The games of a run by how they ended, added one at a time: how many finished, how many failed
    and why, and the first `kept` of those that failed (None: every one), for the lines and the table
    that list them."""

    def __init__(self, kept: int | None = None):
        self.kept = kept
        self.games = 0
        self.finished = 0
        self.reasons: Counter = Counter()  # the failed games by reason
        self.stopped: list[Record] = []  # the first failed games, up to `kept`: seed, reason, error

    def add(self, record: Record) -> None:
        self.games += 1
        if record.get("error") is None:
            self.finished += 1
            return
        self.reasons[record.get("reason")] += 1
        if self.kept is None or len(self.stopped) < self.kept:
            self.stopped.append({key: record.get(key) for key in ("seed", "reason", "error")})

    @property
    def failed(self) -> int:
        return self.games - self.finished

    def counts_text(self) -> str:
        """`30 finished, 2 stopped on an error`: the games by how they ended, those that failed by why."""
        parts = [f"{self.finished} finished"]
        for reason, words in HOW_THEY_STOPPED.items():
            if self.reasons[reason]:
                parts.append(f"{self.reasons[reason]} {words}")
        others = sum(n for reason, n in self.reasons.items() if reason not in HOW_THEY_STOPPED)
        if others:
            parts.append(f"{others} {ON_AN_ERROR}")
        return ", ".join(parts)

    def header_line(self, title: str) -> str:
        return f"{title}: {self.games} game(s): {self.counts_text()}"

    def lines(self, shown: int) -> list[str]:
        """The first `shown` failed games (at most `kept`), one line each, and how many more there are."""
        lines = [f"  seed {r['seed']}: {r['reason'] or 'error'}: {first_line(r['error'])}"
                 for r in self.stopped[:shown]]
        if self.failed > shown:
            lines.append(f"  ... and {self.failed - shown} more, each kept in the database with its error "
                         "(the page of `ludolex report DB --plots DIR` lists them all)")
        return lines

    def sheet(self, replay: str = "") -> Sheet | None:
        """The failed games kept: their seeds, why they stopped, their errors and (with `replay`, a command
        holding `{seed}`) the commands that replay them to their errors."""
        if not self.failed:
            return None
        columns = ["Seed", "Stopped by", "Error"] + (["Replay to the error"] if replay else [])
        note = "these games are left out of every other table and figure"
        if len(self.stopped) < self.failed:
            note += f"; the first {len(self.stopped)} listed, each kept in the database with its error"
        sheet = Sheet(f"Games that did not end ({self.failed})", columns, note=note, text_columns=len(columns))
        for r in self.stopped:
            row = [str(r["seed"]), r["reason"] or "error", r["error"]]
            sheet.rows.append(row + ([replay.format(seed=r["seed"])] if replay else []))
        return sheet


def finished(records: Iterable[Record]) -> list[Record]:
    return [r for r in records if r.get("error") is None]


def first_line(error: str) -> str:
    return (error.splitlines() or [""])[0][:LONGEST_LINE]

