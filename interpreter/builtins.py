"""Functions every ruleset can call. Each takes the runtime first, then its arguments.

They speak of zones, components, locations and connections only: nothing here knows a game.
"""
from __future__ import annotations

from .state import Component


def _via(value) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, (list, tuple)) else (value,)


def top(rt, zone):
    items = rt.state.zones[zone] if zone is not None else None
    return items[-1] if items else None


def bottom(rt, zone):
    items = rt.state.zones[zone] if zone is not None else None
    return items[0] if items else None


def pieces(rt, zone):
    return list(rt.state.zones[zone])


def tops(rt, locations):
    zones = rt.state.zones
    return [zones[loc][-1] for loc in locations if zones[loc]]


def occupied(rt, locations):
    zones = rt.state.zones
    return [loc for loc in locations if zones[loc]]


def empty(rt, zone):
    return not rt.state.zones[zone]


def beneath(rt, component: Component):
    """The components under `component` in its zone, nearest first."""
    items = rt.state.zones[component.zone]
    return items[items.index(component) - 1 :: -1] if items[0] is not component else []


def on_top(rt, component):
    if component is None or component.zone not in rt.board.index:
        return False
    return rt.state.zones[component.zone][-1] is component


def kinds(rt, zone):
    """The distinct kinds in `zone`, in the order the content declares them."""
    present = {c.kind for c in rt.state.zones[zone]}
    return [k for k in rt.program.kind_order if k in present]


def adjacent(rt, location, via):
    return rt.board.adjacent(location, _via(via)) if location is not None else []


def ray(rt, location, via, length):
    return rt.board.ray(location, _via(via), length) if location is not None else []


def step(rt, location, direction, via):
    return rt.board.step(location, direction, _via(via))


def direction(rt, origin, target):
    return rt.board.direction(origin, target)


def index(rt, location):
    return rt.board.index[location]


def next_player(rt, player):
    players = rt.players
    return players[(players.index(player) + 1) % len(players)]


def size(rt, items):
    return len(rt.state.zones[items]) if isinstance(items, str) else len(items)


def roll(rt, sides):
    return rt.state.rng.randint(1, sides)


BUILTINS = {
    # name: (function, number of arguments, what it returns)
    "top": (top, 1, "component"),
    "bottom": (bottom, 1, "component"),
    "pieces": (pieces, 1, "list"),
    "tops": (tops, 1, "list"),
    "occupied": (occupied, 1, "list"),
    "empty": (empty, 1, "bool"),
    "beneath": (beneath, 1, "list"),
    "on_top": (on_top, 1, "bool"),
    "kinds": (kinds, 1, "list"),
    "adjacent": (adjacent, 2, "list"),
    "ray": (ray, 3, "list"),
    "step": (step, 3, "location"),
    "direction": (direction, 2, "text"),
    "index": (index, 1, "number"),
    "next": (next_player, 1, "player"),
    "size": (size, 1, "number"),
    "roll": (roll, 1, "number"),
}

COMPONENT_ATTRIBUTES = ("id", "kind", "owner", "zone", "location")
