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

import re
from dataclasses import dataclass
from pathlib import Path
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from interpreter.content.schema_errors import schema_diagnostics
from interpreter.content.yaml_source import position_of, read_yaml, read_yaml_fast
from interpreter.diagnostics.diagnostic import Position
from interpreter.diagnostics.errors import LudolexError
from interpreter.safety.files import Boundary

Counts = dict[str, dict[str, int]]  # owner -> kind -> how many
States = list[dict[str, object]]  # one mapping of properties per component, `{}` for none
Label = str | dict[str, dict[str, object]]  # "owner kind", or {"owner kind": {property: value, ...}}
NOBODY = "nobody"  # the owner key of ownerless components (cards, shared tokens) in `zones`


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StartSpec(Strict):
    """The game starts inside the rules: this procedure call, by this player, instead of `play:`."""
    call: str = Field(description='A procedure of the rules and its values: "battle(c5, eyrie)"')
    by: str | None = Field(None, description="The player who calls it (`you` in it)")


class PositionSpec(Strict):
    """The position laid out after `setup:`, before `play:`: what it names is emptied first, then filled."""
    variables: dict[str, object] = Field({}, description="Variables and their values: `{current: purple}`, "
                                                          "`{vp: {eyrie: 12}}` for one player's")
    board: dict[str, list[Label]] = Field({}, description="Each location's stack, bottom to top, each component "
                                                          "`owner kind` (or `kind`): `{a1: [green tree, purple deer]}`")
    # zone -> owner -> kind -> how many (or their states)
    zones: dict[str, dict[str, dict[str, int | States]]] = Field(
        {}, description="For each zone, each owner (`nobody` for shared components), how many of each kind (or a "
                        "list of their states): `{reserve: {green: {deer: 2}}}`")
    on_top: dict[str, list[Label]] = Field(
        {}, description="Components laid on top of zones, the first listed on top (a deck's next cards)")
    phase: str | None = Field(None, description="The first turn starts at this phase: the phases before it are skipped")
    start: StartSpec | None = Field(None, description="A procedure call the game starts with, instead of `play:`")


class DecisionSpec(Strict):
    """The decision pending."""
    name: str | None = Field(None, description="Its name in the rules (`choose ... as NAME`)")
    player: str | None = Field(None, description="The player who decides")
    options: list[str] | None = Field(None, description="Every option, in order, as labels: `[boar a2, pass]`")


class Expectation(Strict):
    """What must be true: each key checks one thing a player would check at the table."""
    board: dict[str, list[Label]] = Field({}, description="The exact stack of each location named, bottom to top; "
                                                          "`[]` for an empty one")
    zones: dict[str, Counts] = Field({}, description="For each zone and owner, the exact count of each kind "
                                                     "(`{}`: none at all)")
    values: dict[str, object] = Field({}, description="Expressions of the rules language, quoted, and their values: "
                                                      "`{'power(top(d1))': 1}`")
    decision: DecisionSpec | None = Field(None, description="The decision now pending")
    winner: str | list[str] | None = Field(None, description="The player who won, `draw`, or the players of a "
                                                             "shared win")
    ended_by: str | None = Field(None, description="How the game ended: `ranking`, `draw`, `green wins`, "
                                                   "`purple loses`, or the ending a rule named")
    scores: dict[str, int] = Field({}, description="The score of each player named")
    points: dict[str, dict[str, int]] = Field({}, description="For each player named, the points recorded for each "
                                                              "reason (`because`): `{marquise: {building: 2}}`")
    sees: dict[str, dict[str, bool]] = Field({}, description="For each player, zones as written in the rules and "
                                                             "whether that player sees what they hold")
    refused: str | None = Field(None, description="The game refuses to start with this table or these options: "
                                                  "words its error says (`seat vagabond too`); nothing else is checked")


class Checkpoint(Strict):
    """An `expect` among the choices: checked there, before the next choice."""
    expect: Expectation = Field(description="What must be true at this point")


class Fixtures(Strict):
    """Content only a test has: kinds changed as a variant's `overrides` change them, kinds added as
    a content file's `pieces` add them. Checked like content; the game outside the test never has them."""
    overrides: dict[str, dict[str, object]] = Field(
        {}, description="As a variant's: a kind, then each property (or field) and its new value")
    pieces: dict[str, object] = Field({}, description="Kinds only the test has, written as in a content file")


UNTIL = re.compile(r"end of turn|end of phase \w+|event \w+")


class Scenario(Strict):
    """One rule checked as a player would at the table: a position, the choices made, what must follow."""
    model_config = ConfigDict(extra="forbid", coerce_numbers_to_str=True)
    name: str = Field(description="What the scenario shows, as a sentence")
    rules: list[str] = Field(min_length=1, description="The rule IDs it checks (at least one)")
    seed: int = Field(0, description="The game's seed, for games with `shuffle` or `roll`")
    players: list[str] | None = Field(None, description="Who sits at the table, in seating order "
                                                        "[default: the game's table]")
    setup: bool = Field(True, description="false: skip `setup:`; the position lays out what matters")
    rolls: list[int] = Field([], description="Dice results, in order, before the seeded generator takes over")
    options: dict[str, str | int | bool] = Field({}, description="The game's options chosen otherwise than their "
                                                                  "default: `{ally_deck: C}`")
    until: str | None = Field(None, pattern=UNTIL.pattern,
                              description="After the last choice, play on to this point and stop there: `end of "
                                          "turn`, `end of phase NAME` or `event NAME`")
    fixtures: Fixtures | None = Field(None, description="Content only this test has")
    position: PositionSpec | None = Field(None, description="The position to start from [default: the normal start]")
    choices: list[str | Checkpoint | dict[str, str]] = Field(
        [], description="The choices to make, in order, each an option's label (`boar a2`), `DECISION: label` "
                        "(`place: boar a2`), with `by: PLAYER` to check who decides, or `{expect: ...}` checked there")
    expect: Expectation = Field(description="What must be true afterwards")
    _fixtures: tuple = PrivateAttr(default=())  # (the file, where the fixtures that apply are written in it)


class Defaults(Strict):
    """What every scenario of a file starts from, unless it says otherwise."""
    players: list[str] | None = Field(None, description="Who sits at the table, in seating order")
    setup: bool | None = Field(None, description="false: skip `setup:`")
    position: PositionSpec | None = Field(None, description="A position each scenario's own adds to, location by "
                                                            "location and zone by zone")


class ScenarioFile(Strict):
    """A file of scenario tests (`rulesets/<game>/tests/*.yaml`)."""
    defaults: Defaults | None = Field(None, description="What every scenario of the file starts from")
    fixtures: Fixtures | None = Field(None, description="Content only the tests have, for every scenario of the "
                                                        "file (a scenario's own add to them)")
    scenarios: list[Scenario] = Field([], description="The scenarios")

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
                                           on_top={**base.on_top, **own.on_top}, phase=own.phase or base.phase,
                                           start=own.start or base.start)
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
    _note_fixtures(parsed, document, path)
    return [LoadedScenario(s, position_of(document, ("scenarios", i), str(path))) for i, s in enumerate(parsed.scenarios)]


def parse_scenario_file(path: Path, boundary: Boundary | None = None) -> ScenarioFile:
    """The scenarios of a file, parsed fast; a LudolexError pointing at the problem otherwise."""
    boundary = boundary or scenario_boundary(path)
    document = read_yaml_fast(path, boundary) or {}
    try:
        parsed = ScenarioFile.model_validate(document)
    except ValidationError:
        document = read_yaml(path, boundary)
        try:
            parsed = ScenarioFile.model_validate(document if document is not None else {})
        except ValidationError as error:
            raise LudolexError(schema_diagnostics(error, document, str(path), ScenarioFile)) from None
    _note_fixtures(parsed, document, path)
    return parsed


def _note_fixtures(parsed: ScenarioFile, document, path: Path) -> None:
    """Each scenario keeps where the fixtures that apply to it are written (see scenarios/fixtures.py)."""
    for index, scenario in enumerate(parsed.scenarios):
        places = fixture_places(document, index)
        scenario._fixtures = (path, places) if places else ()


def fixture_places(document, index: int) -> tuple:
    """Where the fixtures that apply to scenario `index` of a scenario file are written: the file's, then its own."""
    places = []
    if isinstance(document, dict) and document.get("fixtures"):
        places.append(("fixtures",))
    scenarios = document.get("scenarios") if isinstance(document, dict) else None
    if isinstance(scenarios, list) and index < len(scenarios) and isinstance(scenarios[index], dict) \
            and scenarios[index].get("fixtures"):
        places.append(("scenarios", index, "fixtures"))
    return tuple(places)
