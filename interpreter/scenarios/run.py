"""Running a scenario: arrange its position, make its choices, check what a player would check at the table."""
from __future__ import annotations

from interpreter.diagnostics.errors import LudolexError, RuleRuntimeError
from interpreter.loading.ruleset import Ruleset
from interpreter.play.game import Game
from interpreter.scenarios import ScenarioFailure
from interpreter.scenarios.expectation import check_expectation, stopped
from interpreter.scenarios.files import Checkpoint, Scenario, with_faction_names
from interpreter.scenarios.fixtures import with_fixtures
from interpreter.scenarios.flow import pause_point, starting_call
from interpreter.scenarios.position import arrange_position

__all__ = ["ScenarioFailure", "check_expectation", "run_scenario"]


def run_scenario(ruleset: Ruleset, scenario: Scenario) -> Game | None:
    """Play the scenario; raise ScenarioFailure with a readable account of any difference. None: the
    game refused to start, as the scenario expects (`expect: {refused: ...}`)."""
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
        if scenario.expect.refused is not None and scenario.expect.refused in str(error):
            return None
        raise ScenarioFailure(str(error)) from None
    if scenario.expect.refused is not None:
        raise ScenarioFailure(f"expected the game to refuse to start ({scenario.expect.refused!r}), but it started")
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
            raise ScenarioFailure(f"choice {step} ({label}): {stopped(game)}, no decision is pending")
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
        where = stopped(game) if game.result else f"the game stopped at decision `{game.decision.name}`"
        raise ScenarioFailure(f"`until: {scenario.until}`: {where} before it got there")
    check_expectation(game, scenario.expect)
    return game
