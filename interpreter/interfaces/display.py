"""The game as a person sees it in a terminal: the board (a grid when the board is one), the zones."""
from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from interpreter.play.game import Game

PALETTE = ["green", "magenta", "cyan", "yellow", "red", "blue"]
RICH_COLOURS = {"green", "purple", "red", "blue", "yellow", "cyan", "magenta", "white", "orange1", "black"}


def player_colours(players: list[str]) -> dict[str, str]:
    return {p: (p if p in RICH_COLOURS else PALETTE[i % len(PALETTE)]) for i, p in enumerate(players)}


def stack_text(game: Game, location: str, colours: dict[str, str]) -> str:
    items = game.state.zones[location]
    if not items:
        return "[dim]·[/dim]"
    parts = []
    for i, c in enumerate(items):
        style = colours.get(c.owner, "white") + (" bold" if i == len(items) - 1 else " dim")
        parts.append(f"[{style}]{escape(c.kind)}[/]")
    return "\n".join(reversed(parts))  # top of the stack first


def board_table(game: Game) -> Table:
    board = game.ruleset.board
    colours = player_colours(game.ruleset.program.players)
    nodes = board.graph.nodes
    if all("column" in nodes[n] and "row" in nodes[n] for n in board.locations):
        columns = max(nodes[n]["column"] for n in board.locations) + 1
        table = Table(show_header=False, show_lines=True)
        for _ in range(columns):
            table.add_column(justify="center", min_width=9)
        rows: dict[int, list[str]] = {}
        for n in board.locations:
            rows.setdefault(nodes[n]["row"], [""] * columns)[nodes[n]["column"]] = f"[dim]{escape(n)}[/dim]\n" + stack_text(game, n, colours)
        for row in sorted(rows):
            table.add_row(*rows[row])
        return table
    table = Table("location", "pieces (top first)")
    for n in board.locations:
        table.add_row(escape(n), stack_text(game, n, colours).replace("\n", ", "))
    return table


def zones_table(game: Game) -> Table:
    table = Table("zone", "contents", show_header=False, box=None)
    for zone, items in game.state.zones.items():
        if zone in game.ruleset.board.index or zone == "box":
            continue
        counts: dict[str, int] = {}
        for c in items:
            counts[c.kind] = counts.get(c.kind, 0) + 1
        table.add_row(escape(zone), escape(", ".join(f"{k} {n}" for k, n in counts.items()) or "empty"))
    return table


def show(console: Console, game: Game) -> None:
    console.print(board_table(game))
    console.print(zones_table(game))
