"""The checker's types: what kind of value an expression gives, and what a place accepts.

Values from variables and lists are `any` (not checked); everything else has a type known
when the rules load, so `top(s).onwer`, `3 + you` or `adjacent(reserve(you), orthogonal)`
are reported before any game is played.
"""
from __future__ import annotations

ANY = "any"

# what each expected type accepts, besides `any` (and `none`, which is absence, not a type error)
ACCEPTS = {
    "zone": {"zone", "location"},
    "location": {"location"},
    "component": {"component"},
    "list": {"list"},
    "number": {"number"},
    "player": {"player"},
    "text": {"text"},
    "via": {"connection", "list"},
    "collection": {"list", "zone", "location"},
    "movable": {"component", "list"},
    "revealable": {"zone", "location", "component", "list"},
    "players": {"player", "list"},
    "bool": {"bool"},
    "reason": {"text", "component"},
    "score": {"number", "bool"},  # a bot's value of an option: true counts as 1
    "addable": {"number", "list"},  # what `+` adds, where its other side does not say which
}

WORDS = {
    "zone": "a zone", "location": "a location", "component": "a component", "list": "a list",
    "number": "a number", "player": "a player", "text": "a text", "kind": "a kind of piece",
    "connection": "a connection type", "trait": "a trait", "bool": "true or false", "via": "a connection type (or a list of them)",
    "collection": "a list or a zone", "movable": "a component or a list of components", "none": "none",
    "revealable": "a zone, a component or a list of components", "players": "a player or a list of players",
    "reason": "a text or a component", "score": "a number", "addable": "a number or a list",
}


def accepts(expected: str, actual: str) -> bool:
    return actual in (ANY, "none") or expected == ANY or actual in ACCEPTS.get(expected, {expected})


def check(scope, position, expected: str, actual: str, what: str) -> None:
    if not accepts(expected, actual):
        scope.error("LX323", f"{what} must be {WORDS.get(expected, expected)}, not {WORDS.get(actual, actual)}", position)
