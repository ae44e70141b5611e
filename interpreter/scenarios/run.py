"""Running a scenario: arrange its position, make its choices, check what a player would check at the table."""
from __future__ import annotations

import inspect
import re

from interpreter.diagnostics.errors import LudolexError, RuleRuntimeError
from interpreter.engine.state import BOX, player_zone
from interpreter.loading.ruleset import Ruleset
from interpreter.play.game import Game
from interpreter.play.visibility import can_see
from interpreter.scenarios.files import (NOBODY, Checkpoint, Expectation, PositionSpec, Scenario, StartSpec, merged,
                                        with_faction_names)
from interpreter.scenarios.fixtures import with_fixtures


class ScenarioFailure(AssertionError):
    pass


def run_scenario(ruleset: Ruleset, scenario: Scenario) -> Game:
    """Play the scenario; raise ScenarioFailure with a readable account of any difference."""
    if scenario._fixtures:
        try:
            ruleset = with_fixtures(ruleset, *scenario._fixtures)
        except LudolexError as error:
            raise ScenarioFailure(f"fixtures: {error}") from None
    scenario = with_faction_names(scenario, ruleset.program.symbols)
    arrange = (lambda game: arrange_position(game, scenario.position)) if scenario.position else None
    start = scenario.position.start if scenario.position else None
    until = pause_point(scenario.until) if scenario.until else None
    choices = [c for c in scenario.choices if not isinstance(c, Checkpoint)]
    if scenario.until == "end of turn" and not choices:
        raise ScenarioFailure("`until: end of turn` needs choices: the turn of the last choice is the one to end")
    try:
        game = Game(ruleset, scenario.seed, arrange, scenario.players, run_setup=scenario.setup, rolls=scenario.rolls,
                    options=scenario.options, start=starting_call(ruleset, start) if start else None,
                    pause_at=until if not choices else None)
    except RuleRuntimeError as error:
        if isinstance(error.__cause__, ScenarioFailure):  # laying out the position, which runs inside the game
            raise error.__cause__ from None
        raise
    except (ValueError, LudolexError) as error:
        raise ScenarioFailure(str(error)) from None
    step = 0
    for choice in scenario.choices:
        if isinstance(choice, Checkpoint):
            try:
                check_expectation(game, choice.expect)
            except ScenarioFailure as failure:
                raise ScenarioFailure(f"after choice {step}:\n{failure}") from None
            continue
        step += 1
        expected_player = choice.get("by") if isinstance(choice, dict) else None
        named = {k: v for k, v in choice.items() if k != "by"} if isinstance(choice, dict) else {}
        if isinstance(choice, dict) and len(named) != 1:
            raise ScenarioFailure(f"choice {step}: write one `decision: option` pair (and optionally `by: player`)")
        expected_name, label = next(iter(named.items())) if named else (None, choice)
        decision = game.decision
        if decision is None:
            raise ScenarioFailure(f"choice {step} ({label}): {_stopped(game)}, no decision is pending")
        decision = next((d for d in game.decisions if d.player == expected_player), decision)  # several at once
        if expected_name and decision.name != expected_name:
            raise ScenarioFailure(f"choice {step}: expected a `{expected_name}` decision, got `{decision.name}` "
                                  f"by {decision.player}: {', '.join(decision.labels())}")
        if expected_player and not decision.may_answer(expected_player):  # the player, or any of a group
            raise ScenarioFailure(f"choice {step}: expected {expected_player} to decide `{decision.name}`, "
                                  f"but {' or '.join(decision.group) or decision.player} decides it")
        if until and step == len(choices):
            game.runtime.pause_at = until  # the last choice: play on to that point, then stop
        try:
            game.choose(str(label), by=expected_player or decision.player)
        except ValueError as error:
            raise ScenarioFailure(f"choice {step}: {error}") from None
    if until and not game.paused:
        where = _stopped(game) if game.result else f"the game stopped at decision `{game.decision.name}`"
        raise ScenarioFailure(f"`until: {scenario.until}`: {where} before it got there")
    check_expectation(game, scenario.expect)
    return game


def pause_point(until: str) -> tuple:
    """`end of turn`, `end of phase NAME`, `event NAME`, as the runtime names the point (Runtime.pause_at)."""
    words = until.split()
    return ("event", words[1]) if words[0] == "event" else ("end", words[-1])


def starting_call(ruleset: Ruleset, start: StartSpec):
    """`position.start`: the procedure call the game starts with instead of `play:`, as a function of the runtime."""
    call = re.fullmatch(r"\s*([\w.]+)\s*\((.*)\)\s*", start.call, re.S)
    program = ruleset.program
    if call:
        call = (program.symbols.outside_name(call.group(1)), call.group(2))
    if not call or call[0] not in program.procedures:
        known = ", ".join(sorted(n for n in program.procedures if not n.startswith("_"))[:10])
        raise ScenarioFailure(f"position: `start` calls `{start.call}`, which is not a procedure of the rules "
                              f"(write `name(values)`; procedures: {known}...)")
    name, sources = call[0], split_arguments(call[1])
    wanted = program.symbols.procedures[name]
    if len(sources) != wanted:
        raise ScenarioFailure(f"position: `start`: `{name}` takes {wanted} value(s), not {len(sources)}")
    values = []
    for source in sources:
        value, problems = program.compile_value(source)
        if problems:
            raise ScenarioFailure(f"position: `start: {start.call}`: " + "; ".join(p.message for p in problems))
        values.append(value)

    def run(rt):
        arguments = [value(rt, {"you": start.by}) for value in values]
        called = program.procedures[name](rt, start.by, *arguments)
        if inspect.isgenerator(called):
            yield from called

    return run


def split_arguments(text: str) -> list[str]:
    """The values of a call, `a, f(b, c), "d,e"`: split at the commas outside brackets and quotes."""
    parts, depth, quoted, current = [], 0, False, ""
    for character in text:
        if character == '"' and not current.endswith("\\"):
            quoted = not quoted
        elif not quoted and character in "([{":
            depth += 1
        elif not quoted and character in ")]}":
            depth -= 1
        elif not quoted and depth == 0 and character == ",":
            parts.append(current.strip())
            current = ""
            continue
        current += character
    return parts + [current.strip()] if current.strip() or parts else parts


def _component_label(component) -> str:
    return f"{component.owner} {component.kind}" if component.owner else component.kind


FACE_DOWN = " face down"  # a position's label ending so lays the component face down: `fog_card face down`


def parse_label(label: str) -> tuple[str | None, str]:
    words = label.removesuffix(FACE_DOWN).split()
    return (words[0], words[1]) if len(words) == 2 else (None, words[0])


FACE = "face"  # in a component's state, `face: down` (or `up`) lays it so, unless the rules declare a property `face`


def split_label(item) -> tuple[str, dict]:
    """A position's component: `"owner kind"`, or `{"owner kind": {property: value, ...}}` with its state."""
    if isinstance(item, dict):
        (label, state), = item.items()
        return str(label), plain(dict(state or {}))
    return item, {}


def _laid(pool, item, properties: dict, components: dict):
    label, state = split_label(item)
    component = _take(pool, *parse_label(label))
    component.face_down = label.endswith(FACE_DOWN)
    _set_state(component, state, properties, components)
    return component


def _set_state(component, state: dict, properties: dict, components: dict) -> None:
    """Give `component` the state a position writes: its face, and values of the rules' `property`s (a
    component's id, `a0224_stone-1`, for a property that holds a component)."""
    for name, value in state.items():
        if name == FACE and FACE not in properties:
            if value not in ("up", "down"):
                raise ScenarioFailure(f"position: `face` of `{component.kind}` is `up` or `down`, not `{value}`")
            component.face_down = value == "down"
        elif name not in properties:
            raise ScenarioFailure(f"position: no property `{name}` (declared with `property` in the rules) "
                                  f"to set on `{component.kind}`")
        else:
            component.props[name] = components.get(value, value) if isinstance(value, str) else value


def _zone_key(game: Game, zone: str, owner: str | None) -> str:
    per_player = game.ruleset.program.zones.get(zone, (False, ""))[0]
    return player_zone(zone, owner) if per_player and owner else zone


def arrange_position(game: Game, spec: PositionSpec) -> None:
    """Lay out the position: the stacks and zone contents it names, drawn from the game's components."""
    state = game.state
    state.variables.update(merged(state.variables, plain(spec.variables)))
    pool: dict[tuple, list] = {}
    for component in state.components.values():
        pool.setdefault((component.owner, component.kind), []).append(component)
    wanted: dict[str, list] = {}
    properties = game.ruleset.program.symbols.properties
    for location, stack in spec.board.items():
        if location not in game.ruleset.board.index:
            raise ScenarioFailure(f"position: no location `{location}` on the board")
        wanted[location] = [_laid(pool, item, properties, state.components) for item in stack]
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
                states = count if isinstance(count, list) else [{}] * count  # `sword: [{exhausted: true}, {}]`
                for given in states:
                    items.append(_take(pool, owner, kind))
                    _set_state(items[-1], plain(dict(given)), properties, state.components)
    on_top = {_on_top_key(game, zone): [_laid(pool, item, properties, state.components) for item in items]
              for zone, items in spec.on_top.items()}
    taken = {c.id for items in list(wanted.values()) + list(on_top.values()) for c in items}
    emptied = []  # what the zones named by the position held and no longer hold: it goes to the box
    for key, items in state.zones.items():
        kept = [c for c in items if c.id not in taken]
        if key in wanted and key != BOX:
            items[:] = []
            emptied += kept
        else:
            items[:] = kept
    state.zones[BOX] = wanted.pop(BOX, []) + state.zones[BOX] + emptied  # the box keeps what no zone lists
    for key, items in wanted.items():
        state.zones[key] = list(items)
    for zone, items in on_top.items():
        if zone not in state.zones:
            raise ScenarioFailure(f"position: `on_top` names `{zone}`, which is not a zone of the game")
        state.zones[zone] += reversed(items)  # the first listed ends on top
    for key, items in state.zones.items():
        for c in items:
            c.zone = key
    if spec.phase:
        game.runtime.start_phase = spec.phase
    state.changed()


def plain(value):
    """A value read from YAML as the rules' own: a number the YAML library wraps (to keep its
    spelling) is a plain int, so that it compares and sorts like any number of the game."""
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, str):
        return str(value)
    return value


def _on_top_key(game: Game, name: str) -> str:
    """`deck`, or a player's zone written as in the rules, `bag(alice)`."""
    key = on_top_zone(game.ruleset.program, name)
    if key is None and "(" in name:
        raise ScenarioFailure(f"position: `on_top` names `{name}`, which is not a player's zone of the game")
    return key or name


def on_top_zone(program, name: str) -> str | None:
    """The zone an `on_top` key names (`deck`, or a player's zone as the rules write it, `bag(alice)`),
    as the state names it; None if the game has no such zone."""
    match = re.fullmatch(r"\s*([\w.]+)\s*\(\s*(\w+)\s*\)\s*", name)
    if not match:
        return name if name in program.zones and not program.zones[name][0] else None
    zone, player = match.groups()
    if not program.zones.get(zone, (False, ""))[0] or player not in program.players:
        return None
    return player_zone(zone, player)


def _take(pool, owner, kind):
    # a player's zone may hold ownerless components: a card in a hand is nobody's property
    candidates = pool.get((owner, kind)) or (pool.get((None, kind)) if owner is not None else None)
    if not candidates:
        raise ScenarioFailure(f"position: not enough `{owner} {kind}` components in the game")
    return candidates.pop(0)


def _state_of(component, names: dict, properties: dict) -> dict:
    """The values of `names` (properties, `face`) that `component` has now; a component by its id."""
    values = {name: ("down" if component.face_down else "up") if name == FACE and FACE not in properties else
              component.props.get(name, properties.get(name)) for name in names}
    return {name: getattr(value, "id", value) for name, value in values.items()}


def _stopped(game: Game) -> str:
    return "the game stopped where `until` asks" if game.paused else f"the game is over ({game.result.reason})"


_UNREADABLE = object()  # what `_evaluated` gives for a source that is not an expression of the rules


def _evaluated(game: Game, source: str, problems: list[str]):
    """The value of the expression `source` now, or _UNREADABLE with the problem noted (validate says where)."""
    try:
        return game.evaluate(source)
    except (ValueError, LudolexError) as error:
        problems.append(f"{source}: {error}")
        return _UNREADABLE


def check_expectation(game: Game, expect: Expectation) -> None:
    problems = []
    state = game.state
    for location, stack in expect.board.items():
        found = state.zones.get(location, [])
        expected = [split_label(item) for item in stack]
        actual = [_component_label(c) for c in found]
        if actual != [label for label, _ in expected]:
            problems.append(f"{location}: expected {[label for label, _ in expected] or 'empty'}, found {actual or 'empty'}")
            continue
        for component, (label, wanted) in zip(found, expected):
            have = _state_of(component, wanted, game.ruleset.program.symbols.properties)
            if have != wanted:
                problems.append(f"{location}: expected {label} with {wanted}, found {have}")
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
        actual = _evaluated(game, source, problems)
        if actual is _UNREADABLE:
            continue
        if hasattr(actual, "id"):
            actual = _component_label(actual)
        if actual != value:
            problems.append(f"{source}: expected {value!r}, found {actual!r}")
    if expect.decision is not None:
        d = game.decision
        if d is None:
            problems.append(f"expected a pending decision, but {_stopped(game)}")
        else:
            spec = expect.decision
            if spec.name is not None and d.name != spec.name:
                problems.append(f"pending decision: expected `{spec.name}`, found `{d.name}`")
            if spec.player is not None and not d.may_answer(spec.player):
                problems.append(f"pending decision: expected {spec.player} to decide, found "
                                f"{' or '.join(d.group) or d.player}")
            if spec.options is not None and d.labels() != spec.options:
                problems.append(f"pending decision options: expected {spec.options}, found {d.labels()}")
    if expect.winner is not None:
        if game.result is None:
            pending = "the game stopped where `until` asks" if game.paused else f"`{game.decision.name}` is pending"
            problems.append(f"expected the game over with winner {expect.winner}, but {pending}")
        else:  # `winner: red`, `winner: draw` (no winner) or `winner: [red, blue]` (a shared win)
            expected = expect.winner if isinstance(expect.winner, list) else [] if expect.winner == "draw" else [expect.winner]
            if set(game.result.winners) != set(expected):
                def shown(players):
                    return " and ".join(players) or "draw"
                problems.append(f"winner: expected {shown(expected)}, found {shown(game.result.winners)}")
    if expect.ended_by is not None and (game.result is None or expect.ended_by not in (game.result.reason, game.result.ending)):
        found = f"{game.result.reason} ({game.result.ending or 'no `by`'})" if game.result else "a game still going on"
        problems.append(f"the game should have ended by `{expect.ended_by}`, found {found}")
    for player, zones in expect.sees.items():
        for source, visible in zones.items():
            value = _evaluated(game, source, problems)
            if value is _UNREADABLE:
                continue
            if not isinstance(value, str):
                problems.append(f"{source}: `sees` names a zone, but this gives {value!r}")
                continue
            if can_see(game, value, player) != visible:
                problems.append(f"{player} should {'' if visible else 'not '}see what {source} holds")
    for player, score in expect.scores.items():
        actual = game.result.scores.get(player) if game.result else None
        if actual != score:
            problems.append(f"score of {player}: expected {score}, found {actual}")
    for player, reasons in expect.points.items():
        actual = game.runtime.points_by_reason.by_player.get(player, {})
        if actual != {reason: n for reason, n in reasons.items() if n}:
            problems.append(f"points of {player} by reason: expected {reasons or 'none'}, found {actual or 'none'}")
    if problems:
        raise ScenarioFailure("\n".join(problems))
