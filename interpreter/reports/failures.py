"""The games that did not end: how many, said in the report's first line, and each one listed with its
seed, its error and the command that replays it to the error.

A record that failed has an `error` and a `reason`: "limit" (a rule ran past a limit of what it may
cost), "worker" (its worker process died or could not load the rules: a resumed run plays it again),
or anything else (an error in the rules, a bot or the engine).
"""
from __future__ import annotations

from typing import Sequence

from interpreter.reports.summary import Record, Sheet

HOW_THEY_STOPPED = {"limit": "stopped by a limit",
                    "worker": "lost with their worker process (played again by the next run)"}
ON_AN_ERROR = "stopped on an error"
LONGEST_LINE = 300  # characters of an error's first line in the terminal


def failed(records: Sequence[Record]) -> list[Record]:
    return [r for r in records if r.get("error") is not None]


def finished(records: Sequence[Record]) -> list[Record]:
    return [r for r in records if r.get("error") is None]


def counts_text(records: Sequence[Record]) -> str:
    """`30 finished, 2 stopped on an error`: the games by how they ended, those that failed by why."""
    parts = [f"{len(finished(records))} finished"]
    stopped = [r.get("reason") for r in failed(records)]
    for reason, words in HOW_THEY_STOPPED.items():
        if stopped.count(reason):
            parts.append(f"{stopped.count(reason)} {words}")
    others = sum(reason not in HOW_THEY_STOPPED for reason in stopped)
    if others:
        parts.append(f"{others} {ON_AN_ERROR}")
    return ", ".join(parts)


def header_line(records: Sequence[Record], title: str) -> str:
    return f"{title}: {len(records)} game(s): {counts_text(records)}"


def first_line(error: str) -> str:
    return (error.splitlines() or [""])[0][:LONGEST_LINE]


def failure_lines(records: Sequence[Record], shown: int) -> list[str]:
    """The first `shown` failed games, one line each, and how many more there are."""
    stopped = failed(records)
    lines = [f"  seed {r['seed']}: {r.get('reason') or 'error'}: {first_line(r['error'])}" for r in stopped[:shown]]
    if len(stopped) > shown:
        lines.append(f"  ... and {len(stopped) - shown} more, each kept in the database with its error "
                     "(the page of `ludolex report DB --plots DIR` lists them all)")
    return lines


def failures_sheet(records: Sequence[Record], replay: str = "") -> Sheet | None:
    """Every failed game: its seed, why it stopped, its error and (with `replay`, a command holding
    `{seed}`) the command that replays it to its error."""
    stopped = failed(records)
    if not stopped:
        return None
    columns = ["Seed", "Stopped by", "Error"] + (["Replay to the error"] if replay else [])
    sheet = Sheet(f"Games that did not end ({len(stopped)})", columns,
                  note="these games are left out of every other table and figure", text_columns=len(columns))
    for r in stopped:
        row = [str(r["seed"]), r.get("reason") or "error", r["error"]]
        sheet.rows.append(row + ([replay.format(seed=r["seed"])] if replay else []))
    return sheet
