"""A decision: who decides, what is decided, and the complete list of legal options."""
from __future__ import annotations

from typing import Callable

from interpreter.engine.state import Component

PASS = ("pass",)
DECIDER = object()  # labels as the deciding player sees them
EVERYTHING = object()  # labels with every identity, for the engine and its tests


def render_value(value) -> str:
    if isinstance(value, Component):
        return value.id
    if value is None:
        return "none"
    return str(value)


class Simultaneous:
    """Decisions several players make at once and in secret (`simultaneously for each`): answered in
    any order, none applied (nor seen by the others) until every one is answered."""

    __slots__ = ("parts",)

    def __init__(self, parts: list[Decision]):
        self.parts = parts


class Decision:
    """A choice a rule leaves to a player: `Game.decision` while the game waits for its answer.

    `name` is the decision's name in the rules (`place`, `craft`...), `player` who decides, and
    `options` the complete list of legal options: a list of tuples, one value per variable the
    rule binds (a kind, a location...), or `PASS` when passing is allowed. `labels()` gives each
    option as text, e.g. "stone c2", as the decider sees it: a component they cannot tell apart
    shows only its back, numbered in the order the options name them ("plot#1").
    """

    __slots__ = ("name", "player", "variables", "options", "hidden_as")

    def __init__(self, name: str, player: str, variables: tuple[str, ...], options: list[tuple],
                 hidden_as: Callable[[str | None, Component], str | None] | None = None):
        self.name = name
        self.player = player
        self.variables = variables
        self.options = options
        self.hidden_as = hidden_as  # (viewer, component) -> its back if the viewer cannot tell which it is

    def _renderer(self, viewer: str | None | object) -> Callable[[object], str]:
        viewer = self.player if viewer is DECIDER else viewer
        if self.hidden_as is None or viewer is EVERYTHING:
            return render_value
        numbers: dict[str, int] = {}

        def render(value) -> str:
            back = self.hidden_as(viewer, value) if isinstance(value, Component) else None
            if back is None:
                return render_value(value)
            number = numbers.setdefault(value.id, len(numbers) + 1)
            return f"{back}#{number}"

        return render

    def labels(self, viewer: str | None | object = DECIDER) -> list[str]:
        """Each option as text, as `viewer` sees it (None: a spectator; EVERYTHING: every identity)."""
        render = self._renderer(viewer)
        return ["pass" if option is PASS else " ".join(render(v) for v in option) for option in self.options]

    def label(self, index: int, viewer: str | None | object = DECIDER) -> str:
        return self.labels(viewer)[index]

    def as_dict(self, index: int, viewer: str | None | object = DECIDER) -> dict:
        option = self.options[index]
        if option is PASS:
            return {"pass": True}
        render = self._renderer(viewer)
        return {name: render(v) for name, v in zip(self.variables, option)}

    def index_of(self, choice) -> int:
        """The index of an option given as an index, a label ("stone c2") or a dict of values."""
        if isinstance(choice, int):
            if not 0 <= choice < len(self.options):
                raise ValueError(f"option {choice} out of range 0..{len(self.options) - 1}")
            return choice
        labels = self.labels()
        if isinstance(choice, dict):
            labels = [self.as_dict(i) for i in range(len(self.options))]
        if choice in labels:
            return labels.index(choice)
        raise ValueError(f"{choice!r} is not a legal option of `{self.name}`; options: {', '.join(self.labels())}")

    def __repr__(self) -> str:
        return f"Decision({self.name} by {self.player}: {', '.join(self.labels())})"

