"""A bot by name: `random`, `search[:BUDGET[:PLAYOUT]]`, or a rule-of-thumb bot of the ruleset's `bots/` folder."""
from __future__ import annotations

from interpreter.agents.agent import Agent, RandomAgent
from interpreter.agents.rule_of_thumb import Policy, PolicyAgent, bot_names, policy_path
from interpreter.agents.search import SearchAgent, is_search, parse_search
from interpreter.play.game import Game


def make_agent(name: str, ruleset, game: Game, seed: int) -> Agent:
    """The bot `name`: `random`, a search bot, or a rule-of-thumb bot of the ruleset's `bots/` folder."""
    if name == "random":
        return RandomAgent(seed)
    if is_search(name):
        return SearchAgent(game, parse_search(name, ruleset), seed)
    if name not in ruleset.policies:  # loaded once per ruleset
        path = policy_path(ruleset, name)
        if not path.exists() and not path.with_suffix("").is_dir():
            raise ValueError(f"no bot `{name}` for {ruleset.name} (no {path})")
        ruleset.policies[name] = Policy(path, ruleset)
    return PolicyAgent(ruleset.policies[name], game, seed)


def rule_of_thumb_files(name: str, ruleset) -> set[str]:
    """The rule-of-thumb bots that bot `name` plays by (to check their files before a run); a
    ValueError that says what is wrong with the name."""
    if is_search(name):
        playout = parse_search(name, ruleset).playout
        return set() if playout == "random" else {playout}
    known = bot_names(ruleset)
    if name not in known:
        raise ValueError(f"unknown bot `{name}`; bots of {ruleset.name}: {', '.join(known)}, "
                         "search[:BUDGET[:PLAYOUT]] (e.g. search:400, search:0.5s)")
    return set() if name == "random" else {name}
