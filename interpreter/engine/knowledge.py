"""Who knows what: which zones a player sees, and which components they can tell apart.

A player sees the board, public zones, their own private zones and the zones revealed to them
this turn. In a zone they see, a component face up is known to everybody; face down, it is
known to its owner (unless its kind says `known: nobody`) and to the players it was revealed
to. Everyone else sees only its back. In a zone they do not see, they know only the components
revealed to them, until the component moves where they cannot see or its zone is shuffled. `None` stands for a spectator, who sees only what is public.
One player's copy of a per-player zone may be seen otherwise than its zone (`public hand(blue)`).
"""
from __future__ import annotations

from interpreter.engine.state import BOX, Component

UNKNOWN_BACK = "hidden"  # what an unknown component shows when its kind names no back


def sees_zone(rt, player: str | None, zone: str) -> bool:
    if zone in rt.board.index or zone == BOX:
        return True
    name, _, owner = zone.partition("/")
    visibility = rt.program.shown.get((name, owner)) or rt.program.zones.get(name, (False, "hidden"))[1]
    if visibility == "public":
        return True
    if player is None:
        return False
    if [player, zone, rt.state.turns] in rt.state.revealed:  # `reveal ZONE to PLAYER`, for this turn
        return True
    return visibility == "private" and owner == player


def knows(rt, player: str | None, component: Component) -> bool:
    """Whether `player` can tell which component this is (its kind, id and properties): in a zone
    they do not see, only one shown to them (`reveal CARD to PLAYER`: a card of another's hand)."""
    if not sees_zone(rt, player, component.zone):
        return player is not None and player in component.known_to
    if not component.face_down:
        return True
    if player is None:
        return False
    if player == component.owner and rt.program.known.get(component.kind, "owner") == "owner":
        return True
    return player in component.known_to


def back_of(rt, component: Component) -> str:
    return rt.program.backs.get(component.kind) or UNKNOWN_BACK
