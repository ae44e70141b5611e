"""The game as a person sees it in a terminal: the board (a grid when the board is one), the zones."""
from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from interpreter.engine.decisions import EVERYTHING
from interpreter.engine.runtime import Result, joined
from interpreter.play.game import Game
from interpreter.play.visibility import observation

PALETTE = ["green", "magenta", "cyan", "yellow", "red", "blue"]
RICH_COLOURS = {"green", "purple", "red", "blue", "yellow", "cyan", "magenta", "white", "orange1", "black"}


def player_colours(players: list[str]) -> dict[str, str]:
    return {p: (p if p in RICH_COLOURS else PALETTE[i % len(PALETTE)]) for i, p in enumerate(players)}


def shows_colour(console: Console) -> bool:
    return console.color_system is not None and not console.no_color  # no_color: the NO_COLOR variable is set


def zones_seen(game: Game, viewer) -> dict:
    """Each zone as `viewer` observes it (a list of components, or {"hidden": n}); EVERYTHING sees all."""
    if viewer is EVERYTHING:
        return {zone: [{"kind": c.kind, "owner": c.owner, "face_down": c.face_down} for c in items]
                for zone, items in game.state.zones.items()}
    return observation(game, viewer)["zones"]


def piece_name(seen: dict, name_owners: bool) -> str:
    """A component's kind, or its back when the viewer cannot tell which it is; in parentheses when face down."""
    name = seen.get("kind") or seen["back"]
    if name_owners and seen.get("owner"):
        name = f"{seen['owner']} {name}"
    return f"({name})" if seen.get("face_down") else name


def stack_text(items: list[dict], colours: dict[str, str], name_owners: bool = False) -> str:
    """The pieces of a location, top first; `name_owners` writes each owner's name, for when colour cannot show it."""
    if not items:
        return "[dim]·[/dim]"
    parts = []
    for i, seen in enumerate(items):
        style = colours.get(seen.get("owner"), "white") + (" bold" if i == len(items) - 1 else " dim")
        parts.append(f"[{style}]{escape(piece_name(seen, name_owners))}[/]")
    return "\n".join(reversed(parts))  # top of the stack first


def board_table(game: Game, zones: dict, name_owners: bool = False) -> Table:
    board = game.ruleset.board
    colours = player_colours(game.ruleset.program.players)
    nodes = board.graph.nodes
    if all("column" in nodes[n] and "row" in nodes[n] for n in board.locations):
        columns = max(nodes[n]["column"] for n in board.locations) + 1
        table = Table(show_header=False, show_lines=True)
        width = 9
        if name_owners:  # as wide as the longest name of any piece, so the board keeps its width from move to move
            width = max([width] + [len(f"{c.owner} {c.kind}") + 2 * c.face_down for c in game.state.components.values()])
        for _ in range(columns):
            table.add_column(justify="center", min_width=width)
        rows: dict[int, list[str]] = {}
        for n in board.locations:
            cell = f"[dim]{escape(n)}[/dim]\n" + stack_text(zones[n], colours, name_owners)
            rows.setdefault(nodes[n]["row"], [""] * columns)[nodes[n]["column"]] = cell
        for row in sorted(rows):
            table.add_row(*rows[row])
        return table
    table = Table("location", "pieces (top first)")
    for n in board.locations:
        table.add_row(escape(n), stack_text(zones[n], colours, name_owners).replace("\n", ", "))
    return table


def zones_table(game: Game, zones: dict) -> Table:
    table = Table("zone", "contents", show_header=False, box=None)
    for zone, items in zones.items():
        if zone in game.ruleset.board.index or zone == "box":
            continue
        if isinstance(items, dict):
            table.add_row(escape(zone), escape(f"{items['hidden']} hidden" if items["hidden"] else "empty"))
            continue
        counts: dict[str, int] = {}
        for seen in items:
            name = piece_name(seen, False)
            counts[name] = counts.get(name, 0) + 1
        table.add_row(escape(zone), escape(", ".join(f"{k} {n}" for k, n in counts.items()) or "empty"))
    return table


def show(console: Console, game: Game, viewer=None) -> None:
    """The game as `viewer` may see it: a player, None (a spectator: what is public) or EVERYTHING."""
    zones = zones_seen(game, viewer)
    if game.ruleset.board.locations:  # a game without a board shows its zones alone
        console.print(board_table(game, zones, name_owners=not shows_colour(console)))
    console.print(zones_table(game, zones))


def result_sentence(result: Result | None, turns: int) -> str:
    """How the game ended, in the game's words: `purple wins with the most held (purple 6, green 5), after 16 turns`."""
    after = f"after {turns} turn{'' if turns == 1 else 's'}"
    if result is None:
        return f"unfinished, {after}"
    together = f"{joined(result.winners)} win together" if len(result.winners) > 1 else ""
    by = f" by {result.ending}" if result.ending else ""  # `red wins by knockout, after 21 turns`
    if not result.scores:  # ended by a rule's `win p`, `lose p` or `draw`: the reason says it
        if result.reason == "draw":
            return f"a draw{by}, {after}"
        if together and result.reason != together:
            return f"{together}{by} ({result.reason}), {after}"
        if result.winner and result.reason != f"{result.winner} wins":
            return f"{result.winner} wins{by} ({result.reason}), {after}"
        return f"{result.reason}{by}, {after}"  # `red wins`, `red and blue win together`, `everybody loses`...
    # Ended by a ranking: the scores are the values of its first key, the winners' listed first.
    ordered = sorted(result.scores.items(), key=lambda item: item[0] not in result.winners)
    scores = ", ".join(f"{player} {score}" for player, score in ordered)
    if together:  # `ties share`: the players tied first on every key
        return f"{together}, tied at the top ({scores}), {after}"
    if result.winner is None:
        return f"a draw: tied at the top ({scores}), {after}"
    if not result.decided_by:
        return f"{result.winner} wins ({scores}), {after}"
    top = result.scores[result.winner]
    if sum(score == top for score in result.scores.values()) > 1:  # the first key tied: a later one decided
        return f"{result.winner} wins with the {result.decided_by}, breaking a tie ({scores}), {after}"
    return f"{result.winner} wins with the {result.decided_by} ({scores}), {after}"
