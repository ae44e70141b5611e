"""A simulated game of random bots played inside the native module (backends/native.py), recorded as
`runner.play_one` records it on the Python backend: the same game, decision for decision, and the
same record (log, choices by option, score curve, points by reason, first mover, kinds moved).

The module's random bots draw as the Python backend's do, each seat from its own generator seeded
`bot_seed(seed, seat)`. Another bot, game options, invariant checks, rules the module does not
compile, or a game that stops on an error (whose record says it in the Python backend's words):
`play_native` returns None, and the Python backend plays.

Only with LUDOLEX_NATIVE=1, for now: where the rules misuse a value (none in arithmetic, a location's
attribute read of a player), the Python backend stops with a rule error and the module goes on, so a
designer's broken rules would not be told apart.
"""
from __future__ import annotations

import os

from interpreter.backends.native import native_rules
from interpreter.simulation import records

TURN_LIMIT_FAILURE = 14  # the module's failure code for a game stopped at --max-turns


def play_native(ruleset, seed: int, table, seats: list[str]) -> dict | None:
    """The record of the game of `seed` at this table, or None where the module does not play it."""
    if os.environ.get("LUDOLEX_NATIVE") != "1":
        return None
    bots = table.seat_bots(seed, len(seats))
    if any(bot != "random" for bot in bots) or table.options or table.check or not 0 <= seed < 4_000_000:
        return None
    rules = native_rules(ruleset, seats)
    if rules is None:
        return None
    try:
        game = _game_of(rules, seats)
    except Exception:  # noqa: BLE001 - the game cannot start here: the Python backend says why
        return None
    try:
        game.restart_recorded(seed, table.max_turns or 0)
    except Exception:  # noqa: BLE001 - an error, a limit, a refused table: the Python backend says it
        if game.failure != TURN_LIMIT_FAILURE:
            return None
    record = records.failed_record(seed, seats, "", None, bots)
    if game.result is not None:
        result = game.result
        record.update(winner=result.winner, winners=list(result.winners), scores=result.scores,
                      reason=result.reason, ending=result.ending)
    else:
        record["reason"] = records.TURN_LIMIT
    notes = game.notes()
    record.update(turns=notes["turns"], decisions=len(notes["log"]), log=notes["log"],
                  kinds_moved=notes["kinds_moved"], option_counts=notes["option_counts"],
                  first_mover=notes["first_mover"] if notes["turns"] else notes["first_decider"])
    if ruleset.program.score is not None:
        final = notes["scores"]
        record["score_curve"] = notes["curve"] + [[notes["turns"] + 1, final]]
        record["points_by_reason"] = records.with_other(notes["points"], final)
        if not record["scores"]:
            record["scores"] = final
    return record


def _game_of(rules, seats: list[str]):
    """One game instance per compiled table and order of its players, kept for the games a worker plays."""
    from interpreter.backends.wasm.program import WasmGame

    games = rules.__dict__.setdefault("recorded", {})
    if tuple(seats) not in games:
        games[tuple(seats)] = WasmGame(rules, 0, seats)
    return games[tuple(seats)]
