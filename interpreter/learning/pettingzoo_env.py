"""Any ruleset as a PettingZoo environment (`pip install 'ludolex[agents]'`).

    from interpreter.learning.pettingzoo_env import env, parallel_env
    game = env("mygame", players=["red", "blue"])              # AEC: one agent acts at a time
    game.reset(seed=7)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        action = None if terminated or truncated else game.action_space(agent).sample(observation["action_mask"])
        game.step(action)

Each agent is a player. Its observation is `{"observation": the vector of encoding.Layout,
"action_mask": which of the Discrete(actions) slots are legal}`: both read only what that player may see.
The reward comes at the end (1 for a winner, -1 for the others, 0 in a draw: Episode.returns).
`parallel_env` gives the same game as a ParallelEnv: at each step every player with a decision acts
(several when the rules ask them at once and in secret, `simultaneously`); the others send the
no-op slot, the one their mask allows.
"""
from __future__ import annotations

import random
from typing import ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from interpreter.learning.encoding import Layout, loaded
from interpreter.learning.episode import Episode
from interpreter.play.game import seating


def _layout(game: str, players: list[str] | None) -> Layout:
    ruleset = loaded(game)
    return Layout(ruleset, seating(ruleset, players))


def _mask(layout: Layout, legal: list[int]) -> np.ndarray:
    mask = np.zeros(layout.actions, np.int8)
    mask[legal] = 1
    return mask


def _observation_space(layout: Layout, actions: int) -> spaces.Dict:
    return spaces.Dict({"observation": spaces.Box(-np.inf, np.inf, (layout.size,), np.float32),
                        "action_mask": spaces.Box(0, 1, (actions,), np.int8)})


class LudolexEnv(AECEnv):
    """One ruleset at one table, as an AEC environment: the agent selected is the player who decides."""

    metadata: ClassVar[dict] = {"name": "ludolex_v0", "render_modes": ["ansi"], "is_parallelizable": False}  # parallel_env is its own

    def __init__(self, game: str, players: list[str] | None = None, max_steps: int = 0,
                 render_mode: str | None = None):
        """`game`: a ruleset's name or folder; `players`: who sits at the table (default: the game's
        table); `max_steps`: the episode is truncated after that many actions (0: never)."""
        super().__init__()
        self.layout, self.max_steps, self.render_mode = _layout(game, players), max_steps, render_mode
        self.possible_agents = list(self.layout.players)
        self._observation_spaces = {a: _observation_space(self.layout, self.layout.actions) for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(self.layout.actions) for a in self.possible_agents}
        self._seeds = random.Random()
        self.episode: Episode | None = None

    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seeds.seed(seed)
        self.episode = Episode(self.layout, self._seeds.getrandbits(31), max_steps=self.max_steps)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.episode.player

    def observe(self, agent):
        return {"observation": self.episode.observation_tensor(agent), "action_mask": self.action_mask(agent)}

    def action_mask(self, agent) -> np.ndarray:
        return _mask(self.layout, self.episode.legal_actions() if agent == self.episode.player else [])

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.episode.apply(int(action))
        if self.episode.finished:
            ended = self.truncations if self.episode.truncated else self.terminations
            for a in self.agents:
                ended[a] = True
                self.rewards[a] = self.episode.reward(a)
        else:
            self.agent_selection = self.episode.player
        self._accumulate_rewards()

    def render(self):
        if self.render_mode == "ansi":
            return str(self.episode.game.decisions[0]) if self.episode.game.decisions else "over"
        return None

    def close(self):
        pass


def env(game: str, players: list[str] | None = None, max_steps: int = 0, render_mode=None) -> LudolexEnv:
    return LudolexEnv(game, players, max_steps, render_mode)


class LudolexParallelEnv(ParallelEnv):
    """The same game, every player with a decision acting at each step. A player without one sends
    the last slot, which their mask alone allows then (it changes nothing)."""

    metadata: ClassVar[dict] = {"name": "ludolex_parallel_v0", "render_modes": []}

    def __init__(self, game: str, players: list[str] | None = None, max_steps: int = 0):
        self.aec = LudolexEnv(game, players, max_steps)
        self.possible_agents = list(self.aec.possible_agents)
        self.layout = self.aec.layout

    def observation_space(self, agent):
        return self.aec.observation_space(agent)

    def action_space(self, agent):
        return self.aec.action_space(agent)

    def reset(self, seed=None, options=None):
        self.aec.reset(seed, options)
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict:
        episode, seen = self.aec.episode, {}
        deciding = episode.deciding()
        for agent in self.agents:
            legal = episode.legal_actions(agent) if agent in deciding else [self.layout.actions - 1]  # the no-op
            seen[agent] = {"observation": episode.observation_tensor(agent), "action_mask": _mask(self.layout, legal)}
        return seen

    def step(self, actions: dict):
        episode = self.aec.episode
        for player in episode.deciding():  # each answers the decision they were shown
            if not episode.finished and player in episode.deciding():
                episode.apply(int(actions[player]), player)
        over = episode.finished
        rewards = {a: episode.reward(a) if over else 0.0 for a in self.agents}
        terminations = {a: over and not episode.truncated for a in self.agents}
        truncations = {a: episode.truncated for a in self.agents}
        observations = self._observations()
        infos = {a: {} for a in self.agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos


def parallel_env(game: str, players: list[str] | None = None, max_steps: int = 0) -> LudolexParallelEnv:
    return LudolexParallelEnv(game, players, max_steps)
