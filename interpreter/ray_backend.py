"""Simulations on a Ray cluster: the same games as local processes, spread over many machines.

`ludolex simulate GAME --backend ray` starts a local Ray when no `--address` is given. On a real
cluster, every node must see the ruleset at the same path (a shared folder), or the ruleset
folder can be shipped with Ray's runtime environment (`working_dir`).
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, Iterator


def run_ray(path: Path, seeds: Iterable[int], table, jobs: int, address: str | None) -> Iterator[dict]:
    try:
        import ray
    except ImportError:
        raise SystemExit("the Ray backend needs Ray: pip install 'ludolex[ray]'") from None
    seeds = list(seeds)
    started_here = not ray.is_initialized()
    if started_here:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False)

    @ray.remote
    def play_chunk(folder: str, chunk: list[int], table) -> list[dict]:
        from interpreter.ruleset import load_ruleset
        from interpreter.simulation import play_one

        ruleset = load_ruleset(folder)
        return [play_one(ruleset, seed, table) for seed in chunk]

    size = max(1, min(100, len(seeds) // (jobs * 4) or 1))
    pending = [play_chunk.remote(str(Path(path).resolve()), seeds[i:i + size], table) for i in range(0, len(seeds), size)]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(done[0])
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started_here and not address:
            ray.shutdown()
