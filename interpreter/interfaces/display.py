"""The game as a person sees it in a terminal: the board (a grid when the board is one), the zones;
through its table description where the game ships one (`table_reading.Reading`)."""
from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from interpreter.content.table_view import TableView, table_view_of
from interpreter.engine.runtime import Result, joined
from interpreter.interfaces.table_reading import (Reading, hidden_text, player_colours, player_marks, reading,
                                                   zones_seen)
from interpreter.play.game import Game


def shows_colour(console: Console) -> bool:
    return console.color_system is not None and not console.no_color  # no_color: the NO_COLOR variable is set


def piece_name(seen: dict, name_owners: bool, marks: dict[str, str] | None = None) -> str:
    """A component's kind, or its back when the viewer cannot tell which it is; in parentheses when face down.
    Its owner's name before it with `name_owners` (no colour to show whose it is), else their mark from `marks`."""
    name = seen.get("kind") or seen["back"]
    owner = seen.get("owner")
    if owner and (name_owners or marks):
        name = f"{owner if name_owners else marks.get(owner, owner)} {name}"
    return f"({name})" if seen.get("face_down") else name


def stack_text(items: list[dict], colours: dict[str, str], name_owners: bool = False,
               marks: dict[str, str] | None = None) -> str:
    """The pieces of a location, top first; `name_owners` writes each owner's name, for when colour cannot
    show it, else each owner's mark (from `marks`) beside their colour."""
    if not items:
        return "[dim]·[/dim]"
    parts = []
    for i, seen in enumerate(items):
        style = colours.get(seen.get("owner"), "white") + (" bold" if i == len(items) - 1 else " dim")
        parts.append(f"[{style}]{escape(piece_name(seen, name_owners, marks))}[/]")
    return "\n".join(reversed(parts))  # top of the stack first


def is_grid(game: Game) -> bool:
    nodes, locations = game.ruleset.board.graph.nodes, game.ruleset.board.locations
    return bool(locations) and all("column" in nodes[n] and "row" in nodes[n] for n in locations)


def grid_table(game: Game, cells: dict[str, str], width: int) -> Table:
    """The board as its grid: each square's text in its column and row."""
    nodes = game.ruleset.board.graph.nodes
    first = min(nodes[n]["column"] for n in cells)
    columns = max(nodes[n]["column"] for n in cells) + 1 - first
    table = Table(show_header=False, show_lines=True)
    for _ in range(columns):
        table.add_column(justify="center", min_width=width)
    rows: dict[int, list[str]] = {}
    for n, cell in cells.items():
        rows.setdefault(nodes[n]["row"], [""] * columns)[nodes[n]["column"] - first] = cell
    for row in sorted(rows):
        table.add_row(*rows[row])
    return table


def board_table(game: Game, zones: dict, name_owners: bool = False) -> Table:
    board = game.ruleset.board
    players = game.ruleset.program.players
    colours, marks = player_colours(players), (None if name_owners else player_marks(players))
    if is_grid(game):
        width = 9
        if name_owners:  # as wide as the longest name of any piece, so the board keeps its width from move to move
            width = max([width] + [len(f"{c.owner} {c.kind}") + 2 * c.face_down for c in game.state.components.values()])
        return grid_table(game, {n: f"[dim]{escape(n)}[/dim]\n" + stack_text(zones[n], colours, name_owners, marks)
                                 for n in board.locations}, width)
    table = Table("location", "pieces (top first)")
    for n in board.locations:
        table.add_row(escape(n), stack_text(zones[n], colours, name_owners, marks).replace("\n", ", "))
    return table


def zones_table(game: Game, zones: dict) -> Table:
    table = Table("zone", "contents", show_header=False, box=None)
    for zone, items in zones.items():
        if zone in game.ruleset.board.index or zone == "box":
            continue
        if isinstance(items, dict):
            shown = ", ".join(seen["kind"] for seen in items.get("shown", []))
            table.add_row(escape(zone), escape(hidden_text(items, shown)))
            continue
        counts: dict[str, int] = {}
        for seen in items:
            name = piece_name(seen, False)
            counts[name] = counts.get(name, 0) + 1
        table.add_row(escape(zone), escape(", ".join(f"{k} {n}" for k, n in counts.items()) or "empty"))
    return table


# --- a game read through its table description ------------------------------------------------------
class Look:
    """How an owner is told apart: their colour and mark, or their name where colour cannot show."""

    def __init__(self, game: Game, view: TableView, colour: bool):
        players = game.ruleset.program.players
        self.colours, self.marks, self.colour = player_colours(players, view), player_marks(players, view), colour

    def tag(self, owner: str | None) -> str:
        """Rich markup put before an owner's pieces: their mark in their colour (their name without colour)."""
        if not owner:
            return ""
        if not self.colour:
            return escape(owner) + " "
        return f"[bold {self.colours.get(owner, 'white')}]{escape(self.marks.get(owner, owner))}[/] "

    def player(self, player: str) -> str:
        if not self.colour:
            return escape(player)
        colour = self.colours.get(player, "white")
        return f"[bold {colour}]{escape(self.marks.get(player, player))}[/] [{colour}]{escape(player)}[/]"

    def runs(self, groups: list[dict]) -> list[str]:
        """The groups of a stack (top first), one line per run of one owner's: `R 4 stones, tower`."""
        lines: list[tuple] = []
        for group in groups:
            if lines and lines[-1][0] == group["owner"]:
                lines[-1][1].append(group["text"])
            else:
                lines.append((group["owner"], [group["text"]]))
        style = (lambda owner: self.colours.get(owner, "white")) if self.colour else (lambda owner: "default")
        return [f"{self.tag(owner)}[{style(owner)}]{escape(', '.join(texts))}[/]" for owner, texts in lines]


def described(console: Console, read: Reading) -> None:
    """The game through its table description: the turn line and scores, the board, each player's zones."""
    game, view = read.game, read.view
    look = Look(game, view, shows_colour(console))
    status = read.status()
    if status:
        console.print(f"[bold]{escape(status)}[/bold]")
    scores = Table(*(["player"] + [score.label for score in view.scores]), box=None, padding=(0, 2, 0, 0))
    for row in read.scores():
        scores.add_row(look.player(row["player"]), *(escape(value) for value in row["values"]))
    console.print(scores)
    board = game.ruleset.board
    grouped = view.stacks == "grouped"
    if is_grid(game):
        cells, places = {}, board.locations
        held = [n for n in places if read.zones[n]]
        if held and view.zones.empty == "hide":  # only the columns and rows from the first to the last that hold something
            nodes = board.graph.nodes
            spans = [(min(nodes[n][axis] for n in held), max(nodes[n][axis] for n in held)) for axis in ("column", "row")]
            places = [n for n in places if all(low <= nodes[n][axis] <= high
                                               for axis, (low, high) in zip(("column", "row"), spans))]
        for n in places:
            lines = look.runs(read.groups(read.zones[n], grouped)) or ["[dim]·[/dim]"]
            cells[n] = "\n".join([f"[dim]{escape(read.site(n))}[/dim]"] + [f"[bold]{lines[0]}[/bold]"] + lines[1:])
        console.print(grid_table(game, cells, 9))
    elif board.locations:
        table = Table("location", "pieces (top first)", box=None, padding=(0, 2, 0, 0))
        for n in board.locations:
            if read.zones[n] or view.zones.empty == "show":
                colour = read.site_colour(n) if look.colour else None  # a location in its attribute's colour
                site = f"[{colour}]{escape(read.site(n))}[/]" if colour else escape(read.site(n))
                table.add_row(site, " · ".join(look.runs(read.groups(read.zones[n], grouped))) or "·")
        console.print(table)
    table = Table("zone", "contents", show_header=False, box=None, padding=(0, 2, 0, 0))
    for owner, listed in read.boards():
        if not listed:
            continue
        table.add_row(look.player(owner) if owner else "[bold]table[/bold]" if owner is None else "[bold]more[/bold]", "")
        for zone in listed:
            table.add_row("  " + escape(zone), escape(read.zone_text(read.zones[zone])))
    console.print(table)


_told: set[int] = set()  # the rulesets whose table description's problems were said


def show(console: Console, game: Game, viewer=None) -> None:
    """The game as `viewer` may see it: a player, None (a spectator: what is public) or EVERYTHING."""
    view, problems = table_view_of(game.ruleset)
    if problems and id(game.ruleset) not in _told:  # said once; the game is shown without the description
        _told.add(id(game.ruleset))
        console.print("[bold]the table description has problems; the table is shown without it:[/bold]")
        for problem in problems:
            console.print(escape(problem.render()), soft_wrap=True)
    if view is not None:
        described(console, reading(game, viewer))
        return
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
