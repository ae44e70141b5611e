"""The `ludolex` command: validate, play, simulate, replay, test.

Exit status: 0 all went well, 1 problems found (in the rules, in a game, with a database), 2 the
command was misused (a bad argument, a file that is not what the command reads), 130 stopped by
Ctrl-C, 143 stopped by SIGTERM. No failure ends in a traceback.
"""
from __future__ import annotations

import importlib.util
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from contextlib import closing, contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable

import click
from click.core import ParameterSource
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

from interpreter.agents.bots import make_agent, rule_of_thumb_files
from interpreter.content.manifest import find_ruleset
from interpreter.diagnostics.errors import LudolexError, RefusedTable, RuleRuntimeError
from interpreter.diagnostics.formats import FORMATS, relative, render
from interpreter.engine.decisions import EVERYTHING
from interpreter.interfaces.display import result_sentence, show
from interpreter.interfaces.extras import import_needing_extra
from interpreter.interfaces.terminal import Session
from interpreter.loading.stages import load_ruleset
from interpreter.play.game import Game, seating
from interpreter.play.saves import Journal, NotASave, SaveError, check_save, read_save, restore
from interpreter.simulation.backends import run
from interpreter.simulation.local import default_jobs
from interpreter.simulation.results_db import DEFAULT_DB, DatabaseError, Results
from interpreter.simulation.runner import Table, options_of_key

# Arguments are checked where they come in, each with a clear message.
MAX_GAMES = 10_000_000
SEEDS = click.IntRange(0, 2**62)  # the first seed: seed + games stays within SQLite's integers
STORED_SEEDS = click.IntRange(0, 2**62 + MAX_GAMES)
GAMES = click.IntRange(1, MAX_GAMES)
JOBS = click.IntRange(1, 1024)
TURNS = click.IntRange(1)
SHOWN_FAILURES = 10  # failed games listed by seed at the end of a run; the others are counted
SHOWN_OPTIONS = 6  # options of each decision shown in the terminal (report.html shows every one)
OPTION_HELP = "A game option, NAME=VALUE (repeatable); the rules' `option` declarations list them."
COMMAND_LINE = "ludolex.command_line"  # where the command line is kept, in click's context


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is: stop, keep what is done, say so in the exit status."""


class Commands(click.Group):
    """Whatever fails in a command ends in one clear line and an exit status, never a traceback."""

    def parse_args(self, ctx, args):
        ctx.meta[COMMAND_LINE] = shlex.join(["ludolex", *map(str, args)])  # as typed, for the report's context
        return super().parse_args(ctx, args)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except DatabaseError as error:
            click.echo(f"error: {error}", err=True)
            ctx.exit(2 if error.misuse else 1)
        except RuleRuntimeError as error:
            click.echo(f"error in the rules: {error}", err=True)
            ctx.exit(1)
        except KeyboardInterrupt as stop:
            click.echo("stopped", err=True)
            ctx.exit(143 if isinstance(stop, Terminated) else 130)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:  # the reader of the output has gone (`| head`): nothing more to say
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(1)
        except Exception as error:
            click.echo(f"error: {type(error).__name__}: {error}", err=True)
            ctx.exit(1)


@contextmanager
def sigterm_as_ctrl_c():
    def stop(signum, frame):
        raise Terminated()

    previous = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)


def _load(game: str):
    """The ruleset GAME names: not one is a misuse (exit 2), one with errors a problem (exit 1)."""
    try:
        find_ruleset(game)
    except LudolexError as error:
        raise click.UsageError(error.diagnostics[0].message) from None
    except (ValueError, OSError) as error:  # a NUL byte, a name too long...
        raise click.UsageError(f"no ruleset `{game}` ({error})") from None
    try:
        return load_ruleset(game)
    except LudolexError as error:
        click.echo(str(error), err=True)
        sys.exit(1)


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ludolex", prog_name="ludolex", message="%(prog)s %(version)s")
def main() -> None:
    """ludolex: tabletop games whose rules are data."""


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text (colour on a terminal), json (one object a line), github (Actions annotations), sarif (2.1.0).")
@click.option("--strict", is_flag=True, help="Warnings fail too (notes never do).")
@click.option("--notes/--no-notes", default=None,
              help="Show the notes (what is worth knowing but never fails: a provisional stand-in...) "
                   "[default: shown, except with --format github, whose annotations are the problems to fix].")
def validate(paths: tuple[Path, ...], fmt: str, strict: bool, notes: bool | None) -> None:
    """Check rulesets and their scenario files; report every problem with its file, line and column.

    Notes are shown unless --no-notes; with --format github they are left out unless --notes: a
    pull request's annotations are then the errors and warnings alone.

    Exit status: 0 clean, 1 problems found, 2 the command was misused.
    """
    from interpreter.validation.validate import ruleset_folders
    from interpreter.validation.validate import validate as check

    diagnostics = []
    for path in paths:
        if not path.exists() or not ruleset_folders(path):
            raise click.UsageError(f"{path}: not a ruleset folder (one with a game.yaml) nor a folder of them")
        diagnostics += check(path)
    left_out = 0
    if not (fmt != "github" if notes is None else notes):
        shown = [d for d in diagnostics if d.severity in ("error", "warning")]
        left_out, diagnostics = len(diagnostics) - len(shown), shown
    output = render(diagnostics, fmt, colour=sys.stdout.isatty() and fmt == "text")
    if output:
        click.echo(output)
    if left_out and fmt == "text":
        click.echo(f"{left_out} note(s) left out (--notes shows them)")
    failing = [d for d in diagnostics if d.severity == "error" or (strict and d.severity == "warning")]
    sys.exit(1 if failing else 0)


@main.command()
@click.argument("code", required=False)
def explain(code: str | None) -> None:
    """Explain a diagnostic code: what it means, an example, the fix.

    CODE is written LX309, lx309 or 309; without it, every code is listed. Exit status: 0
    explained, 2 no such code.
    """
    from interpreter.diagnostics.explain import UnknownCode, explain_for_terminal, listing
    from interpreter.diagnostics.explain import explain as explanation

    if code is None:
        click.echo(listing())
        return
    try:
        if sys.stdout.isatty():
            console = Console(highlight=False)
            console.print(explain_for_terminal(code, min(console.width, 96)))
        else:
            click.echo(explanation(code))
    except UnknownCode as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(2)


@main.command()
def lsp() -> None:
    """The language server, over standard input and output, for an editor (see README's "Editors").

    It checks every ruleset of the editor's workspace as `validate` does, as you type, and offers
    completion, hover, go to definition, find references and rename across rules and YAML files.
    """
    from interpreter.lsp.server import main as serve

    serve()


@main.command()
@click.option("--output", "-o", type=click.Path(path_type=Path), default=Path("schemas"), show_default=True,
              help="Folder to write the schemas to.")
def schema(output: Path) -> None:
    """Write the JSON Schema of every kind of YAML file, for editors to check as you type."""
    from interpreter.validation.schemas import write_schemas

    for path in write_schemas(output):
        click.echo(f"wrote {path}")


@main.command()
@click.argument("game")
@click.option("--human", "humans", multiple=True, metavar="PLAYER", help="A player typed at the terminal (repeat for hot-seat). Others are bots.")
@click.option("--seed", type=SEEDS, default=None,
              help="Seed of the game and of the bots [default: a random one, printed] "
                   "(not with --load: the save has its own).")
@click.option("--save", type=click.Path(dir_okay=False, path_type=Path),
              help="Save the game to this file after every decision (resume it with --load; replay it with `ludolex replay`).")
@click.option("--load", type=click.Path(dir_okay=False, path_type=Path),
              help="Resume the game saved in this file, and go on saving to it (or to --save).")
@click.option("--all", "show_all", is_flag=True, help="Show every hidden component and hand (for debugging rules, not for play).")
@click.option("--every-move", is_flag=True,
              help="Watching bots: show the game after every move [default: at the start and the end, the moves "
                   "one a line]. With a person at the table, it is always shown after every move.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help=OPTION_HELP + " Not with --load.")
@click.option("--bots", default="random", show_default=True,
              help="Bot of each seat, comma-separated (one name: all seats), as for simulate (e.g. search:400); "
                   "--human overrides it for a seat.")
@click.option("--players", "--factions", "players", default=None,
              help="Who sits at the table, comma-separated, in seating order (or how many: the first N), as for "
                   "simulate [default: the game's table]. Not with --load.")
def play(game: str, humans: tuple[str, ...], seed: int | None, save: Path | None, load: Path | None, show_all: bool,
         every_move: bool, options: tuple[str, ...], bots: str, players: str | None) -> None:
    """Play GAME in the terminal; with no --human, watch bots play: the game at the start and the
    end, each move on a line between (--every-move: the game after each move too).

    Each human sees only what their seat may see (with several, the one about to decide); watching
    bots, you see what is public, unless --all. At a decision, type a number or the start of an
    option, `why LABEL` (why it is not offered), `undo`, `save [FILE]`, `show` or `help`.
    Without --save, Ctrl-C saves a game with a person at the table to a new file of the current
    folder, and names it.

    --save FILE writes the game to FILE after every decision, whole or not at all: quit at any
    moment (Ctrl-C, end of input, SIGTERM) and FILE holds the game up to the last decision.
    --load FILE replays the game saved in FILE (its seed, players and options: --seed and --option
    are refused with --load) and goes on with the --human and --bots of this command, saving after
    every decision to FILE, or to --save OTHER. If the rules changed since the save, it is replayed
    under the new ones as long as every recorded choice is still offered (a note says so); if one
    is not, it stops and says which.

    Exit status: 0 the game ended (or the saved one was already over); 1 an error in the rules, a
    save that cannot be written, or a saved game the rules no longer follow; 2 misuse (a bad
    option, a file that is not a save of GAME); 130 abandoned (Ctrl-C, end of input), 143 SIGTERM.
    """
    ruleset = _load(game)
    seated = _players(players, ruleset)
    _check_humans(humans, ruleset, seated)
    names = _bots(bots, ruleset)
    target = save or load  # where the game is saved as it goes
    if target is not None and not target.parent.is_dir():
        raise click.UsageError(f"--{'save' if save else 'load'} {target}: no folder {target.parent}")
    console = Console(highlight=False)
    note = None
    if load is not None:
        context = click.get_current_context()
        for name, flag in (("seed", "--seed"), ("options", "--option"), ("players", "--players")):
            if context.get_parameter_source(name) is not ParameterSource.DEFAULT:
                raise click.UsageError(f"{flag} with --load: the saved game keeps its own seed and options; drop {flag}")
        try:
            restored = restore(ruleset, read_save(load), load)
        except SaveError as error:
            raise _save_failure(error) from None
        journal, note = restored.journal, restored.note
        current, seed = journal.game, journal.game.seed
    else:
        seed = _random_seed() if seed is None else seed
        current = Game(ruleset, seed=seed, players=list(seated) if seated else None, options=_options(options, ruleset))
        journal = Journal(current, ruleset.content_hash())

    make_bots = _seat_bots(names, ruleset, seed, humans)

    def resume(path: Path) -> str:  # the command that goes on with the game saved in `path`
        return shlex.join(["ludolex", "play", game, "--load", str(path)] + [a for h in humans for a in ("--human", h)]
                          + (["--bots", bots] if bots != "random" else []) + (["--all"] if show_all else [])
                          + (["--every-move"] if every_move and not humans else []))

    console.print(f"[bold]{escape(ruleset.manifest.title or ruleset.name)}[/bold], seed {seed}")
    seats = [f"{p} ({'typed here' if p in humans else 'bot ' + names[i % len(names)]})"
             for i, p in enumerate(current.players)]
    console.print(escape("players: " + ", ".join(seats)))
    if load is not None:
        console.print(escape(f"{load}: {len(current.log)} choice(s) replayed"), soft_wrap=True)  # a path: one line
        if note:
            console.print("[bold]note:[/bold] " + escape(note), soft_wrap=True)
        if current.finished:
            console.print(escape(f"the game saved in {load} is already over"), soft_wrap=True)
    session = Session(console, journal, humans, make_bots, target, resume, show_all, holds=target == load,
                      every_move=every_move or bool(humans))
    try:
        with sigterm_as_ctrl_c():
            session.run()
    except SaveError as error:
        raise _save_failure(error) from None
    except (EOFError, KeyboardInterrupt) as stop:
        sys.exit(143 if isinstance(stop, Terminated) else 130)


def _random_seed() -> int:
    """A seed nobody can guess: a seed deals every hand, so a game without --seed must not deal the last one's."""
    import secrets

    return secrets.randbelow(SEEDS.max + 1)


def _check_humans(humans: tuple[str, ...], ruleset, players: tuple[str, ...] | None = None) -> None:
    """Each --human is a player at the table: `players` (--players), else the game's default table."""
    seated = players or ruleset.program.table
    for human in humans:
        if human not in seated:
            raise click.UsageError(f"--human {human}: the players at the table are {', '.join(seated)}")


def _seat_bots(names: list[str], ruleset, seed: int, humans: tuple[str, ...]):
    """`make_bots(game)`: the bots of the seats nobody takes, for a game (made again when a move is
    taken back: a bot may keep the game it plays), seeded from `seed`."""

    def make_bots(playing: Game) -> dict:  # one per seat, in the table's order
        return {p: make_agent(names[i % len(names)], ruleset, playing, seed * 1000 + i)
                for i, p in enumerate(playing.players) if p not in humans}

    return make_bots


def _save_failure(error) -> click.ClickException:
    """A SaveError as the one line click prints: exit status 2 if the file is not a save of the
    game (misuse, as for `replay`), 1 if the rules no longer follow it or it cannot be written."""
    failure = click.ClickException(str(error))
    failure.exit_code = 2 if error.misuse else 1
    return failure


@main.command()
@click.argument("game")
@click.option("--games", type=GAMES, default=1000, show_default=True, help="How many games (seeds SEED .. SEED+GAMES-1).")
@click.option("--seed", type=SEEDS, default=0, show_default=True, help="The first game's seed.")
@click.option("--bots", default="random", show_default=True,
              help="Bot of each seat, comma-separated (one name: all seats): random, search[:BUDGET[:PLAYOUT]] "
                   "(e.g. search:400, search:0.5s), or a bot of the game's bots/ folder.")
@click.option("--players", "--factions", "players", default=None,
              help="Who sits at the table, comma-separated (or how many: the first N); the seating turns by one each game.")
@click.option("--max-turns", type=TURNS, default=None, help="Stop a game after this many turns (counted as `turn limit`).")
@click.option("--fixed-seats", is_flag=True,
              help="Seat the players and the bots in the same order every game [default: the seating turns].")
@click.option("--check", is_flag=True, help="Check after every decision that every component is in one zone and no total changed.")
@click.option("--jobs", type=JOBS, default=None,
              help="Local processes, or the CPUs of a local Ray [default: all cores]; a Ray cluster (--address) uses "
                   "all its CPUs.")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_DB, show_default=True, help="SQLite file for the results.")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True)
@click.option("--address", default=None,
              help="Ray cluster address, HEAD:6379 (default: start a local Ray); the ruleset goes with the job.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help=OPTION_HELP)
@click.option("--run", "run_name", default=None, metavar="NAME",
              help="The run's name in DB [default: its bots, players, seating and options].")
def simulate(game: str, games: int, seed: int, bots: str, players: str | None, max_turns: int | None,
             fixed_seats: bool, check: bool, jobs: int | None, db: Path, backend: str, address: str | None,
             options: tuple[str, ...], run_name: str | None) -> None:
    """Play GAMES games between bots, keep them in DB, and report win rates and game length.

    Games already in DB (same ruleset version, table and seed) are not played again: a run that
    was stopped resumes, and a larger --games extends it. Each game is stored as soon as it ends:
    Ctrl-C, SIGTERM, even kill -9 keep every finished game. A game that fails (an error in the
    rules or a bot, a limit reached) is kept with its error, and the run goes on.

    The seating turns: the players by one seat each game, the bots by one seat every N games (N
    players), so that each player sits in each seat, and is played by each bot, equally often;
    --fixed-seats keeps one order. The run's key in DB says which (`seats=rotating`, `seats=fixed`).

    The games are one run of DB, named by --run NAME (or by its key), which `ludolex runs DB` lists
    and `report` and `replay` choose; the same command again (or --run NAME) resumes it.

    Exit status: 0 every game ended; 1 some game stopped on an error or a limit, or DB cannot be
    used (damaged, read-only, full, in use); 2 misuse (a bad option, DB not a results database);
    130 stopped by Ctrl-C, 143 by SIGTERM.
    """
    ruleset = _load(game)
    table = Table(tuple(_bots(bots, ruleset)), _players(players, ruleset), max_turns, check,
                  tuple(sorted(_options(options, ruleset).items())), fixed_seats)
    version, bots_key = ruleset.content_hash(), table.key()
    wanted = range(seed, seed + games)
    jobs = jobs or default_jobs()
    console = Console(highlight=False, stderr=True, soft_wrap=True)
    with sigterm_as_ctrl_c(), closing(Results(db)) as results:
        run_name = _named(results, ruleset.name, version, bots_key, run_name)
        done = results.seeds_done(version, bots_key, wanted)
        to_play = games - len(done)
        workers = (f"the Ray cluster at {address}" if address else f"{jobs} Ray worker(s)") if backend == "ray" else \
            f"{jobs} process(es)"
        console.print(escape(f"{ruleset.name} (version {version}), run `{run_name}`: {len(done)} game(s) already in {db}, "
                             f"{to_play} to play on {workers}"))
        todo = (s for s in wanted if s not in done)
        status = _play_and_store(results, ruleset, version, bots_key, todo, to_play, table, jobs, backend, address, console)
        failures = _print_summary(results.iter_records(version, bots_key, wanted, with_log=False),
                                  _context(ruleset.name, version, run_name, bots_key, db, game), usage=False)
    sys.exit(status or (1 if failures else 0))


def _play_and_store(results: Results, ruleset, version: str, bots_key: str, todo, to_play: int, table: Table,
                    jobs: int, backend: str, address: str | None, console: Console) -> int:
    """Play the games and store each as it ends; 0, or the exit status of a run stopped by Ctrl-C or SIGTERM."""
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("{task.fields[rate]} games/s"), TimeRemainingColumn(), console=console,
                        disable=not to_play)
    status, played, start = 0, 0, time.perf_counter()
    try:
        with closing(run(ruleset, todo, table, jobs, backend, address)) as stream, progress:
            task = progress.add_task("simulating", total=to_play, rate="-")
            for record in stream:
                results.add(ruleset.name, version, bots_key, record)
                played += 1
                elapsed = time.perf_counter() - start
                progress.update(task, advance=1, rate=f"{played / elapsed:.0f}" if elapsed else "-")
    except KeyboardInterrupt as stop:
        status = 143 if isinstance(stop, Terminated) else 130
        console.print("stopped: the finished games are kept; run the same command again to resume")
    seconds = time.perf_counter() - start
    if played:
        console.print(f"played {played} game(s) in {seconds:.1f} s: {played / seconds:.0f} games/s")
    return status


def _bots(text: str, ruleset) -> list[str]:
    from interpreter.agents.rule_of_thumb import Policy, policy_path

    names = [b.strip() for b in text.split(",") if b.strip()]
    if not names:
        raise click.UsageError("--bots: name at least one bot (random, search, or a bot of the game's bots/ folder)")
    files = set()
    try:
        for name in names:
            files |= rule_of_thumb_files(name, ruleset)
    except ValueError as error:
        raise click.UsageError(f"--bots: {error}") from None
    for name in sorted(files):  # report a mistake in a bot file before any game
        try:
            Policy(policy_path(ruleset, name), ruleset)
        except LudolexError as error:
            click.echo(str(error), err=True)
            sys.exit(1)
    return names


def _options(given: tuple[str, ...], ruleset, flag: str = "--option") -> dict:
    """`NAME=VALUE` texts as the game's options, checked against the rules' `option` declarations."""
    options = {}
    for text in given:
        name, equals, value = text.partition("=")
        if not equals or not name.strip():
            raise click.UsageError(f"{flag} {text}: write NAME=VALUE")
        options[name.strip()] = value.strip()
    try:
        return {name: value for name, value in ruleset.program.chosen_options(options).items() if name in options}
    except ValueError as error:
        raise click.UsageError(f"{flag}: {error}") from None


def _players(text: str | None, ruleset) -> tuple[str, ...] | None:
    if text is None:
        return None
    known = ruleset.program.table
    if re.fullmatch(r"[0-9]+", text.strip()):
        count = int(text)
        if not 1 <= count <= len(known):
            raise click.UsageError(f"--players: {ruleset.name} seats 1 to {len(known)} players")
        return tuple(known[:count])
    try:
        seated = tuple(seating(ruleset, [p.strip() for p in text.split(",") if p.strip()]))
        _not_refused(ruleset, seated)
        return seated
    except ValueError as error:
        raise click.UsageError(f"--players: {error}")


def _not_refused(ruleset, players: tuple[str, ...]) -> None:
    """A table the rules refuse to set up (`refuse`) is said once, before any game is played. Any
    other failure of this first setup is left to the games, which report it where it happens."""
    try:
        Game(ruleset, 0, players=list(players))
    except RefusedTable:
        raise
    except Exception:
        pass


def _named(results: Results, game: str, version: str, key: str, name: str | None) -> str:
    from interpreter.simulation.runs import RunError, name_run

    try:
        return name_run(results, game, version, key, name)
    except RunError as error:
        raise click.UsageError(str(error)) from None


def _chosen_run(results: Results, name: str | None, bots: str | None, players: str | None, version: str | None,
                options: dict | None = None):
    """The run of DB that --run, --bots, --players, --version (and --option) choose: a usage error
    that lists the runs if none or several do."""
    from interpreter.simulation.runs import RunError, choose_run, list_runs

    written = [(option, str(value)) for option, value in options.items()] if options else None  # as in a run's key
    try:
        return choose_run(list_runs(results), str(results.path), name, bots, players, version, written)
    except RunError as error:
        raise click.UsageError(str(error)) from None


def _run_options(function):
    """--run, --bots, --players, --version: how `report` and `replay` choose a run of a database."""
    for option in reversed([
            click.option("--run", "run_name", default=None, metavar="NAME",
                         help="The run's name (`ludolex runs DB` lists them)."),
            click.option("--bots", default=None, help="The run whose bots are these (`random,rule_of_thumb`)."),
            click.option("--players", "--factions", "players", default=None,
                         help="The run with these players (or this many)."),
            click.option("--version", "version", default=None,
                         help="The run of this version (its hash, or the start of it).")]):
        function = option(function)
    return function


def _context(name: str, version: str, run: str, key: str, db: Path, game: str):
    """Where a report comes from; `game` as `replay --game` takes it (a name or a folder)."""
    from interpreter.reports.overview import RunContext

    replay = shlex.join(["ludolex", "replay", str(db), "--game", game, "--run", run] +
                        [f"--option={name}={value}" for name, value in options_of_key(key)])
    return RunContext(name, version, run, click.get_current_context().meta.get(COMMAND_LINE, ""),
                      datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                      replay.replace("{", "{{").replace("}", "}}") + " --seed {seed}")


def _print_summary(records: Iterable[dict], context, usage: bool) -> int:
    """How the games ended and the ones that failed by seed, then the report of those that ended (with
    the table of options chosen if `usage`), the games read once, one at a time. Returns how many
    failed (stopped on an error or a limit, or lost with their worker)."""
    from interpreter.reports import document  # pure Python: no extra needed
    from interpreter.reports.run_tally import RunTally

    run = RunTally.of(records, usage, SHOWN_FAILURES)
    click.echo(run.failures.header_line(context.game))
    for line in run.failures.lines(SHOWN_FAILURES):
        click.echo(line)
    if not run.failures.finished:
        click.echo("no finished games")
    else:
        report = document.report_of(run, context, most_options=SHOWN_OPTIONS)
        Console(highlight=False).print(document.render_report(report))
    return run.failures.failed


@main.command()
@click.argument("db", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@_run_options
@click.option("--plots", type=click.Path(file_okay=False, path_type=Path), default=None, help="Folder for the PNG plots and report.html.")
def report(db: Path, run_name: str | None, bots: str | None, players: str | None, version: str | None,
           plots: Path | None) -> None:
    """The report of one run of DB: a summary in plain words, then win rates with 95% intervals (by
    player, seat and bot), how games ended, length, scores, how often each option was chosen, and the
    games that stopped on an error. --plots writes the PNG plots and report.html, the whole page.

    With several runs in DB, choose one by --run NAME, or by --bots, --players and --version; without
    a choice, the runs are listed and none is reported (exit status 2).
    """
    write_plots = import_needing_extra("interpreter.reports.plots").write_plots if plots else None  # matplotlib

    with closing(Results(db, read_only=True)) as results:
        run = _chosen_run(results, run_name, bots, players, version)
        click.echo(f"{run.game}, version {run.version}, run `{run.name}`: {run.games} game(s)")
        context = _context(run.game, run.version, run.name, run.key, db, run.game)
        _print_summary(results.iter_records(run.version, run.key, with_log=False), context, usage=True)
        if plots:  # the plots of score curves need every game at once
            for path in write_plots(results.records(run.version, run.key, with_log=False), plots, context=context):
                click.echo(f"wrote {path}")


@main.command()
@click.argument("db", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def runs(db: Path) -> None:
    """List the runs of the results database DB: name, game, version, players, bots, games, failures, dates."""
    from interpreter.reports.summary import rich_table
    from interpreter.simulation.runs import list_runs, runs_sheet

    with closing(Results(db, read_only=True)) as results:
        found = list_runs(results)
    if not found:
        click.echo(f"{db}: no games")
        return
    table = rich_table(runs_sheet(found, str(db)))
    for column in table.columns:
        column.overflow = "fold"  # a name or a version whole, never cut short
    Console(highlight=False, width=None if sys.stdout.isatty() else 200).print(table)


@main.command()
@click.argument("ruleset_a")
@click.argument("ruleset_b")
@click.option("--games", type=GAMES, default=2000, show_default=True,
              help="Pairs of games (seeds SEED .. SEED+GAMES-1); with --until-decided, the most it plays.")
@click.option("--seed", type=SEEDS, default=0, show_default=True)
@click.option("--bots", multiple=True, default=("random",), show_default=True,
              help="The bots, as for simulate; give --bots again to compare with another bot set too, and see "
                   "whether the verdicts agree: `--bots rule_of_thumb --bots search:8`.")
@click.option("--until-decided", is_flag=True,
              help="Play pairs in batches until a sequential test accepts an effect of --effect points on some "
                   "player's win rate, or no such effect (or --games pairs are played).")
@click.option("--effect", type=click.FloatRange(0.1, 50), default=3.0, show_default=True,
              help="With --until-decided: the move of a win rate that matters, in points.")
@click.option("--alpha", type=click.FloatRange(0.001, 0.5), default=0.05, show_default=True,
              help="With --until-decided: the chance of a false alarm (an effect found where there is none).")
@click.option("--beta", type=click.FloatRange(0.001, 0.5), default=0.05, show_default=True,
              help="With --until-decided: the chance of missing an effect of --effect points.")
@click.option("--batch", type=click.IntRange(1, 100000), default=100, show_default=True,
              help="With --until-decided: pairs played between two looks at the evidence.")
@click.option("--jobs", type=JOBS, default=None, help="Local processes [default: all cores].")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_DB, show_default=True)
@click.option("--players", "--factions", "players", default=None, help="Who sits at the table (see simulate).")
@click.option("--max-turns", type=TURNS, default=None, help="Stop a game after this many turns.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="A game option for both sides (repeatable).")
@click.option("--b-option", "b_options", multiple=True, metavar="NAME=VALUE",
              help="A game option for RULESET_B only (repeatable): `compare root root --b-option map=winter`.")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True)
@click.option("--address", default=None,
              help="Ray cluster address, HEAD:6379 (default: start a local Ray); the ruleset goes with the job.")
@click.option("--plots", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the plots and compare.html, the whole comparison.")
def compare(ruleset_a: str, ruleset_b: str, games: int, seed: int, bots: tuple[str, ...], until_decided: bool,
            effect: float, alpha: float, beta: float, batch: int, jobs: int | None, db: Path, players: str | None,
            max_turns: int | None, options: tuple[str, ...], b_options: tuple[str, ...], backend: str,
            address: str | None, plots: Path | None) -> None:
    """Play two versions of a game on the same seeds, say which differences are significant, what
    changed between them and whether it came into play.

    Both are checked before any game is played. Each seed is played by A and by B with the same seating
    and bots, and the games are compared pair by pair: McNemar's exact test for each win rate,
    Wilcoxon's signed-rank test for lengths and scores, corrected for the number of measures (Holm),
    each change also in relative terms. Then each difference between A and B (a kind of card or piece,
    the board, a rule): in how many games of each side it moved or was chosen, and the effect among the
    pairs where it came into play.

    --until-decided plays the pairs in batches and stops as soon as a sequential test (a generalized
    SPRT per player and direction, as chess engines test a patch) accepts that some player's win rate
    moves by --effect points or more, or that none does; at --games pairs it says "undecided". Several
    --bots compare with each bot set and say whether the verdicts agree. --plots DIR writes the plots
    and compare.html.
    """
    from interpreter.interfaces.comparing import Sequential, agreement, compare_sides, render_bot_set
    from interpreter.simulation.changes import changes_between
    from interpreter.simulation.paired_runs import Side

    write_comparison = import_needing_extra("interpreter.reports.paired_plots").write_comparison if plots else None
    jobs = jobs or default_jobs()
    loaded = _load_sides([ruleset_a, ruleset_b])  # both checked before any game
    chosen = [_options(options, loaded[0]), _options(options + b_options, loaded[1], "--b-option" if b_options else
                                                                                      "--option")]
    bot_sets = list(dict.fromkeys(bots))
    sequential = Sequential(effect / 100, alpha, beta, batch) if until_decided else None
    console = Console(highlight=False, markup=False, width=None if sys.stdout.isatty() or os.environ.get("COLUMNS") else 120)
    outcomes, each_set = [], []
    for bot_set in bot_sets:  # every bot set checked before any game
        each_set.append((bot_set, tuple(Side(name, ruleset, Table(tuple(_bots(bot_set, ruleset)), _players(players, ruleset),
                                                                  max_turns, options=tuple(sorted(picked.items()))))
                                        for name, ruleset, picked in zip((ruleset_a, ruleset_b), loaded, chosen))))
    a_side, b_side = each_set[0][1]
    changes = changes_between(*loaded)
    with closing(Results(db)) as results:  # a database that cannot be used is said first, alone
        if a_side.version == b_side.version and a_side.table.key() == b_side.table.key():
            click.echo(f"warning: {ruleset_a} and {ruleset_b} are the same version ({a_side.version}) with the same "
                       "options: each seed gives the same game twice", err=True)
        for bot_set, sides in each_set:
            outcome = compare_sides(results, sides, range(seed, seed + games), jobs, sequential, console, backend,
                                    address)
            console.print(render_bot_set(outcome, changes, ruleset_a, ruleset_b))
            outcomes.append(outcome)
            if plots:
                folder = plots if len(bot_sets) == 1 else plots / re.sub(r"[^A-Za-z0-9_.-]", "_", bot_set)
                title = f"{sides[0].ruleset.name}: {ruleset_a} vs {ruleset_b}, bots {bot_set}"
                for path in write_comparison(outcome.comparison, folder, title):
                    click.echo(f"wrote {path}")
    if len(outcomes) > 1:
        console.print(Text(agreement(outcomes), style="bold"))


def _load_sides(names: list[str]) -> list:
    """The rulesets `compare` plays, every problem of each said before the command stops: exit 2 if one
    does not exist, 1 if one has errors."""
    loaded, status = [], 0
    for name in names:
        try:
            find_ruleset(name)
            loaded.append(load_ruleset(name))
        except LudolexError as error:
            missing = error.diagnostics[0].code == "LX001" and error.diagnostics[0].position is None
            click.echo(f"error: {error.diagnostics[0].message}" if missing else f"{name}:\n{error}", err=True)
            status = 2 if missing else max(status, 1)
        except (ValueError, OSError) as error:  # a NUL byte, a name too long...
            click.echo(f"error: no ruleset `{name}` ({error})", err=True)
            status = 2
    if status:
        sys.exit(status)
    return loaded


def _check_saved_game(saved, where: Path) -> dict:
    """A saved game (`play --save`, or a game of a results database), checked field by field
    (the new fields of a save too: `format`, `version`, `decisions`)."""
    try:
        return check_save(saved, where)
    except NotASave as error:
        raise click.UsageError(str(error)) from None


def _read_saved_game(file: Path) -> dict:
    try:
        return read_save(file)
    except NotASave as error:
        raise click.UsageError(str(error)) from None


def _game_to_replay(file: Path, seed: int | None, game: str | None, options: tuple[str, ...], run_name: str | None,
                    bots: str | None, players: str | None, version: str | None):
    """The ruleset, the save (checked) and the error it stopped on (None: none) of the game to replay:
    that of seed `seed` of the results database `file` (in the run the other arguments choose), or
    without a seed the game saved in `file` (followed by label if the rules changed since)."""
    stopped = None
    if seed is not None:
        ruleset = _load(game) if game is not None else None
        given = _options(options, ruleset) if ruleset else \
            {text.partition("=")[0].strip(): text.partition("=")[2].strip() for text in options}  # as typed
        with closing(Results(file, read_only=True)) as results:
            run = _chosen_run(results, run_name, bots, players, version or (ruleset and ruleset.content_hash()), given)
            if ruleset is None:
                try:
                    find_ruleset(run.game)
                except (LudolexError, ValueError, OSError):
                    raise click.UsageError(f"run `{run.name}` is a run of {run.game}, which is not found by its name: "
                                           "give its folder with --game") from None
                ruleset = _load(run.game)
            if run.version != ruleset.content_hash():
                raise click.UsageError(f"run `{run.name}` was played with version {run.version} of {run.game}, whose "
                                       f"rules are now version {ruleset.content_hash()}: a game replays only under "
                                       "the rules it was played with")
            stored = results.records(run.version, run.key, range(seed, seed + 1))
        if not stored:
            raise click.UsageError(f"{file}: run `{run.name}` has no game with seed {seed}")
        played_with = tuple(f"{name}={value}" for name, value in options_of_key(run.key))
        saved = _check_saved_game({"game": game or run.game, "seed": seed, "choices": stored[0]["log"],
                                   "players": stored[0]["players"], "options": _options(played_with, ruleset)}, file)
        stopped = stored[0]["error"]
    else:
        saved = _read_saved_game(file)
        ruleset = _load(saved["game"])
        if saved.get("decisions") is not None and saved.get("version") != ruleset.content_hash():
            # a save of `play` under rules changed since: followed by label, as `play --load` does
            try:
                restored = restore(ruleset, saved, file)
            except SaveError as error:
                raise _save_failure(error) from None
            if restored.note:
                click.echo(f"note: {restored.note}")
            saved = dict(saved, choices=restored.game.log, state=restored.game.state.to_json())
    return ruleset, saved, stopped


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--step", is_flag=True, help="Wait for Enter after each decision.")
@click.option("--seed", type=STORED_SEEDS, default=None, help="With a results database: the seed of the game to replay.")
@click.option("--game", default=None, help="With a results database: the ruleset (name or folder) whose game to replay.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="With a results database: the options the game was played with [default: its run's].")
@_run_options
def replay(file: Path, step: bool, seed: int | None, game: str | None, options: tuple[str, ...],
           run_name: str | None, bots: str | None, players: str | None, version: str | None) -> None:
    """Replay a saved game (a JSON file), or the game of seed S of a results database (--seed S).

    In a database, the game is that of the run --run NAME (or --bots, --players, --version, --option)
    chooses among the runs of GAME's version (--game GAME; default: the run's game, by its name); with
    several runs and no choice, they are listed. A simulated game that stopped on an error replays to that
    error, and ends with it.

    Exit status: 0 the replay reached the saved game; 1 it did not (the file does not match the
    rules, or the rules stopped on an error, or the simulated game had stopped on one); 2 misuse (FILE is not a saved game nor a results database).
    """
    ruleset, saved, stopped = _game_to_replay(file, seed, game, options, run_name, bots, players, version)
    choices = saved["choices"]
    console = Console(highlight=False)
    try:
        current = Game(ruleset, seed=saved["seed"], players=saved.get("players"), options=saved.get("options"))
    except ValueError as error:
        raise click.UsageError(f"{file}: {error}")
    except RuleRuntimeError as error:
        raise click.ClickException(f"the rules stopped on an error before the first choice: {error}")
    for number, index in enumerate(choices, 1):
        decision = current.decision
        if decision is None:
            raise click.ClickException(f"{file}: the game ended before choice {number}; the file does not match the rules")
        if not 0 <= index < len(decision.options):
            raise click.ClickException(f"{file}: choice {number} is option {index}, but `{decision.name}` has "
                                       f"{len(decision.options)} option(s); the file does not match the rules")
        label = decision.label(index, EVERYTHING)  # a replay reviews a finished game: every hidden thing is shown
        console.print(f"{number:>4}. [bold]{escape(decision.player)}[/bold] {escape(decision.name)}: {escape(label)}")
        try:
            current.choose(index)
        except RuleRuntimeError as error:
            raise click.ClickException(f"the rules stopped on an error at choice {number}: {error}")
        if step:
            show(console, current, EVERYTHING)
            click.prompt("", default="", show_default=False, prompt_suffix="")
    show(console, current, EVERYTHING)
    if stopped is not None:
        raise click.ClickException(f"the simulation stopped this game after choice {len(choices)}: {stopped}")
    if current.state.to_json() != saved.get("state", current.state.to_json()):
        raise click.ClickException("the replay does not reach the saved state")
    console.print("[bold]result:[/bold] " + escape(result_sentence(current.result, current.state.turns)))


@main.command()
@click.argument("source")
@click.option("--human", "humans", multiple=True, metavar="PLAYER",
              help="A seat played in the page (repeat for hot-seat) [default: the first player]. Others are bots.")
@click.option("--bots", default="random", show_default=True, help="Bot of each other seat, as for play (e.g. search:400).")
@click.option("--seed", type=STORED_SEEDS, default=None,
              help="The game's seed [default: a random one, printed]; "
                   "with a results database, the seed of the game to replay.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help=OPTION_HELP)
@click.option("--debug", is_flag=True,
              help="Print one more link, to every seat's view and the `all` seat, which shows every hidden "
                   "component (not for play).")
@click.option("--game", default=None, help="With a results database: the ruleset (name or folder) whose game to replay.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; another than this machine's own (127.0.0.1) lets other machines in.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="0: any free port.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the web browser.")
@click.option("--run", "run_name", default=None, metavar="NAME", help="With a results database: the run (`ludolex runs DB`).")
@click.option("--players", "--factions", "players", default=None,
              help="Who sits at the table, comma-separated, in seating order (or how many: the first N), as for "
                   "simulate [default: the game's table]. Only for a new game.")
def serve(source: str, humans: tuple[str, ...], bots: str, seed: int | None, options: tuple[str, ...], debug: bool,
          game: str | None, host: str, port: int, open_browser: bool, run_name: str | None, players: str | None) -> None:
    """Play or watch a game in a web page: SOURCE is a game (play it against bots), a saved game
    (`play --save`) or a results database with --seed S (replay it, forward and back).

    Each seat sees only what its player may see; the page answers the pending decision by a click on
    the board, a card or the list, explains why a move is refused, and takes a move back (undo).

    Each person's seat gets a link of its own, printed here, with a secret key in it: the page opened
    by it shows that seat's view (and the spectator's) and answers for that seat only. Give each
    player theirs. --debug prints one more, to every view; a replay has one link, to every view.
    Without --seed, the game's seed is drawn at random and printed here (never sent to the page).
    """
    from interpreter.interfaces.web.access import Access, is_loopback
    from interpreter.interfaces.web.app import create_app, serve as serve_page
    from interpreter.interfaces.web.table import ALL, Played, Replayed

    path = Path(source)
    if path.is_file():
        with path.open("rb") as opened:
            database = opened.read(16) == b"SQLite format 3\x00"  # else a save
        if database and seed is None:
            raise click.UsageError(f"{path} is a results database: give --seed S, the game to replay")
        ruleset, saved, stopped = _game_to_replay(path, seed if database else None, game, options if database else (),
                                                  run_name, None, None, None)

        def make_game() -> Game:
            return Game(ruleset, seed=saved["seed"], players=saved.get("players"), options=saved.get("options"))

        try:
            table = Replayed(make_game, saved["choices"], stopped)
        except ValueError as error:
            raise click.UsageError(f"{path}: {error}") from None
        except RuleRuntimeError as error:
            raise click.ClickException(f"the rules stopped on an error before the first choice: {error}") from None
    else:
        ruleset = _load(source)
        seated = _players(players, ruleset)
        _check_humans(humans, ruleset, seated)
        table_players = list(seated or ruleset.program.table)
        humans, seed = humans or tuple(table_players[:1]), _random_seed() if seed is None else seed
        current = Game(ruleset, seed=seed, players=table_players, options=_options(options, ruleset))
        make_bots = _seat_bots(_bots(bots, ruleset), ruleset, seed, humans)
        table = Played(Journal(current, ruleset.content_hash()), humans, make_bots, debug)

    access = Access(table, host, port)
    if not is_loopback(host):
        click.echo(f"warning: --host {host}: the game can be reached from other machines. Each link below is the "
                   "key to one seat: give each player theirs, and nobody else any.", err=True)

    def started() -> None:
        first, *others = access.links
        every = "every seat: --debug, not for play" if isinstance(table, Played) else "replay"
        click.echo(f"{ruleset.manifest.title or ruleset.name} at {access.url(first)} "
                   f"({every if first.name == ALL else first.name}; Ctrl-C to stop)")
        for link in others:
            click.echo(f"  {every if link.name == ALL else link.name}: {access.url(link)}")
        if isinstance(table, Played):
            click.echo(f"seed {seed} (`--seed {seed}` deals this game again)")
        sys.stdout.flush()
        if open_browser:
            import webbrowser

            webbrowser.open(access.url(first))

    try:
        with sigterm_as_ctrl_c():
            serve_page(create_app(table, access), access, started)
    except OSError as error:
        raise click.ClickException(f"cannot serve on {host}:{port}: {error.strerror or error}") from None
    except KeyboardInterrupt:
        click.echo("stopped")


@main.group()
def variant() -> None:
    """Variants: a game written as another game and what it changes (docs/language.md, section 2)."""


@variant.command(name="new")
@click.argument("name")
@click.option("--from", "base", required=True, metavar="GAME",
              help="The game it changes: a game's name, or its folder.")
@click.option("--into", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The folder to write it in [default: ./rulesets if there is one, else the current folder].")
def variant_new(name: str, base: str, into: Path | None) -> None:
    """Write a new variant of GAME, NAME/game.yaml, that names its base and changes nothing yet.

    Exit status: 0 written; 1 the base game has errors; 2 misuse (no such game, a bad name, a folder
    that exists already: nothing is written over).
    """
    from interpreter.loading.new_variant import write_variant

    _load(base)  # a game that does not exist, or has errors, before anything is written
    try:
        path = write_variant(name, base, into or (Path("rulesets") if Path("rulesets").is_dir() else Path(".")))
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    except LudolexError as error:
        click.echo(str(error), err=True)
        sys.exit(1)
    click.echo(f"wrote {path}: a variant of {base} that changes nothing yet. Write its changes under `overrides:`, "
               f"then `ludolex validate {path.parent}` and `ludolex compare {base} {path.parent}`.")


class _PytestArguments(click.Command):
    """A command whose arguments after `--` are kept apart, as they are (in `ctx.meta`), for pytest."""

    def parse_args(self, ctx, args):
        if "--" in args:
            at = args.index("--")
            args, ctx.meta[PYTEST_ARGUMENTS] = args[:at], args[at + 1:]
        return super().parse_args(ctx, args)


PYTEST_ARGUMENTS = "ludolex.pytest_arguments"


@main.command(name="test", cls=_PytestArguments)
@click.argument("games", nargs=-1, required=True, metavar="GAME...")
@click.option("-k", "expression", metavar="EXPR",
              help="Only the scenarios EXPR chooses, as pytest's -k: words found in a scenario's name, its file's "
                   "name, its game's or its rule IDs (any case), joined by and, or, not: `-k 'scoring and not tie'`.")
@click.option("-x", "--exitfirst", is_flag=True, help="Stop at the first failure.")
@click.option("-q", "--quiet", is_flag=True, help="Only the failures and the count, not a line per file.")
def test_command(games: tuple[str, ...], expression: str | None, exitfirst: bool, quiet: bool) -> None:
    """Run the scenario tests of each GAME (rulesets/GAME/tests/*.yaml).

    `ludolex test GAME OTHER_GAME -k scoring -x`. Whatever follows `--` hands the run to pytest, with
    those arguments as they are (`-- -n 4`, `-- --junitxml=scenarios.xml`; pytest is in the `test`
    extra); -k, -x and -q then go to pytest too.

    Exit status: 0 every scenario chosen passed; 1 some failed, or none was chosen; 2 misuse.
    """
    from interpreter.scenarios.selection import keyword_matcher

    folders = []
    for game in games:
        folder = _load(game).directory / "tests"
        if not any(folder.glob("*.yaml")):
            raise click.UsageError(f"{game} has no scenario tests (no {folder}/*.yaml)")
        folders.append(folder)
    passed_on = click.get_current_context().meta.get(PYTEST_ARGUMENTS)
    if passed_on is not None:
        if importlib.util.find_spec("pytest") is None:
            raise click.UsageError("the arguments after `--` are pytest's, which comes with the `test` extra: "
                                   "pip install 'ludolex[test]'")
        arguments = [str(folder) for folder in folders] + (["-k", expression] if expression else []) \
            + (["-x"] if exitfirst else []) + (["-q"] if quiet else []) + passed_on
        status = subprocess.run([sys.executable, "-m", "pytest", *arguments]).returncode  # a fresh process
        sys.exit({0: 0, 4: 2}.get(status, 1))  # pytest's 4: a usage error
    try:
        chosen = keyword_matcher(expression) if expression else None
    except ValueError as error:
        raise click.UsageError(f"-k {error}") from None
    sys.exit(_run_scenarios(folders, chosen, exitfirst, quiet))


def _run_scenarios(folders: list[Path], chosen, exitfirst: bool, quiet: bool) -> int:
    """The scenarios of each folder that `chosen` chooses (None: all), run one by one: each failure
    said, then how many passed and failed; the exit status."""
    from interpreter.loading.stages import load_ruleset
    from interpreter.scenarios.files import load_scenarios
    from interpreter.scenarios.run import ScenarioFailure, run_scenario

    passed = failed = left_out = 0
    for folder in folders:
        ruleset = load_ruleset(folder.parent)
        for path in sorted(folder.glob("*.yaml")):
            if failed and exitfirst:
                break
            try:
                scenarios = load_scenarios(path)
            except LudolexError as error:
                click.echo(str(error))
                failed += 1
                continue
            keywords = (path.name, folder.parent.name)
            picked = [s for s in scenarios if chosen is None or chosen((s.scenario.name, *s.scenario.rules, *keywords))]
            left_out += len(scenarios) - len(picked)
            before = passed, failed
            for loaded in picked:
                if failed and exitfirst:
                    break
                try:
                    run_scenario(ruleset, loaded.scenario)
                    passed += 1
                except (ScenarioFailure, RuleRuntimeError, LudolexError) as error:
                    failed += 1
                    click.echo(f"FAIL {loaded.position} {loaded.scenario.name} [{', '.join(loaded.scenario.rules)}]"
                               f"\n  {error}")
            if picked and not quiet:
                click.echo(f"{relative(str(path))}: {passed - before[0]} passed"
                           + (f", {failed - before[1]} failed" if failed > before[1] else ""))
    click.echo(f"{passed} passed, {failed} failed" + (f", {left_out} not chosen (-k)" if left_out else ""))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    main()
