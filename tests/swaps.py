"""Swapping two components a player cannot tell apart, for the tests that check that nothing they see
changes (the observation, the labels, an agent's tensors and action mask)."""
import random

from interpreter import Game
from interpreter.engine.decisions import PASS
from interpreter.engine.knowledge import sees_zone
from interpreter.engine.state import Component


def may_not_know(game: Game, player: str, c) -> bool:
    """The rule of the table, written here apart from the engine's: a component in a zone the player
    cannot see, or face down and neither theirs (when its owner may know it); in either case, not
    shown to them (`reveal CARD to PLAYER`: the card a guesser shows the Corvids)."""
    if not sees_zone(game.runtime, player, c.zone):
        return player not in c.known_to
    owner_knows = game.ruleset.content.pieces[c.kind].known == "owner"
    return c.face_down and not (owner_knows and c.owner == player) and player not in c.known_to


def look_alike_pairs(game: Game, player: str, rng: random.Random, most: int = 6):
    """Pairs of components `player` cannot tell apart: both in zones they cannot see with the same
    back (a hand holds cards, a supply plots), or both face down in view with the same back and owner."""
    groups: dict = {}
    for c in game.state.components.values():
        if may_not_know(game, player, c):
            back = game.ruleset.content.pieces[c.kind].back
            key = ("in view", back, c.owner) if sees_zone(game.runtime, player, c.zone) else ("unseen", back)
            groups.setdefault(key, []).append(c)
    pairs = [tuple(rng.sample(group, 2)) for group in groups.values() if len(group) > 1]
    return rng.sample(pairs, min(most, len(pairs)))  # any groups: the first ones may always look alike


def swap_places(game: Game, a, b) -> None:
    """`a` and `b` change places, and the decision waiting, its options worked out from where things
    lie, offers the one now where the other was."""
    zones = game.state.zones
    i, j = zones[a.zone].index(a), zones[b.zone].index(b)
    zones[a.zone][i], zones[b.zone][j] = b, a
    a.zone, b.zone = b.zone, a.zone
    a.face_down, b.face_down = b.face_down, a.face_down
    decision = game.decision
    if decision is not None and isinstance(decision.options, list):
        other = {a.id: b, b.id: a}
        decision.options = [option if option is PASS else tuple(_swapped(v, other) for v in option)
                             for option in decision.options]


def _swapped(value, other: dict):
    if isinstance(value, list):
        return [_swapped(v, other) for v in value]
    return other.get(value.id, value) if isinstance(value, Component) else value
