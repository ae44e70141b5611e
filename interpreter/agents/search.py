"""The search bot (`--bots search:400`): information-set Monte Carlo tree search, for any game.

At each of its decisions the bot builds a tree from its own point of view. Each iteration
imagines a world it cannot tell from the real game (`play/determinization.py`: what it does not
see is dealt again), walks down the tree choosing every player's answers by UCB1
(`search_tree.py`), adds one node, plays the rest of the game with a cheap policy (random, or a
rule-of-thumb bot of the game), and credits every answer on the way with the result for the player
who gave it. It then takes the option it tried most at the root.

    search             200 iterations per decision, random playouts
    search:400         400 iterations per decision
    search:0.5s        as many iterations as half a second allows (results then depend on the machine)
    search:400:greedy  playouts by the game's rule-of-thumb bot `greedy` (rulesets/<game>/bots/greedy.yaml)
"""
from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass

from interpreter.agents.rule_of_thumb import Policy, PolicyAgent, bot_names, policy_path
from interpreter.agents.search_tree import Node, priors_of
from interpreter.backends.errors import NotCompiled
from interpreter.backends.native import native_rules
from interpreter.diagnostics.errors import RuleRuntimeError
from interpreter.engine.decisions import PASS, Decision
from interpreter.play.determinization import determinize
from interpreter.play.game import Game

NAME = "search"
DEFAULT_ITERATIONS = 200
WIDEST = 64  # arms of one node for a number chosen from a wider range: see `_offered`
PLAYOUT_DECISIONS = 20_000  # a playout stopped here is scored as if the game ended (leaders by the game's score)
_BUDGET = re.compile(r"(?:(\d+)|(\d+(?:\.\d+)?|\.\d+)s)")


@dataclass(frozen=True)
class SearchSpec:
    iterations: int | None = DEFAULT_ITERATIONS  # per decision; None: seconds instead
    seconds: float | None = None
    playout: str = "random"  # or a rule-of-thumb bot of the game


def is_search(name: str) -> bool:
    return name == NAME or name.startswith(NAME + ":")


def parse_search(name: str, ruleset) -> SearchSpec:
    """`search[:BUDGET][:PLAYOUT]`; a ValueError that says what is wrong and how to write it."""
    parts = name.split(":")
    if parts[0] != NAME or len(parts) > 3:
        raise ValueError(f"`{name}`: write search, search:ITERATIONS, search:SECONDSs or search:BUDGET:PLAYOUT_BOT "
                         "(for example search:400, search:0.5s, search:200:rule_of_thumb)")
    spec = SearchSpec()
    if len(parts) > 1:
        budget = _BUDGET.fullmatch(parts[1].strip())
        if budget is None or float(budget.group(1) or budget.group(2)) <= 0:
            raise ValueError(f"`{name}`: the budget is a number of iterations per decision (search:400) or of "
                             f"seconds per decision (search:0.5s), more than 0; not `{parts[1]}`")
        spec = SearchSpec(int(budget.group(1)), None) if budget.group(1) else SearchSpec(None, float(budget.group(2)))
    if len(parts) > 2:
        playout = parts[2].strip()
        known = bot_names(ruleset)
        if playout not in known:
            raise ValueError(f"`{name}`: no playout bot `{playout}` for {ruleset.name} (bots: {', '.join(known)})")
        spec = SearchSpec(spec.iterations, spec.seconds, playout)
    return spec


def _nothing_hidden(program) -> bool:
    """Does every player see everything (no zone, variable or face hidden from anyone)?"""
    return (all(visibility == "public" for _, visibility in program.zones.values()) and not program.backs
            and not program.private_variables and not program.face_down_zones and not program.shown)


def _offered(decision: Decision, node: Node, rng: random.Random) -> tuple[list[int], list[str]]:
    """The options tried at `node` (their indexes and labels): every one, except for a number
    chosen from a wide range, where the node keeps at most WIDEST arms, numbers drawn at random
    as it is visited (and `pass`), so that a choice among a million numbers makes no million labels."""
    options = decision.options
    if decision.number_range is None or len(options) <= WIDEST:
        labels = decision.labels()
        return list(range(len(labels))), labels
    indices = []
    for label in node.arms.get(decision.player, {}):
        try:
            indices.append(decision.index_of(label))
        except ValueError:  # a number this world does not offer
            continue
    if len(indices) < WIDEST:
        indices.append(rng.randrange(len(options)))
        if options[-1] is PASS and len(options) - 1 not in indices:
            indices.append(len(options) - 1)
    indices = list(dict.fromkeys(indices))
    return indices, [decision.label(i) for i in indices]


class SearchAgent:
    """Decides by information-set Monte Carlo tree search from its own observation of `game`."""

    def __init__(self, game: Game, spec: SearchSpec, seed: int):
        self.game, self.spec, self.rng = game, spec, random.Random(seed)
        ruleset = game.ruleset
        if spec.playout != "random" and spec.playout not in ruleset.policies:
            ruleset.policies[spec.playout] = Policy(policy_path(ruleset, spec.playout), ruleset)
        self.policy = ruleset.policies.get(spec.playout)
        program, score = ruleset.program, ruleset.manifest.score
        self.score = program.function_from_outside(score) if score in program.functions else None
        self.failed_playouts = 0  # imagined worlds where the rules stopped on an error (their playout counts as a draw)
        # Random playouts of a game with nothing hidden, on the native backend where it compiles the rules: a
        # world is then a copy of memory, and its playout runs inside the module (no replay, no determinizing).
        self.native = None
        if self.policy is None and _nothing_hidden(program):
            self.native = native_rules(ruleset, game.players)
        self.shadow = self.scratch = None  # the native game kept at the real one's position, and a world to copy it to
        self.synced = 0  # how many of the real game's choices the shadow has made

    def choose(self, decision: Decision) -> int:
        if len(decision.options) == 1:
            return 0
        me, root = decision.player, Node()
        iterate = self._iterate
        if self.native is not None and self._sync(decision):
            iterate = self._iterate_native
        if self.spec.seconds is None:
            for _ in range(self.spec.iterations):
                iterate(root, me)
        else:
            deadline = time.perf_counter() + self.spec.seconds
            iterate(root, me)
            while time.perf_counter() < deadline:
                iterate(root, me)
        best = root.most_tried(me)
        if iterate == self._iterate_native:  # its arms are the options' places: nothing hidden, the same every time
            return best if best is not None else self.rng.randrange(len(decision.options))
        try:
            return decision.index_of(best) if best is not None else self.rng.randrange(len(decision.options))
        except ValueError:
            return self.rng.randrange(len(decision.options))

    def _iterate(self, root: Node, me: str) -> None:
        """One imagined world: down the tree, one node added, a playout, and the result credited on the way."""
        path: list[tuple[Node, tuple]] = []  # each node walked through, with the answers given there
        try:
            world = determinize(self.game, me, self.rng)
            node = root
            while node is not None and world.decisions:
                parts = list(world.decisions)  # one decision, or several made at once in secret
                offered = [_offered(part, node, self.rng) for part in parts]
                for part, (indices, labels) in zip(parts, offered):
                    self._guide(node, part, indices, labels, world)
                picked = [node.select(part.player, labels, self.rng) for part, (_, labels) in zip(parts, offered)]
                answers = tuple((part.player, labels[i]) for part, (_, labels), i in zip(parts, offered, picked))
                path.append((node, answers))
                for part, (indices, _), i in zip(parts, offered, picked):
                    world.choose(indices[i], by=part.player)
                child = node.children.get(answers)
                if child is None:
                    node.children[answers] = Node()
                node = child
            self._play_out(world)
            rewards = self._rewards(world)
        except RuleRuntimeError:
            self.failed_playouts += 1
            players = self.game.players
            rewards = {p: 1 / len(players) for p in players}
        for node, answers in path:
            for player, label in answers:
                node.update(player, label, rewards.get(player, 0.0))

    def _sync(self, decision: Decision) -> bool:
        """Bring the native shadow to the real game's position (the choices made since); False, for good,
        if it does not ask what the real game asks."""
        from interpreter.backends.wasm.program import WasmGame
        if self.shadow is None:
            self.shadow = WasmGame(self.native, seed=self.game.seed, players=self.game.players)
            self.scratch = WasmGame(self.native, seed=self.game.seed, players=self.game.players)
        log = self.game.log
        try:
            for index in log[self.synced:]:
                self.shadow.choose(index)
        except (RuleRuntimeError, NotCompiled):  # the module stopped where the game goes on: search by replay
            self.native = None
            return False
        self.synced = len(log)
        shadow = self.shadow.decision
        if shadow is None or (shadow.name, shadow.player, shadow.labels()) != (decision.name, decision.player,
                                                                                decision.labels()):
            self.native = None
            return False
        return True

    def _iterate_native(self, root: Node, me: str) -> None:
        """One iteration on a copy of the native shadow: down the tree, one node added, a random playout
        inside the module, and the result credited on the way. With nothing hidden, every iteration sees the
        same options at a node: its arms are their places, and no label is made."""
        world = self.shadow.copy(into=self.scratch)
        path, node = [], root
        try:
            while node is not None and not world.finished:
                player, count = world.asked()
                picked = node.select(player, range(count), self.rng)
                answers = ((player, picked),)
                path.append((node, answers))
                world.choose(picked)
                child = node.children.get(answers)
                if child is None:
                    node.children[answers] = Node()
                node = child
            world.reseed(self.rng.getrandbits(32))
            world.play_random()
            winners = world.result.winners or (list(self.game.players) if world.result.reason == "draw" else [])
            rewards = {p: (1 / len(winners) if p in winners else 0.0) for p in self.game.players}
        except (RuleRuntimeError, NotCompiled):  # an error, or a game the module cannot play on
            self.failed_playouts += 1
            rewards = {p: 1 / len(self.game.players) for p in self.game.players}
        for node, answers in path:
            for player, label in answers:
                node.update(player, label, rewards.get(player, 0.0))

    def _guide(self, node: Node, decision: Decision, indices: list[int], labels: list[str], world: Game) -> None:
        """Where a rule-of-thumb bot guides the search: the priors of the options offered at `node`, from
        what the bot thinks them worth in `world` (once, unless a world offers options not seen before)."""
        if self.policy is None:
            return
        known = node.priors.get(decision.player)
        if known is not None and all(label in known for label in labels):
            return
        values = PolicyAgent(self.policy, world, 0).scores(decision)
        if values is None:
            return
        priors = priors_of([values[i] for i in indices])
        node.priors[decision.player] = {**(known or {}), **dict(zip(labels, priors))}

    def _play_out(self, world: Game) -> None:
        if self.policy is None:  # random playouts: in playout mode, with a stream of their own
            world.play_out(random.Random(self.rng.getrandbits(32)))
            return
        agent = PolicyAgent(self.policy, world, self.rng.getrandbits(32))
        for _ in range(PLAYOUT_DECISIONS):
            if world.finished or world.paused:
                return
            decision = world.decision
            world.choose(agent.choose(decision))

    def _rewards(self, world: Game) -> dict[str, float]:
        """Each player's result, between 0 and 1: a win shared by k players is 1/k each, a draw is
        shared by all, a loss is 0. A playout cut short goes to the leaders by the game's score."""
        players = world.players
        if world.finished:
            winners = world.result.winners or (players if world.result.reason == "draw" else [])
        elif self.score is not None:
            scores = {p: self.score(world.runtime, p) for p in players}
            winners = [p for p in players if scores[p] == max(scores.values())]
        else:
            winners = players
        return {p: (1 / len(winners) if p in winners else 0.0) for p in players}
