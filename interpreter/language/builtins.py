"""Functions every ruleset can call. Each takes the runtime first, then its arguments.

They speak of zones, components, locations and connections only: nothing here knows a game.
"""
from __future__ import annotations

from interpreter.diagnostics.errors import RuleRuntimeError
from interpreter.engine.state import Component
from interpreter.language.types import ANY
from interpreter.safety.limits import LIMITS, LimitExceeded


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


def pieces_in(rt, zones):
    """Every component of these zones (or locations), zone after zone, each bottom to top."""
    all_zones = rt.state.zones
    return [c for zone in zones for c in all_zones[zone]]


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


def region(rt, start, within, via):
    return rt.board.region(start, within, _via(via)) if start is not None else []


def numbers(rt, low, high):
    count = high - low + 1
    if count > LIMITS.longest_list:
        raise LimitExceeded(None, f"numbers({low}, {high}) would hold {count:,} numbers, more than "
                                  f"{LIMITS.longest_list:,} (LUDOLEX_LONGEST_LIST)")
    if count > 0:
        rt.steps += count
        if rt.steps > rt.step_limit:
            raise rt.too_many_steps(None)
    return list(range(low, high + 1))


def nth(rt, items, position):
    """The item at `position` counting from 0, or `none` past either end."""
    return items[position] if 0 <= position < len(items) else None


def distinct(rt, items):
    """The items, each once, in the order they first appear."""
    return list(dict.fromkeys(items))


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
    if rt.rolls:  # a scenario's dice, given in advance
        value = rt.rolls.pop(0)
        if not 1 <= value <= sides:
            raise RuleRuntimeError(None, f"the scenario gives the roll {value}, but this die has {sides} sides")
        return value
    return rt.state.rng.randint(1, sides)


# name: (function, argument types, type of the result). "zone" accepts a location too (a
# location is a zone); "via" is a connection type or a list of them.
BUILTINS = {
    "top": (top, ("zone",), "component"),
    "bottom": (bottom, ("zone",), "component"),
    "pieces": (pieces, ("zone",), "list"),
    "pieces_in": (pieces_in, ("list",), "list"),
    "tops": (tops, ("list",), "list"),
    "occupied": (occupied, ("list",), "list"),
    "empty": (empty, ("zone",), "bool"),
    "beneath": (beneath, ("component",), "list"),
    "on_top": (on_top, ("component",), "bool"),
    "kinds": (kinds, ("zone",), "list"),
    "adjacent": (adjacent, ("location", "via"), "list"),
    "ray": (ray, ("location", "via", "number"), "list"),
    "step": (step, ("location", "text", "via"), "location"),
    "direction": (direction, ("location", "location"), "text"),
    "region": (region, ("location", "list", "via"), "list"),
    "numbers": (numbers, ("number", "number"), "list"),
    "nth": (nth, ("list", "number"), ANY),
    "distinct": (distinct, ("list",), "list"),
    "index": (index, ("location",), "number"),
    "next": (next_player, ("player",), "player"),
    "size": (size, ("collection",), "number"),
    "roll": (roll, ("number",), "number"),
}

COMPONENT_ATTRIBUTES = {"id": "text", "kind": "kind", "owner": "player", "zone": "zone", "location": "location"}
