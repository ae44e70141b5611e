"""A game in progress: run the rules until a player must decide, then resume with `choose`.

    from interpreter import load, Game
    game = Game(load("rulesets/mygame"), seed=7)
    game.decision.name, game.decision.player, game.decision.labels()   # ('place', 'red', ['stone a1', ...])
    game.choose("stone c2")
"""
from __future__ import annotations

import json
import random
from typing import Callable, Iterator, Sequence

from interpreter.diagnostics.errors import RefusedTable, RuleRuntimeError
from interpreter.engine.decisions import Decision, Simultaneous
from interpreter.engine.runtime import EndTurn, GameOver, Pause, Result, Return, Runtime, TableRefused
from interpreter.engine.state import State
from interpreter.loading.ruleset import Ruleset
from interpreter.play.replaying import Replaying
from interpreter.play.why_not import WhyNot, why_not
from interpreter.safety.watchdog import WATCHDOG


def seating(ruleset: Ruleset, players: list[str] | None) -> list[str]:
    """The players at the table, in seating order: some of the content's players, each once."""
    known = ruleset.program.players
    if players is None:
        return list(ruleset.program.table)
    unknown = [p for p in players if p not in known]
    if unknown:
        raise ValueError(f"no player `{unknown[0]}` in {ruleset.name} (players: {', '.join(known)})")
    if len(set(players)) != len(players) or not players:
        raise ValueError("name each player once, at least one")
    for player in players:
        barred = [q for q in ruleset.program.excludes.get(player, ()) if q in players]
        if barred:
            raise ValueError(f"`{player}` cannot sit at a table with `{barred[0]}` ({ruleset.name}'s content excludes it)")
    for seat, faction in ruleset.program.seats.items():
        if seat in players and faction not in players:
            raise ValueError(f"`{seat}` is a second seat of `{faction}`'s faction: seat `{faction}` too")
    return list(players)


class Game:
    """One game of a loaded ruleset, run until a player must decide.

    `decision` is the pending `Decision` (None once the game is `finished`); `choose` answers it and
    runs the rules to the next one. `result` is the `Result` (winner, scores, reason) once finished.
    `state` holds every component and variable; `log` the index of every choice so far, from which
    `replay` rebuilds the game (with its seed: the same seed and choices give the same game).
    """

    def __init__(self, ruleset: Ruleset, seed: int = 0, position: Callable[[Game], None] | None = None,
                 players: list[str] | None = None, run_setup: bool = True, rolls: Sequence[int] = (),
                 options: dict | None = None, replaying: Replaying | None = None,
                 start: Callable[[Runtime], Iterator] | None = None, pause_at: tuple | None = None):
        """`position` (optional) is a callable that arranges the state after setup, before play.
        `players`: who sits at the table, in seating order (default: every player of the content).
        `run_setup=False` skips the `setup:` block (a scenario then lays out the whole position).
        `rolls`: dice results to give, in order, before the seeded generator takes over.
        `options`: the game's options (`option` in the rules) chosen otherwise than their default;
        an unknown option or value is a ValueError. `replaying`: the answers a copy replays (see `clone`).
        `start` (a scenario's): runs instead of `play:`, and the game stops when it returns. `pause_at`:
        where the game stops (`Runtime.pause_at`), for a scenario to look at the state."""
        self.ruleset = ruleset
        self.seed = seed
        self.run_setup = run_setup
        self.options = ruleset.program.chosen_options(options)
        self.state: State = ruleset.initial_state(seed, self.options)
        self.runtime = Runtime(self.state, ruleset.board, ruleset.program)
        self.runtime.players = seating(ruleset, players)
        self.runtime.rolls = list(rolls)
        self.rolls = tuple(rolls)
        self.position = position
        self.start = start
        self.runtime.pause_at = pause_at
        self.log: list[int] = []
        self.taken = self.runtime.taken  # each option taken, for copies to replay (play/replaying.py)
        self.runtime.replaying = replaying
        self.decision: Decision | None = None
        self._group: list[Decision] = []  # the decisions made at once (`simultaneously`), while pending
        self._answers: dict[int, int] = {}  # their answers so far: place in the group -> option
        self.last_group: list[tuple[Decision, int]] = []  # the last group answered, each decision with its answer
        self.result: Result | None = None
        self.paused = False  # stopped where a scenario asked (`until: end of turn`), no decision pending
        self._flow = self._run()
        WATCHDOG.arm()
        self._resume(None)

    @property
    def decisions(self) -> list[Decision]:
        """Every decision waiting for an answer: several when players decide at once and in secret
        (answer each with `choose(choice, by=player)`, in any order), else the one `decision`."""
        if self._group:
            return [d for i, d in enumerate(self._group) if i not in self._answers]
        return [self.decision] if self.decision is not None else []

    @property
    def at_once(self) -> bool:
        """Whether several players are deciding at once and in secret (see `decisions`)."""
        return bool(self._group)

    @property
    def players(self) -> list[str]:
        """Who sits at the table, in seating order."""
        return self.runtime.players

    @property
    def finished(self) -> bool:
        return self.result is not None

    def _run(self):
        rt, program = self.runtime, self.ruleset.program
        for name, per_player, value, position in program.variables:
            try:
                if per_player:
                    self.state.variables[name] = {p: value(rt, {"you": p}) for p in program.players}
                else:
                    self.state.variables[name] = value(rt, {"you": None})
            except Exception as error:
                raise RuleRuntimeError(position, f"the initial value of `{name}`: {type(error).__name__}: {error}") from error
        self.state.variables.update(self.options)
        env = {"you": None}
        if program.setup is not None and self.run_setup:
            yield from program.setup(rt, env)
        if self.position is not None:
            self.position(self)
            rt.settle()
        if self.start is not None:
            yield from self.start(rt)
            raise Pause()
        yield from program.play(rt, env)

    def _resume(self, index: int | None) -> None:
        """Run the rules until the next decision or the end. A rule that fails, or runs past a
        limit, raises RuleRuntimeError and stops the game for good (no decision pending)."""
        rt, self.decision = self.runtime, None
        rt.next_decision()
        rt.running = True
        WATCHDOG.watch(rt)
        try:
            waiting = self._flow.send(index)
            if isinstance(waiting, Simultaneous):
                self._group, self._answers = waiting.parts, {}
                waiting = waiting.parts[0]
            self.decision = waiting
        except GameOver as over:
            self.result = over.result
        except Pause:  # a scenario stops here to look at the state: the game goes no further
            self.paused = True
        except StopIteration:
            raise RuleRuntimeError(None, "the `play:` block ended without ending the game (win, lose, draw or ranking)") from None
        except EndTurn:
            raise RuleRuntimeError(None, "`end turn` outside any turn") from None
        except TableRefused as refusal:  # `refuse`: the rules cannot set the game up at this table
            raise RefusedTable(str(refusal)) from None
        except Return:
            raise RuleRuntimeError(None, "`return` (or a choice with no option) outside any procedure or ability") from None
        except RuleRuntimeError:
            raise
        except Exception as error:  # outside any statement (statements report their own position)
            raise RuleRuntimeError(None, f"{type(error).__name__}: {error}") from error
        finally:
            rt.running = False

    def choose(self, choice: int | str | dict[str, str], by: str | None = None) -> None:
        """Resume with an option given by index, by label ("stone c2") or as a dict of its values.
        `by`: which player answers, when several decide at once (default: `decision`'s player), or
        which of the group answers a decision the group makes (`by any of`)."""
        if self.decision is None:
            raise RuntimeError("the game is not waiting for a decision")
        if self._group:
            self._answer_in_group(choice, by)
            return
        if by is not None and not self.decision.may_answer(by):  # the player, or any of a group (`by any of`)
            deciders = " or ".join(self.decision.group) or self.decision.player
            raise ValueError(f"{by} has no decision to make: {deciders} decides `{self.decision.name}`")
        index = self.decision.index_of(choice)
        self.log.append(index)
        self.taken.append(self.decision.options[index])
        self.runtime.decisions += 1
        self._resume(index)

    def _answer_in_group(self, choice, by: str | None) -> None:
        """One secret answer; the rules resume when the last one is given (the log keeps them in the
        group's order, so that a replay answers them one after the other)."""
        by = self.decision.player if by is None else by
        place = next((i for i, d in enumerate(self._group) if d.player == by and i not in self._answers), None)
        if place is None:
            waiting = ", ".join(d.player for d in self.decisions)
            raise ValueError(f"{by} has no decision to make; waiting for {waiting}")
        self._answers[place] = self._group[place].index_of(choice)
        self.runtime.decisions += 1
        if len(self._answers) < len(self._group):
            self.decision = self.decisions[0]
            return
        answers = [self._answers[i] for i in range(len(self._group))]
        self.last_group = list(zip(self._group, answers))
        self.log.extend(answers)
        self.taken.extend(decision.options[index] for decision, index in self.last_group)
        self._group, self._answers = [], {}
        self._resume(answers)

    def evaluate(self, source: str) -> object:
        """The value of an expression of the rules language in the current state (for tests and tools)."""
        value, diagnostics = self.ruleset.program.compile_value(source)
        if diagnostics:
            raise ValueError("; ".join(d.message for d in diagnostics))
        return value(self.runtime, {"you": self.decision.player if self.decision else None})

    def why_not(self, label: str, by: str | None = None) -> WhyNot:
        """Why the option `label` is not offered to `by` (default: the player deciding): a `WhyNot`
        whose `reasons` name the conditions of the rules that refused it, with file and line
        (`str()` of it gives plain sentences). See `interpreter.play.why_not`."""
        return why_not(self, label, by)

    def play_out(self, rng: random.Random) -> None:
        """Play the game on at random, fast: the playouts of a search bot. From here on, every
        `choose` of the rules draws its own option with `rng` without making the list of its
        options or asking anybody (see `draw_option` in language/statements.py for how it
        draws); a decision still asked (the one pending, answers given at once in secret) is
        answered at random with `rng` too. The game's own generator (dice, shuffles) goes on as
        before; everything playout mode picks comes from `rng` alone, so the same game and the same
        seed of `rng` give the same playout. The choices made so are not in `log`: a game played
        out is not replayed, cloned nor saved. It runs to the end, or to a scenario's pause."""
        self.runtime.playout = rng
        while self.decisions and not self.paused:
            decision = self.decisions[0]
            self.choose(rng.randrange(len(decision.options)), by=decision.player if self.at_once else None)

    def clone(self, choices: Sequence[int] | None = None) -> Game:
        """A new game that goes on exactly as this one: the same ruleset, seed, players, options,
        position and dice, replayed through the same choices (the generators that run the rules
        cannot be copied, but a game is its seed and its choices); each `choose` of the copy takes
        the option this game took, without making its list (play/replaying.py). `choices`: replay
        only these, for instance `log`, which leaves out the secret answers given so far in a
        pending `simultaneously` group; by default every choice so far, those answers included."""
        whole, choices = choices is None, list(self.log if choices is None else choices)
        ours = choices == self.log[:len(choices)]  # else another game's: replayed by asking each decision
        replaying = Replaying(choices, self.taken) if ours else None
        copy = Game(self.ruleset, self.seed, self.position, list(self.players), self.run_setup, self.rolls,
                    self.options, replaying, self.start)
        while replaying is not None and not replaying.done:
            copy.choose(replaying.next_index())
        if replaying is None:
            for index in choices:
                copy.choose(index)
        copy.runtime.replaying = None
        copy.log[:] = choices  # `take` leaves the choices out of the log while replaying
        if whole:
            for place, index in sorted(self._answers.items()):
                copy.choose(index, by=self._group[place].player)
        return copy

    # saving and replaying
    def to_json(self) -> dict:
        """The game as plain data: its seed, players and choices (enough to replay it), and its state."""
        saved = {
            "game": self.ruleset.name,
            "seed": self.seed,
            "players": list(self.players),
            "choices": list(self.log),
            "state": self.state.to_json(),
            "result": self.result.to_json() if self.result else None,
        }
        chosen = {name: value for name, value in self.options.items() if value != self.ruleset.program.options[name][0]}
        if chosen:  # only the options chosen otherwise than their default: an older save has none
            saved["options"] = chosen
        return saved

    @classmethod
    def replay(cls, ruleset: Ruleset, seed: int, choices: list[int], position: Callable[[Game], None] | None = None,
               players: list[str] | None = None, options: dict | None = None) -> Game:
        """The game of this seed after these choices (indexes, as in `log`)."""
        game = cls(ruleset, seed, position, players, options=options)
        for index in choices:
            game.choose(index)
        return game

    @classmethod
    def from_json(cls, ruleset: Ruleset, data: dict) -> Game:
        """Rebuild a saved game by replaying its choices, and check it reaches the saved state."""
        try:
            game = cls.replay(ruleset, data["seed"], data["choices"], players=data.get("players"),
                              options=data.get("options"))
        except (ValueError, RuntimeError) as error:
            raise ValueError(f"replaying the saved choices does not reach the saved state: {error}") from None
        if game.state.to_json() != data["state"]:
            raise ValueError("replaying the saved choices does not reach the saved state")
        return game

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)
