"""A decision: who decides, what is decided, and the complete list of legal options."""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Callable

from interpreter.engine.state import Component

PASS = ("pass",)
NO_OPTION = ("no option",)  # recorded where a `choose` had no option (its `otherwise` ran), for copies to replay
DECIDER = object()  # labels as the deciding player sees them
EVERYTHING = object()  # labels with every identity, for the engine and its tests
LONGEST_RANGE = 10**9  # the most numbers a `choose n in numbers(a, b)` may offer (it makes no list of them)
_NUMBER = re.compile(r"-?[0-9]{1,20}")  # the label of a number chosen from a range


def render_value(value) -> str:
    if isinstance(value, Component):
        return value.id
    if value is None:
        return "none"
    if isinstance(value, list):  # a set of cards chosen at once: `[sword-1, flail-2]`, `[]`
        return "[" + ", ".join(render_value(v) for v in value) + "]"
    return str(value)


class NumberRange(Sequence):
    """The options of `choose n in numbers(LOW, HIGH) as NAME [or pass]`: the one-value options
    `(LOW,)`, `(LOW + 1,)` ... `(HIGH,)`, then `PASS` if passing is allowed, made on demand: a
    choice among a million numbers holds two numbers, not a million options."""

    __slots__ = ("low", "high", "passing")

    def __init__(self, low: int, high: int, passing: bool = False):
        self.low, self.high, self.passing = low, high, passing

    def with_pass(self) -> NumberRange:
        return NumberRange(self.low, self.high, True)

    def __len__(self) -> int:
        return max(0, self.high - self.low + 1) + self.passing

    def __getitem__(self, index: int):
        size = len(self)
        if index < 0:  # from the end, as a list: `options[-1]` is `pass` if passing is allowed
            index += size
        if not 0 <= index < size:
            raise IndexError(f"option {index} out of range 0..{size - 1}")
        return PASS if self.passing and index == size - 1 else (self.low + index,)

    def index_of_number(self, number: int) -> int | None:
        return number - self.low if self.low <= number <= self.high else None

    def __repr__(self) -> str:
        return f"NumberRange({self.low}, {self.high}{', or pass' if self.passing else ''})"


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
    shows as its handle, its back and where it lies ("chip@a1", "card@hand(red)#2": see
    knowledge.handle), which says nothing of which one it is; a list (a set of cards chosen at
    once) shows as `[sword-1, flail-2]`.

    A number chosen from a range (`choose n in numbers(0, 999) as bid`) has a `NumberRange` for
    `options`, a sequence made on demand; `number_range` then gives its (low, high). A decision
    the group makes (`by any of PLAYERS`) lists them in `group`, any of whom may answer; `player`
    is the first of them, whom bots and simulations ask. For any other decision `group` is ().
    `origin` is what `Game.why_not` reads to explain an option that is not offered.
    """

    __slots__ = ("name", "player", "variables", "options", "handle_of", "group", "origin")

    def __init__(self, name: str, player: str, variables: tuple[str, ...], options: Sequence[tuple],
                 handle_of: Callable[[str | None, Component, dict], str | None] | None = None, group: tuple[str, ...] = (),
                 origin: tuple | None = None):
        self.name = name
        self.player = player
        self.variables = variables
        self.options = options
        self.handle_of = handle_of  # (viewer, component, memo) -> its handle if the viewer cannot tell which it is
        self.group = tuple(group)  # the players any of whom may answer (`by any of`), the first being `player`
        self.origin = origin  # (the rule that asks it, the values of the names in view): to explain a refusal

    @property
    def number_range(self) -> tuple[int, int] | None:
        """(low, high) for a number chosen from a range (`numbers(low, high)`, without `where`), else None."""
        options = self.options
        return (options.low, options.high) if isinstance(options, NumberRange) else None

    def may_answer(self, player: str | None) -> bool:
        """Whether `player` may answer: the one who decides, or any player of the group."""
        return player == self.player or player in self.group

    def _renderer(self, viewer: str | None | object) -> Callable[[object], str]:
        viewer = self.player if viewer is DECIDER else viewer
        if self.handle_of is None or viewer is EVERYTHING:
            return render_value
        memo: dict = {}  # the handles of the components of a zone, worked out once for all the options

        def render(value) -> str:
            if isinstance(value, list):
                return "[" + ", ".join(render(v) for v in value) + "]"
            handle = self.handle_of(viewer, value, memo) if isinstance(value, Component) else None
            return render_value(value) if handle is None else handle

        return render

    def labels(self, viewer: str | None | object = DECIDER) -> list[str]:
        """Each option as text, as `viewer` sees it (None: a spectator; EVERYTHING: every identity)."""
        render = self._renderer(viewer)
        return ["pass" if option is PASS else " ".join(render(v) for v in option) for option in self.options]

    def label(self, index: int, viewer: str | None | object = DECIDER) -> str:
        render = self._renderer(viewer)
        option = self.options[index]
        return "pass" if option is PASS else " ".join(render(v) for v in option)

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
        if isinstance(self.options, NumberRange):
            return self._index_in_range(choice)
        labels = self.labels()
        if isinstance(choice, dict):
            labels = [self.as_dict(i) for i in range(len(self.options))]
        if choice in labels:
            return labels.index(choice)
        by_kind = self._by_kind(choice) if isinstance(choice, str) else []
        if len(by_kind) == 1:
            return by_kind[0]
        raise ValueError(f"{choice!r} is not a legal option of `{self.name}`; options: {self._described()}")

    def _by_kind(self, choice: str) -> list[int]:
        """The options a label names with a component's kind in place of its id (`stone` for
        `red-stone-1`), where the decider knows that component: a handle is never matched by kind."""
        words, found, memo = choice.split(" "), [], {}
        for index, option in enumerate(self.options):
            if option is PASS or len(option) != len(words):
                continue
            if all(word == render_value(value) or (isinstance(value, Component) and word == value.kind
                                                  and (self.handle_of is None
                                                       or self.handle_of(self.player, value, memo) is None))
                   for word, value in zip(words, option)):
                found.append(index)
        return found

    def _index_in_range(self, choice) -> int:
        """A number chosen from a range, given as its label ("316"), "pass" or a dict of values:
        read, not looked up among every label."""
        options, text = self.options, choice
        if isinstance(choice, dict):
            text = "pass" if choice == {"pass": True} else choice.get(self.variables[0]) if len(choice) == 1 else None
        if text == "pass" and options.passing:
            return len(options) - 1
        index = None
        if isinstance(text, str) and _NUMBER.fullmatch(text) and str(int(text)) == text:
            index = options.index_of_number(int(text))  # a label as the decision writes it: "316", "-2"
        if index is None:
            raise ValueError(f"{choice!r} is not a legal option of `{self.name}`; options: {self._described()}")
        return index

    def _described(self) -> str:
        if isinstance(self.options, NumberRange):
            low, high = self.number_range
            return f"a number from {low} to {high}" + (", or pass" if self.options.passing else "")
        return ", ".join(self.labels())

    def __repr__(self) -> str:
        return f"Decision({self.name} by {self.player}: {self._described()})"

