"""A decision: who decides, what is decided, and the complete list of legal options."""
from __future__ import annotations

from interpreter.engine.state import Component

PASS = ("pass",)


def render_value(value) -> str:
    if isinstance(value, Component):
        return value.id
    if value is None:
        return "none"
    return str(value)


class Decision:
    """A choice a rule leaves to a player: `Game.decision` while the game waits for its answer.

    `name` is the decision's name in the rules (`place`, `craft`...), `player` who decides, and
    `options` the complete list of legal options: a list of tuples, one value per variable the rule binds (a kind, a location...),
    or `PASS` when passing is allowed. `labels()` gives each option as text, e.g. "stone c2".
    """

    __slots__ = ("name", "player", "variables", "options")

    def __init__(self, name: str, player: str, variables: tuple[str, ...], options: list[tuple]):
        self.name = name
        self.player = player
        self.variables = variables
        self.options = options

    def label(self, index: int) -> str:
        option = self.options[index]
        if option is PASS:
            return "pass"
        return " ".join(render_value(v) for v in option)

    def labels(self) -> list[str]:
        return [self.label(i) for i in range(len(self.options))]

    def as_dict(self, index: int) -> dict:
        option = self.options[index]
        if option is PASS:
            return {"pass": True}
        return {name: render_value(v) for name, v in zip(self.variables, option)}

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
