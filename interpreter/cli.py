"""The `ludolex` command: validate, play, simulate, replay, test."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click
from rich.console import Console

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from .agents import PromptAgent, RandomAgent
from .results_db import DEFAULT_DB, Results
from .simulation import Table, default_jobs, run
from .diagnostics import LudolexError, RuleRuntimeError
from .display import show
from .game import Game, seating
from .reporting import FORMATS, render
from .ruleset import load_ruleset


def _load(game: str):
    try:
        return load_ruleset(game)
    except LudolexError as error:
        click.echo(str(error), err=True)
        sys.exit(1)


@click.group()
def main() -> None:
    """ludolex: tabletop games whose rules are data."""


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text (colour on a terminal), json (one object a line), github (Actions annotations), sarif (2.1.0).")
@click.option("--strict", is_flag=True, help="Warnings fail too.")
def validate(paths: tuple[Path, ...], fmt: str, strict: bool) -> None:
    """Check rulesets and their scenario files; report every problem with its file, line and column.

    Exit status: 0 clean, 1 problems found, 2 the command was misused.
    """
    from .validation import ruleset_folders, validate as check

    diagnostics = []
    for path in paths:
        if not path.exists() or not ruleset_folders(path):
            raise click.UsageError(f"{path}: not a ruleset folder (one with a game.yaml) nor a folder of them")
        diagnostics += check(path)
    output = render(diagnostics, fmt, colour=sys.stdout.isatty() and fmt == "text")
    if output:
        click.echo(output)
    failing = [d for d in diagnostics if d.severity == "error" or strict]
    sys.exit(1 if failing else 0)


@main.command()
@click.option("--output", "-o", type=click.Path(path_type=Path), default=Path("schemas"), show_default=True,
              help="Folder to write the schemas to.")
def schema(output: Path) -> None:
    """Write the JSON Schema of every kind of YAML file, for editors to check as you type."""
    from .schemas import write_schemas

    for path in write_schemas(output):
        click.echo(f"wrote {path}")


@main.command()
@click.argument("game")
@click.option("--human", "humans", multiple=True, metavar="PLAYER", help="A player typed at the terminal (repeat for hot-seat). Others are bots.")
@click.option("--seed", default=0, show_default=True, help="Seed of the game and of the bots.")
@click.option("--save", type=click.Path(path_type=Path), help="Write the finished game here, for `ludolex replay`.")
def play(game: str, humans: tuple[str, ...], seed: int, save: Path | None) -> None:
    """Play GAME in the terminal; with no --human, watch two bots play."""
    ruleset = _load(game)
    players = ruleset.program.players
    for human in humans:
        if human not in players:
            raise click.UsageError(f"--human {human}: the players are {', '.join(players)}")
    console = Console(highlight=False)
    agents = {p: PromptAgent() if p in humans else RandomAgent(seed * 1000 + i) for i, p in enumerate(players)}
    current = Game(ruleset, seed=seed)
    console.print(f"[bold]{ruleset.manifest.title or ruleset.name}[/bold], seed {seed}")
    show(console, current)
    try:
        while not current.finished:
            decision = current.decision
            index = agents[decision.player].choose(decision)
            console.print(f"[bold]{decision.player}[/bold] {decision.name}: {decision.label(index)}")
            version = current.state.version
            current.choose(index)
            if current.state.version != version:
                show(console, current)
    except (EOFError, KeyboardInterrupt):
        console.print("\ngame abandoned")
        sys.exit(130)
    result = current.result
    console.print(f"[bold]result:[/bold] {result.reason}; winner: {result.winner or 'none (draw)'}; "
                  f"scores: {', '.join(f'{p} {s}' for p, s in result.scores.items())}; turns: {current.state.turns}")
    if save:
        save.write_text(current.dumps(), encoding="utf-8")
        console.print(f"saved to {save}")


@main.command()
@click.argument("game")
@click.option("--games", default=1000, show_default=True, help="How many games (seeds SEED .. SEED+GAMES-1).")
@click.option("--seed", default=0, show_default=True, help="The first game's seed.")
@click.option("--bots", default="random", show_default=True,
              help="Bot of each seat, comma-separated (one name: all seats): random, or a bot of the game's bots/ folder.")
@click.option("--players", "--factions", "players", default=None,
              help="Who sits at the table, comma-separated (or how many: the first N); the seating turns by one each game.")
@click.option("--max-turns", type=int, default=None, help="Stop a game after this many turns (counted as `turn limit`).")
@click.option("--check", is_flag=True, help="Check after every decision that every component is in one zone and no total changed.")
@click.option("--jobs", type=int, default=None, help="Local processes [default: all cores].")
@click.option("--db", type=click.Path(path_type=Path), default=DEFAULT_DB, show_default=True, help="SQLite file for the results.")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True)
@click.option("--address", default=None, help="Ray cluster address (default: start a local Ray).")
def simulate(game: str, games: int, seed: int, bots: str, players: str | None, max_turns: int | None, check: bool,
             jobs: int | None, db: Path, backend: str, address: str | None) -> None:
    """Play GAMES games between bots, keep them in DB, and report win rates and game length.

    Games already in DB (same ruleset version, table and seed) are not played again: a run that
    was stopped resumes, and a larger --games extends it. Ctrl-C stops and keeps every finished game.
    """
    ruleset = _load(game)
    table = Table(tuple(_bots(bots, ruleset)), _players(players, ruleset), max_turns, check)
    version, bots_key = ruleset.content_hash(), table.key()
    results = Results(db)
    wanted = range(seed, seed + games)
    todo = [s for s in wanted if s not in results.seeds_done(version, bots_key)]
    jobs = jobs or default_jobs()
    console = Console(highlight=False, stderr=True, soft_wrap=True)
    console.print(f"{ruleset.name} (version {version}), bots {bots_key}: {games - len(todo)} game(s) already in {db}, "
                  f"{len(todo)} to play on {jobs} {'Ray worker(s)' if backend == 'ray' else 'process(es)'}")
    errors = 0
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("{task.fields[rate]} games/s"), TimeRemainingColumn(), console=console,
                        disable=not todo)
    stream = run(ruleset.directory, todo, table, jobs, backend, address)
    start = time.perf_counter()
    try:
        with progress:
            task = progress.add_task("simulating", total=len(todo), rate="-")
            for n, record in enumerate(stream, 1):
                results.add(ruleset.name, version, bots_key, record)
                errors += record["error"] is not None
                if n % 200 == 0:
                    results.commit()
                elapsed = time.perf_counter() - start
                progress.update(task, advance=1, rate=f"{n / elapsed:.0f}" if elapsed else "-")
    except KeyboardInterrupt:
        console.print("stopped: the finished games are kept; run the same command again to resume")
    finally:
        stream.close()
        results.commit()
    seconds = time.perf_counter() - start
    played = progress.tasks[0].completed if progress.tasks else 0
    if played:
        console.print(f"played {played:.0f} game(s) in {seconds:.1f} s: {played / seconds:.0f} games/s")
    records = results.records(version, bots_key, set(wanted))
    results.close()
    _print_summary(records, ruleset.name)
    if errors:
        console.print(f"[red]{errors} game(s) stopped on an error in the rules (kept in the database with the error)[/red]")
        sys.exit(1)


def _bots(text: str, ruleset) -> list[str]:
    from .policy import Policy, bot_names, policy_path

    known = bot_names(ruleset)
    names = [b.strip() for b in text.split(",") if b.strip()]
    unknown = [b for b in names if b not in known]
    if not names or unknown:
        raise click.UsageError(f"--bots: unknown bot {', '.join(unknown) or '(none)'}; bots of {ruleset.name}: {', '.join(known)}")
    for name in set(names) - {"random"}:  # report a mistake in a bot file before any game
        try:
            Policy(policy_path(ruleset, name), ruleset)
        except LudolexError as error:
            click.echo(str(error), err=True)
            sys.exit(1)
    return names


def _players(text: str | None, ruleset) -> tuple[str, ...] | None:
    if text is None:
        return None
    known = ruleset.program.players
    if text.strip().isdigit():
        count = int(text)
        if not 1 <= count <= len(known):
            raise click.UsageError(f"--players: {ruleset.name} seats 1 to {len(known)} players")
        return tuple(known[:count])
    try:
        return tuple(seating(ruleset, [p.strip() for p in text.split(",") if p.strip()]))
    except ValueError as error:
        raise click.UsageError(f"--players: {error}")


def _print_summary(records: list[dict], title: str) -> None:
    from .report import render_summary, summarize

    finished = [r for r in records if r["error"] is None]
    if not finished:
        click.echo("no finished games")
        return
    Console(highlight=False).print(render_summary(summarize(finished)))


@main.command()
@click.argument("db", type=click.Path(exists=True, path_type=Path))
@click.option("--version", "version", default=None, help="Ruleset version (hash) to report [default: the one with most games].")
@click.option("--plots", type=click.Path(path_type=Path), default=None, help="Folder for the PNG plots and report.html.")
def report(db: Path, version: str | None, plots: Path | None) -> None:
    """Win rates with 95% intervals, first-player advantage, game length and scores of stored games."""
    from .report import write_plots

    results = Results(db)
    versions = results.versions()
    if not versions:
        raise click.UsageError(f"{db}: no games")
    chosen = next((v for v in versions if version is None or v[1].startswith(version)), None)
    if chosen is None:
        raise click.UsageError(f"{db}: no version {version}; versions: {', '.join(v[1] for v in versions)}")
    game, ruleset_hash, bots, count = chosen
    records = [r for r in results.records(ruleset_hash, bots) if r["error"] is None]
    results.close()
    click.echo(f"{game}, version {ruleset_hash}, bots {bots}: {count} game(s)")
    _print_summary(records, game)
    if plots:
        for path in write_plots(records, plots, f"{game} ({ruleset_hash})"):
            click.echo(f"wrote {path}")


@main.command()
@click.argument("ruleset_a")
@click.argument("ruleset_b")
@click.option("--games", default=2000, show_default=True)
@click.option("--seed", default=0, show_default=True)
@click.option("--bots", default="random", show_default=True)
@click.option("--jobs", type=int, default=None, help="Local processes [default: all cores].")
@click.option("--db", type=click.Path(path_type=Path), default=DEFAULT_DB, show_default=True)
@click.option("--players", "--factions", "players", default=None, help="Who sits at the table (see simulate).")
@click.option("--max-turns", type=int, default=None, help="Stop a game after this many turns.")
def compare(ruleset_a: str, ruleset_b: str, games: int, seed: int, bots: str, jobs: int | None, db: Path,
            players: str | None, max_turns: int | None) -> None:
    """Play two versions of a game on the same seeds and say which differences are significant."""
    from .report import compare as compare_records, render_comparison

    jobs = jobs or default_jobs()
    results = Results(db)
    sides = []
    for name in (ruleset_a, ruleset_b):
        ruleset = _load(name)
        table = Table(tuple(_bots(bots, ruleset)), _players(players, ruleset), max_turns)
        version, bots_key = ruleset.content_hash(), table.key()
        wanted = set(range(seed, seed + games))
        todo = sorted(wanted - results.seeds_done(version, bots_key))
        click.echo(f"{name}: version {version}, {len(todo)} game(s) to play")
        for record in run(ruleset.directory, todo, table, jobs):
            results.add(ruleset.name, version, bots_key, record)
        results.commit()
        sides.append([r for r in results.records(version, bots_key, wanted) if r["error"] is None])
    results.close()
    Console(highlight=False).print(render_comparison(compare_records(sides[0], sides[1], ruleset_a, ruleset_b)))


@main.command()
@click.argument("file", type=click.Path(exists=True, path_type=Path))
@click.option("--step", is_flag=True, help="Wait for Enter after each decision.")
@click.option("--seed", type=int, default=None, help="With a results database: the seed of the game to replay.")
@click.option("--game", default=None, help="With a results database: the ruleset (name or folder) whose game to replay.")
def replay(file: Path, step: bool, seed: int | None, game: str | None) -> None:
    """Replay a saved game (a JSON file, or --game G --seed S from a results database)."""
    if seed is not None:
        if game is None:
            raise click.UsageError("replaying from a database needs --game and --seed")
        ruleset = _load(game)
        results = Results(file)
        stored = [r for r in results.records(ruleset.content_hash(), None, {seed})]
        results.close()
        if not stored:
            raise click.UsageError(f"{file}: no game of this version of {game} with seed {seed}")
        saved = {"game": game, "seed": seed, "choices": stored[0]["log"], "players": stored[0]["players"]}
    else:
        try:
            saved = json.loads(file.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise click.UsageError(f"{file}: not a saved game ({error})")
    try:
        ruleset = _load(saved["game"])
        choices, seed = saved["choices"], saved["seed"]
    except (KeyError, TypeError) as error:
        raise click.UsageError(f"{file}: not a saved game (missing {error})")
    console = Console(highlight=False)
    try:
        current = Game(ruleset, seed=seed, players=saved.get("players"))
    except ValueError as error:
        raise click.UsageError(f"{file}: {error}")
    for number, index in enumerate(choices, 1):
        decision = current.decision
        if decision is None:
            raise click.ClickException(f"{file}: the game ended before choice {number}; the file does not match the rules")
        console.print(f"{number:>4}. [bold]{decision.player}[/bold] {decision.name}: {decision.label(index)}")
        current.choose(index)
        if step:
            show(console, current)
            click.prompt("", default="", show_default=False, prompt_suffix="")
    show(console, current)
    if current.state.to_json() != saved.get("state", current.state.to_json()):
        raise click.ClickException("the replay does not reach the saved state")
    result = current.result
    console.print(f"result: {result.reason if result else 'unfinished'}; winner: {(result.winner if result else None) or 'none'}")


@main.command(name="test")
@click.argument("game")
def test_command(game: str) -> None:
    """Run GAME's scenario tests (rulesets/GAME/tests/*.yaml)."""
    from .scenarios import ScenarioFailure, load_scenarios, run_scenario

    ruleset = _load(game)
    passed = failed = 0
    for path in sorted((ruleset.directory / "tests").glob("*.yaml")):
        try:
            scenarios = load_scenarios(path)
        except LudolexError as error:
            click.echo(str(error))
            failed += 1
            continue
        for loaded in scenarios:
            try:
                run_scenario(ruleset, loaded.scenario)
                passed += 1
            except (ScenarioFailure, RuleRuntimeError, LudolexError) as error:
                failed += 1
                click.echo(f"FAIL {loaded.position} {loaded.scenario.name} [{', '.join(loaded.scenario.rules)}]\n  {error}")
    click.echo(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
