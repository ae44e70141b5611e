"""The game as a person sees it in a terminal: the board (a grid when the board is one), the zones."""
from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from interpreter.engine.runtime import Result
from interpreter.play.game import Game

PALETTE = ["green", "magenta", "cyan", "yellow", "red", "blue"]
RICH_COLOURS = {"green", "purple", "red", "blue", "yellow", "cyan", "magenta", "white", "orange1", "black"}


def player_colours(players: list[str]) -> dict[str, str]:
    return {p: (p if p in RICH_COLOURS else PALETTE[i % len(PALETTE)]) for i, p in enumerate(players)}


def shows_colour(console: Console) -> bool:
    return console.color_system is not None and not console.no_color  # no_color: the NO_COLOR variable is set


def stack_text(game: Game, location: str, colours: dict[str, str], name_owners: bool = False) -> str:
    """The pieces at `location`, top first; `name_owners` writes each owner's name, for when colour cannot show it."""
    items = game.state.zones[location]
    if not items:
        return "[dim]·[/dim]"
    parts = []
    for i, c in enumerate(items):
        style = colours.get(c.owner, "white") + (" bold" if i == len(items) - 1 else " dim")
        name = f"{c.owner} {c.kind}" if name_owners and c.owner else c.kind
        parts.append(f"[{style}]{escape(name)}[/]")
    return "\n".join(reversed(parts))  # top of the stack first


def board_table(game: Game, name_owners: bool = False) -> Table:
    board = game.ruleset.board
    colours = player_colours(game.ruleset.program.players)
    nodes = board.graph.nodes
    if all("column" in nodes[n] and "row" in nodes[n] for n in board.locations):
        columns = max(nodes[n]["column"] for n in board.locations) + 1
        table = Table(show_header=False, show_lines=True)
        width = 9
        if name_owners:  # as wide as the longest name of any piece, so the board keeps its width from move to move
            width = max([width] + [len(f"{c.owner} {c.kind}") for items in game.state.zones.values() for c in items])
        for _ in range(columns):
            table.add_column(justify="center", min_width=width)
        rows: dict[int, list[str]] = {}
        for n in board.locations:
            cell = f"[dim]{escape(n)}[/dim]\n" + stack_text(game, n, colours, name_owners)
            rows.setdefault(nodes[n]["row"], [""] * columns)[nodes[n]["column"]] = cell
        for row in sorted(rows):
            table.add_row(*rows[row])
        return table
    table = Table("location", "pieces (top first)")
    for n in board.locations:
        table.add_row(escape(n), stack_text(game, n, colours, name_owners).replace("\n", ", "))
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
    console.print(board_table(game, name_owners=not shows_colour(console)))
    console.print(zones_table(game))


def result_sentence(result: Result | None, turns: int) -> str:
    """How the game ended, in the game's words: `purple wins with the most held (purple 6, green 5), after 16 turns`."""
    after = f"after {turns} turn{'' if turns == 1 else 's'}"
    if result is None:
        return f"unfinished, {after}"
    if not result.scores:  # ended by a rule's `win p`, `lose p` or `draw`: the reason says it
        if result.reason == "draw":
            return f"a draw, {after}"
        if result.winner and result.reason != f"{result.winner} wins":
            return f"{result.winner} wins ({result.reason}), {after}"
        return f"{result.reason}, {after}"
    # Ended by a ranking: the scores are the values of its first key, the winner's listed first.
    ordered = sorted(result.scores.items(), key=lambda item: item[0] != result.winner)
    scores = ", ".join(f"{player} {score}" for player, score in ordered)
    if result.winner is None:
        return f"a draw: tied at the top ({scores}), {after}"
    if not result.decided_by:
        return f"{result.winner} wins ({scores}), {after}"
    top = result.scores[result.winner]
    if sum(score == top for score in result.scores.values()) > 1:  # the first key tied: a later one decided
        return f"{result.winner} wins with the {result.decided_by}, breaking a tie ({scores}), {after}"
    return f"{result.winner} wins with the {result.decided_by} ({scores}), {after}"
