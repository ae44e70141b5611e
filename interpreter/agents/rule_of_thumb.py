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
        passing: {action: -2}  # red's own worth of passing

A bot may also be a folder `bots/<name>/` (beside or instead of `<name>.yaml`) of files of the
same form, one per faction, each named for its player (`bots/greedy/red.yaml`): they are merged,
and a part named for a player the game does not have (a variant without that faction) is left out.
"""
from __future__ import annotations

import random
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from interpreter.content.schema_errors import schema_diagnostics
from interpreter.content.yaml_source import position_of, read_yaml, text_place
from interpreter.diagnostics.diagnostic import Diagnostic, Position
from interpreter.diagnostics.errors import LudolexError, RuleRuntimeError
from interpreter.diagnostics.suggestions import did_you_mean
from interpreter.engine.decisions import PASS, Decision, render_value
from interpreter.language.failures import in_plain_words
from interpreter.safety.files import Boundary
from interpreter.safety.watchdog import WATCHDOG


class PolicyFile(BaseModel):
    """A rule-of-thumb bot (`rulesets/<game>/bots/NAME.yaml`): each option of a decision it knows is
    worth the value of an expression of the rules language; the best option wins, ties at random."""
    model_config = ConfigDict(extra="forbid")
    description: str = Field("", description="How the bot plays, in a sentence")
    all: dict[str, str] = Field({}, description="For every player: each decision's name and the worth of an option, "
                                                "an expression of its values (`craft: card.vp`)")
    players: dict[str, dict[str, str | dict[str, int]]] = Field(  # a player's `passing` is a map, its decisions texts
        {}, description="For one player: as `all` (the player's own go first), and its own `passing`")
    passing: dict[str, int] = Field({}, description="What passing is worth at each decision [default: 0]")


def read_policy_file(path: Path, boundary: Boundary) -> tuple[PolicyFile, object]:
    """A bot file's entries, and its document (for positions); a LudolexError at each problem of its YAML or keys."""
    document = read_yaml(path, boundary)
    try:
        return PolicyFile.model_validate(document if document is not None else {}), document
    except ValidationError as error:
        raise LudolexError(schema_diagnostics(error, document, str(path), PolicyFile)) from None


def policy_parts(path: Path, players: list[str]) -> list[Path]:
    """A bot's files: `NAME.yaml` if there is one, then its folder's files (`NAME/*.yaml`) named for a
    player of the game."""
    parts = sorted(p for p in path.with_suffix("").glob("*.yaml") if p.stem in players)
    return ([path] if path.is_file() else []) + parts


class Policy:
    """The compiled expressions of a bot's files, by player and decision name."""

    def __init__(self, path: Path, ruleset):
        self.ruleset = ruleset
        self.sources: dict[tuple[str | None, str], tuple[str, Position]] = {}  # where its text starts
        self.blocks: set[Position] = set()  # where a text written as a block scalar (`|-`) starts
        self.passing: dict[tuple[str | None, str], int] = {}  # (player or None for every player, decision) -> worth
        self.passing_positions: dict[tuple[str | None, str], Position] = {}
        problems = []
        for part in policy_parts(path, ruleset.program.players):
            problems += self._read(part)
        if problems:
            raise LudolexError(problems)
        self.compiled: dict[tuple, object] = {}  # (player or None, decision, names) -> f(rt, env)
        self._compile_all()

    def _read(self, path: Path) -> list[Diagnostic]:
        """One file's entries added to the bot's; an entry another file gave already is a problem."""
        spec, document = read_policy_file(path, self.ruleset.boundary or Boundary.of_ruleset(self.ruleset.directory))
        file, problems = str(path), []

        def add(table: dict, key: tuple, value, where: Position) -> None:
            if key in table:
                whose = f"player `{key[0]}`'s" if key[0] else "every player's"
                problems.append(Diagnostic("LX301", f"{whose} `{key[1]}` is given twice in this bot", where))
            else:
                table[key] = value

        def add_text(key: tuple, source: str, *steps) -> None:  # an expression, kept with where its text starts
            where, block = text_place(document, steps, file)
            if block:  # its lines are indented alike; the empty ones it starts with are left out
                self.blocks.add(where)
                source = source.lstrip("\n")
            add(self.sources, key, (source, where), where)

        for name, worth in spec.passing.items():
            where = position_of(document, ("passing", name), file)
            add(self.passing, (None, name), worth, where)
            self.passing_positions.setdefault((None, name), where)
        for name, source in spec.all.items():
            add_text((None, name), source, "all", name)
        for player, decisions in spec.players.items():
            if player not in self.ruleset.program.players:
                problems.append(Diagnostic("LX302", f"no player `{player}` in {self.ruleset.name}",
                                           position_of(document, ("players", player), file)))
                continue
            for name, source in decisions.items():
                if isinstance(source, str):
                    add_text((player, name), source, "players", player, name)
                    continue
                if name != "passing":
                    problems.append(Diagnostic("LX205", f"`{name}` of player `{player}`: the value of a decision is "
                                               "an expression, written as a text",
                                               position_of(document, ("players", player, name), file, value=True)))
                    continue
                for decision, worth in source.items():
                    where = position_of(document, ("players", player, "passing", decision), file)
                    add(self.passing, (player, decision), worth, where)
                    self.passing_positions.setdefault((player, decision), where)
        return problems

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
                try:
                    value, diagnostics = self.ruleset.program.compile_value(
                        source, position.file, names + tuple(sorted(in_view)), position.line, position.column,
                        expected=("score", f"the bot's value of `{name}`"))
                except LudolexError as error:  # a syntax error
                    value, diagnostics = None, error.diagnostics
                for diagnostic in diagnostics:
                    placed = self._placed(diagnostic, position)
                    if placed not in problems:  # once, though each form of the decision is compiled
                        problems.append(placed)
                self.compiled[(owner, name, names)] = (value, position)
        for key, where in self.passing_positions.items():
            if key[1] not in decisions:
                problems.append(Diagnostic("LX302", f"the rules ask no decision `{key[1]}`", where,
                                           hint=did_you_mean(key[1], decisions)))
        if problems:
            raise LudolexError(problems)

    def _placed(self, diagnostic: Diagnostic, start: Position) -> Diagnostic:
        """A diagnostic of the text that starts at `start`, where it is in the file: the lines of a
        block scalar after its first are indented too."""
        at = diagnostic.position
        if at is None or at.file != start.file:
            at = start
        elif start in self.blocks and at.line > start.line:
            at = Position(at.file, at.line, at.column + start.column - 1, at.width)
        return Diagnostic(diagnostic.code, diagnostic.message, at, hint=diagnostic.hint)

    def passing_worth(self, player: str, decision: str) -> int:
        """What passing is worth to `player` (an extra seat: as to its faction's player): its own
        `passing`, else every player's, else 0."""
        faction = self.ruleset.program.symbols.seats.get(player, player)
        for key in ((player, decision), (faction, decision), (None, decision)):
            if key in self.passing:
                return self.passing[key]
        return 0

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
            passing = self.policy.passing_worth(decision.player, decision.name)
            scores = [passing if option is PASS
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
    """The rule-of-thumb bots of a ruleset's `bots/` folder, by name: each its file `NAME.yaml`, which
    may not exist where the bot is only a folder of parts (`NAME/`). A variant also plays its bases'
    (its own first, when both have one of that name)."""
    found: dict[str, Path] = {}
    for folder in (ruleset.directory, *ruleset.bases):
        bots = folder / "bots"
        for path in sorted([*bots.glob("*.yaml"), *(p.with_suffix(".yaml") for p in bots.glob("*") if p.is_dir())]):
            found.setdefault(path.stem, path)
    return found
