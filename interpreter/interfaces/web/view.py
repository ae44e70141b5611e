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
from interpreter.content.table_view import table_view_of
from interpreter.interfaces.table_reading import Reading, player_colours, player_marks
from interpreter.interfaces.web.layout import positions
from interpreter.play.game import Game
from interpreter.play.visibility import observation

LISTED_OPTIONS = 2000  # the most options sent to the page (a longer list is cut, and says so)


def board_of(game: Game) -> dict:
    """The board as the page draws it: its shape, each location's place and attributes, the connections;
    with a table description, each location's label and colour."""
    board = game.ruleset.board
    shape, places = positions(board)
    nodes = board.graph.nodes
    shown = {"x", "y", "column", "row"}
    view, _ = table_view_of(game.ruleset)
    read = Reading(game, None, view, {}, {}) if view else None  # a location's label and colour are public
    return {
        "shape": shape,
        "locations": [{"name": n, "x": places[n][0], "y": places[n][1],
                       "attributes": {k: v for k, v in nodes[n].items() if k not in shown},
                       **({"label": read.site(n), "colour": read.site_colour(n)} if read else {})}
                      for n in board.locations],
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


def options_of(game: Game, decision: Decision, viewer, read: Reading | None = None) -> dict:
    """The options of `decision` for a viewer who may answer it: each label with the targets of each value,
    and its text in the game's words where the table description (`read`) gives one."""
    if decision.number_range is not None:
        low, high = decision.number_range
        return {"range": {"from": low, "to": high, "or_pass": len(decision.options) > high - low + 1}}
    labels = decision.labels(viewer)
    texts = read.option_texts(decision, labels, LISTED_OPTIONS) if read else []
    options = []
    for index, option in enumerate(decision.options[:LISTED_OPTIONS]):
        values = [] if option is PASS else option
        options.append({"index": index, "label": labels[index],
                        "targets": [value_targets(game, v, viewer) for v in values],
                        **({"text": texts[index]} if read and texts[index] else {})})
    return {"options": options, "cut": max(0, len(decision.options) - LISTED_OPTIONS)}


def decision_of(game: Game, viewer, read: Reading | None = None) -> dict | None:
    """The pending decision as `viewer` sees it: who decides and, if they may answer it, its options."""
    decision = game.decision
    if decision is None:
        return None
    seen = {"name": decision.name, "player": decision.player, "group": list(decision.group), "yours": False}
    if read and read.title(decision):
        seen["title"] = read.title(decision)
    if viewer is EVERYTHING or decision.may_answer(viewer):
        seen["yours"] = True
        deciding = decision.player if viewer is EVERYTHING else viewer
        seen.update(options_of(game, decision, deciding, read and Reading(game, deciding, read.view, read.zones,
                                                                            read.variables)))
    return seen


def table_of(game: Game) -> dict:
    """What does not depend on the viewer: the game's title, players and their colours, the board.
    Not its seed: a seed deals every hand and orders every deck."""
    ruleset = game.ruleset
    view, _ = table_view_of(ruleset)
    return {"title": ruleset.manifest.title or ruleset.name, "game": ruleset.name,
            "players": list(game.players), "colours": player_colours(ruleset.program.players, view),
            "marks": player_marks(ruleset.program.players, view), "board": board_of(game),
            "scores": [score.label for score in view.scores] if view else None}


def state_of(game: Game, viewer) -> dict:
    """The game now, as `viewer` sees it: each zone a list of components (bottom first) or
    {"hidden": count}, the variables it may know, the pending decision. With a table description
    (`table`): the turn line, the scores, each board's zones, each location's stack read in the game's
    words (`stacks`), and a card's text beside its kind."""
    if viewer is EVERYTHING:
        zones = {zone: [{"id": c.id, "kind": c.kind, "owner": c.owner, "props": c.props,
                         **({"face_down": True} if c.face_down else {})} for c in items]
                 for zone, items in game.state.zones.items()}
        variables = game.state.variables
    else:
        seen = observation(game, viewer)
        zones, variables = seen["zones"], seen["variables"]
    zones.pop(BOX, None)
    view, _ = table_view_of(game.ruleset)
    read = Reading(game, viewer, view, zones, variables) if view else None
    described = {}
    if read:
        grouped = view.stacks == "grouped"
        described = {"table": {"status": read.status(), "scores": read.scores(), "boards": read.boards()},
                     "stacks": {n: read.groups(zones[n], grouped) for n in game.ruleset.board.locations}}
        for items in zones.values():
            for item in items if isinstance(items, list) else ():
                if "kind" in item and read.piece_text(item) != item["kind"]:
                    item["text"] = read.piece_text(item)
    return {"turns": game.state.turns, "zones": plain(game, zones, viewer), "variables": plain(game, variables, viewer),
            "decision": decision_of(game, viewer, read), **described}
