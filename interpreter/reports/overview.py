"""The top of a report, in plain words: which run it is (game, players, bots, games, dates, command),
what the games say about balance, how the seats were assigned, whether the bots are of equal strength
(measured), and a short glossary of the statistics.
"""
from __future__ import annotations

from dataclasses import dataclass

from interpreter.reports.run_tally import RunTally
from interpreter.reports.summary import SIGNIFICANCE, Record, p_text, percent, rate


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


def run_title(run: RunTally, context: RunContext) -> str:
    """`castles: random vs greedy` or `castles: random in every seat`: the game and its bots."""
    bots = list(run.ended.bots or run.everyone.bots)
    if not bots:
        return context.game
    return f"{context.game}: {bots[0]} in every seat" if len(bots) == 1 else f"{context.game}: {' vs '.join(bots)}"


def _dates(run: RunTally) -> str:
    if not run.days:
        return ""
    first, last = run.days
    return f"played on {first}" if first == last else f"played from {first} to {last}"


def _balance(run: RunTally) -> str:
    """Which players win significantly more or less than a fair share (see `seats.FairShare`)."""
    summary = run.summary.summary()
    rates = ", ".join(f"{player} {percent(r)}" for player, r in summary.wins.items())
    sentence = f"Win rates: {rates}; no winner in {percent(summary.draws)} of the games."
    if summary.shared.count:
        sentence += " A shared win counts for each of its winners."
    if len(summary.players) < 2:
        return sentence
    off = []
    for player, r in summary.wins.items():
        games = run.ended.by_player[player]
        p = games.p_value()
        if p < SIGNIFICANCE:
            off.append(f"{player} {'more' if r.rate > games.share else 'less'} ({p_text(p)})")
    fair = f"a fair share ({100 * run.ended.everyone.share:.1f}%)"
    if off:
        return sentence + f" Significantly off {fair}: {', '.join(off)}."
    return sentence + (f" No player's win rate differs significantly from {fair}, which is not proof of balance: "
                       "the intervals say how far from it each could be.")


def _first_player(run: RunTally) -> str:
    """Who moved first and whether it helped; in games that did not record it, the player in seat 1."""
    games = run.ended
    if len(games.players) < 2:
        return ""
    if games.first_mover.games:
        movers = games.movers
        who = (f"{next(iter(movers))} in every game" if len(movers) == 1 else
               ", ".join(f"{player} in {n}" for player, n in movers.items()) + " of the games")
        known = "" if games.first_mover.games == games.everyone.games else \
            f" ({games.everyone.games - games.first_mover.games} game(s) stored before it was recorded left out)"
        first = games.first_mover
        subject = f"Who moved first (the player of the first turn): {who}{known}. The player who moved first"
        wins, fair, p = rate(first.wins, first.games), first.share, first.p_value()
    else:
        seats = games.seat_rates()
        subject = "Who moved first was not recorded (games stored before results format 6). The player in seat 1"
        wins, fair, p = seats[0].wins, seats[0].fair, seats[0].p_value
    verdict = ("a significant advantage" if wins.rate > fair else "a significant disadvantage") \
        if p < SIGNIFICANCE else "no significant advantage"
    return (f"{subject} won {percent(wins)} of the games against a fair share of {100 * fair:.1f}%: "
            f"{verdict} ({p_text(p)}, exact binomial test over the games a single player won).")


def run_overview(run: RunTally, context: RunContext) -> list[str]:
    """The report's first paragraphs, over every game of the run (those that did not end included)."""
    failures = run.failures
    bots = list(run.ended.bots or run.everyone.bots)
    version = f" (version {context.version})" if context.version else ""
    dates = _dates(run)
    lines = [f"{context.game}{version}: {failures.games} games ({failures.counts_text()}) between "
             f"{', '.join(run.everyone.players) or 'no players'}, played by {', '.join(bots) or 'unknown bots'}"
             f"{'; ' + dates if dates else ''}."]
    about = ([f"Run `{context.run}`."] if context.run else []) + \
        ([f"This report was made by `{context.command}`{' on ' + context.made_at if context.made_at else ''}."]
         if context.command else [])
    if about:
        lines.append(" ".join(about))
    if not failures.finished:
        return lines + ["No game ended: there is nothing to measure."]
    lines += [_balance(run)] + run.everyone.seating_sentences()
    lines += [x for x in (run.ended.bots_sentence(), _first_player(run)) if x]
    if failures.failed:
        replay = f"; `{context.replay.format(seed=failures.stopped[0]['seed'])}` replays the first one to its error" \
            if context.replay and failures.stopped else ""
        lines.append(f"{failures.failed} game(s) did not end: they are left out of every figure, and listed with "
                     f"their seeds and errors{replay}.")
    return lines
