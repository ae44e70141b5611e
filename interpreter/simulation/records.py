"""What a simulated game's record holds, whichever backend played it: plain data (simulation/runner.py
on the Python backend, simulation/native.py in the native module)."""
from __future__ import annotations

import traceback
from pathlib import Path

from interpreter.diagnostics.errors import RefusedTable, RuleRuntimeError
from interpreter.reports.points import OTHER

TURN_LIMIT = "turn limit"  # the reason recorded for a game stopped by --max-turns
ERROR = "error"  # a game stopped by an error (in the rules, a bot or the engine)
LIMIT = "limit"  # a game stopped by a limit on what a rule may cost (interpreter.limits)
LONGEST_ERROR = 2000  # characters of an error message kept in a record


REFUSED_TABLE = "the rules refuse this table: "  # how a game's error begins when the rules `refuse` its table


def error_text(error: BaseException) -> str:
    """Where (file:line:column, when known), what kind of error, and its message."""
    kind = "" if type(error) is RuleRuntimeError else f"{type(error).__name__}: "
    if isinstance(error, RefusedTable):
        return f"{REFUSED_TABLE}{error}"
    if isinstance(error, RuleRuntimeError):
        where = f"{error.position}: " if error.position else ""
        text = f"{where}{kind}{error.message}"
    else:  # not the rules' own report: where in Python it happened helps to find out why
        frames = traceback.extract_tb(error.__traceback__)
        at = f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno} in {frames[-1].name})" if frames else ""
        text = f"{kind}{error}{at}"
    return text if len(text) <= LONGEST_ERROR else text[:LONGEST_ERROR] + "..."


def failed_record(seed: int, players: list[str], reason: str, error: str | None, seat_bots: list[str] = ()) -> dict:
    return {"seed": seed, "players": players, "seat_bots": list(seat_bots), "winner": None, "winners": [],
            "scores": {}, "turns": 0, "decisions": 0, "score_curve": [], "reason": reason, "error": error, "log": [],
            "ending": "", "option_counts": {}, "points_by_reason": {}, "first_mover": None, "kinds_moved": []}


def with_other(points: dict[str, dict[str, int]], final: dict[str, int]) -> dict[str, dict[str, int]]:
    """Each player's points by reason (`because`), and under `other` what of their final score no reason took."""
    table = {}
    for player, score in final.items():
        reasons = dict(points.get(player, {}))
        other = score - sum(reasons.values())
        if other:
            reasons[OTHER] = reasons.get(OTHER, 0) + other
        table[player] = reasons
    return table
