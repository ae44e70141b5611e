"""The state of a game: every component in exactly one zone, plus variables and the seeded RNG."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from interpreter.engine.memo import Memo


class Component:
    """A physical thing: a piece, token, card, die or marker."""

    __slots__ = ("id", "kind", "owner", "zone", "props", "face_down", "known_to")

    def __init__(self, id: str, kind: str, owner: str | None, zone: str):
        self.id = id
        self.kind = kind
        self.owner = owner
        self.zone = zone
        self.props: dict = {}
        self.face_down = False
        self.known_to: frozenset[str] = frozenset()  # players shown it while it is face down

    def __repr__(self) -> str:
        return f"<{self.id} in {self.zone}>"


BOX = "box"  # the game box: components out of play


def player_zone(zone: str, player: str) -> str:
    return f"{zone}/{player}"


@dataclass
class State:
    seed: int
    components: dict[str, Component] = field(default_factory=dict)
    zones: dict[str, list[Component]] = field(default_factory=dict)
    variables: dict = field(default_factory=dict)
    turns: int = 0
    revealed: list = field(default_factory=list)  # [player, zone, turn]: a zone shown to a player for that turn
    rng: random.Random = field(default_factory=random.Random)
    version: int = 0  # bumped on every change
    memo: Memo = field(default_factory=Memo, repr=False)  # derived values, each kept until what it read changes
    moved_kinds: set = field(default_factory=set, repr=False)  # kinds of the components moved so far (reports)

    def changed(self) -> None:
        """Something changed that is not said: every derived value is forgotten."""
        self.version += 1
        if self.memo.tables:  # (here and below: with no value kept, nothing to forget)
            self.memo.forget_all()

    # Changes that say what changed, after the rules made them: only the derived values that read it are forgotten.
    def variable_changed(self, name: str) -> None:
        """Variable `name` (or one player's value of it) was set."""
        self.version += 1
        if self.memo.tables:
            self.memo.forget_variable(name)

    def property_changed(self, name: str) -> None:
        """Property `name` of a component was set."""
        self.version += 1
        if self.memo.tables:
            self.memo.forget_property(name)

    def zone_changed(self, zone: str) -> None:
        """The order of `zone`, or the faces of its components, changed."""
        self.version += 1
        if self.memo.tables:
            self.memo.forget_zones(zone)

    def knowledge_changed(self) -> None:
        """Who knows what changed (a reveal): no derived value reads it, save those forgotten at every change."""
        self.version += 1
        if self.memo.tables:
            self.memo.forget_volatile()

    def add(self, component: Component) -> None:
        self.components[component.id] = component
        self.zones[component.zone].append(component)

    def move(self, component: Component, zone: str, at_bottom: bool = False) -> None:
        self.zones[component.zone].remove(component)
        target = self.zones[zone]
        if at_bottom:
            target.insert(0, component)
        else:
            target.append(component)
        self.version += 1
        if self.memo.tables:
            self.memo.forget_zones(component.zone, zone)
        component.zone = zone
        self.moved_kinds.add(component.kind)

    def to_json(self) -> dict:
        return {
            "seed": self.seed,
            "turns": self.turns,
            "revealed": [list(r) for r in self.revealed],
            "variables": _encode(self.variables),
            "zones": {name: [c.id for c in items] for name, items in self.zones.items()},
            "components": {c.id: _component_to_json(c) for c in self.components.values()},
            "rng": _rng_to_json(self.rng),
        }

    @classmethod
    def from_json(cls, data: dict) -> "State":
        state = cls(seed=data["seed"], turns=data["turns"], revealed=[list(r) for r in data.get("revealed", [])])
        for zone, ids in data["zones"].items():
            state.zones[zone] = []
            for cid in ids:
                spec = data["components"][cid]
                component = Component(cid, spec["kind"], spec["owner"], zone)
                component.props = spec["props"]  # decoded below, once every component exists
                component.face_down = spec.get("face_down", False)
                component.known_to = frozenset(spec.get("known_to", ()))
                state.add(component)
        for component in state.components.values():
            component.props = _decode(dict(component.props), state.components)
        state.variables = _decode(data["variables"], state.components)
        state.rng.setstate(_rng_from_json(data["rng"]))
        return state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    def check_invariants(self, expected_totals: dict[tuple, int]) -> None:
        """Every component in exactly one zone, and the number of each (owner, kind) unchanged."""
        seen: dict[str, str] = {}
        totals: dict[tuple, int] = {}
        for name, items in self.zones.items():
            for c in items:
                if c.id in seen:
                    raise AssertionError(f"{c.id} is in both {seen[c.id]} and {name}")
                if c.zone != name:
                    raise AssertionError(f"{c.id} thinks it is in {c.zone} but lies in {name}")
                seen[c.id] = name
                totals[(c.owner, c.kind)] = totals.get((c.owner, c.kind), 0) + 1
        if len(seen) != len(self.components):
            raise AssertionError("a component is in no zone")
        if totals != expected_totals:
            raise AssertionError(f"component totals changed: {totals} != {expected_totals}")


def _component_to_json(c: Component) -> dict:
    data = {"kind": c.kind, "owner": c.owner, "props": _encode(dict(c.props))}  # a property may hold a component
    if c.face_down:  # written only when set, so that saves from before face-down components still compare equal
        data["face_down"] = True
    if c.known_to:
        data["known_to"] = sorted(c.known_to)
    return data


def _encode(value):
    """Variables as JSON: a component is written as a reference to its id."""
    if isinstance(value, Component):
        return {"component": value.id}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    return value


def _decode(value, components: dict[str, Component]):
    if isinstance(value, dict) and set(value) == {"component"}:
        return components[value["component"]]
    if isinstance(value, list):
        return [_decode(v, components) for v in value]
    if isinstance(value, dict):
        return {k: _decode(v, components) for k, v in value.items()}
    return value


def _rng_to_json(rng: random.Random) -> list:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _rng_from_json(data: list) -> tuple:
    return (data[0], tuple(data[1]), data[2])
