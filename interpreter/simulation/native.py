"""A simulated game of random bots played inside the native module (backends/native.py), recorded as
`records.play_one` records it on the Python backend: the same game, decision for decision, and the
same record (log, choices by option, score curve, points by reason, first mover, kinds moved).

The module's random bots draw as the Python backend's do, each seat from its own generator seeded
`bot_seed(seed, seat)`. Another bot, game options, invariant checks, or rules the module does not
compile: `play_native` returns None, and the Python backend plays.
"""
from __future__ import annotations

from interpreter.backends.native import native_rules
from interpreter.diagnostics.errors import RefusedTable, RuleRuntimeError
from interpreter.safety.limits import LimitExceeded
from interpreter.simulation import records

TURN_LIMIT_FAILURE = 14  # the module's failure code for a game stopped at --max-turns


def play_native(ruleset, seed: int, table, seats: list[str]) -> dict | None:
    """The record of the game of `seed` at this table, or None where the module cannot play it."""
    bots = table.seat_bots(seed, len(seats))
    if any(bot != "random" for bot in bots) or table.options or table.check or not 0 <= seed < 4_000_000:
        return None
    rules = native_rules(ruleset, seats)
    if rules is None:
        return None
    game = _game_of(rules, seats)
    record = records.failed_record(seed, seats, "", None, bots)
    try:
        game.restart_recorded(seed, table.max_turns or 0)
        result = game.result
        record.update(winner=result.winner, winners=list(result.winners), scores=result.scores,
                      reason=result.reason, ending=result.ending)
    except RuleRuntimeError as error:
        if game.failure == TURN_LIMIT_FAILURE:
            record["reason"] = records.TURN_LIMIT
        else:
            record.update(reason=records.LIMIT if isinstance(error, LimitExceeded) else records.ERROR,
                          error=records.error_text(error))
    except RefusedTable as error:  # no game was set up
        record.update(reason=records.ERROR, error=records.error_text(error))
        return record
    notes = game.notes()
    record.update(turns=notes["turns"], decisions=len(notes["log"]), log=notes["log"],
                  kinds_moved=notes["kinds_moved"], option_counts=notes["option_counts"],
                  first_mover=notes["first_mover"] if notes["turns"] else notes["first_decider"])
    if ruleset.program.score is not None and record["reason"] in (records.ERROR, records.LIMIT):
        record["score_curve"] = notes["curve"]  # as far as the game went
    elif ruleset.program.score is not None:
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
