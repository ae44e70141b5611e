#!/usr/bin/env python3
"""Games per second of `simulate --backend ray` on a Ray cluster of 1, 2 and 3 nodes on this machine.

    .venv/bin/python tools/bench_ray_cluster.py                                  # 200 Root games, 4 players
    .venv/bin/python tools/bench_ray_cluster.py --game cernunos --games 200 --kill
    .venv/bin/python tools/bench_ray_cluster.py --game root --games 120 --nodes 1,3 --kill

The seeds are first played in this process (`jobs=1`), for reference. Then, for each node count, a
new cluster is started (`ray.cluster_utils.Cluster`: a head and N-1 worker nodes, --cpus each) and
simulate's backend (`interpreter.simulation.backends.run`, `--backend ray --address`) plays the same
seeds on it: the ruleset goes with the job, each worker process unpacks and loads it once. Each row
gives the seconds until the first record came back (starting and loading included), the whole
run's seconds and games per second, and whether its records are identical to the reference's.

--kill: in each cluster of 2 nodes or more, one worker node is removed (its processes killed, as a
crashed machine) once a third of the games are back; the chunks it was playing are played again on
the other nodes, and the run's records are still complete and identical.

Nodes on one machine share its cores: the figures show the mechanism (shipping, scheduling,
replaying a lost node's chunks), not a speed-up; on a machine with fewer cores than nodes × --cpus,
more nodes are no faster.
"""
from __future__ import annotations

import argparse
import time
from contextlib import closing

from interpreter.loading.stages import load_ruleset
from interpreter.simulation.backends import run
from interpreter.simulation.local import default_jobs
from interpreter.simulation.results_db import WORKER
from interpreter.simulation.runner import Table

STORE = 80 * 2**20  # each node's object store: the least Ray allows; the archive and the chunks are small


def by_seed(records: list[dict]) -> list[dict]:
    return sorted(records, key=lambda record: record["seed"])


def start_cluster(nodes: int, cpus: int):
    """A head and nodes-1 worker nodes on this machine, this process connected as the driver."""
    import ray
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": cpus, "object_store_memory": STORE,
                                                             "include_dashboard": False})
    workers = [cluster.add_node(num_cpus=cpus, object_store_memory=STORE) for _ in range(nodes - 1)]
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, log_to_driver=False)
    return cluster, workers


def play_on_cluster(ruleset, seeds: range, table: Table, nodes: int, cpus: int, kill: bool) -> dict:
    import ray

    cluster, workers = start_cluster(nodes, cpus)
    records, first, removed = [], None, None
    try:
        start = time.perf_counter()
        with closing(run(ruleset, seeds, table, nodes * cpus, backend="ray", address=cluster.address)) as stream:
            for record in stream:
                records.append(record)
                first = first or time.perf_counter() - start
                if kill and workers and len(records) == len(seeds) // 3:
                    cluster.remove_node(workers.pop(), allow_graceful=False)
                    removed = len(records)
        seconds = time.perf_counter() - start
    finally:
        ray.shutdown()
        cluster.shutdown()
    return {"records": by_seed(records), "first": first, "seconds": seconds, "removed": removed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="root")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4, help="Seat the first N players (0: the game's default table).")
    parser.add_argument("--bots", default="random", help="Bot of each seat, comma-separated, as for simulate.")
    parser.add_argument("--nodes", default="1,2,3", help="The node counts to measure, comma-separated.")
    parser.add_argument("--cpus", type=int, default=1, help="CPUs of each node.")
    parser.add_argument("--seed", type=int, default=0, help="The first game's seed.")
    parser.add_argument("--kill", action="store_true", help="Remove a worker node a third of the way through each run.")
    args = parser.parse_args()

    ruleset = load_ruleset(args.game)
    players = tuple(ruleset.program.players[:args.players]) if args.players else None
    table = Table(tuple(args.bots.split(",")), players)
    seeds = range(args.seed, args.seed + args.games)
    start = time.perf_counter()
    reference = by_seed(run(ruleset, seeds, table, 1))
    seconds = time.perf_counter() - start
    seated = f", {len(players)} players" if players else ""
    print(f"{ruleset.name}{seated}, bots {args.bots}: {args.games} games (seeds {seeds.start}..{seeds.stop - 1}), "
          f"nodes of {args.cpus} CPU(s) on one machine of {default_jobs()} core(s)")
    print(f"reference, this process (jobs=1): {seconds:.1f} s, {args.games / seconds:.1f} games/s")
    print(f"{'nodes':>5}  {'first record':>12}  {'seconds':>7}  {'games/s':>7}  {'WORKER':>6}  identical to jobs=1")
    for nodes in (int(n) for n in args.nodes.split(",")):
        result = play_on_cluster(ruleset, seeds, table, nodes, args.cpus, args.kill)
        records, failed = result["records"], sum(r["reason"] == WORKER for r in result["records"])
        identical = "yes" if records == reference else f"NO ({len(records)} records)"
        removed = f" (a worker node removed after {result['removed']} games)" if result["removed"] else ""
        print(f"{nodes:>5}  {result['first']:>10.1f} s  {result['seconds']:>7.1f}  "
              f"{len(records) / result['seconds']:>7.1f}  {failed:>6}  {identical}{removed}", flush=True)


if __name__ == "__main__":
    main()
