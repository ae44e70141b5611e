"""From clicks on the page to the label of an option, so that a refused click can be explained.

A click picks a set of targets (see `view`): a piece on a1 picks its id, its kind and `loc:a1`. A
set of clicks that names no offered option is explained through the options it *would* make: each
offered option with the clicked things put in place of values of the same sort (a location for a
location, a kind for a kind...), which `Game.why_not` then explains. Clicking `stone` in the hand,
then the square a3, gives `stone a3` for a decision whose options read `ring a1`, `stone b2`...
"""
from __future__ import annotations

from interpreter.engine.decisions import PASS, Decision
from interpreter.interfaces.web.view import value_targets
from interpreter.play.game import Game

EXPLAINED = 3  # near misses explained for one click
LOOKED_AT = 500  # options looked at to make them


def _sort(targets: list[str]) -> str | None:
    """What sort of thing a value is, from its targets: `loc`, `zone`, `kind`, `comp`, `player` (None: not clickable)."""
    return targets[0].partition(":")[0] if targets else None


def _text_of(pick: list[str], sort: str) -> str | None:
    """The text a pick gives a value of this sort: a location's name, a kind, a component's id..."""
    return next((t.partition(":")[2] for t in pick if t.startswith(sort + ":")), None)


def _first_of_each_sort(pick: list[str]) -> list[str]:
    """A pick as `_text_of` reads it: a stack of fifty alike pieces names one of each sort, not fifty."""
    firsts: dict[str, str] = {}
    for target in pick:
        firsts.setdefault(target.partition(":")[0], target)
    return list(firsts.values())


def near_misses(game: Game, decision: Decision, picks: list[list[str]], viewer) -> list[str]:
    """The labels the clicks would make with the offered options (see the module), first ones first, each once."""
    picks = [_first_of_each_sort(pick) for pick in picks]
    offered = set(decision.labels(viewer))
    found: list[str] = []
    for index in range(min(len(decision.options), LOOKED_AT)):
        option = decision.options[index]
        if option is PASS:
            continue
        texts = list(decision.as_dict(index, viewer).values())
        sorts = [_sort(value_targets(game, value, viewer)) for value in option]
        used: set[int] = set()
        for pick in picks:
            place = next((i for i, sort in enumerate(sorts)
                          if i not in used and sort and _text_of(pick, sort) is not None), None)
            if place is None:
                break
            used.add(place)
            texts[place] = _text_of(pick, sorts[place])
        else:
            label = " ".join(texts)
            if label not in offered and label not in found:
                found.append(label)
                if len(found) == EXPLAINED:
                    break
    return found
