"""Seats and bots: win rates by seat and by bot, how the seats were assigned (measured from the games,
not taken from the command), and whether the bots are of equal strength.

A record says who sat where (`players`, seat 1 first), which bot played each seat (`seat_bots`, in
the same order) and who moved first (`first_mover`: the player of the first turn, whatever their seat;
missing in games stored before results format 6). A bot's win rate counts each seat it played: a bot
playing two seats of a game plays two "seat-games" there. Everything is counted one game at a time (`SeatTally`); the functions over a
list of games at the end are for a caller that has the list.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations

from interpreter.reports.stats import binomial_p_value
from interpreter.reports.summary import SIGNIFICANCE, Rate, Record, Sheet, Tally, p_cell, p_text, percent, rate, \
    winners_of


def seat_name(seat: int) -> str:
    """`seat 1` for index 0, then `seat 2`... (a seat, not a turn order: who moves first is the rules' to say)"""
    return f"seat {seat + 1}"


class FairShare(Tally):
    """The games a player (or a seat) played, added one at a time with whether it won them: its wins,
    the games' fair share and the test of its wins against it.

    The fair share is the win rate of each player if no player (or seat) were favoured: the games' wins
    split equally among their players (1 / players when every game has one winner; less with draws)."""

    def __init__(self):
        self.games = self.wins = 0
        self.shares = 0.0  # the sum of winners / players
        self.single = self.single_wins = 0  # the games a single player won, and how many of those it won
        self.expected = 0.0  # the sum of 1 / players over those games

    def add(self, record: Record, won: bool = False) -> None:
        winners, players = winners_of(record), record["players"]
        self.games += 1
        self.wins += won
        if players:
            self.shares += len(winners) / len(players)
        if len(winners) == 1:
            self.single += 1
            self.single_wins += won
            self.expected += 1 / len(players)

    @property
    def share(self) -> float:
        return self.shares / self.games if self.games else 0.0

    def p_value(self) -> float:
        """The exact binomial test of the wins against 1 / players, over the games a single player won (a
        draw or a shared win says nothing of who is favoured)."""
        if not self.single:
            return 1.0
        return binomial_p_value(self.single_wins, self.single, self.expected / self.single)


@dataclass(frozen=True)
class SeatRate:
    """The wins of the player in one seat, and the fair share of its games (see `FairShare`)."""

    seat: int
    wins: Rate
    fair: float
    p_value: float  # see `FairShare.p_value`


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


class SeatTally(Tally):
    """Who sat where and which bot played each seat, counted one game at a time: the rates, the
    sentences and the tables of the seats and the bots."""

    def __init__(self):
        self.bots: dict[str, int] = {}  # each bot's rank in the order in which they first appear
        self.everyone = FairShare()  # every game
        self.seats: list[FairShare] = []  # the games of the player in each seat
        self.by_player: dict[str, FairShare] = {}  # the games of each player, in the order they first appear
        self.player_seats: Counter = Counter()  # (player, seat): games
        self.bot_seats: Counter = Counter()  # (bot, seat): games
        self.played: Counter = Counter()  # (player, bot): seats played
        self.won: Counter = Counter()  # (player, bot): seats won
        self.duels: dict[tuple[str, str], list] = {}  # (a, b), a seen first: [a alone won, b alone won, a's share]
        self.first_seat_bots: list[str] | None = None  # the bots of the first game, seat by seat
        self.movers: Counter = Counter()  # games each player moved first, in the order they first did
        self.first_mover_wins: Counter = Counter()  # of those games, the ones each player won
        self.first_mover = FairShare()  # the games whose first mover is known, won or not by that player

    def add(self, record: Record) -> None:
        players, seat_bots, winners = record["players"], record.get("seat_bots") or [], winners_of(record)
        if not self.everyone.games:
            self.first_seat_bots = record.get("seat_bots")
        self.everyone.add(record)
        if record.get("first_mover"):
            self.movers[record["first_mover"]] += 1
            self.first_mover_wins[record["first_mover"]] += record["first_mover"] in winners
            self.first_mover.add(record, record["first_mover"] in winners)
        for seat, player in enumerate(players):
            self.player_seats[player, seat] += 1
            if seat == len(self.seats):
                self.seats.append(FairShare())
            self.seats[seat].add(record, player in winners)
        for player in dict.fromkeys(players):
            self.by_player.setdefault(player, FairShare()).add(record, player in winners)
        for seat, bot in enumerate(seat_bots):
            self.bots.setdefault(bot, len(self.bots))
            self.bot_seats[bot, seat] += 1
        for player, bot in zip(players, seat_bots):
            self.played[player, bot] += 1
            self.won[player, bot] += player in winners
        won = {bot: any(b == bot and p in winners for p, b in zip(players, seat_bots)) for bot in seat_bots}
        for a, b in combinations(sorted(won, key=self.bots.get), 2):
            if won[a] != won[b]:  # a game only one of the two won: which, and a's share of their seats
                duel = self.duels.setdefault((a, b), [0, 0, 0.0])
                duel[0] += won[a]
                duel[1] += won[b]
                duel[2] += seat_bots.count(a) / (seat_bots.count(a) + seat_bots.count(b))

    @property
    def players(self) -> list[str]:
        return list(self.by_player)

    def seat_rates(self) -> list[SeatRate]:
        return [SeatRate(seat, rate(s.wins, s.games), s.share, s.p_value()) for seat, s in enumerate(self.seats)]

    def bot_rates(self) -> dict[str, Rate]:
        """Each bot's wins over the seats it played."""
        return {bot: rate(sum(self.won[p, bot] for p in self.players), sum(self.played[p, bot] for p in self.players))
                for bot in self.bots}

    def player_bot_rates(self) -> dict[str, dict[str, Rate]]:
        """Each player's wins when played by each bot."""
        return {p: {b: rate(self.won[p, b], self.played[p, b]) for b in self.bots} for p in self.players}

    def bot_duels(self) -> list[BotDuel]:
        pairs = list(combinations(self.bots, 2))
        duels = []
        for a, b in pairs:
            a_only, b_only, share = self.duels.get((a, b), (0, 0, 0.0))
            decided = a_only + b_only
            expected = share / decided if decided else 0.5
            p = min(1.0, binomial_p_value(a_only, decided, expected) * len(pairs))
            duels.append(BotDuel(a, b, a_only, b_only, expected, p))
        return duels

    def bots_tied_to(self) -> str:
        """`player` when each player was always played by the same bot, `seat` when each bot kept its seat,
        else "" (with fewer than two bots too): what a difference between the bots cannot be told apart from."""
        bots = list(self.bots)
        if len(bots) < 2:
            return ""
        if _each_in_one(self.played, self.players, bots):
            return "player"
        return "seat" if _each_in_one(self.bot_seats, bots, list(range(len(self.seats)))) else ""

    def seating_sentences(self) -> list[str]:
        """How the players and the bots were seated in these games, said in plain words from the games."""
        if not self.everyone.games:
            return []
        players, bots, seats, by_seat = self.players, list(self.bots), len(self.seats), self.player_seats
        counts = [by_seat[p, i] for p in players for i in range(seats)]
        first = ", ".join(f"{p} {by_seat[p, 0]}" for p in players)  # in seat 1
        if _each_in_one(by_seat, players, list(range(seats))):
            order = ", ".join(f"{p} {seat_name(i)}" for i in range(seats) for p in players if by_seat[p, i])
            sentences = [f"The seats were fixed: {order}, in every game."]
        elif _about_even(counts, seats):
            sentences = [f"The seating turned: each player sat in each seat about equally often ({_range(counts)}; "
                         f"games in which each sat in seat 1: {first})."]
        else:
            sentences = [f"The seating was uneven: games in which each player sat in seat 1: {first}."]
        if len(bots) == 1:
            sentences.append(f"Every seat was played by the same bot, {bots[0]}: the win rates measure the game as "
                             "this bot plays it.")
        if len(bots) < 2:
            return sentences
        played = self.played
        tied = self.bots_tied_to()
        if tied == "player":
            who = ", ".join(f"{p} by {b}" for p in players for b in bots if played[p, b])
            sentences.append(f"Each player was always played by the same bot ({who}): a bot's strength and a "
                             "player's advantage cannot be told apart.")
        elif tied == "seat":
            where = ", ".join(f"{seat_name(i)} by {self.first_seat_bots[i]}" for i in range(seats))
            sentences.append(f"Each bot kept its seat ({where}): a bot's strength shows as an advantage of its seat.")
        elif all(_about_even([played[p, b] for p in players], seats * seats) for b in bots):
            each = ", ".join(f"{b}: {_range([played[p, b] for p in players])}" for b in bots)
            sentences.append(f"The bots turned through the seats too, apart from the players: each bot played each "
                             f"player about equally often ({each}), so no bot favours a player.")
        else:
            sentences.append("The bots did not play each player equally often: a player's win rate mixes the game's "
                             "balance with the strength of the bots that played it.")
        return sentences

    def bots_sentence(self) -> str:
        """Whether the bots are of equal strength, measured; empty with fewer than two bots."""
        duels = self.bot_duels()
        if not duels:
            return ""
        shown = ", ".join(f"{bot} {percent(r)}" for bot, r in self.bot_rates().items())
        unequal = [d for d in duels if d.significant]
        tied = self.bots_tied_to()
        if tied:
            return (f"The bots' win rates ({shown}) cannot tell their strength: each {tied} was always played by the "
                    f"same bot (run with the seating turning, the default of `simulate`, to measure it).")
        if not unequal:
            best = min(d.p_value for d in duels)
            return (f"The bots' win rates over the seats they played ({shown}) do not differ significantly "
                    f"({p_text(best)} at best, corrected for {len(duels)} pair(s)): no evidence of unequal strength, "
                    "which is not proof that they are equal.")
        parts = [f"{d.a} won {d.a_only} and {d.b} {d.b_only} of the games only one of them won ({p_text(d.p_value)})"
                 for d in unequal]
        return (f"The bots are of unequal strength: {'; '.join(parts)}; win rates over the seats they played: "
                f"{shown}. Each player's win rate then depends on which bot played it: see the table 'Win rate by "
                "player and bot'.")


def _about_even(counts: list[int], seats: int) -> bool:
    """Counts equal but for the games of one unfinished turn of the rotation (or 5% of them)."""
    return max(counts) - min(counts) <= max(seats, round(0.05 * sum(counts) / len(counts)))


def _range(counts: list[int]) -> str:
    low, high = min(counts), max(counts)
    return f"{low} games each" if low == high else f"between {low} and {high} games each"


def _each_in_one(counts: Counter, items: list[str], places: list) -> bool:
    """Whether each item was seen in one place only (counts of (item, place))."""
    return all(sum(counts[item, place] > 0 for place in places) == 1 for item in items)


# Tables ------------------------------------------------------------------------------------------------

def first_mover_sheet(games: SeatTally) -> Sheet | None:
    """Who moved first, and how often they won: None when no game recorded its first mover."""
    if not games.movers:
        return None
    sheet = Sheet("Who moved first", ["Player", "Moved first", "Won those games", "Win rate [95% CI]"],
                  note="the player of the game's first turn (in rules without turns, of its first decision), "
                       "whatever their seat")
    for player, times in games.movers.items():
        wins = games.first_mover_wins[player]
        sheet.rows.append([player, str(times), str(wins), percent(rate(wins, times))])
    mover = games.first_mover
    sheet.rows.append(["(whoever moved first)", str(mover.games), str(mover.wins), percent(rate(mover.wins, mover.games))])
    sheet.note += (f"; fair share {100 * mover.share:.1f}%, p {p_cell(mover.p_value())} (exact binomial test over the "
                   "games a single player won)")
    return sheet


def seat_sheet(games: SeatTally) -> Sheet:
    sheet = Sheet("Win rate by seat",
                  ["Seat", "Wins", "Games", "Win rate [95% CI]", "Fair share", "p vs fair"],
                  note="fair share: the games' wins split equally among the seats; p: exact binomial test of the "
                       "seat's wins against 1 / players, over the games a single player won")
    for s in games.seat_rates():
        sheet.rows.append([seat_name(s.seat), str(s.wins.count), str(s.wins.n), percent(s.wins),
                           f"{100 * s.fair:.1f}%", p_cell(s.p_value)])
    return sheet


def bot_sheets(games: SeatTally) -> list[Sheet]:
    """With two bots or more: each bot's win rate over the seats it played, and each player's by bot."""
    if len(games.bots) < 2:
        return []
    by_bot = Sheet("Win rate by bot", ["Bot", "Wins", "Seats played", "Win rate [95% CI]"])
    for bot, r in games.bot_rates().items():
        by_bot.rows.append([bot, str(r.count), str(r.n), percent(r)])
    by_bot.note = "; ".join(f"{d.a} vs {d.b}: {d.a_only} to {d.b_only} in games only one of them won, "
                            f"p {p_cell(d.p_value)}" for d in games.bot_duels()) + \
        " (exact binomial test, Bonferroni-corrected for the number of pairs)"
    by_player = Sheet("Win rate by player and bot", ["Player"] + [f"played by {b}" for b in games.bots],
                      note="each cell: the player's win rate [95% CI] in the games that bot played it (games)")
    for player, rates in games.player_bot_rates().items():
        by_player.rows.append([player] + [f"{percent(r)} ({r.n})" for r in rates.values()])
    return [by_bot, by_player]
