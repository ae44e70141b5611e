"""What one player may see of the state: public zones in full, others' private zones as counts."""
from __future__ import annotations

from interpreter.engine.state import BOX
from interpreter.play.game import Game


def zone_owner(game: Game, zone: str) -> str | None:
    name, _, owner = zone.partition("/")
    return owner if owner and name in game.ruleset.program.zones else None


def can_see(game: Game, zone: str, player: str | None) -> bool:
    if zone in game.ruleset.board.index:
        return True
    name = zone.partition("/")[0]
    visibility = game.ruleset.program.zones.get(name, (False, "hidden"))[1] if zone != BOX else "public"
    if visibility == "public":
        return True
    if player is not None and [player, zone, game.state.turns] in game.state.revealed:  # `reveal ... to`
        return True
    return visibility == "private" and player is not None and zone_owner(game, zone) == player


def observation(game: Game, player: str | None) -> dict:
    """The state as `player` sees it (None: a spectator). Hidden zones show only how many items they hold."""
    zones = {}
    for zone, items in game.state.zones.items():
        if can_see(game, zone, player):
            zones[zone] = [{"id": c.id, "kind": c.kind, "owner": c.owner} for c in items]
        else:
            zones[zone] = {"hidden": len(items)}
    return {
        "player": player,
        "turns": game.state.turns,
        "variables": dict(game.state.variables),
        "zones": zones,
        "decision": None if game.decision is None else {
            "name": game.decision.name, "player": game.decision.player,
            "options": game.decision.labels() if game.decision.player == player else len(game.decision.options),
        },
    }
