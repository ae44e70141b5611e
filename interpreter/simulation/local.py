"""Running games in local worker processes: a pool that survives a worker's death and resumes its game."""
from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from dataclasses import dataclass, field
from itertools import islice
from multiprocessing.connection import wait
from pathlib import Path
from typing import Iterable, Iterator

from interpreter.loading.ruleset import Ruleset
from interpreter.loading.stages import load_ruleset
from interpreter.simulation.results_db import WORKER
from interpreter.simulation.runner import Table, error_text, failed_record, play_one

# Local processes. Each worker plays the seeds it is sent, one record back per game; the parent
# keeps a few seeds ahead in each worker, and replaces a worker that dies.
AHEAD = 2  # seeds sent to a worker and not yet come back


@dataclass
class _Worker:
    process: multiprocessing.process.BaseProcess
    connection: multiprocessing.connection.Connection
    seeds: deque = field(default_factory=deque)  # sent, not come back; the first is being played


def _worker_ruleset(source: Ruleset | str, version: str) -> tuple[Ruleset | None, str | None]:
    """The ruleset a worker plays, or why it cannot play. Never raises: the worker then answers
    every seed with a failed record, instead of dying (and being started again, and dying...)."""
    if isinstance(source, Ruleset):
        return source, None
    try:
        ruleset = load_ruleset(source)
        if ruleset.content_hash() != version:
            return None, "the ruleset's files changed since the run started"
        return ruleset, None
    except Exception as error:
        return None, f"the worker could not load the ruleset: {error_text(error)}"


def _work(connection, source: Ruleset | str, version: str, table: Table, inherited: list) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler, inherited by fork
    for other in inherited:  # so that every worker sees the end of its pipe when the parent dies
        other.close()
    ruleset, problem = _worker_ruleset(source, version)
    try:
        while (seeds := connection.recv()) is not None:
            for seed in seeds:
                if problem is None:
                    connection.send(play_one(ruleset, seed, table))
                else:
                    connection.send(failed_record(seed, table.seating(seed) or [], WORKER, problem))
    except (EOFError, OSError):  # the parent has gone
        pass


def run_local(ruleset: Ruleset | Path | str, seeds: Iterable[int], table: Table, jobs: int) -> Iterator[dict]:
    """Records as games finish (in any order). Closing the iterator stops the workers."""
    if not isinstance(ruleset, Ruleset):
        ruleset = load_ruleset(ruleset)
    seeds = iter(seeds)
    if jobs <= 1:
        for seed in seeds:
            yield play_one(ruleset, seed, table)
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    source = ruleset if method == "fork" else str(ruleset.directory)  # a forked worker has it already
    version = ruleset.content_hash()
    given_back: deque[int] = deque()  # seeds of a dead worker, not played yet

    def next_seeds(count: int) -> list[int]:
        taken = [given_back.popleft() for _ in range(min(count, len(given_back)))]
        return taken + list(islice(seeds, count - len(taken)))

    def start(first: list[int]) -> _Worker:
        ours, theirs = context.Pipe()
        inherited = [w.connection for w in workers] + [ours] if method == "fork" else []
        process = context.Process(target=_work, args=(theirs, source, version, table, inherited), daemon=True)
        process.start()
        theirs.close()
        worker = _Worker(process, ours)
        give(worker, first)
        return worker

    def give(worker: _Worker, more: list[int]) -> None:
        worker.seeds.extend(more)
        try:
            worker.connection.send(more)
        except OSError:  # the worker has died: wait() below sees the end of its pipe
            pass

    workers: list[_Worker] = []
    try:
        while len(workers) < jobs and (first := next_seeds(AHEAD)):
            workers.append(start(first))
        while busy := {w.connection: w for w in workers if w.seeds}:
            for ready in wait(list(busy)):
                worker = busy[ready]
                try:
                    record = ready.recv()
                except Exception:  # the worker has died (or its pipe broke): the game it played is lost
                    workers.remove(worker)
                    worker.process.join(5)
                    worker.process.kill()
                    worker.connection.close()
                    seed = worker.seeds.popleft()
                    given_back.extendleft(reversed(worker.seeds))
                    if first := next_seeds(AHEAD):
                        workers.append(start(first))
                    yield failed_record(seed, table.seating(seed) or [], WORKER,
                                        f"the worker process died (exit code {worker.process.exitcode}) during this game")
                    continue
                worker.seeds.popleft()
                yield record
                if more := next_seeds(1):
                    give(worker, more)
    finally:
        for worker in workers:
            worker.process.kill()
        for worker in workers:
            worker.process.join()
            worker.connection.close()


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
