"""Scenario tests written as data: a position, a list of choices, the expected outcome.

A scenario file holds `scenarios:`, a list of entries like

    - name: a pushed token leaves the board and comes back on the other side
      rules: [XY-12]
      position:
        variables: {current: red}
        board: {d2: [blue stone]}
      choices:
        - place: pusher c2
        - {push: d2, by: red}       # `by` checks who makes the choice
      expect:
        board: {a2: [blue stone], d2: []}

Components are written "owner kind" (or "kind" for shared ones), stacks bottom to top.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from interpreter.content.schema_errors import schema_diagnostics
from interpreter.content.yaml_source import position_of, read_yaml, read_yaml_fast
from interpreter.diagnostics.diagnostic import Position
from interpreter.diagnostics.errors import LudolexError
from interpreter.safety.files import Boundary

Counts = dict[str, dict[str, int]]  # owner -> kind -> how many
NOBODY = "nobody"  # the owner key of ownerless components (cards, shared tokens) in `zones`


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PositionSpec(Strict):
    variables: dict[str, object] = {}
    board: dict[str, list[str]] = {}
    zones: dict[str, Counts] = {}
    on_top: dict[str, list[str]] = {}  # zone -> the components on its top, the first listed on top (a deck's next cards)
    phase: str | None = None  # the first turn starts at this phase: the phases before it are skipped


class DecisionSpec(Strict):
    name: str | None = None
    player: str | None = None
    options: list[str] | None = None


class Expectation(Strict):
    board: dict[str, list[str]] = {}
    zones: dict[str, Counts] = {}
    values: dict[str, object] = {}
    decision: DecisionSpec | None = None
    winner: str | list[str] | None = None  # a player, `draw`, or the players of a shared win
    ended_by: str | None = None  # "ranking", "draw", "<player> loses", "<player> wins", or the rules' `by` ending
    scores: dict[str, int] = {}
    points: dict[str, dict[str, int]] = {}  # player -> reason (`because`) -> the points recorded for it
    sees: dict[str, dict[str, bool]] = {}  # player -> zone (as written in the rules) -> whether they see its contents


class Scenario(Strict):
    model_config = ConfigDict(extra="forbid", coerce_numbers_to_str=True)
    name: str
    rules: list[str] = Field(min_length=1)
    seed: int = 0
    players: list[str] | None = None  # who sits at the table, in order (default: every player)
    setup: bool = True  # false: skip `setup:`, the position lays out what matters
    rolls: list[int] = []  # the dice results, in order, before the seeded generator takes over
    options: dict[str, str | int | bool] = {}  # the game's options chosen otherwise than their default
    until: Literal["end of turn"] | None = None  # stop when the turn of the last choice ends, to look at the state
    position: PositionSpec | None = None
    choices: list[str | dict[str, str]] = []
    expect: Expectation


class Defaults(Strict):
    """What every scenario of a file starts from, unless it says otherwise."""
    players: list[str] | None = None
    setup: bool | None = None
    position: PositionSpec | None = None


class ScenarioFile(Strict):
    defaults: Defaults | None = None
    scenarios: list[Scenario] = []

    @model_validator(mode="after")
    def apply_defaults(self):
        if self.defaults is not None:
            self.scenarios = [_with_defaults(s, self.defaults) for s in self.scenarios]
        return self


def _with_defaults(scenario: Scenario, defaults: Defaults) -> Scenario:
    given = scenario.model_fields_set
    changes = {key: getattr(defaults, key) for key in ("players", "setup")
               if key not in given and getattr(defaults, key) is not None}
    if defaults.position is not None:
        own = scenario.position or PositionSpec()
        base = defaults.position
        changes["position"] = PositionSpec(variables=merged(base.variables, own.variables),
                                           board={**base.board, **own.board}, zones={**base.zones, **own.zones},
                                           on_top={**base.on_top, **own.on_top}, phase=own.phase or base.phase)
    return scenario.model_copy(update=changes)


def with_faction_names(scenario: Scenario, symbols) -> Scenario:
    """The scenario with the zones and variables it names as the rules know them: a name local to
    one faction's file may be written bare (`stash` for `red.stash`)."""
    def names(table: dict) -> dict:
        return {symbols.outside_name(str(key)): value for key, value in table.items()}

    update = {}
    for part in ("position", "expect"):
        spec = getattr(scenario, part)
        if spec is not None:
            fields = {"zones": names(spec.zones)}
            if part == "position":
                fields |= {"variables": names(spec.variables), "on_top": names(spec.on_top)}
            update[part] = spec.model_copy(update=fields)
    return scenario.model_copy(update=update)


def merged(base: dict, own: dict) -> dict:
    """Variables: a per-player variable given for some players keeps the others' values."""
    merged = dict(base)
    for name, value in own.items():
        merged[name] = {**merged[name], **value} if isinstance(value, dict) and isinstance(merged.get(name), dict) else value
    return merged


@dataclass
class LoadedScenario:
    scenario: Scenario
    position: Position


def scenario_boundary(path: Path) -> Boundary:
    """Where a scenario file may be read from: the project of its ruleset (`<ruleset>/tests/<file>`)."""
    return Boundary.of_ruleset(path.parent.parent)


def load_scenarios(path: Path, boundary: Boundary | None = None) -> list[LoadedScenario]:
    document = read_yaml(path, boundary or scenario_boundary(path))
    try:
        parsed = ScenarioFile.model_validate(document if document is not None else {})
    except ValidationError as error:
        raise LudolexError(schema_diagnostics(error, document, str(path), ScenarioFile)) from None
    return [LoadedScenario(s, position_of(document, ("scenarios", i), str(path))) for i, s in enumerate(parsed.scenarios)]


def parse_scenario_file(path: Path, boundary: Boundary | None = None) -> ScenarioFile:
    """The scenarios of a file, parsed fast; a LudolexError pointing at the problem otherwise."""
    boundary = boundary or scenario_boundary(path)
    try:
        return ScenarioFile.model_validate(read_yaml_fast(path, boundary) or {})
    except ValidationError:
        document = read_yaml(path, boundary)
        try:
            return ScenarioFile.model_validate(document if document is not None else {})
        except ValidationError as error:
            raise LudolexError(schema_diagnostics(error, document, str(path), ScenarioFile)) from None
