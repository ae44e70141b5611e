"""A game as the page draws it for one viewer: plain data, made only of what that viewer observes.

A player sees their observation (`interpreter.play.visibility.observation`); None is a spectator,
who sees what is public; EVERYTHING, the debug view, sees every component. The options of a
decision go only to a viewer who may answer it, each with its label and its *targets*: what on the
page names one of its values, so that a click can pick it:

    loc:NAME     a location of the board
    zone:NAME    a zone (a hand, a discard pile...)
    kind:NAME    a kind of piece or card (a component of that kind, clicked, names it)
    comp:ID      a component the viewer can tell apart
    player:NAME  a player

A component the viewer cannot tell apart names nothing: its id would say which it is.
"""
from __future__ import annotations

from interpreter.engine.decisions import EVERYTHING, PASS, Decision
from interpreter.engine.knowledge import back_of, knows
from interpreter.engine.state import BOX, Component
from interpreter.interfaces.display import player_colours
from interpreter.interfaces.web.layout import positions
from interpreter.play.game import Game
from interpreter.play.visibility import observation

LISTED_OPTIONS = 2000  # the most options sent to the page (a longer list is cut, and says so)


def board_of(game: Game) -> dict:
    """The board as the page draws it: its shape, each location's place and attributes, the connections."""
    board = game.ruleset.board
    shape, places = positions(board)
    nodes = board.graph.nodes
    shown = {"x", "y", "column", "row"}
    return {
        "shape": shape,
        "locations": [{"name": n, "x": places[n][0], "y": places[n][1],
                       "attributes": {k: v for k, v in nodes[n].items() if k not in shown}} for n in board.locations],
        "connections": sorted({(min(a, b, key=board.index.get), max(a, b, key=board.index.get), kind)
                               for a, b, kind in board.graph.edges(keys=True) if a != b}),
    }


def plain(game: Game, value, viewer):
    """A value as JSON holds it: a component as its id, or as its back if `viewer` cannot tell which it is."""
    if isinstance(value, Component):
        return value.id if viewer is EVERYTHING or knows(game.runtime, viewer, value) else back_of(game.runtime, value)
    if isinstance(value, dict):
        return {str(k): plain(game, v, viewer) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [plain(game, v, viewer) for v in value]
    return value if value is None or isinstance(value, (str, int, float, bool)) else str(value)


def value_targets(game: Game, value, viewer) -> list[str]:
    """What on the page names `value`, one of an option's values (see the module)."""
    if isinstance(value, list):
        return [t for v in value for t in value_targets(game, v, viewer)]
    if isinstance(value, Component):
        if viewer is not EVERYTHING and not knows(game.runtime, viewer, value):
            return []
        return [f"comp:{value.id}", f"kind:{value.kind}"]
    if not isinstance(value, str):
        return []
    if value in game.ruleset.board.index:
        return [f"loc:{value}"]
    if value in game.runtime.players:
        return [f"player:{value}"]
    if value in game.ruleset.program.kind_order:
        return [f"kind:{value}"]
    if value in game.state.zones:
        return [f"zone:{value}"]
    return []


def options_of(game: Game, decision: Decision, viewer) -> dict:
    """The options of `decision` for a viewer who may answer it: each label with the targets of each value."""
    if decision.number_range is not None:
        low, high = decision.number_range
        return {"range": {"from": low, "to": high, "or_pass": len(decision.options) > high - low + 1}}
    labels = decision.labels(viewer)
    options = []
    for index, option in enumerate(decision.options[:LISTED_OPTIONS]):
        values = [] if option is PASS else option
        options.append({"index": index, "label": labels[index],
                        "targets": [value_targets(game, v, viewer) for v in values]})
    return {"options": options, "cut": max(0, len(decision.options) - LISTED_OPTIONS)}


def decision_of(game: Game, viewer) -> dict | None:
    """The pending decision as `viewer` sees it: who decides and, if they may answer it, its options."""
    decision = game.decision
    if decision is None:
        return None
    seen = {"name": decision.name, "player": decision.player, "group": list(decision.group), "yours": False}
    if viewer is EVERYTHING or decision.may_answer(viewer):
        seen["yours"] = True
        seen.update(options_of(game, decision, decision.player if viewer is EVERYTHING else viewer))
    return seen


def table_of(game: Game) -> dict:
    """What does not depend on the viewer: the game's title, players and their colours, the board.
    Not its seed: a seed deals every hand and orders every deck."""
    ruleset = game.ruleset
    return {"title": ruleset.manifest.title or ruleset.name, "game": ruleset.name,
            "players": list(game.players), "colours": player_colours(ruleset.program.players),
            "board": board_of(game)}


def state_of(game: Game, viewer) -> dict:
    """The game now, as `viewer` sees it: each zone a list of components (bottom first) or
    {"hidden": count}, the variables it may know, the pending decision."""
    if viewer is EVERYTHING:
        zones = {zone: [{"id": c.id, "kind": c.kind, "owner": c.owner, "props": c.props,
                         **({"face_down": True} if c.face_down else {})} for c in items]
                 for zone, items in game.state.zones.items()}
        variables = game.state.variables
    else:
        seen = observation(game, viewer)
        zones, variables = seen["zones"], seen["variables"]
    zones.pop(BOX, None)
    return {"turns": game.state.turns, "zones": plain(game, zones, viewer), "variables": plain(game, variables, viewer),
            "decision": decision_of(game, viewer)}
