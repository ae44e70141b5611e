"""Save games at random points, resume each save in a fresh process, and check it plays on to the same end.

    .venv/bin/python tools/check_saves.py                          # 100 points of Cernunos games
    .venv/bin/python tools/check_saves.py --game root --points 20 --seed 3

For each point, a game of a random seed is played to its end by random bots, in this process,
through the journal `ludolex play` keeps (`interpreter.play.saves.Journal`); its outcome is kept:
the result (or the error it stopped on) and a fingerprint, the SHA-256 of the save `play --save`
writes at the end (every choice and what it meant, the state, the result). Then the same game is
played again and cut after k of its choices, k drawn at random among the moments `play --save`
writes (none, or after any choice that completes a decision: the secret answers of a group count
once all are given), and its save is written there as `play --save` writes it (`write_save`).
A fresh Python process (this script with `--continue FILE`) reads it and brings it back with the
functions `play --load` uses (`read_save`, `restore`), answers the remaining choices through a
journal, and prints its outcome. The two outcomes must be the same, and the save must come back
without a note (the rules did not change).

Exit status 0 if every save played on to the same end, 1 if one did not, 2 if the ruleset does not load.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.diagnostics.errors import LudolexError, RuleRuntimeError  # noqa: E402
from interpreter.loading.stages import load_ruleset  # noqa: E402
from interpreter.play.game import Game  # noqa: E402
from interpreter.play.saves import Journal, dumps, read_save, restore, write_save  # noqa: E402


def outcome(journal: Journal, error: str | None) -> dict:
    game = journal.game
    return {"choices": len(game.log), "result": game.result.to_json() if game.result else None, "error": error,
            "fingerprint": hashlib.sha256(dumps(journal.save()).encode()).hexdigest()}


def answer(journal: Journal, answers) -> str | None:
    """Answer the game's decisions, in turn, with `answers`; the error the rules stopped on, if one."""
    try:
        for index in answers:
            journal.choose(index)
    except RuleRuntimeError as error:
        return str(error)
    return None


def play_whole(ruleset, seed: int, version: str) -> tuple[list[int], list[int], dict]:
    """A game of random bots to its end: its answers, the moments a save is written (its number of
    choices then), and its outcome."""
    journal, rng = Journal(Game(ruleset, seed=seed), version), random.Random(seed)
    answers, moments, error = [], [0], None
    try:
        while not journal.game.finished:
            index = rng.randrange(len(journal.game.decision.options))
            answers.append(index)
            if journal.choose(index):
                moments.append(len(journal.game.log))
    except RuleRuntimeError as failure:
        error = str(failure)
    return answers, moments, outcome(journal, error)


def continue_save(game: str, file: Path) -> None:
    """In a fresh process: restore the save as `play --load` does, answer the choices read as JSON
    from standard input, and print the outcome as JSON."""
    start = time.perf_counter()
    ruleset = load_ruleset(game)
    loaded = time.perf_counter()
    restored = restore(ruleset, read_save(file), file)
    restoring = time.perf_counter() - loaded
    replayed = len(restored.game.log)
    error = answer(restored.journal, json.load(sys.stdin))
    print(json.dumps({**outcome(restored.journal, error), "note": restored.note, "replayed": replayed,
                      "load_seconds": loaded - start, "restore_seconds": restoring}))


def fresh_process(game: str, file: Path, rest: list[int]) -> tuple[dict | str, float]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, __file__, "--game", game, "--continue", str(file)], input=json.dumps(rest),
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        return f"the fresh process failed (exit {done.returncode}): {done.stderr.strip()[-500:]}", seconds
    return json.loads(done.stdout), seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="cernunos", help="the ruleset (name or folder) [cernunos]")
    parser.add_argument("--points", type=int, default=100, help="how many games, each saved at one random point [100]")
    parser.add_argument("--seed", type=int, default=0, help="seed of the draws of games and points [0]")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="fresh processes at once [all cores]")
    parser.add_argument("--continue", dest="resume", type=Path, help=argparse.SUPPRESS)  # in the fresh process
    args = parser.parse_args()
    if args.resume is not None:
        continue_save(args.game, args.resume)
        return 0

    start = time.perf_counter()
    try:
        ruleset = load_ruleset(args.game)
    except LudolexError as error:
        print(f"{args.game}: the ruleset does not load:\n{error}", file=sys.stderr)
        return 2
    version, rng = ruleset.content_hash(), random.Random(args.seed)
    points = []
    with tempfile.TemporaryDirectory() as folder:
        for point in range(args.points):
            seed = rng.randrange(2**31)
            answers, moments, whole = play_whole(ruleset, seed, version)
            cut = rng.choice(moments)
            journal = Journal(Game(ruleset, seed=seed), version)
            answer(journal, answers[:cut])
            file = Path(folder) / f"save-{point}.json"
            write_save(file, journal.save())
            points.append((point, seed, cut, answers[cut:], whole, file))
        played = time.perf_counter() - start
        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            resumed = list(pool.map(lambda p: fresh_process(args.game, p[5], p[3]), points))
    same, process_seconds, restore_seconds = 0, [], []
    for (point, seed, cut, rest, whole, _), (continued, seconds) in zip(points, resumed):
        process_seconds.append(seconds)
        if isinstance(continued, str):
            print(f"point {point} (seed {seed}, saved after {cut} choices): {continued}")
            continue
        restore_seconds.append(continued["restore_seconds"])
        problems = [f"{key}: {continued[key]!r} in the fresh process, {whole[key]!r} played through"
                    for key in whole if continued[key] != whole[key]]
        if continued["replayed"] != cut:
            problems.append(f"{continued['replayed']} choices replayed from the save, not {cut}")
        if continued["note"]:
            problems.append(f"a note on loading: {continued['note']}")
        if problems:
            print(f"point {point} (seed {seed}, saved after {cut} of {whole['choices']} choices): " + "; ".join(problems))
        else:
            same += 1
    total = time.perf_counter() - start
    cuts = [p[2] for p in points]
    lengths = [p[4]["choices"] for p in points]
    print(f"{args.game}: {len(points)} games of {min(lengths, default=0)} to {max(lengths, default=0)} choices, "
          f"saved after {min(cuts, default=0)} to {max(cuts, default=0)} choices")
    if restore_seconds:
        print(f"time: {total:.1f} s in all ({played:.1f} s playing and saving here, then {len(points)} fresh processes "
              f"{max(1, args.jobs)} at a time); a fresh process took {sum(process_seconds) / len(process_seconds):.2f} s "
              f"on average, of which reading and replaying the save {1000 * sum(restore_seconds) / len(restore_seconds):.1f} ms "
              f"(at most {1000 * max(restore_seconds):.1f} ms)")
    print(f"{len(points)} saves loaded in fresh processes: {same} played on to the same end")
    return 0 if same == len(points) else 1


if __name__ == "__main__":
    sys.exit(main())
