"""A game as tensors and actions, for learning agents: one mapping from any ruleset, the same for
OpenSpiel and PettingZoo (docs/agents.md says it in full).

The layout is worked out once, from the ruleset and the players at the table:
- **tokens**: what a component may show, `(kind, owner)` when one can tell which it is, `(back, owner)`
  when not (its back: the kind's `back`, else `hidden`), for every component of the content;
- **zones**: every zone of the game but another table's players' own, and those `left_out`.

An observation is one flat float32 vector of named blocks (`Layout.blocks`), worked out from what the
player may see and nothing else (`knows`, `sees_zone`, the variables they observe):
`seat`, `turn`, `decider`, `decision`, `options` (how many, the page), `variables`, `counts` (zone x
token), `unseen` (components in zones the player cannot see), `face_down`, `properties` (zone x
property: the sum of the rules' numeric and true/false properties), `listed` (the top components of
the zones whose order matters, one by one) and `slots`: for the decider alone, what each action slot
offers (its values' tokens, zones, players, kinds, numbers), where slots are `sorted`. An action is a
slot (`offered`): the options of a decision in the order of their labels as the decider reads them
(knowledge.handle), or each in the slot its label hashes to; a page of `actions - 1` at a time when
there are too many, the last slot turning the page.
"""
from __future__ import annotations

import functools
import zlib

import numpy as np

from interpreter.content.manifest import AgentEncoding
from interpreter.engine.decisions import PASS, Decision
from interpreter.engine.knowledge import UNKNOWN_BACK, back_of, knows, sees_zone
from interpreter.engine.state import Component
from interpreter.loading.ruleset import Ruleset
from interpreter.loading.stages import load_ruleset
from interpreter.play.visibility import variables_seen

TEXT_BUCKETS = 8  # a text value (`"yes"`) lights one of these, by a hash of its characters
BOARD = "board"  # in `listed`: every location of the map


class Layout:
    """Where each part of a game's view goes in the tensors, for one table of players."""

    def __init__(self, ruleset: Ruleset, players: list[str], options: dict | None = None):
        self.ruleset, self.players = ruleset, list(players)
        self.options = ruleset.program.chosen_options(options)
        spec = ruleset.manifest.encoding or AgentEncoding()
        self.actions, self.slot_mode = spec.actions, spec.slots
        program = ruleset.program
        seated = set(self.players)
        self.zones = [z for z in ruleset.zone_names() if _owner(z) in seated | {""}
                      and z.partition("/")[0] not in spec.left_out]
        self.zone_index = {z: i for i, z in enumerate(self.zones)}
        tokens: dict[tuple, int] = {}
        kinds: dict[str, int] = {}
        for owner, kind in ruleset.component_totals(self.options):  # another table's too: they lie somewhere
            for token in ((kind, owner), (program.backs.get(kind) or UNKNOWN_BACK, owner)):
                tokens.setdefault(token, len(tokens))
            kinds.setdefault(kind, len(kinds))
        self.tokens, self.kinds = tokens, kinds
        self.player_index = {p: i for i, p in enumerate(self.players)}
        self.properties = [name for name, default in program.symbols.properties.items()
                           if default is None or isinstance(default, (bool, int, float))]
        self.property_index = {name: i for i, name in enumerate(self.properties)}
        wanted = spec.variables
        self.variables = [(name, per_player) for name, per_player, _, _ in program.variables
                          if wanted is None or name in wanted]
        self.decisions = {name: i for i, name in enumerate(sorted(program.symbols.decisions))}
        self.listed = []  # (zone, depth), in the order of `zones`
        for zone in self.zones:
            depth = spec.listed.get(zone.partition("/")[0]) or (spec.listed.get(BOARD) if zone in ruleset.board.locations else None)
            if depth:
                self.listed.append((zone, depth))
        self.names = {name: i + 1 for i, name in enumerate([*self.players, *self.zones, *self.kinds])}
        n_players, n_zones, n_tokens = len(self.players), len(self.zones), len(tokens)
        self.slot_width = n_zones + n_tokens + len(kinds) + n_players + TEXT_BUCKETS + 3  # + number, pass, next page
        sizes = [("seat", n_players), ("turn", 1), ("decider", n_players), ("decision", len(self.decisions)),
                 ("options", 3), ("variables", sum(n_players if per else 1 for _, per in self.variables)),
                 ("counts", n_zones * n_tokens), ("unseen", n_zones), ("face_down", n_zones),
                 ("properties", n_zones * len(self.properties)),
                 ("listed", sum(depth for _, depth in self.listed) * (n_tokens + 1)),
                 ("slots", self.actions * self.slot_width if self.slot_mode == "sorted" else 0)]
        self.blocks: dict[str, slice] = {}
        start = 0
        for name, size in sizes:
            self.blocks[name] = slice(start, start + size)
            start += size
        self.size = start

    def __reduce__(self):  # pickled as what it is worked out from, the ruleset by its folder
        return layout_of, (str(self.ruleset.directory), self.players, self.options)

    # ---- the observation
    def observe(self, game, player: str, shown: tuple | None = None) -> np.ndarray:
        """`player`'s view of `game` as a vector. `shown`, for the player deciding: (the page, how many,
        the option of each slot: `offered`); by default the first page."""
        vector = np.zeros(self.size, np.float32)
        block = {name: vector[part] for name, part in self.blocks.items()}
        rt, n_tokens = game.runtime, len(self.tokens)
        block["seat"][self.player_index[player]] = 1
        block["turn"][0] = game.state.turns
        decision = game.decisions[0] if game.decisions else None
        if decision is not None:
            block["decider"][self.player_index[decision.player]] = 1
            if decision.name in self.decisions:
                block["decision"][self.decisions[decision.name]] = 1
            block["options"][0] = len(decision.options)
        self._variables(game, player, block["variables"])
        counted, summed = [], []  # flat places in `counts` and (place in `properties`, value), one per component seen
        unseen, face_down = block["unseen"], block["face_down"]
        n_properties, property_index = len(self.properties), self.property_index
        for z, zone in enumerate(self.zones):
            seen = sees_zone(rt, player, zone)
            for component in game.state.zones[zone]:
                if not (seen or player in component.known_to):
                    unseen[z] += 1
                    continue
                known = (seen and not component.face_down) or knows(rt, player, component)
                counted.append(z * n_tokens + self._token(rt, component, known))
                face_down[z] += component.face_down
                if known:
                    summed += [(z * n_properties + property_index[name], _number(value))
                               for name, value in component.props.items() if name in property_index]
        if counted:
            block["counts"][:] = np.bincount(counted, minlength=len(self.zones) * n_tokens)
        for place, value in summed:
            block["properties"][place] += value
        self._listed(game, player, block["listed"])
        own = next((d for d in game.decisions if d.player == player), None)  # theirs, if several decide at once
        if own is not None:
            page, pages, offered = shown or (0, self.pages(own), self.offered(own, 0))
            block["options"][1:] = page, pages
            if self.slot_mode == "sorted":  # a hashed slot keeps its option: the mask says which are offered
                self._slots(game, own, player, block["slots"].reshape(self.actions, self.slot_width), offered, pages)
        return vector

    def _token(self, rt, component: Component, known: bool) -> int:
        if known:
            return self.tokens[(component.kind, component.owner)]
        return self.tokens[(back_of(rt, component), component.owner)]

    def _variables(self, game, player: str, out: np.ndarray) -> None:
        seen, place = variables_seen(game, player), 0
        for name, per_player in self.variables:
            value = seen.get(name)
            if per_player:
                for p in self.players:
                    out[place] = self._scalar(value.get(p) if isinstance(value, dict) else None)
                    place += 1
            else:
                out[place] = self._scalar(value)
                place += 1

    def _scalar(self, value) -> float:
        """A variable's value as one number: itself, 0/1, a name's place among the players, zones and
        kinds (0 for none or another text), how many items a list holds."""
        if isinstance(value, str):
            return float(self.names.get(value, 0))
        if isinstance(value, (list, tuple, dict)):
            return float(len(value))
        return _number(value)

    def _listed(self, game, player: str, out: np.ndarray) -> None:
        if not self.listed:
            return
        rt, rows, place = game.runtime, out.reshape(-1, len(self.tokens) + 1), 0
        for zone, depth in self.listed:
            if sees_zone(rt, player, zone):
                for k, component in enumerate(reversed(game.state.zones[zone][-depth:])):
                    rows[place + k, self._token(rt, component, knows(rt, player, component))] = 1
                    rows[place + k, -1] = component.face_down
            place += depth

    # ---- the actions
    def order(self, decision: Decision) -> tuple[list[int] | range, list[str] | None]:
        """The options by their labels as the decider reads them (a number from a range, in its
        order), so that the slots say nothing the labels do not; and those labels (None for a range)."""
        if decision.number_range is not None:
            return range(len(decision.options)), None
        labels = decision.labels()
        return sorted(range(len(labels)), key=labels.__getitem__), labels

    def pages(self, decision: Decision) -> int:
        count = len(decision.options)
        fits = self.actions - (self.slot_mode == "hashed")
        return 1 if count <= fits else -(-count // (self.actions - 1))

    def offered(self, decision: Decision, page: int) -> list[int | None]:
        """The option (an index into the decision's) that each slot offers on `page`, None for an
        empty slot. `sorted`: the options in `order`, `actions - 1` a page when there are more than
        `actions`, the last slot turning the page. `hashed`: each option in the slot its label hashes
        to (the next free one if taken, the labels taken in order), so that an option keeps its slot
        from one decision to the next; paged as `sorted` when they do not fit."""
        (order, labels), pages = self.order(decision), self.pages(decision)
        if pages > 1:
            size = self.actions - 1
            return list(order[page * size:(page + 1) * size])
        if self.slot_mode == "sorted":
            return list(order)
        slots: list[int | None] = [None] * (self.actions - 1)
        labels = labels or decision.labels()  # a range short enough to hash, number by number
        for index in order:
            slot = zlib.crc32(f"{decision.name} {labels[index]}".encode()) % len(slots)
            while slots[slot] is not None:
                slot = (slot + 1) % len(slots)
            slots[slot] = index
        return slots

    def _slots(self, game, decision: Decision, player: str, out: np.ndarray, offered: list, pages: int) -> None:
        for slot, index in enumerate(offered):
            if index is None:
                continue
            option = decision.options[index]
            if option is PASS:
                out[slot, -2] = 1
            else:
                for value in option:
                    self._value(game.runtime, player, value, out[slot])
        if pages > 1:
            out[self.actions - 1, -1] = 1

    def _value(self, rt, player: str, value, row: np.ndarray) -> None:
        n_zones, n_tokens, n_kinds = len(self.zones), len(self.tokens), len(self.kinds)
        players_at = n_zones + n_tokens + n_kinds
        if isinstance(value, Component):
            token = (value.kind, value.owner) if knows(rt, player, value) else (back_of(rt, value), value.owner)
            if token in self.tokens:
                row[n_zones + self.tokens[token]] += 1
            if value.zone in self.zone_index:
                row[self.zone_index[value.zone]] += 1
        elif isinstance(value, (list, tuple)):
            for item in value:
                self._value(rt, player, item, row)
        elif isinstance(value, str):
            if value in self.zone_index:
                row[self.zone_index[value]] += 1
            elif value in self.kinds:
                row[n_zones + n_tokens + self.kinds[value]] += 1
            elif value in self.player_index:
                row[players_at + self.player_index[value]] += 1
            else:
                row[players_at + len(self.players) + zlib.crc32(value.encode()) % TEXT_BUCKETS] += 1
        elif isinstance(value, (bool, int, float)):
            row[-3] += float(value)


@functools.cache
def loaded(name: str) -> Ruleset:
    """A ruleset by name or folder, loaded once per process."""
    return load_ruleset(name)


def layout_of(folder: str, players: list[str], options: dict | None = None) -> Layout:
    return Layout(loaded(folder), players, options)


def _owner(zone: str) -> str:
    return zone.partition("/")[2]


def _number(value) -> float:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    return 0.0
