"""Who knows what: which zones a player sees, and which components they can tell apart.

A player sees the board, public zones, their own private zones and the zones revealed to them
this turn. In a zone they see, a component face up is known to everybody; face down, it is
known to its owner (unless its kind says `known: nobody`) and to the players it was revealed
to. Everyone else sees only its back. In a zone they do not see, they know only the components
revealed to them, until the component moves where they cannot see or its zone is shuffled. `None` stands for a spectator, who sees only what is public.
One player's copy of a per-player zone may be seen otherwise than its zone (`public hand(blue)`).
"""
from __future__ import annotations

import hashlib

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


def secret_rank(rt, viewer: str | None, zone: str, place: int) -> bytes:
    """A key that orders the places of an unseen zone at random for `viewer`, drawn again at each
    decision, the same on every replay of the game (from its seed), and no player's to work out."""
    text = f"{rt.state.seed}|{rt.decisions}|{viewer}|{zone}|{place}"
    return hashlib.blake2b(text.encode(), digest_size=8).digest()


def back_of(rt, component: Component) -> str:
    return rt.program.backs.get(component.kind) or UNKNOWN_BACK


def handle(rt, viewer: str | None, component: Component, memo: dict) -> str | None:
    """What `viewer` calls a component they cannot tell apart (None if they can): its back and where it
    lies, `chip@a1`, numbered among the like ones there that they cannot tell apart when there are
    several, `chip@a1#2`, `card@hand(red)#2`. It says nothing of which one it is, and does not depend
    on the order of a decision's options:
    - in a zone the viewer sees (face-down pieces on the board), by their order there, bottom first:
      everyone sees them laid, so everyone can follow them;
    - in a zone they do not see (a hand, a supply), where nobody can follow a component, in a secret
      order drawn again at each decision (`secret_rank`), so that which ones a decision offers tells
      nothing either.
    `memo` keeps each zone's numbering for the handles of one rendering."""
    if knows(rt, viewer, component):
        return None
    back, zone = back_of(rt, component), component.zone
    numbers = memo.get((zone, back))
    if numbers is None:
        alike = [(place, c.id) for place, c in enumerate(rt.state.zones[zone])
                 if back_of(rt, c) == back and not knows(rt, viewer, c)]
        if not sees_zone(rt, viewer, zone):
            alike.sort(key=lambda item: secret_rank(rt, viewer, zone, item[0]))
        numbers = memo[(zone, back)] = {id_: n for n, (_, id_) in enumerate(alike, 1)} if len(alike) > 1 else {}
    name, _, owner = zone.partition("/")
    where = f"{back}@{name}({owner})" if owner else f"{back}@{name}"
    number = numbers.get(component.id)
    return f"{where}#{number}" if number else where
