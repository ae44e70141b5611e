"""Running a scenario: arrange its position, make its choices, check what a player would check at the table."""
from __future__ import annotations

import re

from interpreter.diagnostics.errors import LudolexError
from interpreter.engine.state import BOX, player_zone
from interpreter.loading.ruleset import Ruleset
from interpreter.play.game import Game
from interpreter.play.visibility import can_see
from interpreter.scenarios.files import NOBODY, Expectation, PositionSpec, Scenario, merged, with_faction_names


class ScenarioFailure(AssertionError):
    pass


def run_scenario(ruleset: Ruleset, scenario: Scenario) -> Game:
    """Play the scenario; raise ScenarioFailure with a readable account of any difference."""
    scenario = with_faction_names(scenario, ruleset.program.symbols)
    arrange = (lambda game: arrange_position(game, scenario.position)) if scenario.position else None
    try:
        game = Game(ruleset, scenario.seed, arrange, scenario.players, run_setup=scenario.setup, rolls=scenario.rolls,
                    options=scenario.options)
    except ValueError as error:
        raise ScenarioFailure(str(error)) from None
    if scenario.until and not scenario.choices:
        raise ScenarioFailure("`until: end of turn` needs choices: the turn of the last choice is the one to end")
    for step, choice in enumerate(scenario.choices, 1):
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
        if scenario.until and step == len(scenario.choices):
            game.runtime.pause_after_turn = True  # the last choice: play on to the end of this turn, then stop
        try:
            game.choose(str(label), by=expected_player or decision.player)
        except ValueError as error:
            raise ScenarioFailure(f"choice {step}: {error}") from None
    check_expectation(game, scenario.expect)
    return game


def _component_label(component) -> str:
    return f"{component.owner} {component.kind}" if component.owner else component.kind


FACE_DOWN = " face down"  # a position's label ending so lays the component face down: `fog_card face down`


def parse_label(label: str) -> tuple[str | None, str]:
    words = label.removesuffix(FACE_DOWN).split()
    return (words[0], words[1]) if len(words) == 2 else (None, words[0])


def _laid(pool, label: str):
    component = _take(pool, *parse_label(label))
    component.face_down = label.endswith(FACE_DOWN)
    return component


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
    for location, stack in spec.board.items():
        if location not in game.ruleset.board.index:
            raise ScenarioFailure(f"position: no location `{location}` on the board")
        wanted[location] = [_laid(pool, label) for label in stack]
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
    on_top = {_on_top_key(game, zone): [_laid(pool, label) for label in labels] for zone, labels in spec.on_top.items()}
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


def _stopped(game: Game) -> str:
    return "the game stopped at the end of the turn" if game.paused else f"the game is over ({game.result.reason})"


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
            pending = "the game stopped at the end of the turn" if game.paused else f"`{game.decision.name}` is pending"
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
