"""Many bot games, on local processes (or a Ray cluster), each one reproducible from its seed."""
from __future__ import annotations

import multiprocessing
import os
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from .agents import RandomAgent, make_agent
from .diagnostics import RuleRuntimeError
from .game import Game
from .ruleset import Ruleset, load_ruleset

TURN_LIMIT = "turn limit"  # the reason recorded for a game stopped by --max-turns


@dataclass(frozen=True)
class Table:
    """How the simulated games are played: the bots of the seats, who sits at the table (in
    order; the seating turns by one each game, so each player is first as often), the turn
    limit, and whether the invariants are checked after every step."""
    bots: tuple[str, ...] = ("random",)
    players: tuple[str, ...] | None = None
    max_turns: int | None = None
    check: bool = False

    def key(self) -> str:
        """The name of this kind of run in the results database."""
        parts = [",".join(self.bots)]
        if self.players:
            parts.append("players=" + ",".join(self.players))
        if self.max_turns:
            parts.append(f"max_turns={self.max_turns}")
        return " ".join(parts)

    def seating(self, seed: int) -> list[str] | None:
        if not self.players:
            return None
        shift = seed % len(self.players)
        return list(self.players[shift:] + self.players[:shift])


def bot_seed(game_seed: int, seat: int) -> int:
    return game_seed * 1000 + seat


def play_one(ruleset: Ruleset, seed: int, table: Table = Table()) -> dict:
    """One whole game between bots: a record of its result, length, score curve and choices."""
    game = Game(ruleset, seed=seed, players=table.seating(seed))
    players = game.players
    agents = {p: make_agent(table.bots[i % len(table.bots)], ruleset, game, bot_seed(seed, i)) for i, p in enumerate(players)}
    score = ruleset.program.functions.get(ruleset.manifest.score) if ruleset.manifest.score else None
    totals = ruleset.component_totals() if table.check else None
    curve, turn = [], 0
    record = {"seed": seed, "players": list(players), "winner": None, "scores": {}, "turns": 0,
              "decisions": 0, "score_curve": curve, "reason": "", "error": None}
    try:
        while not game.finished:
            if game.state.turns != turn:  # the first decision of a new turn
                turn = game.state.turns
                if table.max_turns and turn > table.max_turns:
                    break
                if score is not None:
                    curve.append([turn, {p: score(game.runtime, p) for p in players}])
            decision = game.decision
            game.choose(agents[decision.player].choose(decision))
            if totals is not None:
                game.state.check_invariants(totals)
        if game.finished:
            record.update(winner=game.result.winner, scores=game.result.scores, reason=game.result.reason)
        else:
            record["reason"] = TURN_LIMIT
        if score is not None and not record["scores"]:
            record["scores"] = {p: score(game.runtime, p) for p in players}
    except RuleRuntimeError as error:
        record["error"] = str(error)
    except AssertionError as error:  # an invariant broken
        record["error"] = f"invariant broken after decision {len(game.log)}: {error}"
    record.update(turns=game.state.turns, decisions=len(game.log), log=list(game.log))
    return record


# Local processes: each worker loads the ruleset once.
_worker: dict = {}


def _start_worker(path: str, table: Table) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _worker["ruleset"], _worker["table"] = load_ruleset(path), table


def _play_seed(seed: int) -> dict:
    return play_one(_worker["ruleset"], seed, _worker["table"])


def run_local(path: Path, seeds: Iterable[int], table: Table, jobs: int) -> Iterator[dict]:
    """Records as games finish (in any order). Closing the iterator stops the workers."""
    seeds = list(seeds)
    if jobs <= 1:
        ruleset = load_ruleset(path)
        for seed in seeds:
            yield play_one(ruleset, seed, table)
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = multiprocessing.get_context(method).Pool(jobs, initializer=_start_worker, initargs=(str(path), table))
    try:
        chunk = max(1, min(50, len(seeds) // (jobs * 8) or 1))
        yield from pool.imap_unordered(_play_seed, seeds, chunksize=chunk)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def run(path: Path, seeds: Iterable[int], table: Table, jobs: int, backend: str = "local",
        address: str | None = None) -> Iterator[dict]:
    if backend == "ray":
        from .ray_backend import run_ray

        return run_ray(path, seeds, table, jobs, address)
    return run_local(path, seeds, table, jobs)


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)

