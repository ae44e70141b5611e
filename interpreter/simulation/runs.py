"""The runs of a results database, by name: listing them, naming one, choosing one.

A run is the games of one version of a game (the ruleset's hash) played at one table (its key: the
bots, the players, the seating, the options, see `runner.Table.key`). Its name is the one
`simulate --run NAME` gave it; by default its table key (`random,rule_of_thumb players=red,blue
seats=rotating`), followed by ` version=HASH` when a run of another version has that name already.
Names are kept in the database's `runs` table; a run stored before names (or by `compare`) has its
default name, kept the first time `simulate` names a run in that database.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone

from interpreter.reports.summary import Sheet
from interpreter.simulation.results_db import Results
from interpreter.simulation.runner import options_of_key

class RunError(Exception):
    """No run matches a choice, several do, or a name is taken: said in words, with the runs there are."""


@dataclass(frozen=True)
class Run:
    name: str
    game: str
    version: str  # the ruleset's hash
    key: str  # the table's key: bots, players, seating, options (the `bots` column)
    games: int
    failures: int  # games that stopped on an error or a limit, or were lost with their worker
    first_played: str | None  # when the first and the last game were stored (UTC), if known
    last_played: str | None
    players: tuple[str, ...]  # in the order of the first game's seats, before the seating turned

    @property
    def bots(self) -> str:
        return self.key.split(" ")[0]

    def line(self) -> str:
        """One line for a list of runs in a message."""
        return (f"  `{self.name}`: {self.game}, version {self.version}, {self.games} game(s), players "
                f"{','.join(self.players)}, bots {self.bots}")


def list_runs(results: Results) -> list[Run]:
    """Every run of the database, in the order its first game was stored."""
    def present(column: str) -> str:
        return column if column in results.columns else "NULL"

    stored = _stored_names(results)
    runs, taken = [], set(stored.values())
    groups = results.query(
        f"SELECT game, ruleset_hash, bots, COUNT(*), SUM(error IS NOT NULL), MIN({present('finished_at')}), "
        f"MAX({present('finished_at')}) FROM games GROUP BY game, ruleset_hash, bots ORDER BY MIN(rowid)")
    for game, version, key, games, failures, first, last in groups:
        name = stored.get((version, key))
        if name is None:  # its default name: the key, unless another run has it
            name = key if key not in taken else f"{key} version={version}"
            taken.add(name)
        ((seated, seed),) = results.query("SELECT players, seed FROM games WHERE ruleset_hash = ? AND bots = ? "
                                          "ORDER BY seed LIMIT 1", (version, key))
        runs.append(Run(name, game, version, key, games, failures or 0, first, last,
                        _players(key, json.loads(seated), seed)))
    return runs


def _stored_names(results: Results) -> dict[tuple[str, str], str]:
    if not results.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'"):
        return {}  # a database from before runs had names, opened read-only
    return {(version, key): name for name, version, key in results.query("SELECT name, ruleset_hash, bots FROM runs")}


def _players(key: str, seated: list[str], seed: int) -> tuple[str, ...]:
    """The players of a run: as its key names them, else as the game of `seed` seated them, turned back."""
    for word in key.split(" ")[1:]:
        if word.startswith("players="):
            return tuple(word.removeprefix("players=").split(","))
    shift = seed % len(seated) if seated and "seats=rotating" in key.split(" ") else 0
    return tuple(seated[len(seated) - shift:] + seated[:len(seated) - shift])


def name_run(results: Results, game: str, version: str, key: str, name: str | None = None) -> str:
    """The name of the run of `version` at table `key` (a new one, or one to resume): `name`, or its
    name already, or a default one; kept in the database, with the default names of the runs stored
    before names, so that no name changes later. A RunError if `name` is another run's, or if the run
    has another name already."""
    runs = list_runs(results)
    stored = _stored_names(results)
    this = next((r for r in runs if (r.version, r.key) == (version, key)), None)
    if this is not None and (version, key) in stored and name not in (None, this.name):
        raise RunError(f"--run {name}: these games (version {version}, {key}) are run `{this.name}` in "
                       f"{results.path} already; give --run '{this.name}', or no --run")
    chosen = name or (this.name if this else key)
    others = [r for r in runs if (r.version, r.key) != (version, key)]
    if name is None and this is None and any(r.name == chosen for r in others):
        chosen = f"{key} version={version}"
    clash = next((r for r in others if r.name == chosen), None)
    if clash is not None:
        raise RunError(f"--run {chosen}: {results.path} has a run of that name already, of {clash.game} version "
                       f"{clash.version} ({clash.key}); give another name")
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    rows = [(r.name, r.game, r.version, r.key, now) for r in others if (r.version, r.key) not in stored]
    results.write("INSERT OR REPLACE INTO runs (name, game, ruleset_hash, bots, named_at) VALUES (?, ?, ?, ?, ?)",
                  rows + [(chosen, game, version, key, now)])
    return chosen


def choose_run(runs: list[Run], where: str, name: str | None = None, bots: str | None = None,
               players: str | None = None, version: str | None = None,
               options: list[tuple[str, str]] | None = None) -> Run:
    """The one run that `name` (exactly), `bots` (`a,b`), `players` (`a,b` in any order, or how many),
    `version` (its hash, or the start of it) and `options` (the game options it was played with, as
    its key writes them) choose; a RunError that lists the runs if none or several do (`where`: the
    database, for the message)."""
    wanted_bots = ",".join(b.strip() for b in bots.split(",")) if bots is not None else None
    wanted_players = None if players is None or players.strip().isdigit() else \
        {p.strip() for p in players.split(",") if p.strip()}

    def fits(run: Run) -> bool:
        return ((name is None or run.name == name) and (wanted_bots is None or run.bots == wanted_bots)
                and (players is None or (len(run.players) == int(players) if wanted_players is None
                                         else set(run.players) == wanted_players))
                and (version is None or run.version.startswith(version))
                and (options is None or sorted(options_of_key(run.key)) == sorted(options)))

    matching = [r for r in runs if fits(r)]
    if len(matching) == 1:
        return matching[0]
    if not runs:
        raise RunError(f"{where}: no games")
    given = (("--run", name), ("--bots", bots), ("--players", players), ("--version", version)) + \
        tuple(("--option", f"{option}={value}") for option, value in options or ())
    asked = ", ".join(f"{flag} {value}" for flag, value in given if value is not None)
    if not matching:
        raise RunError(f"{where}: no run {'with ' + asked if asked else ''}; its runs:\n" +
                       "\n".join(r.line() for r in runs))
    raise RunError(f"{where} holds {len(matching)} runs{' with ' + asked if asked else ''}: choose one with --run NAME "
                   "(or --bots, --players, --version); `ludolex runs DB` lists them:\n" +
                   "\n".join(r.line() for r in matching))


def runs_sheet(runs: list[Run], where: str) -> Sheet:
    """The runs as a table: name, game, version, players, bots, games, failures, when they were played."""
    sheet = Sheet(f"Runs in {where}", ["Run", "Game", "Version", "Players", "Bots", "Played (UTC)", "Games", "Failed"],
                  text_columns=6)
    for r in runs:
        sheet.rows.append([r.name, r.game, r.version, ", ".join(r.players), r.bots,
                           _dates(r.first_played, r.last_played), str(r.games), str(r.failures)])
    sheet.note = ("`ludolex report DB --run NAME` reports one run; `ludolex replay DB --run NAME --seed S` "
                  "replays one of its games")
    return sheet


def _dates(first: str | None, last: str | None) -> str:
    if not first:
        return "—"
    first, last = first[:16].replace("T", " "), (last or first)[:16].replace("T", " ")
    return first if first == last else f"{first} to {last}"
