"""Where many games run: local processes, or a Ray cluster."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, Iterator

from interpreter.loading.ruleset import Ruleset
from interpreter.simulation.local import run_local
from interpreter.simulation.runner import Table


def run(ruleset: Ruleset | Path | str, seeds: Iterable[int], table: Table, jobs: int, backend: str = "local",
        address: str | None = None) -> Iterator[dict]:
    if backend == "ray":
        from interpreter.simulation.ray_backend import run_ray

        return run_ray(ruleset, seeds, table, jobs, address)
    return run_local(ruleset, seeds, table, jobs)
