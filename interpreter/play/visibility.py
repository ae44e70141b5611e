"""What one player may observe of a game: exactly what they could see or know at the table.

Zones they cannot see show only how many components they hold, and those revealed to them
(`{"hidden": 3, "shown": [...]}`). In the zones they see, a
component they know shows its id, kind, owner and properties; one they cannot tell apart (face
down) shows only its back and owner. Variables declared `per player private` show only the
player's own value. Decision options are listed for the decider alone (or the players of a group
decision), as they see them.
"""
from __future__ import annotations

from interpreter.engine.knowledge import back_of, knows, sees_zone
from interpreter.engine.state import Component
from interpreter.play.game import Game


def can_see(game: Game, zone: str, player: str | None) -> bool:
    return sees_zone(game.runtime, player, zone)


def component_seen(game: Game, component: Component, player: str | None) -> dict:
    if not knows(game.runtime, player, component):
        return {"back": back_of(game.runtime, component), "owner": component.owner, "face_down": True}
    seen = {"id": component.id, "kind": component.kind, "owner": component.owner, "props": dict(component.props)}
    if component.face_down:
        seen["face_down"] = True
    return seen


def variables_seen(game: Game, player: str | None) -> dict:
    """Every variable but the hidden ones; of a private one, only the player's own value."""
    secret = game.ruleset.program.private_variables
    seen = {}
    for name, value in game.state.variables.items():
        if secret.get(name) == "private":
            seen[name] = {player: value[player]} if player in value else {}
        elif name not in secret:
            seen[name] = value
    return seen


def observation(game: Game, player: str | None) -> dict:
    """The state as `player` sees it (None: a spectator, who sees only what is public)."""
    zones = {}
    for zone, items in game.state.zones.items():
        if can_see(game, zone, player):
            zones[zone] = [component_seen(game, c, player) for c in items]
        else:
            zones[zone] = {"hidden": len(items)}
            shown = [component_seen(game, c, player) for c in items if player in c.known_to]
            if shown:  # what was revealed to this player alone (a card of another's hand)
                zones[zone]["shown"] = shown
    decision = game.decision
    return {
        "player": player,
        "turns": game.state.turns,
        "variables": variables_seen(game, player),
        "zones": zones,
        "decision": None if decision is None else {
            "name": decision.name, "player": decision.player,
            "options": options_seen(decision, player),
            **({"group": list(decision.group)} if decision.group else {}),
        },
    }


def options_seen(decision, player: str | None):
    """The options as `player` sees them if they may answer (the decider, or any of the group
    of a `by any of` decision), else how many there are. A number from a range is given as its
    bounds, {"from": LOW, "to": HIGH, "or_pass": ...}, not as a label per number."""
    if not decision.may_answer(player):
        return len(decision.options)
    if decision.number_range is not None:
        low, high = decision.number_range
        return {"from": low, "to": high, "or_pass": len(decision.options) > high - low + 1}
    return decision.labels(player)
