"""The summary of many simulated games: win rates with intervals, first-player advantage, lengths, scores.

Everything here is a pure function of game records, read one at a time (see `Tally`), plain dicts such as
    {"seed": 17, "players": ["a", "b"], "winner": "a" or None, "winners": ["a"] or [] or ["a", "b"],
     "scores": {"a": 5, "b": 6} or {}, "turns": 17, "decisions": 46, "score_curve": [[1, {"a": 1, "b": 0}], ...] or []}
(players[0] sits in seat 1; `first_mover`, when the record has it, is who moved first, else
players[0] is taken to have) and no winners is a draw (or a game nobody won). Several winners won
together (a shared or co-operative win): it counts as a win for each of them. A record made before
shared wins has no `winners`; its `winner` (a name or None) says it.
"""
from __future__ import annotations

import html
import math
from array import array
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from interpreter.reports.stats import Bin, Description, binomial_p_value, describe, histogram, wilson_interval

Record = dict[str, Any]
SIGNIFICANCE = 0.05


@dataclass(frozen=True)
class Rate:
    """`count` out of `n`, with its 95% Wilson interval."""

    count: int
    n: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.count / self.n if self.n else 0.0


def rate(count: int, n: int) -> Rate:
    """A Rate with its 95% Wilson interval."""
    return Rate(count, n, *wilson_interval(count, n))


def winners_of(record: Record) -> list[str]:
    """A record's winners: its `winners`, or for a record made before shared wins, its `winner`."""
    winners = record.get("winners")
    if winners is None:
        return [] if record.get("winner") is None else [record["winner"]]
    return list(winners)


def won_together(record: Record) -> bool:
    """Every player won: a co-operative victory (with two players or more)."""
    return len(record["players"]) > 1 and set(winners_of(record)) >= set(record["players"])


@dataclass(frozen=True)
class Summary:
    """What a batch of games says, see `summarize`."""

    games: int
    players: list[str]
    wins: dict[str, Rate]             # per player, over the games they took part in (a shared win counts for each)
    draws: Rate                       # games without a winner
    first_player: Rate                # wins of the player who moved first (seat 1 when not recorded), over all games
    first_player_fair: float          # 1 / number of players (averaged over games)
    first_player_p: float             # exact binomial test of first_player against first_player_fair
    turns: Description
    decisions: Description
    turns_histogram: list[Bin]
    decisions_histogram: list[Bin]
    scores: dict[str, Description]    # final score per player, over the games that have scores
    margin: Description               # winner's score minus the best other score, decided games with scores
    shared: Rate                      # games won by several players together
    together: Rate                    # games won by every player together (co-operative victories)
    cooperative: bool                 # some game ended with every player winning, or with everybody losing
    endings: dict[str, Ending] = field(default_factory=dict)  # how games ended, most frequent first


@dataclass
class Ending:
    """The games that ended one way: how many, how many won by several players, each player's wins."""

    games: int = 0
    shared: int = 0
    wins: dict[str, int] = field(default_factory=dict)


def ending_of(record: Record) -> str:
    """How a game ended: the rules' words (`win p by "knockout"`), or a ranking, a draw, a turn limit."""
    if record.get("ending"):
        return record["ending"]
    reason = record.get("reason") or ""
    return reason if reason in ("ranking", "draw", "turn limit", "everybody loses") else "a rule (no `by`)"


def players_of(records: Iterable[Record]) -> list[str]:
    """Every player, in the seat order in which they first appear."""
    seen: dict[str, None] = {}
    for record in records:
        for player in record["players"]:
            seen.setdefault(player, None)
    return list(seen)


class Tally:
    """Something a report counts over games, one game at a time (`add`), so that it never holds them all."""

    def add(self, record: Record) -> None:
        raise NotImplementedError

    @classmethod
    def of(cls, records: Iterable[Record], *args):
        tally = cls(*args)
        for record in records:
            tally.add(record)
        return tally


class SummaryTally(Tally):
    """What `summarize` reads of each game: counts and sums, and the numbers whose quartiles it gives
    (lengths, scores, margins) in arrays of 8 bytes a number."""

    def __init__(self):
        self.games = 0
        self.played: Counter = Counter()  # games per player, in the seat order in which they first appear
        self.wins: Counter = Counter()
        self.draws = self.first = self.shared = self.together = 0
        self.everybody_loses = False
        self.fair = 0.0  # the sum of 1 / players
        self.turns, self.decisions = array("q"), array("q")
        self.scores: dict[str, array] = {}
        self.margins = array("d")
        self.endings: dict[str, Ending] = {}

    def add(self, record: Record) -> None:
        players, winners = record["players"], winners_of(record)
        self.games += 1
        self.played.update(dict.fromkeys(players, 1))
        self.wins.update(dict.fromkeys(winners, 1))
        self.draws += not winners
        first = record.get("first_mover") or (players[0] if players else None)
        self.first += first in winners
        self.shared += len(winners) > 1
        self.together += won_together(record)
        self.everybody_loses |= record.get("reason") == "everybody loses"
        self.fair += 1 / len(players)
        self.turns.append(record["turns"])
        self.decisions.append(record["decisions"])
        final = record.get("scores") or {}
        for player, score in final.items():
            self.scores.setdefault(player, array("d")).append(score)
        others = [s for p, s in final.items() if p not in winners]
        if winners and all(p in final for p in winners) and others:
            self.margins.append(min(final[p] for p in winners) - max(others))
        ending = self.endings.setdefault(ending_of(record), Ending())
        ending.games += 1
        ending.shared += len(winners) > 1
        for player in winners:
            ending.wins[player] = ending.wins.get(player, 0) + 1

    def summary(self) -> Summary:
        """See `summarize`."""
        games, players = self.games, list(self.played)
        first = rate(self.first, games)
        fair = self.fair / games if games else 0.0
        return Summary(
            games=games, players=players, wins={p: rate(self.wins[p], self.played[p]) for p in players},
            draws=rate(self.draws, games), first_player=first, first_player_fair=fair,
            first_player_p=binomial_p_value(first.count, first.n, fair),
            turns=describe(self.turns), decisions=describe(self.decisions),
            turns_histogram=histogram(self.turns), decisions_histogram=histogram(self.decisions),
            scores={p: describe(self.scores[p]) for p in players if p in self.scores},
            margin=describe(self.margins), shared=rate(self.shared, games), together=rate(self.together, games),
            cooperative=bool(self.together) or self.everybody_loses,
            endings=dict(sorted(self.endings.items(), key=lambda item: -item[1].games)))


def summarize(records: Iterable[Record]) -> Summary:
    """Win rates, draws, first-player advantage, game length and score spread of `records`.

    The first player's "fair" win rate is 1 / number of players, so draws pull the observed rate under it.
    The margin is taken in games with a winner and final scores: the winner's score minus the best score
    of the others (negative when the rules let a lower score win); with a shared win, the lowest of the
    winners' scores.
    A shared win counts as a win for each of its winners, so the win rates can add up to more than 100%.
    """
    return SummaryTally.of(records).summary()


# Formatting ---------------------------------------------------------------------------------------

def percent(r: Rate) -> str:
    """`50.4% [47.3–53.5]`, or an em dash with no games."""
    if not r.n:
        return "—"
    return f"{100 * r.rate:.1f}% [{100 * r.low:.1f}–{100 * r.high:.1f}]"


def number(x: float) -> str:
    """Whole numbers as such, others to one decimal; NaN as an em dash."""
    if math.isnan(x):
        return "—"
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def p_cell(p: float) -> str:
    """A p-value for a table cell: `< 0.001` or three decimals."""
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def p_text(p: float) -> str:
    """A p-value in a sentence: `p < 0.001` or `p = 0.034`."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


@dataclass
class Sheet:
    """A table as plain strings, rendered both by rich and as HTML."""

    title: str
    columns: list[str]
    rows: list[list[str]] = field(default_factory=list)
    note: str = ""
    text_columns: int = 1  # the first columns hold text (aligned left); the others numbers (aligned right)


def _bar(count: int, most: int, width: int = 30) -> str:
    return "█" * max(1 if count else 0, round(width * count / most)) if most else ""


def _histogram_sheet(title: str, bins: list[Bin]) -> Sheet:
    most = max((b.count for b in bins), default=0)
    rows = [[str(b.low) if b.low == b.high else f"{b.low}–{b.high}", str(b.count), _bar(b.count, most)]
            for b in bins]
    return Sheet(title, [title.split()[0], "Games", ""], rows)


def _description_row(name: str, d: Description) -> list[str]:
    return [name, str(d.n), number(d.mean), number(d.sd), number(d.min), number(d.q1), number(d.median),
            number(d.q3), number(d.max)]


DESCRIPTION_COLUMNS = ["", "n", "mean", "sd", "min", "q1", "median", "q3", "max"]


def results_sheet(summary: Summary) -> Sheet:
    """Each player's wins, with the shared wins, the co-operative ones and the games nobody won."""
    results = Sheet(f"Results of {summary.games} games", ["Player", "Wins", "Games", "Win rate [95% CI]"])
    for player, r in summary.wins.items():
        results.rows.append([player, str(r.count), str(r.n), percent(r)])
    notes = []
    if summary.shared.count > summary.together.count:  # some wins shared by some players, not all
        results.rows.append(["(shared win)", str(summary.shared.count), str(summary.shared.n), percent(summary.shared)])
    if summary.shared.count:
        notes.append("a shared win counts as a win for each of its winners, so the win rates can add up to more than 100%")
    if summary.cooperative:
        results.rows.append(["(all won together)", str(summary.together.count), str(summary.together.n),
                             percent(summary.together)])
        notes.append(f"co-operative: the players won together in {summary.together.count} of {summary.games} games "
                     f"({percent(summary.together)})")
    results.rows.append(["(no winner)", str(summary.draws.count), str(summary.draws.n), percent(summary.draws)])
    results.note = "; ".join(notes)
    return results


def first_player_sheet(summary: Summary) -> Sheet:
    return Sheet("First-player advantage", ["", "Wins", "Win rate [95% CI]", "Fair rate", "p vs fair"],
                 [["who moved first", str(summary.first_player.count), percent(summary.first_player),
                   f"{100 * summary.first_player_fair:.1f}%", p_cell(summary.first_player_p)]],
                 note="who moved first: the player of the first turn (in seat 1, in games stored before it was "
                      "recorded); exact binomial test; draws count as games the first player did not win")


def length_sheets(summary: Summary) -> list[Sheet]:
    """The length of the games in turns and decisions, and their histograms."""
    length = Sheet("Game length", DESCRIPTION_COLUMNS,
                   [_description_row("turns", summary.turns), _description_row("decisions", summary.decisions)])
    return [length, _histogram_sheet("Turns per game", summary.turns_histogram),
            _histogram_sheet("Decisions per game", summary.decisions_histogram)]


def scores_sheets(summary: Summary) -> list[Sheet]:
    """The final scores and the winner's margin, when the games have scores."""
    if not summary.scores:
        return []
    scores = Sheet("Final scores", DESCRIPTION_COLUMNS, [_description_row(p, d) for p, d in summary.scores.items()],
                   note="margin: the winner's score minus the best other score, in games with a winner")
    if summary.margin.n:
        scores.rows.append(_description_row("margin", summary.margin))
    return [scores]


def endings_sheets(summary: Summary) -> list[Sheet]:
    """The table of endings, when the rules name some (`win p by ...`) or a limit ended games."""
    if any(e not in ("ranking", "draw", "a rule (no `by`)") for e in summary.endings):
        return [endings_sheet(summary)]
    return []


def summary_sheets(summary: Summary) -> list[Sheet]:
    """The tables of a summary, as strings."""
    return ([results_sheet(summary)] + endings_sheets(summary) + [first_player_sheet(summary)] +
            length_sheets(summary) + scores_sheets(summary))


def endings_sheet(summary: Summary) -> Sheet:
    """How the games ended: a column for each ending, with its games and each player's wins that way."""
    endings = summary.endings
    sheet = Sheet("How games ended", [""] + list(endings),
                  note="the endings are those the rules name (`win p by ...`); a shared win counts for each winner")
    sheet.rows.append(["games"] + [f"{e.games} ({100 * e.games / summary.games:.1f}%)" for e in endings.values()])
    sheet.rows.append(["won by several"] + [str(e.shared) for e in endings.values()])
    for player in summary.players:
        sheet.rows.append([f"won by {player}"] + [str(e.wins.get(player, 0)) for e in endings.values()])
    return sheet


def rich_table(sheet: Sheet) -> Table:
    """A sheet as a rich Table: first column left, the others right. Every text as it is: `[fox]` in a
    cell (a property's value, a player's name) is not taken for rich's markup."""
    table = Table(title=Text(sheet.title), title_style="bold", caption=Text(sheet.note) if sheet.note else None,
                  title_justify="left")
    for i, column in enumerate(sheet.columns):
        table.add_column(Text(column), justify="left" if i < sheet.text_columns or column == "" else "right")
    for row in sheet.rows:
        table.add_row(*(Text(cell) for cell in row))
    return table


def html_table(sheet: Sheet) -> str:
    """A sheet as an HTML table with a heading."""
    def cell(tag: str, i: int, text: str) -> str:
        return f"<{tag}{' class=text' if i < sheet.text_columns else ''}>{html.escape(text)}</{tag}>"

    head = "".join(cell("th", i, c) for i, c in enumerate(sheet.columns))
    body = "".join("<tr>" + "".join(cell("td", i, c) for i, c in enumerate(row)) + "</tr>" for row in sheet.rows)
    note = f"<p class='note'>{html.escape(sheet.note)}</p>" if sheet.note else ""
    return f"<h2>{html.escape(sheet.title)}</h2><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{note}"


def render_summary(summary: Summary) -> RenderableType:
    """The summary as rich tables, for `Console.print`."""
    return Group(*(rich_table(s) for s in summary_sheets(summary)))
