"""A loaded game: its manifest, content, board and compiled program, and the state a new game starts from."""
from __future__ import annotations

import random

from dataclasses import dataclass, field
from pathlib import Path

from interpreter.content.manifest import MANIFEST, Manifest
from interpreter.content.models import Content
from interpreter.diagnostics.diagnostic import Diagnostic
from interpreter.engine import board as boards
from interpreter.engine.state import BOX, Component, State, player_zone
from interpreter.language.program import Program
from interpreter.safety.files import Boundary, read_source_bytes


@dataclass
class Ruleset:
    name: str
    directory: Path
    manifest: Manifest
    content: Content
    board: boards.Board
    program: Program
    rule_files: list[Path]
    warnings: list[Diagnostic]
    policies: dict = field(default_factory=dict)  # rule-of-thumb bots loaded so far, by name
    bases: tuple[Path, ...] = ()  # a variant's base folder, that base's own base..., nearest first
    boundary: Boundary | None = None  # the files it may read (its folder and what its manifest names)

    def initial_state(self, seed: int, options: dict | None = None) -> State:
        """The components in their starting zones (only the kinds the chosen `options` give the game)."""
        state = State(seed=seed)
        state.rng.seed(seed)
        for zone in self.zone_names():
            state.zones[zone] = []
        options = self.program.chosen_options(options)
        for kind, spec in self.content.pieces.items():
            if not spec.in_game(options):
                continue
            for owner, number in spec.owned(self.content.players, self.content.seats).items():
                start = self._starting_zone(spec.starts_in, owner)
                zone = player_zone(start, owner) if self.program.zones[start][0] and owner else start
                for n in range(1, number + 1):
                    component = Component(f"{owner}-{kind}-{n}" if owner else f"{kind}-{n}", kind, owner, zone)
                    component.face_down = spec.face_down or start in self.program.face_down_zones
                    state.add(component)
        for zone in self.program.unordered:  # a bag's components start in no order anybody knows
            state.rng.shuffle(state.zones[zone])
        # nor do the face-down ones among themselves (else the content's order, kind by kind, would tell
        # which is which), mixed by a generator of their own: the game's draws stay what they were
        mixer = random.Random(f"{seed} face down")
        for items in state.zones.values():
            _mix_face_down(items, mixer)
        return state

    def _starting_zone(self, zone: str, owner: str | None) -> str:
        """Where a component starts: an extra seat's in its own copy of its faction's zone (`second_wanderer.camp`
        for `wanderer.camp`), unless the faction's seats share that zone (`zone quests common`)."""
        faction = self.content.seats.get(owner)
        if faction and zone.startswith(faction + "."):
            own = owner + zone[len(faction):]
            if own in self.program.zones:
                return own
        return zone

    def zone_names(self) -> list[str]:
        names = [BOX] + list(self.board.locations)
        for zone, (per_player, _) in self.program.zones.items():
            if zone == BOX:
                continue
            names += [player_zone(zone, p) for p in self.content.players] if per_player else [zone]
        return names

    def content_hash(self) -> str:
        """The version of the ruleset: a hash of its manifest (a variant's and its bases'), rules files and content files."""
        import hashlib

        digest = hashlib.sha256()
        boundary = self.boundary or Boundary.of_ruleset(self.directory)
        manifests = [folder / MANIFEST for folder in (self.directory, *self.bases)]
        for path in manifests + sorted(self.rule_files) + sorted(self.content.files):
            digest.update(path.name.encode() + b"\0" + read_source_bytes(path, boundary) + b"\0")
        return digest.hexdigest()[:16]

    def component_totals(self, options: dict | None = None) -> dict[tuple, int]:
        totals = {}
        options = self.program.chosen_options(options)
        for kind, spec in self.content.pieces.items():
            if not spec.in_game(options):
                continue
            for owner, number in spec.owned(self.content.players, self.content.seats).items():
                if number:
                    totals[(owner, kind)] = number
        return totals


def _mix_face_down(items: list, rng) -> None:
    """The face-down components of a zone, shuffled among the places they hold."""
    places = [i for i, component in enumerate(items) if component.face_down]
    if len(places) > 1:
        mixed = [items[i] for i in places]
        rng.shuffle(mixed)
        for i, component in zip(places, mixed):
            items[i] = component
