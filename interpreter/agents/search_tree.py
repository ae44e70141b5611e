"""The tree of the search bot: at each node, a bandit per player deciding there (UCB1), and the
node reached by each joint answer.

A node is reached by the answers given since the root, whatever the world imagined: so an option
that exists in some worlds only (a card the opponent may or may not hold) is an arm counted as
available only in the visits where it was offered (UCB1 over the available arms, as in ISMCTS).
Players who decide at once, in secret, each pick from their own bandit without seeing the
others' picks (decoupled UCT); the child is the node of their joint answer.

Where a rule-of-thumb bot guides the search, what it thinks each option worth is a prior (a
softmax of its values), and a player picks by PUCT instead (as AlphaZero does, with a bot's
judgement for a network): the mean reward, plus a bonus that follows the prior and fades as the
option is tried. Untried options start at the mean reward of those tried.
"""
from __future__ import annotations

import math
import random

EXPLORATION = 0.7  # UCB1's constant for rewards between 0 and 1 (about 1/sqrt(2))
PRIOR_WEIGHT = 1.0  # PUCT's constant: how long a prior keeps the search on an option


class Arm:
    """One option of one player at one node, by its label: how often tried, offered, and its total reward."""

    __slots__ = ("visits", "reward", "available")

    def __init__(self):
        self.visits, self.reward, self.available = 0, 0.0, 0

    def mean(self) -> float:
        return self.reward / self.visits if self.visits else 0.0

    def ucb(self) -> float:
        return self.mean() + EXPLORATION * math.sqrt(math.log(self.available) / self.visits)


def priors_of(values: list[float]) -> list[float]:
    """A bot's values of some options as probabilities (a softmax): the better, the likelier."""
    best = max(values)
    weights = [math.exp(value - best) for value in values]
    total = sum(weights)
    return [weight / total for weight in weights]


class Node:
    __slots__ = ("arms", "children", "priors")

    def __init__(self):
        self.arms: dict[str, dict[str, Arm]] = {}  # player -> option label -> arm
        self.children: dict[tuple, Node] = {}  # ((player, label), ...) -> the node after these answers
        self.priors: dict[str, dict[str, float]] = {}  # player -> option label -> prior, where a bot guides

    def select(self, player: str, labels: list[str], rng: random.Random) -> int:
        """The option `player` tries here: by PUCT where the node has priors for the player; else one
        never tried yet, or the best by UCB1 (ties at random)."""
        arms = self.arms.setdefault(player, {})
        untried, offered = [], {}
        for index, label in enumerate(labels):
            if label in offered:  # two options that read the same are one arm
                continue
            arm = arms.get(label)
            if arm is None:
                arm = arms[label] = Arm()
            arm.available += 1
            offered[label] = index
            if not arm.visits:
                untried.append(index)
        priors = self.priors.get(player)
        if priors is not None:
            values = self._puct(arms, offered, priors)
        elif untried:
            return rng.choice(untried)
        else:
            values = {label: arms[label].ucb() for label in offered}
        best = max(values.values())  # ties at random: players who decide at once must not explore in step
        return offered[rng.choice([label for label, value in values.items() if value == best])]

    @staticmethod
    def _puct(arms: dict, offered: dict, priors: dict) -> dict[str, float]:
        visits = sum(arms[label].visits for label in offered)
        tried = [arms[label] for label in offered if arms[label].visits]
        untried = sum(arm.reward for arm in tried) / sum(arm.visits for arm in tried) if tried else 0.5
        bonus = PRIOR_WEIGHT * math.sqrt(visits + 1)
        return {label: (arms[label].mean() if arms[label].visits else untried)
                + bonus * priors.get(label, 0.0) / (1 + arms[label].visits) for label in offered}

    def update(self, player: str, label: str, reward: float) -> None:
        arm = self.arms[player][label]
        arm.visits += 1
        arm.reward += reward

    def most_tried(self, player: str) -> str | None:
        """The label of the option `player` tried most here (the better mean among equals), or None."""
        arms = self.arms.get(player, {})
        tried = [label for label, arm in arms.items() if arm.visits]
        return max(tried, key=lambda label: (arms[label].visits, arms[label].mean()), default=None)
