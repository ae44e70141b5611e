"""A game as learning agents play it: an action is a slot of the pending decision (encoding.Layout),
and each player keeps the log of what they saw happen, for their information state."""
from __future__ import annotations

import json
import random

from interpreter.diagnostics.errors import RuleRuntimeError
from interpreter.engine.decisions import Decision
from interpreter.engine.runtime import Result
from interpreter.learning.encoding import Layout
from interpreter.play.determinization import determinize
from interpreter.play.game import Game
from interpreter.play.visibility import observation


class Episode:
    """One game, played action by action. Its seed and `actions` (the slots played, page turns
    included) are the whole episode: `replay` rebuilds it. A world a player imagines (`resampled`)
    is rebuilt from the episode it was drawn from, the seed of the draw and the actions since."""

    def __init__(self, layout: Layout, seed: int | None, game: Game | None = None, max_steps: int = 0,
                 origin: tuple | None = None):
        """`max_steps`: the episode stops (truncated, 0 for everyone) after that many actions (0: never).
        `origin`, of a world drawn by `resampled`: (the recipe of the episode drawn from, the player
        imagining it, the draw's seed, the actions then)."""
        self.layout, self.seed, self.max_steps, self.origin = layout, seed, max_steps, origin
        self.game = game or Game(layout.ruleset, seed, players=layout.players, options=layout.options)
        self.pages: dict[str, int] = {}  # the page each player deciding is shown, where not the first
        self.actions: list[int] = []
        self.acting: list[str] = []  # who played each action
        self.seen: dict[str, list[list[str]]] = {p: [] for p in layout.players}  # [player, decision, label as read]
        self.failed: str | None = None  # why the rules stopped in a world a player imagined: it ends there, 0 for all
        self._offered: dict[str, tuple] = {}  # player -> (their decision, the page, the option of each slot)

    @classmethod
    def replay(cls, layout: Layout, seed: int, actions: list[int], acting: list[str], max_steps: int = 0) -> Episode:
        episode = cls(layout, seed, max_steps=max_steps)
        for action, player in zip(actions, acting):
            episode.apply(action, player)
        return episode

    def recipe(self) -> tuple:
        """What `rebuilt` makes this episode again from."""
        return self.seed, list(self.actions), list(self.acting), self.origin

    @classmethod
    def rebuilt(cls, layout: Layout, recipe: tuple, max_steps: int = 0) -> Episode:
        seed, actions, acting, origin = recipe
        if origin is None:
            return cls.replay(layout, seed, actions, acting, max_steps)
        drawn_from, player, draw, at = origin
        world = cls.rebuilt(layout, drawn_from, max_steps)._world(player, draw)
        for action, who in zip(actions[at:], acting[at:]):
            world.apply(action, who)
        return world

    def copy(self) -> Episode:
        """The same episode, replayed (the game's generators cannot be copied: a game is its seed and choices)."""
        if self.origin is not None:
            return Episode.rebuilt(self.layout, self.recipe(), self.max_steps)
        twin = Episode(self.layout, self.seed, self.game.clone(), self.max_steps)
        self._copy_into(twin)
        return twin

    def _copy_into(self, twin: Episode) -> None:
        twin.pages, twin.actions, twin.acting = dict(self.pages), list(self.actions), list(self.acting)
        twin.seen = {p: [list(entry) for entry in entries] for p, entries in self.seen.items()}

    def __deepcopy__(self, memo) -> Episode:  # OpenSpiel's `clone` deep-copies a state's attributes
        return self.copy()

    def __reduce__(self):  # pickled (OpenSpiel's serialisation) as its recipe
        return Episode.rebuilt, (self.layout, self.recipe(), self.max_steps)

    def resampled(self, player: str, rng: random.Random) -> Episode:
        """A copy that `player` cannot tell from this one, everything hidden from them dealt again
        (play/determinization.py), drawn with `rng`."""
        return self._world(player, rng.getrandbits(64))

    def _world(self, player: str, draw: int) -> Episode:
        world = Episode(self.layout, None, determinize(self.game, player, random.Random(draw)), self.max_steps,
                        origin=(self.recipe(), player, draw, len(self.actions)))
        self._copy_into(world)
        return world

    # ---- whose turn, what they may do
    @property
    def finished(self) -> bool:
        return self.game.finished or not self.game.decisions or self.truncated or self.failed is not None

    @property
    def truncated(self) -> bool:
        """Stopped at `max_steps`, the game not over."""
        return bool(self.max_steps) and len(self.actions) >= self.max_steps and not self.game.finished

    @property
    def player(self) -> str | None:
        """Who acts now: the first of those deciding (several decide at once and in secret, each in turn)."""
        return None if self.finished else self.game.decisions[0].player

    def decision_of(self, player: str | None = None) -> Decision:
        """The decision `player` is asked (default: the one who acts now)."""
        if player is None or player == self.player:
            return self.game.decisions[0]
        return next(d for d in self.game.decisions if d.player == player)

    def _slots(self, decision: Decision) -> list[int | None]:
        """The option each slot offers the decider, now (Layout.offered), worked out once per page."""
        page = self.pages.get(decision.player, 0)
        known = self._offered.get(decision.player)
        if known is None or known[0] is not decision or known[1] != page:
            known = self._offered[decision.player] = (decision, page, self.layout.offered(decision, page))
        return known[2]

    def paging(self, player: str | None = None) -> tuple[int, int]:
        """(the page shown, how many) of the decision `player` is asked."""
        if self.finished:
            return 0, 1
        decision = self.decision_of(player)
        return self.pages.get(decision.player, 0), self.layout.pages(decision)

    def deciding(self) -> list[str]:
        """The players asked a decision now: one, or each of a group deciding at once and in secret."""
        return [] if self.finished else [d.player for d in self.game.decisions]

    def legal_actions(self, player: str | None = None) -> list[int]:
        """The slots `player` may play (default: the one who acts now)."""
        if self.finished or (player is not None and player not in self.deciding()):
            return []
        slots = [slot for slot, index in enumerate(self._slots(self.decision_of(player))) if index is not None]
        return slots + [self.layout.actions - 1] if self.paging(player)[1] > 1 else slots

    def label(self, action: int, player: str | None = None) -> str:
        """What an action does, as the player acting reads it."""
        decision = self.decision_of(player)
        if self.paging(player)[1] > 1 and action == self.layout.actions - 1:
            return f"{decision.name}: next page"
        return f"{decision.name}: {decision.label(self._slots(decision)[action])}"

    def apply(self, action: int, player: str | None = None) -> None:
        """Play `action` for `player` (default: the one who acts now; another of a group deciding at
        once may answer in any order)."""
        legal = self.legal_actions(player)
        if action not in legal:
            raise ValueError(f"action {action} is not legal here (legal: {legal})")
        decision = self.decision_of(player)
        self.actions.append(action)
        self.acting.append(decision.player)
        page, pages = self.paging(player)
        if pages > 1 and action == self.layout.actions - 1:
            self.pages[decision.player] = (page + 1) % pages
            return
        game = self.game
        index, grouped, before = self._slots(decision)[action], game.at_once, len(game.log)
        try:
            game.choose(index, by=decision.player if grouped else None)
        except RuleRuntimeError as error:
            if self.origin is None:  # the real game: its error is the rules'
                raise
            self.failed = str(error)  # an imagined deal the rules cannot go on from (the search bot's failed playout)
            return
        self.pages.pop(decision.player, None)
        if len(game.log) > before:  # a secret answer of a group is seen with the group's last
            for answered, option in (game.last_group if grouped else [(decision, index)]):
                for viewer, entries in self.seen.items():
                    entries.append([answered.player, answered.name, answered.label(option, viewer)])

    # ---- what a player may know
    def _observation(self, player: str) -> dict:
        seen = observation(self.game, player)
        if player in self.deciding():
            seen["page"] = list(self.paging(player))
        return seen

    def observation_string(self, player: str) -> str:
        """What `player` sees now (play/visibility.py), and the page of their decision, as JSON."""
        return json.dumps(self._observation(player), sort_keys=True, default=str)

    def information_state_string(self, player: str) -> str:
        """Everything `player` has seen: what happened, as they read it, and what they see now."""
        return json.dumps({"seen": self.seen[player], "now": self._observation(player)}, sort_keys=True, default=str)

    def observation_tensor(self, player: str):
        if player not in self.deciding():
            return self.layout.observe(self.game, player)
        return self.layout.observe(self.game, player, (*self.paging(player), self._slots(self.decision_of(player))))

    def returns(self) -> list[float]:
        """Once the game is over, 1 for each winner and -1 for each other player (-1 for everyone in a
        game everybody lost), 0 for everyone in a draw; 0 while it goes on, and in a truncated episode
        or an imagined world the rules could not go on from."""
        return [self.reward(p) for p in self.layout.players]

    def reward(self, player: str) -> float:
        result: Result | None = self.game.result
        if result is None or result.reason == "draw":
            return 0.0
        return 1.0 if player in result.winners else -1.0
