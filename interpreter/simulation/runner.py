"""One bot game from its seed, as a record of plain data (what every backend runs).

Whatever the rules do, a game comes back as a record of plain data: a game that fails (any
exception) is a record with its `error` text and the `reason` ERROR or LIMIT, and a worker process
that dies or cannot load the ruleset gives its games the reason WORKER (played again on a resumed run).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Sequence

from interpreter.agents.bots import make_agent
from interpreter.loading.ruleset import Ruleset
from interpreter.play.game import Game
from interpreter.safety.limits import LimitExceeded
from interpreter.simulation.native import play_native
from interpreter.simulation.records import (  # noqa: F401 (what other modules import from here)
    ERROR,
    LIMIT,
    REFUSED_TABLE,
    TURN_LIMIT,
    error_text,
    failed_record,
    with_other,
)
from interpreter.simulation.usage import count_choice


@dataclass(frozen=True)
class Table:
    """How the simulated games are played: the bots (one name per seat, in turn), who sits at the
    table (in order; default every player of the game), the turn limit, whether the invariants are
    checked after every step, and whether the seats are fixed.

    Unless `fixed_seats`, the seating turns: the players by one seat each game, the bots by one seat
    every n games (n seats), so that over n * n games in a row each player sits in each seat n times
    and is played by each bot n times (a bot named for several seats, as often as it is named)."""
    bots: tuple[str, ...] = ("random",)
    players: tuple[str, ...] | None = None
    max_turns: int | None = None
    check: bool = False
    options: tuple[tuple[str, object], ...] = ()  # the game's options chosen otherwise than their default
    fixed_seats: bool = False

    def key(self) -> str:
        """The name of this kind of run in the results database."""
        parts = [",".join(self.bots)]
        if self.players:
            parts.append("players=" + ",".join(self.players))
        if self.max_turns:
            parts.append(f"max_turns={self.max_turns}")
        parts.append("seats=fixed" if self.fixed_seats else "seats=rotating")  # older runs say neither
        parts += [f"{name}={value}" for name, value in self.options]
        return " ".join(parts)

    def seating(self, seed: int, everyone: Sequence[str] = ()) -> list[str] | None:
        """Who sits where in the game of `seed`: the table's players, or else `everyone` (None: unknown)."""
        players = list(self.players or everyone)
        if not players:
            return None
        shift = 0 if self.fixed_seats else seed % len(players)
        return players[shift:] + players[:shift]

    def seat_bots(self, seed: int, seats: int) -> list[str]:
        """The bot of each seat in the game of `seed`."""
        bots = [self.bots[i % len(self.bots)] for i in range(seats)]
        shift = 0 if self.fixed_seats or not seats else seed // seats % seats
        return bots[shift:] + bots[:shift]


RESERVED = ("players", "max_turns", "seats")  # the words of a run's key that are not game options


def options_of_key(key: str) -> list[tuple[str, str]]:
    """The game options a run's key (`Table.key`) names, as (name, value)."""
    words = [word.partition("=") for word in key.split(" ")[1:]]
    return [(name, value) for name, equals, value in words if equals and name not in RESERVED]


def bot_seed(game_seed: int, seat: int) -> int:
    return game_seed * 1000 + seat


def play_one(ruleset: Ruleset, seed: int, table: Table = Table()) -> dict:
    """One whole game between bots: a record of its result, length, score curve, choices (`log`), how
    often each player chose each option (`option_counts`, see `simulation.usage`), who moved first
    (`first_mover`: the player of the first turn; in rules without turns, of the first decision), the
    kinds of the components that moved (`kinds_moved`: drawn, placed...) and, when the game has a
    score, each player's points by reason (`because`) with `other` for the rest of their score.

    Never raises (but for Ctrl-C): a game that fails is a record with its error."""
    seats = table.seating(seed, ruleset.program.table)
    native = play_native(ruleset, seed, table, seats)
    if native is not None:
        return native
    record = failed_record(seed, seats, "", None, table.seat_bots(seed, len(seats)))
    game = totals = first_decider = None
    try:
        totals = ruleset.component_totals(dict(table.options)) if table.check else None
        game = Game(ruleset, seed=seed, players=seats, options=dict(table.options))
        players = game.players
        agents = {p: make_agent(record["seat_bots"][i], ruleset, game, bot_seed(seed, i)) for i, p in enumerate(players)}
        places, counts = ruleset.board.index, record["option_counts"]
        score = ruleset.program.score
        curve, turn = record["score_curve"], 0
        while not game.finished:
            if game.state.turns != turn:  # the first decision of a new turn
                turn = game.state.turns
                record["first_mover"] = record["first_mover"] or game.runtime.turn_player
                if table.max_turns and turn > table.max_turns:
                    break
                if score is not None:
                    curve.append([turn, {p: score(game.runtime, p) for p in players}])
            decision = game.decision
            first_decider = first_decider or decision.player
            index = decision.index_of(agents[decision.player].choose(decision))
            count_choice(counts, decision, index, places)
            game.choose(index)
            if totals is not None:
                game.state.check_invariants(totals)
        if game.finished:
            record.update(winner=game.result.winner, winners=list(game.result.winners), scores=game.result.scores,
                          reason=game.result.reason, ending=game.result.ending)
        else:
            record["reason"] = TURN_LIMIT
        if score is not None:
            final = {p: score(game.runtime, p) for p in players}
            curve.append([game.state.turns + 1, final])  # the final position, as if the next turn started
            record["points_by_reason"] = with_other(game.runtime.points_by_reason.by_player, final)
            if not record["scores"]:
                record["scores"] = final
    except LimitExceeded as error:
        record.update(reason=LIMIT, error=error_text(error))
    except AssertionError as error:  # an invariant broken (--check), or an assertion of the engine
        broken = totals is not None and game is not None
        record.update(reason=ERROR, error=f"invariant broken after decision {len(game.log)}: {error}" if broken else error_text(error))
    except Exception as error:  # whatever the rules or a bot make the engine do, the run goes on
        record.update(reason=ERROR, error=error_text(error))
    if game is not None:
        record.update(turns=game.state.turns, decisions=len(game.log), log=list(game.log),
                      kinds_moved=sorted(game.state.moved_kinds))
        if not game.state.turns:  # rules without turns: who decided first
            record["first_mover"] = first_decider
    try:  # what the results database stores: plain data, the winners' names
        json.dumps(record)
        if not (record["winner"] is None or isinstance(record["winner"], str)):
            raise TypeError(f"the winner is {record['winner']!r}, not a player")
        if not all(isinstance(w, str) for w in record["winners"]):
            raise TypeError(f"the winners are {record['winners']!r}, not players")
    except (TypeError, ValueError) as error:
        record = failed_record(seed, record["players"], ERROR, f"the game's result is not plain data: {error}",
                               record["seat_bots"])
    return record
