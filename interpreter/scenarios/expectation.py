"""Checking what a scenario expects, as a player would at the table: stacks, zones, values, the
decision pending, the winner, scores, points and what each player sees."""
from __future__ import annotations

from interpreter.diagnostics.errors import LudolexError
from interpreter.engine.knowledge import knows
from interpreter.engine.state import Component
from interpreter.play.game import Game
from interpreter.play.visibility import can_see
from interpreter.scenarios import ScenarioFailure
from interpreter.scenarios.files import NOBODY, Expectation
from interpreter.scenarios.position import FACE, split_label, zone_key


def component_label(component) -> str:
    return f"{component.owner} {component.kind}" if component.owner else component.kind


def state_of(component, names: dict, properties: dict) -> dict:
    """The values of `names` (properties, `face`) that `component` has now; a component by its id."""
    values = {name: ("down" if component.face_down else "up") if name == FACE and FACE not in properties else
              component.props.get(name, properties.get(name)) for name in names}
    return {name: getattr(value, "id", value) for name, value in values.items()}


def stopped(game: Game) -> str:
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
        actual = [component_label(c) for c in found]
        if actual != [label for label, _ in expected]:
            problems.append(f"{location}: expected {[label for label, _ in expected] or 'empty'}, found {actual or 'empty'}")
            continue
        for component, (label, wanted) in zip(found, expected):
            have = state_of(component, wanted, game.ruleset.program.symbols.properties)
            if have != wanted:
                problems.append(f"{location}: expected {label} with {wanted}, found {have}")
    for zone, owners in expect.zones.items():
        for owner, kinds in owners.items():
            owner = None if owner == NOBODY else owner
            key = zone_key(game, zone, owner)
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
            actual = component_label(actual)
        if actual != value:
            problems.append(f"{source}: expected {value!r}, found {actual!r}")
    if expect.decision is not None:
        d = game.decision
        if d is None:
            problems.append(f"expected a pending decision, but {stopped(game)}")
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
            if isinstance(value, Component):  # one component: whether the player can tell which it is
                if knows(game.runtime, player, value) != visible:
                    problems.append(f"{player} should {'' if visible else 'not '}know which component {source} is")
                continue
            if not isinstance(value, str):
                problems.append(f"{source}: `sees` names a zone or a component, but this gives {value!r}")
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
