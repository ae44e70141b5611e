"""Who answers decisions: bots and humans. An agent only sees the decision it is asked."""
from __future__ import annotations

import random
from typing import Callable, Protocol

from interpreter.engine.decisions import Decision
from interpreter.play.game import Game


class Agent(Protocol):
    def choose(self, decision: Decision) -> int: ...


class RandomAgent:
    """Picks uniformly among the legal options, from its own seeded RNG."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, decision: Decision) -> int:
        return self.rng.randrange(len(decision.options))


class PromptAgent:
    """A person at the terminal: shows the options, reads a number or a label. A number chosen from
    a range is asked as "a number from LOW to HIGH", without listing them."""

    def __init__(self, ask: Callable[[str], str] = input, say: Callable[[str], None] = print):
        self.ask, self.say = ask, say

    def choose(self, decision: Decision) -> int:
        who = f"{' or '.join(decision.group)} (any of you)" if len(decision.group) > 1 else decision.player
        if decision.number_range is not None:
            return self._number(decision, who, *decision.number_range)
        labels = decision.labels()
        self.say(f"{who}, {decision.name}:")
        self.say("  " + "   ".join(f"[{i}] {label}" for i, label in enumerate(labels)))
        while True:
            answer = self.ask(f"{decision.player} > ").strip()
            if answer.isdigit() and int(answer) < len(labels):
                return int(answer)
            if answer in labels:
                return labels.index(answer)
            self.say(f"  not an option: type a number 0-{len(labels) - 1} or a label such as `{labels[0]}`")

    def _number(self, decision: Decision, who: str, low: int, high: int) -> int:
        passing = len(decision.options) > high - low + 1
        wanted = f"a number from {low} to {high}" + (", or pass" if passing else "")
        self.say(f"{who}, {decision.name}: {wanted}")
        while True:
            answer = self.ask(f"{decision.player} > ").strip()
            try:
                return decision.index_of(answer)
            except ValueError:
                self.say(f"  not an option: type {wanted}")


def play(game: Game, agents: dict[str, Agent], on_choice: Callable[[Decision, int], None] | None = None) -> Game:
    """Drive `game` to its end, asking each decision of the agent of the player who decides."""
    while not game.finished:
        decision = game.decision
        index = agents[decision.player].choose(decision)
        if on_choice:
            on_choice(decision, index)
        game.choose(index)
    return game
