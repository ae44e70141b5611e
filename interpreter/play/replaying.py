"""A copy of a game replays the original's answers, each `choose` taking its recorded option
without making the list of its options (`Game.clone`, which search bots call at every iteration).

The rules still run every statement, so the copy reaches exactly the original's state; only the
option lists and their `where` conditions are skipped: a copy of a Root game takes a half to two
thirds of the time it took by asking each decision (docs/performance.md). An option that names components names the original's: the copy takes its own
components of the same ids. A decision the rules still ask while replaying (one made at once with
others, a window of cards) is answered by `next_index`.
"""
from __future__ import annotations

from interpreter.engine.decisions import NO_OPTION, PASS
from interpreter.engine.state import Component


class Replaying:
    """What a copy of a game replays: the indexes of its first choices, and the options the original
    took (`Runtime.taken`, with NO_OPTION where a `choose` had none)."""

    def __init__(self, indexes: list[int], options: list):
        self.indexes, self.options = indexes, options
        self.decided = 0  # choices replayed
        self.replayed = 0  # options replayed (choices, and chooses that had no option)

    @property
    def done(self) -> bool:
        return self.decided == len(self.indexes)

    def take(self, rt):
        """The option a `choose` of the rules took in the original, in the copy's terms (or NO_OPTION);
        None once every choice is replayed, and the runtime then stops asking."""
        if self.decided == len(self.indexes):
            rt.replaying = None
            return None
        option = self.options[self.replayed]
        self.replayed += 1
        if option is not NO_OPTION:
            option = _in_copy(option, rt.state.components)
            self.decided += 1
            rt.decided_unasked()
        rt.taken.append(option)
        return option

    def next_index(self) -> int:
        """The recorded answer to a decision the rules asked (given to `Game.choose`, which records it)."""
        self.replayed += 1
        self.decided += 1
        return self.indexes[self.decided - 1]


def _in_copy(value, components: dict[str, Component]):
    """An option of the original in the copy's terms: its components, by id, are the copy's."""
    if value is PASS:
        return PASS
    if isinstance(value, Component):
        return components[value.id]
    if isinstance(value, tuple):
        return tuple(_in_copy(v, components) for v in value)
    if isinstance(value, list):
        return [_in_copy(v, components) for v in value]
    return value
