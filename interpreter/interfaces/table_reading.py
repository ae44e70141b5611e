"""A game read through its table description (`rulesets/<game>/table.yaml`, see `content/table_view.py`
and docs/tables.md), for the terminal and the web page alike: its turn line, each player's scores and
mark, the zones of each player's board, stacks and cards in its words, decisions in plain words.
Everything it shows comes from what the seat observes.
"""
from __future__ import annotations

from interpreter.content.table_view import BOARD, TableView, fill, table_view_of
from interpreter.engine.decisions import EVERYTHING, PASS, Decision
from interpreter.engine.knowledge import back_of, knows
from interpreter.engine.runtime import joined
from interpreter.engine.state import BOX, Component
from interpreter.play.game import Game
from interpreter.play.visibility import observation

PALETTE = ["green", "magenta", "cyan", "yellow", "red", "blue"]
RICH_COLOURS = {"green", "purple", "red", "blue", "yellow", "cyan", "magenta", "white", "orange1", "black"}


def player_colours(players: list[str], view: TableView | None = None) -> dict[str, str]:
    colours = {p: (p if p in RICH_COLOURS else PALETTE[i % len(PALETTE)]) for i, p in enumerate(players)}
    for player, look in (view.players.items() if view else ()):
        if look.colour and player in colours:
            colours[player] = look.colour
    return colours


def hidden_text(items: dict, shown: str) -> str:
    """A zone the viewer does not see (`{"hidden": n, "shown": [...]}`), with what was shown to them."""
    hidden = f"{items['hidden']} hidden" if items["hidden"] else "empty"
    return f"{hidden} (shown to you: {shown})" if shown else hidden


def player_marks(players: list[str], view: TableView | None = None) -> dict[str, str]:
    """Each player's mark, the cue beside their colour: the description's, else the first letter of
    their name not taken yet (`R` red, `B` blue), else a number."""
    given = {p: look.mark for p, look in (view.players.items() if view else ()) if look.mark}
    marks, taken = {}, set(given.values())
    for i, player in enumerate(players):
        if player in given:
            marks[player] = given[player]
            continue
        letters = [c.upper() for c in player if c.isalnum()] + [str(n) for n in range(1, 100)]
        marks[player] = next(c for c in letters if c not in taken)
        taken.add(marks[player])
    return marks


def zones_seen(game: Game, viewer) -> dict:
    """Each zone as `viewer` observes it (a list of components, or {"hidden": n}); EVERYTHING sees all."""
    if viewer is EVERYTHING:
        return {zone: [{"id": c.id, "kind": c.kind, "owner": c.owner, "props": c.props, "face_down": c.face_down}
                       for c in items] for zone, items in game.state.zones.items()}
    return observation(game, viewer)["zones"]


class Reading:
    """The game read for one viewer through a table description: the same for the terminal and the page.
    `zones` and `variables` are what the viewer observes (`zones_seen`, the observation's variables):
    nothing it shows comes from anywhere else, but the board's public attributes and components the
    viewer knows (`knows`)."""

    def __init__(self, game: Game, viewer, view: TableView, zones: dict, variables: dict):
        self.game, self.viewer, self.view, self.zones, self.variables = game, viewer, view, zones, variables

    def entry(self, kind: str):
        """The description's entry for a kind: its own, else the first of its traits'."""
        if kind in self.view.pieces:
            return self.view.pieces[kind]
        having = self.game.ruleset.program.kinds_with_trait
        return next((entry for name, entry in self.view.pieces.items() if kind in having.get(name, ())), None)

    # --- values as text --------------------------------------------------------------------------
    def knows(self, component: Component) -> bool:
        return self.viewer is EVERYTHING or knows(self.game.runtime, self.viewer, component)

    def text(self, value, attribute: str | None = None) -> str | None:
        """A value as the description reads it (a location by its label, a component by its name),
        or one of its attributes; None when it has none, or the viewer may not see it."""
        if isinstance(value, Component):
            if not self.knows(value):
                return None if attribute else back_of(self.game.runtime, value)
            if attribute is None:
                return self.piece_text({"kind": value.kind, "owner": value.owner, "props": value.props})
            fixed = self.game.ruleset.program.kind_properties.get(value.kind, {})
            return self.text(value.props.get(attribute, fixed.get(attribute)))
        if isinstance(value, str) and value in self.game.ruleset.board.index:
            return self.site(value) if attribute is None else self.text(self.game.ruleset.board.graph.nodes[value].get(attribute))
        if attribute is not None or value is None or value is False or value == 0 or value == [] or value == "":
            return None  # no value: a part of a template that names it is left out
        if value is True:
            return "yes"
        if isinstance(value, (list, tuple)):
            return ", ".join(t for t in (self.text(v) for v in value) if t) or None
        return str(value)

    def site(self, name: str) -> str:
        attributes = self.game.ruleset.board.graph.nodes[name]
        return fill(self.view.sites.label, lambda field, _: name if field == "name" else self.text(attributes.get(field))) or name

    def site_colour(self, name: str) -> str | None:
        sites = self.view.sites
        return sites.colours.get(str(self.game.ruleset.board.graph.nodes[name].get(sites.colour))) if sites.colour else None

    def piece_text(self, seen: dict) -> str:
        """One component as it reads: its text (from its properties, when the viewer knows it), else its name."""
        kind = seen.get("kind")
        if kind is None:
            return seen["back"]
        entry = self.entry(kind)
        if entry is not None and entry.text and "props" in seen:
            fixed = self.game.ruleset.program.kind_properties.get(kind, {})
            values = {**fixed, **seen["props"], "kind": self.name(kind), "owner": seen.get("owner")}
            return fill(entry.text, lambda field, _: self.text(values.get(field))) or self.name(kind)
        return self.name(kind)

    def name(self, kind: str, count: int = 1) -> str:
        entry = self.entry(kind)
        name = entry.name if entry and entry.name else kind
        if count == 1:
            return name
        return f"{count} {entry.plural if entry and entry.plural else name if name.endswith('s') else name + 's'}"

    # --- stacks and zones --------------------------------------------------------------------------
    def groups(self, items: list[dict], grouped: bool) -> list[dict]:
        """The components of a zone or a location (bottom first, as observed), top first, alike ones
        counted: each run of alike ones (`grouped` False), or all alike ones together."""
        found: list[dict] = []
        for seen in reversed(items):
            text = self.piece_text(seen)
            key = (seen.get("owner"), text, bool(seen.get("face_down")))
            alike = [g for g in (found if grouped else found[-1:]) if g["key"] == key]
            if alike:
                alike[0]["count"] += 1
                alike[0]["ids"] += [seen["id"]] if "id" in seen else []
                continue
            found.append({"key": key, "owner": seen.get("owner"), "kind": seen.get("kind"), "back": seen.get("back"),
                          "face_down": bool(seen.get("face_down")), "count": 1, "ids": [seen["id"]] if "id" in seen else [],
                          "plain": text == (seen.get("kind") and self.name(seen["kind"]))})  # named, not a text
        for group in found:
            text = group["key"][1]
            if group["count"] > 1:
                text = self.name(group["kind"], group["count"]) if group["plain"] else f"{group['count']}× {text}"
            group["text"] = f"({text})" if group["face_down"] else text
            del group["key"], group["plain"]
        return found

    def zone_text(self, items) -> str:
        if isinstance(items, dict):
            return hidden_text(items, ", ".join(g["text"] for g in self.groups(items.get("shown", []), True)))
        texts = [g["text"] for g in self.groups(items, True)]
        return ("; " if any(", " in text for text in texts) else ", ").join(texts) or "empty"

    def boards(self) -> list[tuple[str | None, list[str]]]:
        """The zones of each seated player's board, then the shared zones (owner None), then the others
        (owner ""), as the description orders them; empty zones left out if it says so."""
        zones, described = self.view.zones, set()
        per_player = self.game.ruleset.program.zones

        def named(zone: str, player: str | None) -> str:
            return f"{zone}/{player}" if per_player.get(zone, (False,))[0] and player else zone

        boards = []
        for player in self.game.players:
            boards.append((player, [named(z, player) for z in zones.each_player + zones.player.get(player, [])]))
        boards.append((None, [named(z, None) for z in zones.shared]))
        for _, listed in boards:
            described.update(listed)
        if zones.others == "show":
            board = self.game.ruleset.board.index
            boards.append(("", [z for z in self.zones if z not in described and z not in board and z != BOX]))
        return [(owner, [z for z in listed if z in self.zones and (zones.empty == "show" or not self.empty(z))])
                for owner, listed in boards]

    def empty(self, zone: str) -> bool:
        items = self.zones[zone]
        return not (items["hidden"] if isinstance(items, dict) else items)

    # --- scores and the turn line -----------------------------------------------------------------
    def scores(self) -> list[dict]:
        """Each seated player's scores (a text each: "" where not shown, "?" where not seen)."""
        rows = []
        for player in self.game.players:
            values = []
            for score in self.view.scores:
                if score.when and not self.variables.get(score.when, {}).get(player):
                    values.append("")
                elif score.variable:
                    value = self.variables.get(score.variable, {}).get(player)
                    values.append("?" if value is None else self.text(value) or ("no" if value is False else str(value)))
                else:
                    values.append(self.count(score, player))
            rows.append({"player": player, "values": values})
        return rows

    def count(self, score, player: str) -> str:
        program = self.game.ruleset.program
        kinds = None if score.kind is None else program.kinds_with_trait.get(score.kind, frozenset()) | {score.kind}
        if score.count == BOARD:
            places = [self.zones[n][-1:] if score.top else self.zones[n] for n in self.game.ruleset.board.locations]
            items = [seen for place in places for seen in place]
        else:
            zone = f"{score.count}/{player}" if program.zones[score.count][0] else score.count
            items = self.zones.get(zone, [])
            if isinstance(items, dict):  # a zone the viewer does not see: how many it holds, no more
                return str(items["hidden"]) if kinds is None and zone.endswith(f"/{player}") else "?"
            if zone.endswith(f"/{player}"):
                items = [dict(seen, owner=player) for seen in items]
        mine = [seen for seen in items if seen.get("owner") == player]
        if kinds is not None and any("kind" not in seen for seen in mine):
            return "?"
        return str(sum(1 for seen in mine if kinds is None or seen["kind"] in kinds))

    def phase(self) -> str | None:
        decision = self.game.decision
        entry = self.view.decisions.get(decision.name) if decision else None
        if entry is None or entry.phase is None:
            return None
        return entry.phase if isinstance(entry.phase, str) else entry.phase.get(decision.player)

    def status(self) -> str | None:
        decision = self.game.decision

        def value_of(field: str, attribute: str | None) -> str | None:
            if field == "turns":
                return str(self.game.state.turns)
            if field == "player":
                return joined(list(decision.group or [decision.player])) if decision else None
            if field == "phase":
                return self.phase()
            return self.text(self.variables.get(field), attribute)

        return fill(self.view.turn, value_of) if self.view.turn else None

    # --- decisions -----------------------------------------------------------------------------------
    def title(self, decision: Decision) -> str | None:
        entry = self.view.decisions.get(decision.name)
        return entry.title if entry else None

    def option_texts(self, decision: Decision, labels: list[str], limit: int | None = None) -> list[str | None]:
        """Each option in the description's words (None where that says no more than its label)."""
        return [self.option_text(decision, index, labels[index]) for index in range(min(len(labels), limit or len(labels)))]

    def option_text(self, decision: Decision, index: int, label: str) -> str | None:
        """Option `index` in the description's words: its `option` template, else each value as it reads
        (a location by its label, a component by its name); None where that is its label."""
        option = decision.options[index]
        if option is PASS:
            return None
        entry = self.view.decisions.get(decision.name)
        shown = decision.as_dict(index, self.viewer)  # as the label writes each value: a back for an unknown card
        values = dict(zip(decision.variables, option))

        def value_of(field: str, attribute: str | None) -> str | None:
            value = values.get(field)
            if isinstance(value, Component) and not self.knows(value):
                return None if attribute else shown[field]
            if attribute is None and isinstance(value, (int, bool)):
                return shown[field]  # a number chosen reads, 0 too
            return self.text(value, attribute)

        text = fill(entry.option, value_of) if entry and entry.option else None
        if text is None:
            text = " ".join(value_of(name, None) or shown[name] for name in decision.variables)
        return None if text == label else text


def reading(game: Game, viewer) -> Reading | None:
    """The game read through its table description, for `viewer`; None for a game without one."""
    view, _ = table_view_of(game.ruleset)
    if view is None:
        return None
    if viewer is EVERYTHING:
        return Reading(game, viewer, view, zones_seen(game, viewer), game.state.variables)
    seen = observation(game, viewer)
    return Reading(game, viewer, view, seen["zones"], seen["variables"])
