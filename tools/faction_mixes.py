"""Games over mixes of factions: each game seats a mix drawn at random (2 to 6 of a game's players, by
default every player of its content but the extra seats), plays it between rule-of-thumb bots with the
invariants checked after every step (`simulate --check`), and counts errors, broken invariants and each
faction's wins.

    python tools/faction_mixes.py root --games 1000 --jobs 2 [--bots rule_of_thumb] [--seed 0]
        [--factions marquise,eyrie,...] [--fewest 2] [--most 6] [--exclude marquise+clockwork] [--max-turns N]

A faction excluded with another (`--exclude a+b`: they cannot sit together, as the Clockwork Marquise
and the Marquise) never shares a table with it. `--max-turns N` stops a game after N turns (a game no bot
can end: every source of points spent), counted apart. A table the rules refuse to set up (`refuse`:
Root's five corner factions, SU-1) is not a game: counted apart too. Prints one line per mix size and
one per faction.
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import load  # noqa: E402
from interpreter.simulation.runner import ERROR, LIMIT, REFUSED_TABLE, TURN_LIMIT, Table, play_one  # noqa: E402

_RULESET = None


def _play(job: tuple) -> tuple[tuple[str, ...], dict]:
    global _RULESET
    game, seed, players, bots, max_turns = job
    if _RULESET is None:
        _RULESET = load(game)
    table = Table(bots=(bots,), players=players, check=True, fixed_seats=True, max_turns=max_turns)
    record = play_one(_RULESET, seed, table)
    return players, {key: record.get(key) for key in ("reason", "error", "winners", "seed")}


def mixes(factions: list[str], games: int, fewest: int, most: int, excluded: list[set[str]], seed: int):
    """`games` tables, each a random mix of `fewest` to `most` factions in a random order."""
    rng = random.Random(seed)
    found = []
    while len(found) < games:
        table = rng.sample(factions, rng.randint(fewest, min(most, len(factions))))
        if not any(pair <= set(table) for pair in excluded):
            found.append(tuple(table))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--bots", default="rule_of_thumb")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--factions", default="")
    parser.add_argument("--fewest", type=int, default=2)
    parser.add_argument("--most", type=int, default=6)
    parser.add_argument("--exclude", action="append", default=[])
    parser.add_argument("--max-turns", type=int, default=None)
    args = parser.parse_args(argv)
    ruleset = load(args.game)
    factions = args.factions.split(",") if args.factions else list(ruleset.program.table) + [
        p for p in ruleset.program.players if p not in ruleset.program.table and p not in ruleset.program.seats]
    excluded = [set(pair.split("+")) for pair in args.exclude]
    tables = mixes(factions, args.games, args.fewest, args.most, excluded, args.seed)
    jobs = [(args.game, args.seed + i, table, args.bots, args.max_turns) for i, table in enumerate(tables)]
    by_size, seated, won, failures, stopped, refused = Counter(), Counter(), Counter(), [], 0, 0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for players, record in pool.map(_play, jobs, chunksize=4):
            if record["reason"] == ERROR and (record["error"] or "").startswith(REFUSED_TABLE):
                refused += 1
                continue
            by_size[len(players)] += 1
            seated.update(players)
            won.update(record["winners"] or [])
            if record["reason"] in (ERROR, LIMIT):
                failures.append((players, record["seed"], record["error"]))
            stopped += record["reason"] == TURN_LIMIT
    print(f"{args.game}: {len(tables) - refused} games over mixes of {args.fewest} to {args.most} factions, bots "
          f"{args.bots}, invariants checked after every step; {refused} tables the rules refuse (not played)")
    print("  games by table size: " + ", ".join(f"{n} factions {by_size[n]}" for n in sorted(by_size)))
    print(f"  errors, broken invariants or limits: {len(failures)}; stopped at {args.max_turns} turns: {stopped}")
    for players, seed, error in failures[:10]:
        print(f"    {','.join(players)} (seed {seed}): {error}")
    for faction in factions:
        share = won[faction] / seated[faction] if seated[faction] else 0
        print(f"  {faction}: seated in {seated[faction]} games, won {won[faction]} ({share:.1%})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
