"""Simulations on a Ray cluster: the same games as local processes, spread over many machines.

`ludolex simulate GAME --backend ray` starts a local Ray when no `--address` is given. On a real
cluster, every node must see the ruleset at the same path (a shared folder), or the ruleset
folder can be shipped with Ray's runtime environment (`working_dir`).
"""
from __future__ import annotations

from itertools import islice
from pathlib import Path
from typing import Iterable, Iterator

from interpreter.loading.ruleset import Ruleset
from interpreter.simulation.results_db import WORKER
from interpreter.simulation.runner import error_text, failed_record


def run_ray(ruleset, seeds: Iterable[int], table, jobs: int, address: str | None) -> Iterator[dict]:
    """Records as chunks of games finish. A chunk whose task fails (its ruleset does not load, its
    worker dies...) comes back as failed records with the reason WORKER, like local processes."""
    try:
        import ray
    except ImportError:
        raise SystemExit("the Ray backend needs Ray: pip install 'ludolex[ray]'") from None
    folder = ruleset.directory if isinstance(ruleset, Ruleset) else Path(ruleset)
    version = ruleset.content_hash() if isinstance(ruleset, Ruleset) else None
    started_here = not ray.is_initialized()
    if started_here:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False)

    @ray.remote
    def play_chunk(folder: str, chunk: list[int], table, version: str | None) -> list[dict]:
        from interpreter.loading.stages import load_ruleset
        from interpreter.simulation.results_db import WORKER
        from interpreter.simulation.runner import error_text, failed_record, play_one

        try:
            ruleset = load_ruleset(folder)
            problem = None if version in (None, ruleset.content_hash()) else "the ruleset's files changed since the run started"
        except Exception as error:
            problem = f"the worker could not load the ruleset: {error_text(error)}"
        if problem:
            return [failed_record(seed, table.seating(seed) or [], WORKER, problem) for seed in chunk]
        return [play_one(ruleset, seed, table) for seed in chunk]

    seeds = iter(seeds)
    size = 20
    pending = {}  # task: its seeds
    try:
        while True:
            while len(pending) < jobs * 4 and (chunk := list(islice(seeds, size))):
                pending[play_chunk.remote(str(Path(folder).resolve()), chunk, table, version)] = chunk
            if not pending:
                return
            done, _ = ray.wait(list(pending), num_returns=1)
            chunk = pending.pop(done[0])
            try:
                records = ray.get(done[0])
            except Exception as error:  # the task failed or its worker died
                records = [failed_record(seed, table.seating(seed) or [], WORKER, error_text(error)) for seed in chunk]
            yield from records
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started_here and not address:
            ray.shutdown()
