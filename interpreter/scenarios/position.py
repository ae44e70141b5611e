"""Laying out a scenario's position: the stacks and zones it names, drawn from the game's own
components, each with the state the position gives it."""
from __future__ import annotations

import re

from interpreter.engine.state import BOX, player_zone
from interpreter.play.game import Game
from interpreter.scenarios import ScenarioFailure
from interpreter.scenarios.files import NOBODY, PositionSpec, merged


FACE_DOWN = " face down"  # a position's label ending so lays the component face down: `fog_card face down`


def parse_label(label: str) -> tuple[str | None, str]:
    words = label.removesuffix(FACE_DOWN).split()
    return (words[0], words[1]) if len(words) == 2 else (None, words[0])


FACE = "face"  # in a component's state, `face: down` (or `up`) lays it so, unless the rules declare a property `face`


def split_label(item) -> tuple[str, dict]:
    """A position's component: `"owner kind"`, or `{"owner kind": {property: value, ...}}` with its state."""
    if isinstance(item, dict):
        (label, state), = item.items()
        return str(label), plain(dict(state or {}))
    return item, {}


def _laid(pool, item, properties: dict, components: dict):
    label, state = split_label(item)
    component = _take(pool, *parse_label(label))
    component.face_down = label.endswith(FACE_DOWN)
    _set_state(component, state, properties, components)
    return component


def _set_state(component, state: dict, properties: dict, components: dict) -> None:
    """Give `component` the state a position writes: its face, and values of the rules' `property`s (a
    component's id, `a0224_stone-1`, for a property that holds a component)."""
    for name, value in state.items():
        if name == FACE and FACE not in properties:
            if value not in ("up", "down"):
                raise ScenarioFailure(f"position: `face` of `{component.kind}` is `up` or `down`, not `{value}`")
            component.face_down = value == "down"
        elif name not in properties:
            raise ScenarioFailure(f"position: no property `{name}` (declared with `property` in the rules) "
                                  f"to set on `{component.kind}`")
        else:
            component.props[name] = components.get(value, value) if isinstance(value, str) else value


def zone_key(game: Game, zone: str, owner: str | None) -> str:
    per_player = game.ruleset.program.zones.get(zone, (False, ""))[0]
    return player_zone(zone, owner) if per_player and owner else zone


def arrange_position(game: Game, spec: PositionSpec) -> None:
    """Lay out the position: the stacks and zone contents it names, drawn from the game's components."""
    state = game.state
    state.variables.update(merged(state.variables, plain(spec.variables)))
    pool: dict[tuple, list] = {}
    for component in state.components.values():
        pool.setdefault((component.owner, component.kind), []).append(component)
    wanted: dict[str, list] = {}
    properties = game.ruleset.program.symbols.properties
    for location, stack in spec.board.items():
        if location not in game.ruleset.board.index:
            raise ScenarioFailure(f"position: no location `{location}` on the board")
        wanted[location] = [_laid(pool, item, properties, state.components) for item in stack]
    for zone, owners in spec.zones.items():
        if zone not in game.ruleset.program.zones:
            raise ScenarioFailure(f"position: no zone `{zone}`")
        if not game.ruleset.program.zones[zone][0]:
            wanted.setdefault(zone, [])  # a shared zone named with nothing in it is emptied
        for owner, kinds in owners.items():
            owner = None if owner == NOBODY else owner
            key = zone_key(game, zone, owner)
            items = wanted.setdefault(key, [])
            for kind, count in kinds.items():
                states = count if isinstance(count, list) else [{}] * count  # `sword: [{exhausted: true}, {}]`
                for given in states:
                    items.append(_take(pool, owner, kind))
                    _set_state(items[-1], plain(dict(given)), properties, state.components)
    on_top = {_on_top_key(game, zone): [_laid(pool, item, properties, state.components) for item in items]
              for zone, items in spec.on_top.items()}
    taken = {c.id for items in list(wanted.values()) + list(on_top.values()) for c in items}
    emptied = []  # what the zones named by the position held and no longer hold: it goes to the box
    for key, items in state.zones.items():
        kept = [c for c in items if c.id not in taken]
        if key in wanted and key != BOX:
            items[:] = []
            emptied += kept
        else:
            items[:] = kept
    state.zones[BOX] = wanted.pop(BOX, []) + state.zones[BOX] + emptied  # the box keeps what no zone lists
    for key, items in wanted.items():
        state.zones[key] = list(items)
    for zone, items in on_top.items():
        if zone not in state.zones:
            raise ScenarioFailure(f"position: `on_top` names `{zone}`, which is not a zone of the game")
        state.zones[zone] += reversed(items)  # the first listed ends on top
    for key, items in state.zones.items():
        for c in items:
            c.zone = key
    if spec.phase:
        game.runtime.start_phase = spec.phase
    state.changed()


def plain(value):
    """A value read from YAML as the rules' own: a number the YAML library wraps (to keep its
    spelling) is a plain int, so that it compares and sorts like any number of the game."""
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, str):
        return str(value)
    return value


def _on_top_key(game: Game, name: str) -> str:
    """`deck`, or a player's zone written as in the rules, `bag(alice)`."""
    key = on_top_zone(game.ruleset.program, name)
    if key is None and "(" in name:
        raise ScenarioFailure(f"position: `on_top` names `{name}`, which is not a player's zone of the game")
    return key or name


def on_top_zone(program, name: str) -> str | None:
    """The zone an `on_top` key names (`deck`, or a player's zone as the rules write it, `bag(alice)`),
    as the state names it; None if the game has no such zone."""
    match = re.fullmatch(r"\s*([\w.]+)\s*\(\s*(\w+)\s*\)\s*", name)
    if not match:
        return name if name in program.zones and not program.zones[name][0] else None
    zone, player = match.groups()
    if not program.zones.get(zone, (False, ""))[0] or player not in program.players:
        return None
    return player_zone(zone, player)


def _take(pool, owner, kind):
    # a player's zone may hold ownerless components: a card in a hand is nobody's property
    candidates = pool.get((owner, kind)) or (pool.get((None, kind)) if owner is not None else None)
    if not candidates:
        raise ScenarioFailure(f"position: not enough `{owner} {kind}` components in the game")
    return candidates.pop(0)
