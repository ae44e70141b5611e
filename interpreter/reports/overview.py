"""The top of a report, in plain words: which run it is (game, players, bots, games, dates, command),
what the games say about balance, how the seats were assigned, whether the bots are of equal strength
(measured), and a short glossary of the statistics.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from interpreter.reports.failures import counts_text, failed, finished
from interpreter.reports.seats import against_fair_share, bots_of, bots_sentence, fair_share, seat_rates, \
    seating_sentences
from interpreter.reports.summary import SIGNIFICANCE, Record, p_text, percent, players_of, summarize, winners_of


@dataclass(frozen=True)
class RunContext:
    """Where a report comes from: the game, the run of the results database, the command, when."""

    game: str
    version: str = ""   # the ruleset's version (a hash of its files)
    run: str = ""       # the run's name in the results database: its bots, players, options, seating
    command: str = ""   # the command that made the report
    made_at: str = ""   # when, UTC
    replay: str = ""    # the command that replays the game of `{seed}` to its end or its error


GLOSSARY = [
    ("win rate [95% CI]", "the share of games won, and a range (the Wilson score interval) that, in 95% of runs "
                          "like this one, holds the true rate; more games make it narrower"),
    ("fair share", "the win rate of each player, or seat, if the game favoured nobody: the games' wins split "
                   "equally (1 / number of players when every game has a winner). Its test counts the games a "
                   "single player won"),
    ("p-value", "how often chance alone would give a difference this large; under 0.05 it is called significant. "
                "When nothing differs, one test in 20 still comes out significant"),
    ("exact binomial test", "a number of wins against the number a rate (the fair share) would give"),
    ("bots compared", "in the games only one of two bots won, how often each won, against an even split (or the "
                      "bots' shares of the seats): an exact binomial test, its p-value multiplied by the number of "
                      "pairs of bots (Bonferroni correction)"),
    ("sd, q1, median, q3", "the standard deviation; the values a quarter, half and three quarters of the games "
                           "stay under"),
    ("margin", "the winner's final score minus the best score of the others"),
    ("round", "one turn of each player"),
]


def run_title(records: Sequence[Record], context: RunContext) -> str:
    """`castles: random vs greedy` or `castles: random in every seat`: the game and its bots."""
    bots = bots_of(finished(records)) or bots_of(records)
    if not bots:
        return context.game
    return f"{context.game}: {bots[0]} in every seat" if len(bots) == 1 else f"{context.game}: {' vs '.join(bots)}"


def _dates(records: Sequence[Record]) -> str:
    days = sorted(r["finished_at"][:10] for r in records if r.get("finished_at"))
    if not days:
        return ""
    return f"played on {days[0]}" if days[0] == days[-1] else f"played from {days[0]} to {days[-1]}"


def _balance(done: Sequence[Record]) -> str:
    """Which players win significantly more or less than a fair share (see `seats.against_fair_share`)."""
    summary = summarize(done)
    rates = ", ".join(f"{player} {percent(r)}" for player, r in summary.wins.items())
    sentence = f"Win rates: {rates}; no winner in {percent(summary.draws)} of the games."
    if summary.shared.count:
        sentence += " A shared win counts for each of its winners."
    if len(summary.players) < 2:
        return sentence
    off = []
    for player, r in summary.wins.items():
        games = [g for g in done if player in g["players"]]
        p = against_fair_share(games, lambda g, player=player: player in winners_of(g))
        if p < SIGNIFICANCE:
            off.append(f"{player} {'more' if r.rate > fair_share(games) else 'less'} ({p_text(p)})")
    fair = f"a fair share ({100 * fair_share(done):.1f}%)"
    if off:
        return sentence + f" Significantly off {fair}: {', '.join(off)}."
    return sentence + (f" No player's win rate differs significantly from {fair}, which is not proof of balance: "
                       "the intervals say how far from it each could be.")


def _first_player(done: Sequence[Record]) -> str:
    seats = seat_rates(done)
    if len(seats) < 2:
        return ""
    first = seats[0]
    verdict = ("a significant advantage" if first.wins.rate > first.fair else "a significant disadvantage") \
        if first.p_value < SIGNIFICANCE else "no significant advantage"
    return (f"The first player won {percent(first.wins)} of the games against a fair share of {100 * first.fair:.1f}%: "
            f"{verdict} ({p_text(first.p_value)}, exact binomial test over the games a single player won).")


def overview(records: Sequence[Record], context: RunContext) -> list[str]:
    """The report's first paragraphs, over every game of the run (those that did not end included)."""
    done = finished(records)
    bots = bots_of(done) or bots_of(records)
    version = f" (version {context.version})" if context.version else ""
    dates = _dates(records)
    lines = [f"{context.game}{version}: {len(records)} games ({counts_text(records)}) between "
             f"{', '.join(players_of(records)) or 'no players'}, played by {', '.join(bots) or 'unknown bots'}"
             f"{'; ' + dates if dates else ''}."]
    about = ([f"Run `{context.run}`."] if context.run else []) + \
        ([f"This report was made by `{context.command}`{' on ' + context.made_at if context.made_at else ''}."]
         if context.command else [])
    if about:
        lines.append(" ".join(about))
    if not done:
        return lines + ["No game ended: there is nothing to measure."]
    lines += [_balance(done)] + seating_sentences(records)
    lines += [x for x in (bots_sentence(done), _first_player(done)) if x]
    stopped = failed(records)
    if stopped:
        replay = f"; `{context.replay.format(seed=stopped[0]['seed'])}` replays the first one to its error" \
            if context.replay else ""
        lines.append(f"{len(stopped)} game(s) did not end: they are left out of every figure, and listed with their "
                     f"seeds and errors{replay}.")
    return lines
