"""kill -9 a long `ludolex simulate` at random moments, resume it each time, and see what is lost.

    .venv/bin/python tools/kill_resume.py                      # 20,000 Cernunos games on 2 jobs, 5 kills
    .venv/bin/python tools/kill_resume.py --games 3000 --kills 3

First the games are played in one uninterrupted run, for reference. Then the same run, into
another database, is killed with SIGKILL (the simulate process itself, as `kill -9 PID` does) when
that database holds a random number of games, started again with the same command (it resumes),
and so on; the last start runs to the end. The two databases are compared seed by seed. Last,
the complete database is resumed once more, to time how long simulate takes to find that nothing
is left to play.

How loss is measured. While a run goes, the database is read every few milliseconds (a
write-ahead-log reader does not disturb the writer): the number of games stored, and the moment
it last grew. At the kill:
  - `stored before`: games seen in the database just before the kill; `after`: just after.
    `after < before` would be committed games lost (it must never happen).
  - `unsaved ≈`: the games that may have finished but were not yet stored at the kill, estimated
    from timing: the pace of the run (games/s, from the growth of the database during that run,
    or of the reference run) × the time since the database last grew. (A game still in
    a pipe between a worker and simulate is not visible from outside; there are at most two per
    worker.) Before this fix, games were committed every 200: this figure was up to 199.
`integrity`: PRAGMA integrity_check of the database just after the kill.
`workers gone`: seconds until the killed run's worker processes had all ended.
"""
from __future__ import annotations

import argparse
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def command(args, db: Path) -> list[str]:
    ludolex = Path(sys.executable).with_name("ludolex")
    program = [str(ludolex)] if ludolex.exists() and args.code == ROOT else [sys.executable, "-m", "interpreter"]
    return program + ["simulate", args.game, "--games", str(args.games), "--jobs", str(args.jobs), "--db", str(db)]


def start(args, db: Path, log) -> subprocess.Popen:
    return subprocess.Popen(command(args, db), cwd=args.code, stdout=log, stderr=log)


def count(db: Path) -> int | None:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as connection:
            return connection.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.Error:  # not made yet
        return None


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] not in "ZX"
    except (OSError, IndexError):
        return False


def integrity(db: Path) -> str:
    with sqlite3.connect(db) as connection:
        return connection.execute("PRAGMA integrity_check").fetchone()[0]


def kill_once(args, db: Path, target: int, log) -> dict:
    """Start the run, kill -9 it once the database holds `target` games (plus a random instant)."""
    run = start(args, db, log)
    started = time.monotonic()
    stored, grown_at, history = count(db) or 0, time.monotonic(), []
    while stored < target:
        if run.poll() is not None:
            raise SystemExit(f"the run ended (status {run.returncode}) before {target} games were stored")
        time.sleep(0.005)
        now, seen = time.monotonic(), count(db) or 0
        if seen != stored:
            stored, grown_at = seen, now
            history.append((now, seen))
    deadline = time.monotonic() + random.uniform(0, 0.5)  # not just after a commit
    while time.monotonic() < deadline:
        time.sleep(0.003)
        now, seen = time.monotonic(), count(db) or 0
        if seen != stored:
            stored, grown_at = seen, now
            history.append((now, seen))
    workers = children(run.pid)
    before, last_growth = count(db), grown_at
    run.kill()
    killed_at = time.monotonic()
    run.wait()
    after = count(db)
    while any(alive(w) for w in workers) and time.monotonic() - killed_at < 60:
        time.sleep(0.01)
    # the pace of this run, from the first to the last growth of the database seen
    rate = float("nan")
    if len(history) > 1 and history[-1][0] > history[0][0]:
        rate = (history[-1][1] - history[0][1]) / (history[-1][0] - history[0][0])
    return {"at": killed_at - started, "before": before, "after": after, "lost": max(0, before - after),
            "since_growth": killed_at - last_growth, "rate": rate,
            "integrity": integrity(db), "workers_gone": time.monotonic() - killed_at,
            "workers_left": sum(alive(w) for w in workers)}


def rows(db: Path) -> dict[int, tuple]:
    with sqlite3.connect(db) as connection:
        query = "SELECT seed, players, winner, scores, turns, decisions, score_curve, reason, error, log FROM games"
        return {row[0]: row[1:] for row in connection.execute(query)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="cernunos")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--random-seed", type=int, default=1, help="Chooses the moments of the kills.")
    parser.add_argument("--workdir", type=Path, default=None, help="Where the databases go [default: a new temporary folder].")
    parser.add_argument("--code", type=Path, default=ROOT, help="The ludolex source tree to run (to measure another version).")
    args = parser.parse_args()
    random.seed(args.random_seed)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="kill_resume-"))
    work.mkdir(parents=True, exist_ok=True)
    killed_db, straight_db = work / "killed.sqlite", work / "straight.sqlite"
    for path in work.glob("*.sqlite*"):
        path.unlink()
    log = open(work / "runs.log", "w")
    print(f"command: (cd {args.code} && {' '.join(command(args, killed_db))})")
    print(f"output of every run: {work / 'runs.log'}")

    began = time.monotonic()
    straight = start(args, straight_db, log)
    straight.wait()
    seconds = time.monotonic() - began
    straight_rate = args.games / seconds
    print(f"uninterrupted run, for reference: {seconds:.1f} s ({straight_rate:.0f} games/s from start to end), "
          f"exit status {straight.returncode}")

    # a kill at a random moment of each of `kills` equal stretches of the run
    stretch = args.games * 9 // 10 // args.kills
    targets = [args.games // 20 + k * stretch + random.randrange(stretch // 2) for k in range(args.kills)]
    print(f"\n{'kill':>4} {'at s':>6} {'stored before':>13} {'after':>6} {'committed lost':>14} {'last commit ms before':>21} "
          f"{'games/s':>7} {'unsaved ≈':>9} {'integrity':>9} {'workers gone s':>14}")
    kills = []
    for number, target in enumerate(targets, 1):
        k = kill_once(args, killed_db, target, log)
        if k["rate"] != k["rate"]:  # too few commits seen in this run to tell its pace: the reference run's
            k["rate"] = straight_rate
        k["unsaved"] = k["rate"] * k["since_growth"]
        kills.append(k)
        print(f"{number:>4} {k['at']:>6.1f} {k['before']:>13} {k['after']:>6} {k['lost']:>14} {k['since_growth'] * 1000:>21.1f} "
              f"{k['rate']:>7.0f} {k['unsaved']:>9.1f} {k['integrity']:>9} {k['workers_gone']:>14.2f}"
              + (f"  ({k['workers_left']} worker(s) still running)" if k["workers_left"] else ""))

    print()
    began = time.monotonic()
    finish = start(args, killed_db, log)
    finish.wait()
    print(f"last start, to the end: {time.monotonic() - began:.1f} s, exit status {finish.returncode}, "
          f"{count(killed_db)} games stored, integrity {integrity(killed_db)}")

    resumed, uninterrupted = rows(killed_db), rows(straight_db)
    differing = [seed for seed in uninterrupted if resumed.get(seed) != uninterrupted[seed]]
    print(f"seeds compared: {len(uninterrupted)}; in one database only: {len(set(resumed) ^ set(uninterrupted))}; "
          f"differing (players, winner, scores, turns, decisions, score curve, reason, error, log): {len(differing)}"
          + (f", first {differing[:10]}" if differing else ""))

    resume = subprocess.Popen(command(args, killed_db), cwd=args.code, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    began = time.monotonic()
    line = resume.stderr.readline()
    planned = time.monotonic() - began
    resume.communicate()
    print(f"\nresuming the complete database: {planned:.2f} s until simulate said what is left to play "
          f"(from the start of the process: Python, loading the ruleset, opening and checking the database, "
          f"the seeds stored), {time.monotonic() - began:.2f} s in all with the closing summary; it said:\n  {line.strip()}")
    lost = sum(k["lost"] for k in kills)
    print(f"\ncommitted games lost over {len(kills)} kills: {lost}; "
          f"largest estimate of finished-but-unsaved games at a kill: {max(k['unsaved'] for k in kills):.1f}")


if __name__ == "__main__":
    main()
