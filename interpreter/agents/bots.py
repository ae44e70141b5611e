"""A bot by name: `random`, or a rule-of-thumb bot of the ruleset's `bots/` folder."""
from __future__ import annotations

from interpreter.agents.agent import Agent, RandomAgent
from interpreter.agents.rule_of_thumb import Policy, PolicyAgent, policy_path
from interpreter.play.game import Game


def make_agent(name: str, ruleset, game: Game, seed: int) -> Agent:
    """The bot `name`: `random`, or a rule-of-thumb bot of the ruleset's `bots/` folder."""
    if name == "random":
        return RandomAgent(seed)
    if name not in ruleset.policies:  # loaded once per ruleset
        path = policy_path(ruleset, name)
        if not path.exists():
            raise ValueError(f"no bot `{name}` for {ruleset.name} (no {path})")
        ruleset.policies[name] = Policy(path, ruleset)
    return PolicyAgent(ruleset.policies[name], game, seed)
