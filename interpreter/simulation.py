"""Many bot games, on local processes (or a Ray cluster), each one reproducible from its seed."""
from __future__ import annotations

import multiprocessing
import os
import signal
from pathlib import Path
from typing import Iterable, Iterator

from .agents import RandomAgent
from .diagnostics import RuleRuntimeError
from .game import Game
from .ruleset import Ruleset, load_ruleset

BOTS = {"random": RandomAgent}


def bot_seed(game_seed: int, seat: int) -> int:
    return game_seed * 1000 + seat


def play_one(ruleset: Ruleset, seed: int, bots: list[str]) -> dict:
    """One whole game between bots: a record of its result, length, score curve and choices."""
    players = ruleset.program.players
    agents = {p: BOTS[bots[i % len(bots)]](bot_seed(seed, i)) for i, p in enumerate(players)}
    score = ruleset.program.functions.get(ruleset.manifest.score) if ruleset.manifest.score else None
    game = Game(ruleset, seed=seed)
    curve, turn = [], 0
    record = {"seed": seed, "players": list(players), "winner": None, "scores": {}, "turns": 0,
              "decisions": 0, "score_curve": curve, "reason": "", "error": None}
    try:
        while not game.finished:
            if score is not None and game.state.turns != turn:  # the first decision of a new turn
                turn = game.state.turns
                curve.append([turn, {p: score(game.runtime, p) for p in players}])
            decision = game.decision
            game.choose(agents[decision.player].choose(decision))
        record.update(winner=game.result.winner, scores=game.result.scores, reason=game.result.reason)
        if score is not None and not record["scores"]:
            record["scores"] = {p: score(game.runtime, p) for p in players}
    except RuleRuntimeError as error:
        record["error"] = str(error)
    record.update(turns=game.state.turns, decisions=len(game.log), log=list(game.log))
    return record


# Local processes: each worker loads the ruleset once.
_worker: dict = {}


def _start_worker(path: str, bots: list[str]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _worker["ruleset"], _worker["bots"] = load_ruleset(path), bots


def _play_seed(seed: int) -> dict:
    return play_one(_worker["ruleset"], seed, _worker["bots"])


def run_local(path: Path, seeds: Iterable[int], bots: list[str], jobs: int) -> Iterator[dict]:
    """Records as games finish (in any order). Closing the iterator stops the workers."""
    seeds = list(seeds)
    if jobs <= 1:
        ruleset = load_ruleset(path)
        for seed in seeds:
            yield play_one(ruleset, seed, bots)
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = multiprocessing.get_context(method).Pool(jobs, initializer=_start_worker, initargs=(str(path), bots))
    try:
        chunk = max(1, min(50, len(seeds) // (jobs * 8) or 1))
        yield from pool.imap_unordered(_play_seed, seeds, chunksize=chunk)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def run(path: Path, seeds: Iterable[int], bots: list[str], jobs: int, backend: str = "local",
        address: str | None = None) -> Iterator[dict]:
    if backend == "ray":
        from .ray_backend import run_ray

        return run_ray(path, seeds, bots, jobs, address)
    return run_local(path, seeds, bots, jobs)


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)

