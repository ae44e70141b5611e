"""Functions every ruleset can call. Each takes the runtime first, then its arguments.

They speak of zones, components, locations and connections only: nothing here knows a game.
"""
from __future__ import annotations

from itertools import combinations

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


def subsets(rt, items):
    """Every sub-list of `items`, each keeping their order: the smallest first (the empty list, then
    each item alone, then each pair...), those of one size in the order of their positions
    (for [a, b, c]: [], [a], [b], [c], [a, b], [a, c], [b, c], [a, b, c])."""
    count = 2 ** len(items) if len(items) < 64 else None
    if count is None or count > LIMITS.longest_list:
        raise LimitExceeded(None, f"subsets of a list of {len(items):,} items would hold 2^{len(items)} lists, "
                                  f"more than {LIMITS.longest_list:,} (LUDOLEX_LONGEST_LIST)")
    rt.steps += count
    if rt.steps > rt.step_limit:
        raise rt.too_many_steps(None)
    return [list(chosen) for size in range(len(items) + 1) for chosen in combinations(items, size)]


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


def faction_of(rt, player):
    """The player whose faction `player` plays: itself, or for an extra seat (one faction seated twice) the
    player of the content whose faction's file it plays a copy of."""
    return rt.program.seats.get(player, player)


def size(rt, items):
    return len(rt.state.zones[items]) if isinstance(items, str) else len(items)


def draw(rt, sides: int, what: str) -> int:
    """A random number from 1 to `sides`: the next of a scenario's rolls if it gave some, else from
    the game's seeded generator. Every chance of the language (`roll`, `random`, a move into an
    unordered zone) comes through here, so that a scenario can fix any of them. `what` says, for
    a scenario roll out of range, what was drawn."""
    if rt.rolls:  # a scenario's dice, given in advance
        value = rt.rolls.pop(0)
        if not 1 <= value <= sides:
            raise RuleRuntimeError(None, f"the scenario gives the roll {value}, but {what}")
        return value
    return rt.state.rng.randint(1, sides)


def roll(rt, sides):
    return draw(rt, sides, f"this die has {sides} sides")


def land_at_random(rt, component) -> None:
    """`component` was just moved into an unordered zone (a bag): put it at a random place of it,
    each place as likely, counted from the top (a scenario roll of 1 leaves it on top, the next
    to be drawn). Into an empty bag there is one place only, and nothing is drawn."""
    items = rt.state.zones[component.zone]
    places = len(items)
    component.known_to = frozenset()  # in a bag, a component once shown can no longer be told apart
    if places > 1:
        place = draw(rt, places, f"a move into unordered zone `{component.zone}` has {places} places to land")
        items.remove(component)
        items.insert(places - place, component)


def random_item(rt, items):
    """An item of the list chosen at random (a scenario roll k picks the k-th), or `none` if it is empty."""
    if not items:
        return None
    return items[draw(rt, len(items), f"`random` picks among {len(items)} items") - 1]


def reverse(rt, items):
    return items[::-1]


def divide_whole(left, right, position):
    """`left / right`: whole division, rounded down."""
    if right == 0:
        raise RuleRuntimeError(position, f"division by zero: {_shown(left)} / 0")
    return left // right


def remainder(left, right, position):
    """`left mod right`: what is left of `left` after whole division by `right` (`left - right * (left / right)`)."""
    if right == 0:
        raise RuleRuntimeError(position, f"division by zero: {_shown(left)} mod 0")
    return left % right


def sort_by(rt, items, key, most: tuple, positions: tuple):
    """`items` ordered by the keys `key(item)` gives (a tuple): by each key in turn, the largest first
    where `most`, the smallest first otherwise; `none` after any number; a full tie keeps the list's
    order. Keys are numbers (true counts as more than false)."""
    rt.steps += len(items)  # a key computed per item, like a quantifier's loop
    if rt.steps > rt.step_limit:
        raise rt.too_many_steps(None)
    ranks = []
    for item in items:
        rank = []
        for value, largest_first, position in zip(key(item), most, positions):
            kind = type(value)
            if kind is int or kind is bool:
                rank.append((0, -value if largest_first else value))
            elif value is None:
                rank.append((1, 0))
            else:
                raise RuleRuntimeError(position, f"`sorted` orders by numbers, but this key is {_shown(value)} "
                                                 f"for {_shown(item)}")
        ranks.append(rank)
    return [items[i] for i in sorted(range(len(items)), key=ranks.__getitem__)]


def _shown(value) -> str:
    """A value as a message shows it."""
    if isinstance(value, Component):
        return value.id
    if isinstance(value, str):
        return f'"{value[:40]}"' if len(value) <= 40 else f'"{value[:40]}..."'
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def forbidden(rt, component, destination) -> bool:
    """Does a `cannot` rule forbid `component` to go to `destination`? Where it goes from and to (on
    the board or off it) says which rules apply: `place`, `move` or `remove`."""
    origin = component.zone
    on_board = rt.board.index
    if origin == destination:
        return False
    if origin in on_board:
        action, places = ("move", (origin, destination)) if destination in on_board else ("remove", (origin,))
    elif destination in on_board:
        action, places = "place", (destination,)
    else:
        return False
    return any(guard(rt, component, *places) for guard in rt.guards.get(action, ()))


def may_go(rt, component, site):
    """May `component` go from where it is to `site` (`placeable` from off the board, `movable` across
    it: no `cannot place` or `cannot move` rule forbids it)?"""
    return component is not None and not forbidden(rt, component, site)


def removable(rt, component):
    """May `component` be removed from the board, where it is (no `cannot remove` rule forbids it)?"""
    return component is not None and not forbidden(rt, component, None)


# name: (function, argument types, type of the result). "zone" accepts a location too (a
# location is a zone); "via" is a connection type or a list of them.
BUILTINS = {
    "top": (top, ("zone",), "component"),
    "placeable": (may_go, ("component", "location"), "bool"),
    "movable": (may_go, ("component", "location"), "bool"),
    "removable": (removable, ("component",), "bool"),
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
    "subsets": (subsets, ("list",), "list"),  # a list of lists
    "nth": (nth, ("list", "number"), ANY),
    "distinct": (distinct, ("list",), "list"),
    "index": (index, ("location",), "number"),
    "next": (next_player, ("player",), "player"),
    "faction_of": (faction_of, ("player",), "player"),
    "size": (size, ("collection",), "number"),
    "roll": (roll, ("number",), "number"),
    "random": (random_item, ("list",), ANY),
    "reverse": (reverse, ("list",), "list"),
}

# The arguments (builtin, place from 0) that may be none: the function then gives none or nothing
# (`top(none)` is none, `adjacent(none, orthogonal)` is []). Every other argument fails on none.
ACCEPTS_NONE = {("top", 0), ("bottom", 0), ("on_top", 0), ("adjacent", 0), ("adjacent", 1), ("ray", 0), ("ray", 1),
                ("step", 0), ("step", 1), ("step", 2), ("direction", 0), ("direction", 1), ("region", 0), ("region", 2),
                ("random", 0)}

# What a cached function's values depend on (language.reads). The builtins read the state only
# through its zones and the components in them. These draw at random:
DRAWING = (roll, random_item)
# These read the zone their first argument names; these read no zone; any other reads zones found
# otherwise (each zone of a list, a component's zone).
READS_ZONE = (top, bottom, pieces, empty, kinds, size)
READS_NO_ZONE = (adjacent, ray, step, region, numbers, subsets, nth, distinct, direction, index, next_player, faction_of, roll,
                 random_item, reverse, divide_whole, remainder, sort_by)

COMPONENT_ATTRIBUTES = {"id": "text", "kind": "kind", "owner": "player", "controller": "player", "zone": "zone",
                        "location": "location"}
CONTROLLER = "controller"  # who a component counts for: its owner, unless a rule gave it to another (`set x.controller`)
