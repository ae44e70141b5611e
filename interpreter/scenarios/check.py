"""Checking a scenario file against its ruleset before it runs: names the game lacks, positions it cannot set."""
from __future__ import annotations

import json
from pathlib import Path

from interpreter.content.yaml_source import Locator
from interpreter.diagnostics.diagnostic import Diagnostic, Position
from interpreter.diagnostics.errors import LudolexError
from interpreter.diagnostics.suggestions import did_you_mean
from interpreter.loading.ruleset import Ruleset
from interpreter.safety.files import Boundary
from interpreter.scenarios.files import NOBODY, ScenarioFile, parse_scenario_file, with_faction_names
from interpreter.scenarios.run import FACE_DOWN, on_top_zone, parse_label


def check_scenarios(ruleset: Ruleset, path: Path, parsed: ScenarioFile | None = None) -> list:
    """Problems of meaning in a scenario file: names the game lacks, positions needing more components."""
    boundary = ruleset.boundary or Boundary.of_ruleset(ruleset.directory)
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
        if len(label.removesuffix(FACE_DOWN).split()) not in (1, 2):
            found.append(Diagnostic("LX327", f"`{label}` is not a component: write `owner kind` (or `kind`), "
                                    "one per item of the list", where(*steps), hint="is a comma missing?"))
            return None
        owner, kind = parse_label(label)
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
        scenario = with_faction_names(scenario, ruleset.program.symbols)
        for j, name in enumerate(scenario.players or []):
            check_player(name, "scenarios", i, "players", j)
        for j, choice in enumerate(scenario.choices):
            if isinstance(choice, dict) and "by" in choice:
                check_player(choice["by"], "scenarios", i, "choices", j, "by")
        for name, value in scenario.options.items():
            try:
                ruleset.program.chosen_options({name: value})
            except ValueError as error:
                found.append(Diagnostic("LX332", str(error), where("scenarios", i, "options", name)))
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
            for zone, labels in getattr(spec, "on_top", {}).items():
                if on_top_zone(ruleset.program, zone) is None:
                    unknown("zone (or player's zone, `bag(alice)`)", zone, ruleset.program.zones,
                            "scenarios", i, part, "on_top", zone)
                for j, label in enumerate(labels):
                    key = check_label(label, "scenarios", i, part, "on_top", zone, j)
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
                for player, sources in spec.sees.items():
                    check_player(player, "scenarios", i, "expect", "sees", player)
                    for source in sources:
                        found += _expression_problems(ruleset, str(source),
                                                      lambda: where("scenarios", i, "expect", "sees", player, source))
                if isinstance(spec.winner, list):
                    for j, name in enumerate(spec.winner):
                        check_player(name, "scenarios", i, "expect", "winner", j)
                else:
                    check_player(spec.winner, "scenarios", i, "expect", "winner")
                for table in ("scores", "points"):
                    for player in getattr(spec, table):
                        check_player(player, "scenarios", i, "expect", table, player)
                if spec.decision is not None:
                    check_player(spec.decision.player, "scenarios", i, "expect", "decision", "player")
            if part == "position":
                for name, value in spec.variables.items():
                    if name not in ruleset.program.symbols.variables:
                        unknown("variable", name, ruleset.program.symbols.variables, "scenarios", i, part, "variables", name)
                    elif ruleset.program.symbols.variable_types.get(name) == "number":
                        found += _not_numbers(name, value, ruleset.program.symbols.variables[name],
                                              lambda *steps: where("scenarios", i, part, "variables", name, *steps))
            for (owner, kind), count in needed.items():
                have = totals.get((owner, kind), 0)
                if kind in kinds and count > have:
                    label = f"{owner} {kind}" if owner else kind
                    found.append(Diagnostic("LX328", f"the {part} needs {count} `{label}` but the game has {have}",
                                            where("scenarios", i, part)))
    return found


def _not_numbers(name: str, value, per_player: bool, where) -> list:
    """LX323 for a text (or true or false) given to a variable that starts as a number: the rules
    would compute with it."""
    values = value.items() if per_player and isinstance(value, dict) else [((), value)]
    return [Diagnostic("LX323", f"variable `{name}` holds a number (it starts as one), not {json.dumps(item)}",
                       where(*((player,) if player != () else ())))
            for player, item in values if isinstance(item, (str, bool))]


def _expression_problems(ruleset: Ruleset, source: str, where) -> list:
    """The diagnostics of an expression of the rules written in a scenario; `where()` finds its place,
    which is slow: only when there is a problem to report."""
    def problems(at: Position) -> list:
        try:
            return ruleset.program.compile_value(source, at.file, (), at.line, at.column)[1]
        except LudolexError as error:  # a syntax error
            return error.diagnostics

    return problems(where()) if problems(Position("", 1, 1)) else []
