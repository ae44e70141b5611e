"""The two sides of `compare`: each seed played by version A and by version B with the same seating and
bots, each game stored as it ends (a stopped compare resumes), read back as pairs.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from contextlib import closing
from dataclasses import dataclass

from interpreter.loading.ruleset import Ruleset
from interpreter.reports.summary import winners_of
from interpreter.simulation.backends import run
from interpreter.simulation.results_db import Results
from interpreter.simulation.runner import Table


@dataclass(frozen=True)
class Side:
    label: str  # as the command names it: `root`, `rulesets/my_variant`
    ruleset: Ruleset
    table: Table

    @property
    def version(self) -> str:
        return self.ruleset.content_hash()


def play_side(results: Results, side: Side, seeds: range, jobs: int, backend: str = "local",
              address: str | None = None) -> int:
    """Play the seeds of `seeds` that `side` has not played yet, storing each game; how many were played."""
    version, key = side.version, side.table.key()
    done = results.seeds_done(version, key, seeds)
    todo = [s for s in seeds if s not in done]
    with closing(run(side.ruleset, todo, side.table, jobs, backend, address)) as stream:
        for record in stream:
            results.add(side.ruleset.name, version, key, record)
    return len(todo)


def side_records(results: Results, side: Side, seeds: range) -> list[dict]:
    """The stored games of `side` over `seeds`, each with the digest of its choices (`log_digest`) in place
    of the choices themselves: enough to tell two games apart, read one game at a time."""
    records = []
    for record in results.iter_records(side.version, side.table.key(), seeds, with_log=True):
        record["log_digest"] = hashlib.sha256(json.dumps(record.pop("log")).encode()).hexdigest()
        records.append(record)
    return records


def win_differences(a: dict, b: dict, players: Iterable[str]) -> dict[str, int]:
    """Each player's won in B - won in A (-1, 0 or +1) in one pair; a shared win counts for each winner."""
    won_a, won_b = set(winners_of(a)), set(winners_of(b))
    return {p: (p in won_b) - (p in won_a) for p in players}
