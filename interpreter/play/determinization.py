"""A game as one player may imagine it: what they observe kept, what they cannot see dealt again.

`determinize(game, player, rng)` copies the game by replaying its choices, then deals again, at
random, every component the player cannot tell which it is (in a zone they do not see, or face
down and unknown to them), and draws afresh the values they do not observe. The copy shows the
player exactly the observation of the real game, and everything hidden in it is a function of
that observation and `rng` alone: two games the player cannot tell apart give the same copies.

What stays in place is where each hidden component lies and what its back shows (the kind's
`back`, its owner, and the zone its kind starts in: a card of the quest deck is never dealt into
the draw deck). Only its identity moves: its id, kind and properties change places with those of
another hidden component that looks the same from behind. The component objects themselves stay
where they are, so that whatever the running rules hold (the options of a pending decision, a
`let` of a procedure) now names the newly dealt identity.
"""
from __future__ import annotations

import random

from interpreter.diagnostics.errors import RuleRuntimeError
from interpreter.engine.knowledge import back_of, knows
from interpreter.engine.state import Component
from interpreter.play.game import Game
from interpreter.play.visibility import variables_seen


def determinize(game: Game, player: str, rng: random.Random) -> Game:
    """A copy of `game` that `player` cannot tell from it, its hidden parts drawn from `rng`. The
    secret answers already given in a pending `simultaneously` group are left out: the copy
    waits for every answer of the group."""
    world = game.clone(choices=game.log)
    redeal_unknown(world, player, rng)
    redraw_unseen_variables(world, player)
    world.state.rng.seed(rng.getrandbits(64))  # the real generator would tell the dice to come
    world.runtime.rolls = []
    world.state.changed()
    return world


def redeal_unknown(world: Game, player: str, rng: random.Random) -> None:
    """Shuffle the identities of the components `player` does not know among the places that look alike."""
    rt, state = world.runtime, world.state
    seen = _components_in(variables_seen(world, player))  # a visible variable names its component openly
    places: dict[tuple, list[Component]] = {}
    for items in state.zones.values():  # the zones in their fixed order: places come in an order the player sees
        for component in items:
            if component.id not in seen and not knows(rt, player, component):
                look = (back_of(rt, component), component.owner, world.ruleset.content.pieces[component.kind].starts_in)
                places.setdefault(look, []).append(component)
    if not places:
        return
    order = list(state.components)  # keep the dictionary's order: some rules list every component
    for alike in places.values():
        identities = sorted(((c.id, c.kind, c.props) for c in alike), key=lambda identity: identity[0])
        rng.shuffle(identities)
        for component, (cid, kind, props) in zip(alike, identities):
            component.id, component.kind, component.props = cid, kind, props
    by_id = {c.id: c for items in state.zones.values() for c in items}
    state.components = {cid: by_id[cid] for cid in order}


def redraw_unseen_variables(world: Game, player: str) -> None:
    """Variables `player` does not observe (hidden ones, and the others' values of private ones)
    take the value their declaration gives, worked out afresh in the copy."""
    program, rt, variables = world.ruleset.program, world.runtime, world.state.variables
    for name, per_player, value, position in program.variables:
        secrecy = program.private_variables.get(name)
        if secrecy is None:
            continue
        try:
            if not per_player:
                variables[name] = value(rt, {"you": None})
                continue
            for other in variables[name]:
                if secrecy == "hidden" or other != player:
                    variables[name][other] = value(rt, {"you": other})
        except RuleRuntimeError:
            raise
        except Exception as error:
            raise RuleRuntimeError(position, f"the initial value of `{name}`: {type(error).__name__}: {error}") from error


def _components_in(value) -> set[str]:
    if isinstance(value, Component):
        return {value.id}
    if isinstance(value, (list, tuple)):
        return set().union(*map(_components_in, value)) if value else set()
    if isinstance(value, dict):
        return set().union(*map(_components_in, value.values())) if value else set()
    return set()
