"""The `ludolex` command: validate, play, simulate, replay, test."""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

import click
from rich.console import Console

from .agents import PromptAgent, RandomAgent, play as play_game
from .diagnostics import LudolexError, RuleRuntimeError
from .display import show
from .game import Game
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
@click.option("--games", default=1000, show_default=True)
@click.option("--seed", default=0, show_default=True, help="Game i uses seed SEED+i.")
@click.option("--save-dir", type=click.Path(path_type=Path), help="Write every game here as JSON.")
def simulate(game: str, games: int, seed: int, save_dir: Path | None) -> None:
    """Play GAMES games between random bots; report win rates and game length."""
    ruleset = _load(game)
    players = ruleset.program.players
    wins = {p: 0 for p in players}
    draws, turns, decisions, errors = 0, [], [], 0
    if save_dir:
        save_dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    for n in range(games):
        game_seed = seed + n
        current = Game(ruleset, seed=game_seed)
        try:
            play_game(current, {p: RandomAgent(game_seed * 1000 + i) for i, p in enumerate(players)})
        except RuleRuntimeError as error:
            errors += 1
            click.echo(f"game {game_seed}: {error}", err=True)
            continue
        if current.result.winner:
            wins[current.result.winner] += 1
        else:
            draws += 1
        turns.append(current.state.turns)
        decisions.append(len(current.log))
        if save_dir:
            (save_dir / f"{ruleset.name}-{game_seed}.json").write_text(current.dumps(), encoding="utf-8")
    seconds = time.perf_counter() - start
    done = len(turns)
    click.echo(f"{done} games of {ruleset.name} in {seconds:.1f} s ({games / seconds:.0f} games/s), {errors} error(s)")
    for p in players:
        click.echo(f"  {p:<10} wins {wins[p]:>6}  ({100 * wins[p] / max(done, 1):.1f}%)")
    click.echo(f"  {'draws':<10}      {draws:>6}  ({100 * draws / max(done, 1):.1f}%)")
    if done:
        click.echo(f"  mean length: {statistics.mean(turns):.2f} turns, {statistics.mean(decisions):.1f} decisions")
    if errors:
        sys.exit(1)


@main.command()
@click.argument("file", type=click.Path(exists=True, path_type=Path))
@click.option("--step", is_flag=True, help="Wait for Enter after each decision.")
def replay(file: Path, step: bool) -> None:
    """Replay a saved game decision by decision, showing the board."""
    try:
        saved = json.loads(file.read_text(encoding="utf-8"))
        ruleset = _load(saved["game"])
        choices, seed = saved["choices"], saved["seed"]
    except (json.JSONDecodeError, KeyError, TypeError) as error:
        raise click.UsageError(f"{file}: not a saved game ({error})")
    console = Console(highlight=False)
    current = Game(ruleset, seed=seed)
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
