"""Seats and bots: win rates by seat and by bot, how the seats were assigned (measured from the games,
not taken from the command), and whether the bots are of equal strength.

A record says who sat where (`players`, seat 1 first) and which bot played each seat (`seat_bots`, in
the same order). A bot's win rate counts each seat it played: a bot playing two seats of a game plays
two "seat-games" there.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Callable, Sequence

from interpreter.reports.stats import binomial_p_value
from interpreter.reports.summary import SIGNIFICANCE, Rate, Record, Sheet, p_cell, p_text, percent, players_of, rate, \
    winners_of


def seat_name(seat: int) -> str:
    """`seat 1 (first)` for index 0, then `seat 2`..."""
    return "seat 1 (first)" if seat == 0 else f"seat {seat + 1}"


def fair_share(games: Sequence[Record]) -> float:
    """The win rate of each player of `games` if no player (or seat) were favoured: the games' wins split
    equally among their players (1 / players when every game has one winner; less with draws)."""
    return sum(len(winners_of(r)) / len(r["players"]) for r in games if r["players"]) / len(games) if games else 0.0


def against_fair_share(games: Sequence[Record], won: Callable[[Record], bool]) -> float:
    """The p-value of the exact binomial test of the games `won` against 1 / players, over the `games`
    a single player won (a draw or a shared win says nothing of who is favoured)."""
    single = [r for r in games if len(winners_of(r)) == 1]
    if not single:
        return 1.0
    return binomial_p_value(sum(map(won, single)), len(single), sum(1 / len(r["players"]) for r in single) / len(single))


@dataclass(frozen=True)
class SeatRate:
    """The wins of the player in one seat, and the fair share of its games (see `fair_share`)."""

    seat: int
    wins: Rate
    fair: float
    p_value: float  # see `against_fair_share`


def seat_rates(records: Sequence[Record]) -> list[SeatRate]:
    seats = max((len(r["players"]) for r in records), default=0)
    rates = []
    for seat in range(seats):
        games = [r for r in records if len(r["players"]) > seat]

        def won(r: Record, seat: int = seat) -> bool:
            return r["players"][seat] in winners_of(r)
        rates.append(SeatRate(seat, rate(sum(map(won, games)), len(games)), fair_share(games),
                              against_fair_share(games, won)))
    return rates


def bots_of(records: Sequence[Record]) -> list[str]:
    """Every bot, in the order in which they first appear."""
    return list(dict.fromkeys(bot for r in records for bot in r.get("seat_bots") or []))


def _seat_games(records: Sequence[Record]):
    """(record, player, bot, won) for each seat of each game that says its bots."""
    for r in records:
        winners = winners_of(r)
        for player, bot in zip(r["players"], r.get("seat_bots") or []):
            yield r, player, bot, player in winners


def bot_rates(records: Sequence[Record]) -> dict[str, Rate]:
    """Each bot's wins over the seats it played."""
    wins, played = Counter(), Counter()
    for _, _, bot, won in _seat_games(records):
        played[bot] += 1
        wins[bot] += won
    return {bot: rate(wins[bot], played[bot]) for bot in bots_of(records)}


def player_bot_rates(records: Sequence[Record]) -> dict[str, dict[str, Rate]]:
    """Each player's wins when played by each bot."""
    wins, played = Counter(), Counter()
    for _, player, bot, won in _seat_games(records):
        played[player, bot] += 1
        wins[player, bot] += won
    return {p: {b: rate(wins[p, b], played[p, b]) for b in bots_of(records)} for p in players_of(records)}


@dataclass(frozen=True)
class BotDuel:
    """Two bots over the games both played: how often one won and the other did not.

    If they were of equal strength, `a` would win `expected` of the games only one of them won; the
    p-value is the exact binomial test of that, multiplied by the number of pairs of bots (Bonferroni).
    """

    a: str
    b: str
    a_only: int
    b_only: int
    expected: float
    p_value: float

    @property
    def significant(self) -> bool:
        return self.p_value < SIGNIFICANCE


def bot_duels(records: Sequence[Record]) -> list[BotDuel]:
    bots = bots_of(records)
    pairs = list(combinations(bots, 2))
    duels = []
    for a, b in pairs:
        a_only = b_only = 0
        share = 0.0  # the sum of a's expected share of each game only one of them won
        for r in records:
            seats = r.get("seat_bots") or []
            if a not in seats or b not in seats:
                continue
            winners = winners_of(r)
            a_won = any(bot == a and p in winners for p, bot in zip(r["players"], seats))
            b_won = any(bot == b and p in winners for p, bot in zip(r["players"], seats))
            if a_won != b_won:
                a_only += a_won
                b_only += b_won
                share += seats.count(a) / (seats.count(a) + seats.count(b))
        decided = a_only + b_only
        expected = share / decided if decided else 0.5
        p = min(1.0, binomial_p_value(a_only, decided, expected) * len(pairs))
        duels.append(BotDuel(a, b, a_only, b_only, expected, p))
    return duels


# How the seats were assigned, measured ----------------------------------------------------------------

def _about_even(counts: list[int], seats: int) -> bool:
    """Counts equal but for the games of one unfinished turn of the rotation (or 5% of them)."""
    return max(counts) - min(counts) <= max(seats, round(0.05 * sum(counts) / len(counts)))


def _range(counts: list[int]) -> str:
    low, high = min(counts), max(counts)
    return f"{low} games each" if low == high else f"between {low} and {high} games each"


def _each_in_one(counts: Counter, items: list[str], places: list) -> bool:
    """Whether each item was seen in one place only (counts of (item, place))."""
    return all(sum(counts[item, place] > 0 for place in places) == 1 for item in items)


def _bots_tied_to(records: Sequence[Record]) -> str:
    """`player` when each player was always played by the same bot, `seat` when each bot kept its seat,
    else "" (with fewer than two bots too): what a difference between the bots cannot be told apart from."""
    bots = bots_of(records)
    if len(bots) < 2:
        return ""
    by_player = Counter((p, b) for _, p, b, _ in _seat_games(records))
    if _each_in_one(by_player, players_of(records), bots):
        return "player"
    by_seat = Counter((b, i) for r in records for i, b in enumerate(r.get("seat_bots") or []))
    seats = range(max(len(r["players"]) for r in records))
    return "seat" if _each_in_one(by_seat, bots, list(seats)) else ""


def seating_sentences(records: Sequence[Record]) -> list[str]:
    """How the players and the bots were seated in these games, said in plain words from the games."""
    if not records:
        return []
    players, bots = players_of(records), bots_of(records)
    seats = max(len(r["players"]) for r in records)
    by_seat = Counter((p, i) for r in records for i, p in enumerate(r["players"]))
    counts = [by_seat[p, i] for p in players for i in range(seats)]
    first = ", ".join(f"{p} {by_seat[p, 0]}" for p in players)
    if _each_in_one(by_seat, players, list(range(seats))):
        order = ", ".join(f"{p} {seat_name(i)}" for i in range(seats) for p in players if by_seat[p, i])
        sentences = [f"The seats were fixed: {order}, in every game."]
    elif _about_even(counts, seats):
        sentences = [f"The seating turned: each player sat in each seat about equally often ({_range(counts)}; "
                     f"games in which each played first: {first})."]
    else:
        sentences = [f"The seating was uneven: games in which each player played first: {first}."]
    if len(bots) == 1:
        sentences.append(f"Every seat was played by the same bot, {bots[0]}: the win rates measure the game as "
                         "this bot plays it.")
    if len(bots) < 2:
        return sentences
    played = Counter((p, b) for _, p, b, _ in _seat_games(records))
    tied = _bots_tied_to(records)
    if tied == "player":
        who = ", ".join(f"{p} by {b}" for p in players for b in bots if played[p, b])
        sentences.append(f"Each player was always played by the same bot ({who}): a bot's strength and a player's "
                         "advantage cannot be told apart.")
    elif tied == "seat":
        where = ", ".join(f"{seat_name(i)} by {r['seat_bots'][i]}" for r in records[:1] for i in range(seats))
        sentences.append(f"Each bot kept its seat ({where}): a bot's strength shows as an advantage of its seat.")
    elif all(_about_even([played[p, b] for p in players], seats * seats) for b in bots):
        each = ", ".join(f"{b}: {_range([played[p, b] for p in players])}" for b in bots)
        sentences.append(f"The bots turned through the seats too, apart from the players: each bot played each "
                         f"player about equally often ({each}), so no bot favours a player.")
    else:
        sentences.append("The bots did not play each player equally often: a player's win rate mixes the game's "
                         "balance with the strength of the bots that played it.")
    return sentences


def bots_sentence(records: Sequence[Record]) -> str:
    """Whether the bots are of equal strength, measured; empty with fewer than two bots."""
    duels = bot_duels(records)
    if not duels:
        return ""
    shown = ", ".join(f"{bot} {percent(r)}" for bot, r in bot_rates(records).items())
    unequal = [d for d in duels if d.significant]
    tied = _bots_tied_to(records)
    if tied:
        return (f"The bots' win rates ({shown}) cannot tell their strength: each {tied} was always played by the same "
                f"bot (run with the seating turning, the default of `simulate`, to measure it).")
    if not unequal:
        best = min(d.p_value for d in duels)
        return (f"The bots' win rates over the seats they played ({shown}) do not differ significantly "
                f"({p_text(best)} at best, corrected for {len(duels)} pair(s)): no evidence of unequal strength, "
                "which is not proof that they are equal.")
    parts = [f"{d.a} won {d.a_only} and {d.b} {d.b_only} of the games only one of them won ({p_text(d.p_value)})"
             for d in unequal]
    return (f"The bots are of unequal strength: {'; '.join(parts)}; win rates over the seats they played: {shown}. "
            "Each player's win rate then depends on which bot played it: see the table 'Win rate by player and bot'.")


# Tables ------------------------------------------------------------------------------------------------

def seat_sheet(records: Sequence[Record]) -> Sheet:
    sheet = Sheet("First-player advantage: win rate by seat",
                  ["Seat", "Wins", "Games", "Win rate [95% CI]", "Fair share", "p vs fair"],
                  note="fair share: the games' wins split equally among the seats; p: exact binomial test of the "
                       "seat's wins against 1 / players, over the games a single player won")
    for s in seat_rates(records):
        sheet.rows.append([seat_name(s.seat), str(s.wins.count), str(s.wins.n), percent(s.wins),
                           f"{100 * s.fair:.1f}%", p_cell(s.p_value)])
    return sheet


def bot_sheets(records: Sequence[Record]) -> list[Sheet]:
    """With two bots or more: each bot's win rate over the seats it played, and each player's by bot."""
    if len(bots_of(records)) < 2:
        return []
    by_bot = Sheet("Win rate by bot", ["Bot", "Wins", "Seats played", "Win rate [95% CI]"])
    for bot, r in bot_rates(records).items():
        by_bot.rows.append([bot, str(r.count), str(r.n), percent(r)])
    duels = bot_duels(records)
    by_bot.note = "; ".join(f"{d.a} vs {d.b}: {d.a_only} to {d.b_only} in games only one of them won, "
                          f"p {p_cell(d.p_value)}" for d in duels) + \
        " (exact binomial test, Bonferroni-corrected for the number of pairs)"
    table = player_bot_rates(records)
    by_player = Sheet("Win rate by player and bot", ["Player"] + [f"played by {b}" for b in bots_of(records)],
                      note="each cell: the player's win rate [95% CI] in the games that bot played it (games)")
    for player, rates in table.items():
        by_player.rows.append([player] + [f"{percent(r)} ({r.n})" for r in rates.values()])
    return [by_bot, by_player]
