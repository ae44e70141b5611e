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

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .content import schema_diagnostics
from .diagnostics import LudolexError, Position
from .game import Game
from .ruleset import Ruleset
from .state import BOX, player_zone
from .visibility import can_see
from .yaml_source import Boundary, Locator, position_of, read_yaml, read_yaml_fast

Counts = dict[str, dict[str, int]]  # owner -> kind -> how many
NOBODY = "nobody"  # the owner key of ownerless components (cards, shared tokens) in `zones`


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PositionSpec(Strict):
    variables: dict[str, object] = {}
    board: dict[str, list[str]] = {}
    zones: dict[str, Counts] = {}


class DecisionSpec(Strict):
    name: str | None = None
    player: str | None = None
    options: list[str] | None = None


class Expectation(Strict):
    board: dict[str, list[str]] = {}
    zones: dict[str, Counts] = {}
    values: dict[str, object] = {}
    decision: DecisionSpec | None = None
    winner: str | None = None
    ended_by: str | None = None  # "ranking", "draw", "<player> loses", "<player> wins"
    scores: dict[str, int] = {}
    sees: dict[str, dict[str, bool]] = {}  # player -> zone (as written in the rules) -> whether they see its contents


class Scenario(Strict):
    model_config = ConfigDict(extra="forbid", coerce_numbers_to_str=True)
    name: str
    rules: list[str] = Field(min_length=1)
    seed: int = 0
    players: list[str] | None = None  # who sits at the table, in order (default: every player)
    setup: bool = True  # false: skip `setup:`, the position lays out what matters
    rolls: list[int] = []  # the dice results, in order, before the seeded generator takes over
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
        changes["position"] = PositionSpec(variables=_merged(base.variables, own.variables),
                                           board={**base.board, **own.board}, zones={**base.zones, **own.zones})
    return scenario.model_copy(update=changes)


def _merged(base: dict, own: dict) -> dict:
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


class ScenarioFailure(AssertionError):
    pass


def run_scenario(ruleset: Ruleset, scenario: Scenario) -> Game:
    """Play the scenario; raise ScenarioFailure with a readable account of any difference."""
    arrange = (lambda game: arrange_position(game, scenario.position)) if scenario.position else None
    try:
        game = Game(ruleset, scenario.seed, arrange, scenario.players, run_setup=scenario.setup, rolls=scenario.rolls)
    except ValueError as error:
        raise ScenarioFailure(str(error)) from None
    for step, choice in enumerate(scenario.choices, 1):
        expected_player = choice.get("by") if isinstance(choice, dict) else None
        named = {k: v for k, v in choice.items() if k != "by"} if isinstance(choice, dict) else {}
        if isinstance(choice, dict) and len(named) != 1:
            raise ScenarioFailure(f"choice {step}: write one `decision: option` pair (and optionally `by: player`)")
        expected_name, label = next(iter(named.items())) if named else (None, choice)
        decision = game.decision
        if decision is None:
            raise ScenarioFailure(f"choice {step} ({label}): the game is over ({game.result.reason}), no decision is pending")
        if expected_name and decision.name != expected_name:
            raise ScenarioFailure(f"choice {step}: expected a `{expected_name}` decision, got `{decision.name}` "
                                  f"by {decision.player}: {', '.join(decision.labels())}")
        if expected_player and decision.player != expected_player:
            raise ScenarioFailure(f"choice {step}: expected {expected_player} to decide `{decision.name}`, "
                                  f"but {decision.player} decides it")
        try:
            game.choose(str(label))
        except ValueError as error:
            raise ScenarioFailure(f"choice {step}: {error}") from None
    check_expectation(game, scenario.expect)
    return game


def _component_label(component) -> str:
    return f"{component.owner} {component.kind}" if component.owner else component.kind


def _parse_label(label: str) -> tuple[str | None, str]:
    words = label.split()
    return (words[0], words[1]) if len(words) == 2 else (None, words[0])


def _zone_key(game: Game, zone: str, owner: str | None) -> str:
    per_player = game.ruleset.program.zones.get(zone, (False, ""))[0]
    return player_zone(zone, owner) if per_player and owner else zone


def arrange_position(game: Game, spec: PositionSpec) -> None:
    """Lay out the position: the stacks and zone contents it names, drawn from the game's components."""
    state = game.state
    state.variables.update(_merged(state.variables, spec.variables))
    pool: dict[tuple, list] = {}
    for component in state.components.values():
        pool.setdefault((component.owner, component.kind), []).append(component)
    wanted: dict[str, list] = {}
    for location, stack in spec.board.items():
        if location not in game.ruleset.board.index:
            raise ScenarioFailure(f"position: no location `{location}` on the board")
        wanted[location] = [_take(pool, *_parse_label(label)) for label in stack]
    for zone, owners in spec.zones.items():
        if zone not in game.ruleset.program.zones:
            raise ScenarioFailure(f"position: no zone `{zone}`")
        if not game.ruleset.program.zones[zone][0]:
            wanted.setdefault(zone, [])  # a shared zone named with nothing in it is emptied
        for owner, kinds in owners.items():
            owner = None if owner == NOBODY else owner
            key = _zone_key(game, zone, owner)
            items = wanted.setdefault(key, [])
            for kind, count in kinds.items():
                items += [_take(pool, owner, kind) for _ in range(count)]
    taken = {c.id for items in wanted.values() for c in items}
    for key, items in state.zones.items():
        kept = [c for c in items if c.id not in taken]
        if key in wanted:
            items[:] = []
            for c in kept:
                c.zone = BOX
            state.zones[BOX] += kept if key != BOX else []
        else:
            items[:] = kept
    for key, items in wanted.items():
        state.zones[key] = list(items)
        for c in items:
            c.zone = key
    state.changed()


def _take(pool, owner, kind):
    # a player's zone may hold ownerless components: a card in a hand is nobody's property
    candidates = pool.get((owner, kind)) or (pool.get((None, kind)) if owner is not None else None)
    if not candidates:
        raise ScenarioFailure(f"position: not enough `{owner} {kind}` components in the game")
    return candidates.pop(0)


def check_expectation(game: Game, expect: Expectation) -> None:
    problems = []
    state = game.state
    for location, stack in expect.board.items():
        actual = [_component_label(c) for c in state.zones.get(location, [])]
        if actual != stack:
            problems.append(f"{location}: expected {stack or 'empty'}, found {actual or 'empty'}")
    for zone, owners in expect.zones.items():
        for owner, kinds in owners.items():
            owner = None if owner == NOBODY else owner
            key = _zone_key(game, zone, owner)
            found: dict[str, int] = {}
            for c in state.zones.get(key, []):
                if c.owner == owner or key != zone:
                    found[c.kind] = found.get(c.kind, 0) + 1
            if {k: v for k, v in kinds.items() if v} != found:
                problems.append(f"{zone} of {owner}: expected {kinds}, found {found}")
    for source, value in expect.values.items():
        try:
            actual = game.evaluate(source)
        except (ValueError, LudolexError) as error:  # not an expression of these rules (validate says where)
            problems.append(f"{source}: {error}")
            continue
        if hasattr(actual, "id"):
            actual = _component_label(actual)
        if actual != value:
            problems.append(f"{source}: expected {value!r}, found {actual!r}")
    if expect.decision is not None:
        d = game.decision
        if d is None:
            problems.append(f"expected a pending decision, but the game is over ({game.result.reason})")
        else:
            spec = expect.decision
            if spec.name is not None and d.name != spec.name:
                problems.append(f"pending decision: expected `{spec.name}`, found `{d.name}`")
            if spec.player is not None and d.player != spec.player:
                problems.append(f"pending decision: expected {spec.player} to decide, found {d.player}")
            if spec.options is not None and d.labels() != spec.options:
                problems.append(f"pending decision options: expected {spec.options}, found {d.labels()}")
    if expect.winner is not None:
        if game.result is None:
            problems.append(f"expected the game over with winner {expect.winner}, but `{game.decision.name}` is pending")
        elif (game.result.winner or "draw") != expect.winner:
            problems.append(f"winner: expected {expect.winner}, found {game.result.winner or 'draw'}")
    if expect.ended_by is not None and (game.result is None or game.result.reason != expect.ended_by):
        problems.append(f"the game should have ended by `{expect.ended_by}`, "
                        f"found {game.result.reason if game.result else 'a game still going on'}")
    for player, zones in expect.sees.items():
        for source, visible in zones.items():
            if can_see(game, game.evaluate(source), player) != visible:
                problems.append(f"{player} should {'' if visible else 'not '}see what {source} holds")
    for player, score in expect.scores.items():
        actual = game.result.scores.get(player) if game.result else None
        if actual != score:
            problems.append(f"score of {player}: expected {score}, found {actual}")
    if problems:
        raise ScenarioFailure("\n".join(problems))


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


def check_scenarios(ruleset: Ruleset, path: Path, parsed: ScenarioFile | None = None) -> list:
    """Problems of meaning in a scenario file: names the game lacks, positions needing more components."""
    from .diagnostics import Diagnostic, did_you_mean

    boundary = Boundary.of_ruleset(ruleset.directory)
    parsed = parsed or parse_scenario_file(path, boundary)
    locate = Locator(path, boundary)
    found = []
    players, kinds = ruleset.content.players, ruleset.content.pieces
    totals = ruleset.component_totals()

    def where(*steps):
        return locate(*steps)

    def unknown(what, name, known, *steps):
        found.append(Diagnostic("LX327", f"the game has no {what} `{name}`", where(*steps), hint=did_you_mean(str(name), known)))

    def check_label(label, *steps):
        if len(label.split()) not in (1, 2):
            found.append(Diagnostic("LX327", f"`{label}` is not a component: write `owner kind` (or `kind`), "
                                    "one per item of the list", where(*steps), hint="is a comma missing?"))
            return None
        owner, kind = _parse_label(label)
        if kind not in kinds:
            unknown("kind of piece", kind, kinds, *steps)
            return None
        if owner is not None and owner not in players:
            unknown("player", owner, players, *steps)
            return None
        return owner, kind

    def check_player(name, *steps):
        if name is not None and name not in players and name != "draw":
            unknown("player", name, players, *steps)

    for i, scenario in enumerate(parsed.scenarios):
        for j, choice in enumerate(scenario.choices):
            if isinstance(choice, dict) and "by" in choice:
                check_player(choice["by"], "scenarios", i, "choices", j, "by")
        for part in ("position", "expect"):
            spec = getattr(scenario, part)
            if spec is None:
                continue
            needed: dict[tuple, int] = {}
            for location, stack in spec.board.items():
                if location not in ruleset.board.index:
                    unknown("location", location, ruleset.board.locations, "scenarios", i, part, "board", location)
                for j, label in enumerate(stack):
                    key = check_label(label, "scenarios", i, part, "board", location, j)
                    if key is not None:
                        needed[key] = needed.get(key, 0) + 1
            for zone, owners in spec.zones.items():
                if zone not in ruleset.program.zones:
                    unknown("zone", zone, ruleset.program.zones, "scenarios", i, part, "zones", zone)
                for owner, counts in owners.items():
                    if owner not in players and owner != NOBODY:
                        unknown("player", owner, players, "scenarios", i, part, "zones", zone, owner)
                        continue
                    for kind, count in counts.items():
                        if kind not in kinds:
                            unknown("kind of piece", kind, kinds, "scenarios", i, part, "zones", zone, owner, kind)
                            continue
                        holder = owner if (owner, kind) in totals else None  # ownerless cards in a player's zone
                        needed[(holder, kind)] = needed.get((holder, kind), 0) + count
            if part == "expect":
                for source in spec.values:
                    found += _expression_problems(ruleset, str(source), lambda: where("scenarios", i, "expect", "values", source))
                check_player(spec.winner, "scenarios", i, "expect", "winner")
                for player in spec.scores:
                    check_player(player, "scenarios", i, "expect", "scores", player)
                if spec.decision is not None:
                    check_player(spec.decision.player, "scenarios", i, "expect", "decision", "player")
            if part == "position":
                for name in spec.variables:
                    if name not in ruleset.program.symbols.variables:
                        unknown("variable", name, ruleset.program.symbols.variables, "scenarios", i, part, "variables", name)
            for (owner, kind), count in needed.items():
                have = totals.get((owner, kind), 0)
                if kind in kinds and count > have:
                    label = f"{owner} {kind}" if owner else kind
                    found.append(Diagnostic("LX328", f"the {part} needs {count} `{label}` but the game has {have}",
                                            where("scenarios", i, part)))
    return found


def _expression_problems(ruleset: Ruleset, source: str, where) -> list:
    """The diagnostics of an expression of the rules written in a scenario; `where()` finds its place,
    which is slow: only when there is a problem to report."""
    def problems(at: Position) -> list:
        try:
            return ruleset.program.compile_value(source, at.file, (), at.line, at.column)[1]
        except LudolexError as error:  # a syntax error
            return error.diagnostics

    return problems(where()) if problems(Position("", 1, 1)) else []
