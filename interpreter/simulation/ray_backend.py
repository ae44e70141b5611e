"""Simulations on a Ray cluster: the same games as local processes, spread over many machines.

`ludolex simulate GAME --backend ray` starts a local Ray when no `--address` is given. On a cluster
(`ray start --head` on one machine, `ray start --address=HEAD:6379` on the others, then
`ludolex simulate GAME --backend ray --address HEAD:6379` on the head), the ruleset goes with the
job: the driver packs the files it reads (`shipping.pack`) into Ray's object store once, and each
worker process unpacks them into a temporary folder of its own once per ruleset version, loads the
ruleset from there and checks that its version is the driver's. No node needs the game's files.

The games go out as tasks of CHUNK seeds. A task whose worker or node dies is played again by Ray
elsewhere (RETRIES times); only a chunk that cannot be played comes back as failed records with the
reason WORKER, which a resumed run plays again.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path

from interpreter.agents.bots import rule_of_thumb_files
from interpreter.agents.rule_of_thumb import Policy, policy_path
from interpreter.loading.ruleset import Ruleset
from interpreter.loading.stages import load_ruleset
from interpreter.simulation.results_db import WORKER
from interpreter.simulation.runner import Table, error_text, failed_record, play_one
from interpreter.simulation.shipping import pack, top_folder, unpack

CHUNK = 20  # seeds per task
RETRIES = 3  # times a task is started again after its worker or node died
AHEAD = 4  # tasks in flight per CPU

# In a worker process: the ruleset of each version and bots it has unpacked (or why it cannot be
# played), and the folder it was unpacked into.
_unpacked: dict[tuple[str, tuple[str, ...]], tuple[Ruleset | None, str | None, str]] = {}


def run_ray(ruleset: Ruleset | Path | str, seeds: Iterable[int], table: Table, jobs: int,
            address: str | None) -> Iterator[dict]:
    """Records as chunks of games finish. `jobs`: the CPUs of a local Ray started here (a cluster's
    own CPUs are all used)."""
    try:
        import ray
    except ImportError:
        raise SystemExit("the Ray backend needs Ray: pip install 'ludolex[ray]'") from None
    if not isinstance(ruleset, Ruleset):
        ruleset = load_ruleset(ruleset)
    version, origin = ruleset.content_hash(), str(top_folder(ruleset))
    archive = pack(ruleset)
    local = not ray.is_initialized() and not address
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False)
    cpus = max(jobs, int(ray.cluster_resources().get("CPU", 0)))
    # the archive goes in a list: Ray then passes its reference, which a worker reads only the first time
    shipped = [ray.put(archive)]
    play = ray.remote(max_retries=RETRIES)(play_chunk)
    seeds = iter(seeds)
    pending = {}  # task: its seeds
    try:
        while True:
            while len(pending) < cpus * AHEAD and (chunk := list(islice(seeds, CHUNK))):
                pending[play.remote(shipped, version, origin, chunk, table)] = chunk
            if not pending:
                return
            done, _ = ray.wait(list(pending), num_returns=1)
            chunk = pending.pop(done[0])
            try:
                records = ray.get(done[0])
            except Exception as error:  # the task failed, or its worker or node died RETRIES + 1 times
                records = [failed_record(seed, table.seating(seed) or [], WORKER, error_text(error)) for seed in chunk]
            yield from records
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if local:
            ray.shutdown()


def play_chunk(shipped: list, version: str, origin: str, chunk: list[int], table: Table) -> list[dict]:
    """The records of a chunk's games (a Ray task). `origin`: where the driver's files lie, named in
    place of this worker's folder in the games' errors."""
    if (version, table.bots) not in _unpacked:
        import ray

        _unpacked[version, table.bots] = _load_shipped(ray.get(shipped[0]), version, table.bots)
    ruleset, problem, folder = _unpacked[version, table.bots]
    if problem:
        records = [failed_record(seed, table.seating(seed) or [], WORKER, problem) for seed in chunk]
    else:
        records = [play_one(ruleset, seed, table) for seed in chunk]
    for record in records:
        if record["error"]:
            record["error"] = record["error"].replace(folder, origin)
    return records


def _load_shipped(archive: bytes, version: str, bots: tuple[str, ...]) -> tuple[Ruleset | None, str | None, str]:
    """The ruleset unpacked into a temporary folder and loaded, with the rule-of-thumb bots `bots`
    play by, or why it cannot be played. The folder is removed once they are read (Ray ends its
    workers without their exit handlers); kept only where a bot cannot be read, for its games to
    fail as they do locally."""
    folder = os.path.realpath(tempfile.mkdtemp(prefix="ludolex-ruleset-"))
    ruleset, problem = None, None
    try:
        ruleset = load_ruleset(unpack(archive, Path(folder)))
    except Exception as error:
        problem = f"the worker could not load the ruleset: {error_text(error)}"
    if ruleset is not None and ruleset.content_hash() != version:
        ruleset, problem = None, (f"the ruleset loaded from the shipped files is version {ruleset.content_hash()}, "
                                  f"not the run's {version} (a base game found among this worker's shipped games?)")
    if ruleset is None or _read_bots(ruleset, bots):
        shutil.rmtree(folder, ignore_errors=True)
    return ruleset, problem, folder


def _read_bots(ruleset: Ruleset, bots: tuple[str, ...]) -> bool:
    """Read the rule-of-thumb bots that `bots` play by, as the games would; whether every one could be."""
    try:
        for name in {policy for bot in bots for policy in rule_of_thumb_files(bot, ruleset)}:
            if name not in ruleset.policies:
                ruleset.policies[name] = Policy(policy_path(ruleset, name), ruleset)
    except Exception:
        return False
    return True
