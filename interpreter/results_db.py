"""Simulated games kept in SQLite: one row per (ruleset version, bots, seed)."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

DEFAULT_DB = Path("ludolex-results.sqlite")

SCHEMA = """
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
    PRIMARY KEY (ruleset_hash, bots, seed)
);
CREATE INDEX IF NOT EXISTS games_by_game ON games (game, ruleset_hash);
"""


class Results:
    def __init__(self, path: Path = DEFAULT_DB):
        self.path = path
        self.db = sqlite3.connect(path)
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.commit()
        self.db.close()

    def seeds_done(self, ruleset_hash: str, bots: str) -> set[int]:
        rows = self.db.execute("SELECT seed FROM games WHERE ruleset_hash = ? AND bots = ?", (ruleset_hash, bots))
        return {seed for (seed,) in rows}

    def add(self, game: str, ruleset_hash: str, bots: str, record: dict) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game, ruleset_hash, bots, record["seed"], json.dumps(record["players"]), record["winner"],
             json.dumps(record["scores"]), record["turns"], record["decisions"], json.dumps(record["score_curve"]),
             record["reason"], record["error"], json.dumps(record["log"])),
        )

    def commit(self) -> None:
        self.db.commit()

    def versions(self) -> list[tuple[str, str, str, int]]:
        """(game, ruleset hash, bots, number of games), most games first."""
        rows = self.db.execute("SELECT game, ruleset_hash, bots, COUNT(*) FROM games GROUP BY 1, 2, 3 ORDER BY 4 DESC")
        return list(rows)

    def records(self, ruleset_hash: str, bots: str | None = None, seeds: set[int] | None = None) -> list[dict]:
        query = "SELECT seed, players, winner, scores, turns, decisions, score_curve, reason, error, log FROM games WHERE ruleset_hash = ?"
        params: list = [ruleset_hash]
        if bots is not None:
            query, params = query + " AND bots = ?", params + [bots]
        records = []
        for seed, players, winner, scores, turns, decisions, curve, reason, error, log in self.db.execute(query + " ORDER BY seed", params):
            if seeds is not None and seed not in seeds:
                continue
            records.append({"seed": seed, "players": json.loads(players), "winner": winner, "scores": json.loads(scores),
                            "turns": turns, "decisions": decisions, "score_curve": json.loads(curve),
                            "reason": reason, "error": error, "log": json.loads(log)})
        return records
