"""How often each option was chosen, by player: the actions taken, the cards played or crafted...

A record's `option_counts` holds, for each player, each decision's options (in a few words: a card by
its kind, not its number) and how many times the player chose them in that game.
"""
from __future__ import annotations

from collections import Counter

from interpreter.reports.summary import Record, Sheet, Tally


class UsageTally(Tally):
    """The times each player chose each option, summed over the games that counted them (`option_counts`)."""

    def __init__(self):
        self.games = 0
        self.played: Counter = Counter()  # games per player, in the order in which they first appear
        self.times: Counter = Counter()  # (decision, option, player)

    def add(self, record: Record) -> None:
        if not record.get("option_counts"):
            return
        self.games += 1
        self.played.update(record["players"])
        for player, decisions in record["option_counts"].items():
            for decision, options in decisions.items():
                for option, n in options.items():
                    self.times[decision, option, player] += n

    def sheet(self, most: int | None = None) -> Sheet | None:
        """A row per decision and option: for each player, the times per game they chose it and its share of
        their answers to that decision. With `most`, only the most chosen options of each decision, then one
        row for the others. None when no game counted its options (games stored before results format 4)."""
        if not self.games:
            return None
        players, times, played = list(self.played), self.times, self.played
        by_decision: dict[str, Counter] = {}
        answers: Counter = Counter()  # (decision, player)
        for (decision, option, player), n in times.items():
            by_decision.setdefault(decision, Counter())[option] += n
            answers[decision, player] += n
        sheet = Sheet("How often each option was chosen", ["Decision", "Option"] + players,
                      note=f"per game: times a player chose the option in an average game ({self.games} games); in "
                           "brackets: its share of that player's answers to the decision. A card or piece counts by "
                           "its kind, an option of places by its first place", text_columns=2)

        def cells(decision: str, options: list[str]) -> list[str]:
            row = []
            for player in players:
                n = sum(times[decision, option, player] for option in options)
                row.append(f"{n / played[player]:.2f} ({100 * n / answers[decision, player]:.0f}%)" if n else "—")
            return row

        for decision, options in sorted(by_decision.items(), key=lambda item: -item[1].total()):
            ranked = [option for option, _ in options.most_common()]
            shown, rest = (ranked, []) if most is None or len(ranked) <= most + 1 else (ranked[:most], ranked[most:])
            for i, option in enumerate(shown):
                sheet.rows.append([decision if i == 0 else "", option] + cells(decision, [option]))
            if rest:
                sheet.rows.append(["", f"({len(rest)} other options)"] + cells(decision, rest))
        return sheet
