"""Rule-of-thumb bots written as data: `rulesets/<game>/bots/<name>.yaml`.

For each decision it knows, the bot values every option with an expression of the rules
language, the option's values bound to the names of the `choose` (`site`, `card`...), `you`
to the deciding player, and the names the rule holds where it asks (its parameters and `let`s,
such as a move's `origin`), and picks the best (ties at random). `pass` is worth `passing` (0 unless
the file says otherwise). Decisions it does not know are decided at random.

    # rulesets/mygame/bots/greedy.yaml
    description: builds when it can
    all:                       # for every player
      craft: card.vp
    passing: {craft: -1}
    players:
      red:
        action: 'if action = "build" then 3 else 1'
"""
from __future__ import annotations

import random
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from interpreter.content.schema_errors import schema_diagnostics
from interpreter.content.yaml_source import position_of, read_yaml
from interpreter.diagnostics.diagnostic import Diagnostic, Position
from interpreter.diagnostics.errors import LudolexError, RuleRuntimeError
from interpreter.diagnostics.suggestions import did_you_mean
from interpreter.engine.decisions import PASS, Decision, render_value
from interpreter.language.failures import in_plain_words
from interpreter.safety.files import Boundary
from interpreter.safety.watchdog import WATCHDOG


class PolicyFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    description: str = ""
    all: dict[str, str] = {}
    players: dict[str, dict[str, str]] = {}
    passing: dict[str, int] = {}


def read_policy_file(path: Path, boundary: Boundary) -> tuple[PolicyFile, object]:
    """A bot file's entries, and its document (for positions); a LudolexError at each problem of its YAML or keys."""
    document = read_yaml(path, boundary)
    try:
        return PolicyFile.model_validate(document if document is not None else {}), document
    except ValidationError as error:
        raise LudolexError(schema_diagnostics(error, document, str(path), PolicyFile)) from None


class Policy:
    """The compiled expressions of a bot file, by player and decision name."""

    def __init__(self, path: Path, ruleset):
        spec, document = read_policy_file(path, ruleset.boundary or Boundary.of_ruleset(ruleset.directory))
        self.ruleset, self.passing = ruleset, spec.passing
        self.passing_positions = {name: position_of(document, ("passing", name), str(path)) for name in spec.passing}
        self.sources: dict[tuple[str | None, str], tuple[str, Position]] = {}
        for name, source in spec.all.items():
            self.sources[(None, name)] = (source, position_of(document, ("all", name), str(path), value=True))
        for player, decisions in spec.players.items():
            if player not in ruleset.program.players:
                raise LudolexError([Diagnostic("LX302", f"no player `{player}` in {ruleset.name}",
                                               position_of(document, ("players", player), str(path)))])
            for name, source in decisions.items():
                self.sources[(player, name)] = (source, position_of(document, ("players", player, name), str(path), value=True))
        self.compiled: dict[tuple, object] = {}  # (player or None, decision, names) -> f(rt, env)
        self._compile_all()

    def _compile_all(self) -> None:
        """Compile every entry for every form of its decision now, so that a mistake is reported
        before any game, with its file, line and column."""
        decisions = self.ruleset.program.symbols.decisions
        problems = []
        for (owner, name), (source, position) in self.sources.items():
            if name not in decisions:
                problems.append(Diagnostic("LX302", f"the rules ask no decision `{name}`", position,
                                           hint=did_you_mean(name, decisions)))
                continue
            for names, in_view in decisions[name].items():
                value, diagnostics = self.ruleset.program.compile_value(source, position.file, names + tuple(sorted(in_view)),
                                                                        position.line, position.column,
                                                                        expected=("score", f"the bot's value of `{name}`"))
                problems += [Diagnostic(d.code, d.message, position, hint=d.hint) for d in diagnostics]
                self.compiled[(owner, name, names)] = (value, position)
        for name in self.passing:
            if name not in decisions:
                problems.append(Diagnostic("LX302", f"the rules ask no decision `{name}`", self.passing_positions[name],
                                           hint=did_you_mean(name, decisions)))
        if problems:
            raise LudolexError(problems)

    def valuer(self, player: str, decision: Decision):
        """(a function (rt, env) -> value, where it is written) for this decision, or None when the
        bot does not know it."""
        key = (decision.name, decision.variables)
        found = self.compiled.get((player, *key))
        faction = self.ruleset.program.symbols.seats.get(player)
        if found is None and faction is not None:
            found = self._for_seat(player, faction, key)
        return found or self.compiled.get((None, *key))

    def _for_seat(self, seat: str, faction: str, key: tuple):
        """An extra seat values a decision as its faction's player does, each name of the faction's
        file meaning the seat's own copy; compiled the first time the seat meets the decision."""
        owner = faction if (faction, *key) in self.compiled else None if (None, *key) in self.compiled else ()
        if owner == ():
            return None
        name, names = key
        source, position = self.sources[(owner, name)]
        in_view = self.ruleset.program.symbols.decisions[name][names]
        value, _ = self.ruleset.program.compile_value(source, position.file, names + tuple(sorted(in_view)), position.line,
                                                      position.column, seat=seat)
        self.compiled[(seat, *key)] = (value, position)
        return self.compiled[(seat, *key)]


class PolicyAgent:
    def __init__(self, policy: Policy, game, seed: int):
        self.policy, self.game, self.rng = policy, game, random.Random(seed)

    def choose(self, decision: Decision) -> int:
        scores = self.scores(decision)
        if scores is None:
            return self.rng.randrange(len(decision.options))
        best = max(scores)
        return self.rng.choice([i for i, s in enumerate(scores) if s == best])

    def scores(self, decision: Decision) -> list[float] | None:
        """What the bot thinks each option of `decision` is worth; None when it does not know the decision."""
        found = self.policy.valuer(decision.player, decision)
        if found is None:
            return None
        value, position = found
        rt, names = self.game.runtime, decision.variables
        in_view = {**decision.origin[1], "you": decision.player} if decision.origin else {"you": decision.player}
        rt.running = True  # the bot's expressions are rules too: the watchdog stops one that never ends
        WATCHDOG.watch(rt)
        try:
            scores = [self.policy.passing.get(decision.name, 0) if option is PASS
                      else _number(value(rt, {**in_view, **dict(zip(names, option))}))
                      for option in decision.options]
        except RuleRuntimeError as error:  # at the bot's entry, unless it comes from a rules file the entry calls
            inside_rules = error.position is not None and error.position.file != position.file
            raise error if inside_rules else type(error)(position, error.message) from None
        except Exception as error:
            raise RuleRuntimeError(position, f"the bot's value of `{decision.name}`: {in_plain_words(error)}") from None
        finally:
            rt.running = False
        return scores


def _number(value) -> float:
    if value is True:
        return 1
    if value is None or value is False:
        return 0
    if type(value) is not int:
        raise TypeError(f"{render_value(value)} is not a number")
    return value


def policy_path(ruleset, name: str) -> Path:
    return bot_files(ruleset).get(name, ruleset.directory / "bots" / f"{name}.yaml")


def bot_names(ruleset) -> list[str]:
    return ["random"] + sorted(bot_files(ruleset))


def bot_files(ruleset) -> dict[str, Path]:
    """The rule-of-thumb bots of a ruleset's `bots/` folder, by name; a variant also plays its bases'
    (its own first, when both have one of that name)."""
    found: dict[str, Path] = {}
    for folder in (ruleset.directory, *ruleset.bases):
        for path in sorted((folder / "bots").glob("*.yaml")):
            found.setdefault(path.stem, path)
    return found
