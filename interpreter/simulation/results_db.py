"""Simulated games kept in SQLite: one row per (ruleset version, bots, seed).

Each game is committed as soon as it is added (a write-ahead log makes that cheap), so a run
killed at any moment keeps every game it had stored. A file that is not a ludolex results
database, or is damaged, is refused with a DatabaseError, and never written into.

Results format 2 added the `winners` column (a JSON list: a shared or co-operative win has several),
format 3 the `ending` column (how the game ended, in the rules' words: `win p by "knockout"`), format 4
the `seat_bots` (the bot of each seat, in the order of `players`), `option_counts` (how often each
player chose each option, see `simulation.usage`) and `finished_at` (when the game was stored, UTC)
columns, format 5 the `points_by_reason` column (each player's points by reason, `because` in the
rules, and `other` for the rest of their score), format 6 the `first_mover` (the player of the first turn)
and `kinds_moved` (the kinds of the components that moved in the game) columns. The `runs` table names the runs (`simulation.runs`);
a database without it (older, or opened read-only) has only runs of their default names.
An older database is still read as it is, each game's winners taken from its `winner` column when it
has no `winners`, and the bot of each seat from its run's bots (`a,b`: a in seat 1, b in seat 2, a in
seat 3...: the bots did not turn before format 4); opened to store games, it first gets the new
columns (its old games keep them empty). Runs since format 4 name their seating in their key
(`seats=rotating` or `seats=fixed`), so that no run resumes an older one seated otherwise.
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

from interpreter.reports.summary import winners_of

DEFAULT_DB = Path("ludolex-results.sqlite")
APPLICATION_ID = int.from_bytes(b"LDLX", "big")  # our mark in the file's header
SCHEMA_VERSION = 6  # 1: no `winners` column; 2: no `ending` column; 3: no `seat_bots`, `option_counts`, `finished_at`;
# 4: no `points_by_reason`; 5: no `first_mover`, `kinds_moved`
BUSY_SECONDS = 30.0  # how long a write waits for another process writing the same database
WORKER = "worker"  # the reason of a game lost with its worker process: a resumed run plays it again

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS games (
    game TEXT NOT NULL,
    ruleset_hash TEXT NOT NULL,
    bots TEXT NOT NULL,
    seed INTEGER NOT NULL,
    players TEXT NOT NULL,
    winner TEXT,
    scores TEXT NOT NULL,
    turns INTEGER NOT NULL,
    decisions INTEGER NOT NULL,
    score_curve TEXT NOT NULL,
    reason TEXT,
    error TEXT,
    log TEXT NOT NULL,
    winners TEXT,
    ending TEXT,
    seat_bots TEXT,
    option_counts TEXT,
    finished_at TEXT,
    points_by_reason TEXT,
    first_mover TEXT,
    kinds_moved TEXT,
    PRIMARY KEY (ruleset_hash, bots, seed)
);
CREATE INDEX IF NOT EXISTS games_by_game ON games (game, ruleset_hash);
CREATE TABLE IF NOT EXISTS runs (
    name TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    ruleset_hash TEXT NOT NULL,
    bots TEXT NOT NULL,
    named_at TEXT,
    PRIMARY KEY (ruleset_hash, bots)
);
PRAGMA application_id = {APPLICATION_ID};
PRAGMA user_version = {SCHEMA_VERSION};
"""
COLUMNS = ["game", "ruleset_hash", "bots", "seed", "players", "winner", "scores", "turns", "decisions",
           "score_curve", "reason", "error", "log", "winners", "ending", "seat_bots", "option_counts", "finished_at",
           "points_by_reason", "first_mover", "kinds_moved"]
OLD_COLUMNS = COLUMNS[:13]  # results format 1 and before: `winner` only (a single name, or NULL)
ADDED_COLUMNS = COLUMNS[13:]  # by formats 2 (winners), 3 (ending), 4, 5 and 6


class DatabaseError(Exception):
    """A results database that cannot be used, said in one line. `misuse`: the file is not one."""

    def __init__(self, message: str, misuse: bool = False):
        super().__init__(message)
        self.misuse = misuse


class Results:
    def __init__(self, path: Path = DEFAULT_DB, read_only: bool = False):
        """Open (or create, unless `read_only`) the results database at `path`."""
        self.path = Path(path)
        if self.path.is_dir():
            raise DatabaseError(f"{path}: a folder, not a results database", misuse=True)
        if read_only and not self.path.is_file():
            raise DatabaseError(f"{path}: no such file", misuse=True)
        self.db = None
        self.columns: list[str] = []
        try:
            with self._errors():
                if read_only:
                    self.db = self._connect_read_only()
                else:
                    self.db = sqlite3.connect(self.path, timeout=BUSY_SECONDS)
                self._check()  # before anything is written
                if not read_only:
                    self._use_write_ahead_log()
                    self.db.execute("PRAGMA synchronous = NORMAL")  # a commit survives the process being killed
                    self._migrate()
                    self.db.executescript(SCHEMA)
                    self.columns = list(COLUMNS)
        except DatabaseError:
            self.close()
            raise

    def _connect_read_only(self) -> sqlite3.Connection:
        """A connection that never writes. To read a database in WAL mode, SQLite makes a `-shm` file
        beside it, and refuses where it cannot (read-only media, a folder of someone else's). There,
        a database without a `-wal` file holds all its games itself and nobody is writing it: it is
        read as immutable, without the `-shm` file."""
        uri = self.path.resolve().as_uri()
        wal, shm = (self.path.with_name(self.path.name + end) for end in ("-wal", "-shm"))
        if os.access(self.path.parent, os.W_OK) or shm.exists():
            return sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=BUSY_SECONDS)
        if wal.exists():
            raise DatabaseError(f"{self.path}: its last games are in {wal.name}, which SQLite reads only with a "
                                f"{shm.name} file beside it, and this folder is read-only: copy both files to a "
                                "folder you can write, and read them there")
        return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, timeout=BUSY_SECONDS)

    def _use_write_ahead_log(self) -> None:
        """Readers and a second writer do not wait for long. Changing the journal mode fails at once,
        without SQLite's wait, while another process opens the new file: so it waits here."""
        deadline = time.monotonic() + BUSY_SECONDS
        while True:
            try:
                self.db.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    def _check(self) -> None:
        """Refuse a damaged file, and an SQLite file of another program (ours carry APPLICATION_ID,
        or, written before the mark, have only our table)."""
        self.db.execute("BEGIN")  # one snapshot: another process may be writing the schema, a statement at a time
        try:
            problem = self.db.execute("PRAGMA quick_check(1)").fetchone()[0]
            mark, version = (self.db.execute(f"PRAGMA {p}").fetchone()[0] for p in ("application_id", "user_version"))
            tables = [name for (name,) in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            columns = self.columns = [row[1] for row in self.db.execute("PRAGMA table_info(games)")]
        finally:
            self.db.rollback()
        if problem != "ok":
            raise sqlite3.DatabaseError(f"database disk image is malformed ({problem})")
        known = [[]] + [COLUMNS[:n] for n in range(len(OLD_COLUMNS), len(COLUMNS) + 1)]
        unmarked_but_ours = mark == 0 and version == 0 and set(tables) <= {"games", "runs"} and columns in known
        if mark != APPLICATION_ID and not unmarked_but_ours:
            raise DatabaseError(f"{self.path}: not a ludolex results database (an SQLite file of another program); "
                                "give another --db", misuse=True)
        if version > SCHEMA_VERSION:
            raise DatabaseError(f"{self.path}: written by a newer ludolex (results format {version}); update ludolex",
                                misuse=True)

    def _migrate(self) -> None:
        """Give an older database the columns added since (another process may be doing the same)."""
        if not self.columns or all(c in self.columns for c in ADDED_COLUMNS):
            return
        self.db.execute("BEGIN IMMEDIATE")  # waits for another writer; then the columns are read again
        try:
            present = [row[1] for row in self.db.execute("PRAGMA table_info(games)")]
            for column in ADDED_COLUMNS:
                if column not in present:
                    self.db.execute(f"ALTER TABLE games ADD COLUMN {column} TEXT")
            self.db.commit()
        except BaseException:
            self.db.rollback()
            raise

    @contextmanager
    def _errors(self):
        """SQLite's errors, said in one line that names the file and what to do."""
        try:
            yield
        except sqlite3.Error as error:
            text = " ".join(str(error).split())
            if "locked" in text or "busy" in text:
                message = f"in use by another program for more than {BUSY_SECONDS:.0f} s; try again when it is done"
            elif "readonly" in text or "read-only" in text:
                message = "read-only: cannot store games there; give another --db"
            elif "full" in text:
                message = "the disk is full; the games stored before are kept"
            elif "not a database" in text:
                raise DatabaseError(f"{self.path}: not an SQLite database; give another --db", misuse=True) from None
            elif "malformed" in text or "corrupt" in text:
                message = f"damaged ({text}); it is left as it is: give another --db"
            elif "unable to open" in text:
                message = "cannot be opened (its folder does not exist, or no permission)"
            else:
                message = text
            raise DatabaseError(f"{self.path}: {message}") from None

    def close(self) -> None:
        if self.db is None:
            return
        try:
            self.db.commit()  # nothing should be left: add() commits each game
        except sqlite3.Error:
            pass
        finally:
            self.db.close()
            self.db = None

    def seeds_done(self, ruleset_hash: str, bots: str, seeds: range | None = None) -> set[int]:
        """The seeds already played (in `seeds`, when given), in one query. A game lost with its
        worker is not counted: a resumed run plays it again."""
        query = "SELECT seed FROM games WHERE ruleset_hash = ? AND bots = ? AND reason IS NOT ?"
        params: list = [ruleset_hash, bots, WORKER]
        if seeds is not None:
            query, params = query + " AND seed BETWEEN ? AND ?", params + [seeds.start, seeds.stop - 1]
        with self._errors():
            return {seed for (seed,) in self.db.execute(query, params)}

    def add(self, game: str, ruleset_hash: str, bots: str, record: dict) -> None:
        """Store one game, and commit it at once."""
        with self._errors():
            self.db.execute(
                f"INSERT OR REPLACE INTO games ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})",
                (game, ruleset_hash, bots, record["seed"], json.dumps(record["players"]), record["winner"],
                 json.dumps(record["scores"]), record["turns"], record["decisions"], json.dumps(record["score_curve"]),
                 record["reason"], record["error"], json.dumps(record["log"]), json.dumps(winners_of(record)),
                 record.get("ending") or "", json.dumps(record.get("seat_bots") or []),
                 json.dumps(record.get("option_counts") or {}), datetime.now(timezone.utc).isoformat(timespec="seconds"),
                 json.dumps(record.get("points_by_reason") or {}), record.get("first_mover"),
                 json.dumps(record.get("kinds_moved") or [])),
            )
            self.db.commit()

    def commit(self) -> None:
        with self._errors():
            self.db.commit()

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        """The rows of a query, its errors said in one line."""
        with self._errors():
            return list(self.db.execute(sql, params))

    def write(self, sql: str, rows: list[tuple]) -> None:
        """Run one statement for each of `rows`, and commit them together."""
        with self._errors():
            self.db.execute("BEGIN IMMEDIATE")  # waits for another writer, rather than failing on a stale read
            try:
                self.db.executemany(sql, rows)
                self.db.commit()
            except BaseException:
                self.db.rollback()
                raise

    def versions(self) -> list[tuple[str, str, str, int]]:
        """(game, ruleset hash, bots, number of games), most games first."""
        with self._errors():
            rows = self.db.execute("SELECT game, ruleset_hash, bots, COUNT(*) FROM games GROUP BY 1, 2, 3 ORDER BY 4 DESC")
            return list(rows)

    def records(self, ruleset_hash: str, bots: str | None = None, seeds: range | None = None,
                with_log: bool = True) -> list[dict]:
        """The stored games of a version (and bots), by seed; `with_log=False` leaves out their choices."""
        return list(self.iter_records(ruleset_hash, bots, seeds, with_log))

    def iter_records(self, ruleset_hash: str, bots: str | None = None, seeds: range | None = None,
                     with_log: bool = True) -> Iterator[dict]:
        """The games of `records`, read from the database one at a time: a report of any number of games
        holds one game's record at once."""
        def present(column: str) -> str:  # a column added since, in an older database opened read-only
            return column if column in self.columns else "NULL"

        query = (f"SELECT seed, players, winner, {present('winners')}, scores, turns, decisions, score_curve, reason, "
                 f"error, {present('ending')}, {'log' if with_log else 'NULL'}, bots, {present('seat_bots')}, "
                 f"{present('option_counts')}, {present('finished_at')}, {present('points_by_reason')}, "
                 f"{present('first_mover')}, {present('kinds_moved')} "
                 "FROM games WHERE ruleset_hash = ?")
        params: list = [ruleset_hash]
        if bots is not None:
            query, params = query + " AND bots = ?", params + [bots]
        if seeds is not None:
            query, params = query + " AND seed BETWEEN ? AND ?", params + [seeds.start, seeds.stop - 1]
        with self._errors():
            for (seed, players, winner, winners, scores, turns, decisions, curve, reason, error, ending, log, key,
                 seat_bots, option_counts, finished_at, points, first_mover, kinds_moved) in self.db.execute(query + " ORDER BY seed", params):
                try:
                    winners = [winner] if winners is None and winner is not None else json.loads(winners or "[]")
                    if not (isinstance(winners, list) and all(isinstance(w, str) for w in winners)):
                        raise ValueError("winners")
                    players = json.loads(players)
                    record = {"seed": seed, "players": players, "winner": winner, "winners": winners,
                              "scores": json.loads(scores),
                              "turns": turns, "decisions": decisions, "score_curve": json.loads(curve),
                              "reason": reason, "error": error, "ending": ending or "",
                              "seat_bots": json.loads(seat_bots) if seat_bots is not None else
                              _bots_by_seat(key, len(players)),
                              "option_counts": json.loads(option_counts or "{}"), "finished_at": finished_at,
                              "points_by_reason": json.loads(points or "{}"), "first_mover": first_mover,
                              "kinds_moved": json.loads(kinds_moved or "[]")}
                    if with_log:
                        record["log"] = json.loads(log)
                except (TypeError, ValueError, RecursionError):
                    raise DatabaseError(f"{self.path}: damaged (the game of seed {seed} is not readable)") from None
                yield record


def _bots_by_seat(key: str, seats: int) -> list[str]:
    """The bot of each seat of a game stored before format 4: its run's bots in turn, from seat 1."""
    bots = key.split(" ")[0].split(",")
    return [bots[i % len(bots)] for i in range(seats)]
