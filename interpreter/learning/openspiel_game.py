"""Any ruleset as an OpenSpiel game (`pyspiel`'s Python game API, `pip install 'ludolex[agents]'`).

    import pyspiel
    import interpreter.learning.openspiel_game  # registers `ludolex`
    game = pyspiel.load_game("ludolex", {"game": "mygame", "players": "red+blue", "seed": 7})

Chance is one explicit node, the first: it deals the game, drawing its seed among `DEALS` (from
`seed * DEALS`); the rules' dice and shuffles then come from that seed's generator, as in every
ludolex game. So a state is its actions, the first one the deal, and OpenSpiel's own serialisation
(the history, replayed) rebuilds it. No player observes the deal. Actions, observations and returns
follow `encoding.Layout` and `episode.Episode`.
"""
from __future__ import annotations

import random

import numpy as np
import pyspiel

from interpreter.learning.encoding import Layout, loaded
from interpreter.learning.episode import Episode
from interpreter.play.game import seating
from interpreter.safety.limits import LIMITS

GAME_TYPE = pyspiel.GameType(
    short_name="ludolex",
    long_name="A game whose rules are data, run by ludolex",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,  # a secret answer of a group is seen by the others with the group's last
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=64,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"game": "", "players": "", "seed": 0, "max_steps": 0},
    default_loadable=False,  # which game it plays is a parameter with no default
)

DEALS = 2**16  # the seeds the chance node draws from


class LudolexGame(pyspiel.Game):
    """One ruleset at one table: `game` (a name or a folder), `players` (joined by `+`: `red+blue`; "" for the
    game's own table), `seed` (which `DEALS` seeds the chance node draws from), `max_steps` (an
    episode stops after that many actions, every return 0; 0: it plays to the end)."""

    def __init__(self, params=None):
        params = {**GAME_TYPE.parameter_specification, **(params or {})}
        if not params["game"]:
            raise ValueError('name the game to play: pyspiel.load_game("ludolex", {"game": "NAME or folder"})')
        ruleset = loaded(str(params["game"]))
        players = seating(ruleset, [p for p in str(params["players"]).split("+") if p] or None)
        self.layout = Layout(ruleset, players)
        info = pyspiel.GameInfo(num_distinct_actions=self.layout.actions, max_chance_outcomes=DEALS,
                                num_players=len(players), min_utility=-1.0, max_utility=1.0,
                                max_game_length=int(params["max_steps"]) or LIMITS.decisions_per_game)
        super().__init__(GAME_TYPE, info, params)
        self.first_seed, self.max_steps = int(params["seed"]) * DEALS, int(params["max_steps"])
        self._observers: dict[bool, LudolexObserver] = {}

    def new_initial_state(self):
        return LudolexState(self, None)

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        if perfect_recall not in self._observers:  # the state's `observation_tensor` asks for one at every call
            self._observers[perfect_recall] = LudolexObserver(self.layout, perfect_recall)
        return self._observers[perfect_recall]


class LudolexState(pyspiel.State):
    """Before the deal, a chance node; then the episode."""

    def __init__(self, game: LudolexGame, episode: Episode | None):
        super().__init__(game)
        self.episode = episode
        self._players = game.layout.players

    def current_player(self):
        if self.episode is None:
            return pyspiel.PlayerId.CHANCE
        player = self.episode.player
        return pyspiel.PlayerId.TERMINAL if player is None else self._players.index(player)

    def chance_outcomes(self):
        return [(deal, 1.0 / DEALS) for deal in range(DEALS)]

    def _legal_actions(self, player):
        return self.episode.legal_actions() if player == self.current_player() else []

    def _apply_action(self, action):
        if self.episode is None:
            game = self.get_game()
            self.episode = Episode(game.layout, game.first_seed + action, max_steps=game.max_steps)
        else:
            self.episode.apply(action)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        if player == self.current_player() and action in self.episode.legal_actions():
            return self.episode.label(action)
        return f"slot {action}"

    def is_terminal(self):
        return self.episode is not None and self.episode.finished

    def returns(self):
        return [0.0] * len(self._players) if self.episode is None else self.episode.returns()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state the player cannot tell from this one (ISMCTS): see Episode.resampled."""
        seed = int(probability_sampler() * 2**31)
        return LudolexState(self.get_game(), self.episode.resampled(self._players[player_id], random.Random(seed)))

    def __str__(self):
        if self.episode is None:
            return "before the deal"
        game = self.episode.game
        if game.finished:
            return f"turn {game.state.turns}: {game.result.reason}"
        decision = game.decisions[0]
        return f"turn {game.state.turns}: {decision.player} decides {decision.name} ({len(decision.options)} options)"


class LudolexObserver:
    """OpenSpiel's observer: the tensor of `Layout.observe`, its blocks by name in `dict`; the string is
    the observation, or with perfect recall the information state (everything the player has seen)."""

    def __init__(self, layout: Layout, perfect_recall: bool):
        self.layout, self.perfect_recall = layout, perfect_recall
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {name: self.tensor[part] for name, part in layout.blocks.items()}

    def set_from(self, state: LudolexState, player: int):
        if state.episode is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = state.episode.observation_tensor(self.layout.players[player])

    def string_from(self, state: LudolexState, player: int):
        name = self.layout.players[player]
        if state.episode is None:
            return "before the deal"
        if self.perfect_recall:
            return state.episode.information_state_string(name)
        return state.episode.observation_string(name)


pyspiel.register_game(GAME_TYPE, LudolexGame)
