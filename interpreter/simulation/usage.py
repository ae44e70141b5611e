"""What each player chose, counted by decision and by a few words of the option, for the report's table
of how often each option was chosen.

An option is counted under its first value that is not a place (a component by its kind, so that the
cards `plot-3` and `plot-7` count as `plot`; a name or a number as it is): `place tree b2` counts as
`tree`, `attack b2 blue` as `blue`. An option made of places only counts under its first place
(`move c12 c10` as `c12`), and a pass as `pass`.
"""
from __future__ import annotations

from typing import Container

from interpreter.engine.decisions import PASS, Decision
from interpreter.engine.state import Component

Counts = dict[str, dict[str, dict[str, int]]]  # player: decision: option words: times chosen


def option_words(option: tuple, places: Container[str]) -> str:
    if option is PASS or option == PASS:
        return "pass"
    first_place = None
    for value in option:
        if isinstance(value, Component):
            return value.kind
        if isinstance(value, str) and value in places:
            first_place = first_place or value
            continue
        return "none" if value is None else str(value)
    return first_place or "(nothing)"


def count_choice(counts: Counts, decision: Decision, index: int, places: Container[str]) -> None:
    options = counts.setdefault(decision.player, {}).setdefault(decision.name, {})
    words = option_words(decision.options[index], places)
    options[words] = options.get(words, 0) + 1
