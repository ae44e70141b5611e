"""The games the page shows: one played (people at some seats, bots at the others) or one replayed.

Both keep a log of every choice with its label as each viewer may read it (the decider's cards are
named to the decider, shown as their backs to the others), so that each seat is sent only what it
observes. A viewer is a player, SPECTATOR (what is public) or ALL (everything: the debug view of
a game played, or the review of a finished one).
"""
from __future__ import annotations

import threading
from typing import Callable

from interpreter.diagnostics.errors import RuleRuntimeError
from interpreter.engine.decisions import EVERYTHING, Decision
from interpreter.content.table_view import table_view_of
from interpreter.interfaces.display import result_sentence
from interpreter.interfaces.table_reading import Reading
from interpreter.interfaces.web.clicks import near_misses
from interpreter.interfaces.web.view import state_of, table_of
from interpreter.play.game import Game
from interpreter.play.saves import Journal

SPECTATOR, ALL = "(spectator)", "(all)"  # not player names: those are words


class Refused(ValueError):
    """A request the game cannot take (not this seat's turn, no such option...): said to the page."""


class Logged:
    """A game with the log of its choices, each labelled for every viewer."""

    def __init__(self, game: Game, viewers: list[str]):
        self.game, self.viewers, self.log = game, viewers, []

    def viewer(self, key: str):
        """The viewer a seat of the page names (a player, None for the spectator, EVERYTHING)."""
        if key not in self.viewers:
            raise Refused(f"no seat `{key}` (seats: {', '.join(self.viewers)})")
        return {SPECTATOR: None, ALL: EVERYTHING}.get(key, key)

    def record(self, answered: list[tuple[Decision, int]]) -> None:
        view, _ = table_view_of(self.game.ruleset)
        for decision, index in answered:  # labelled after the choice: a card played face up is known to all
            labels = {key: decision.label(index, self.viewer(key)) for key in self.viewers}
            entry = {"player": decision.player, "decision": decision.name, "labels": labels}
            if view is not None:  # the option in the game's words, as each viewer may read it
                entry["texts"] = {key: Reading(self.game, self.viewer(key), view, {}, {}).option_text(decision, index, label)
                                  for key, label in labels.items()}
            self.log.append(entry)

    def answer(self, index: int, answer: Callable[[int], object]) -> None:
        """Answer the pending decision through `answer` (the game's `choose`, or a journal's), and log it
        once the game's choices grew (a secret answer of a group is logged with the group's last)."""
        game, decision = self.game, self.game.decision
        grouped, before = game.at_once, len(game.log)
        try:
            answer(index)
        finally:  # a choice the rules then stop on is logged too
            if len(game.log) > before:
                self.record(game.last_group if grouped else [(decision, index)])

    def shown(self) -> list[dict]:
        """The entries of the log the page shows."""
        return self.log

    def seen_log(self, key: str) -> list[dict]:
        return [{"player": e["player"], "decision": e["decision"], "label": e["labels"][key],
                 **({"text": e["texts"][key]} if e.get("texts", {}).get(key) else {})} for e in self.shown()]

    def state(self, key: str) -> dict:
        game = self.game
        seen = state_of(game, self.viewer(key))
        seen.update(log=self.seen_log(key), result=result_sentence(game.result, game.state.turns) if game.finished else None)
        return seen

    def why_not(self, key: str, label: str | None, picks: list[list[str]] | None) -> list[dict]:
        """Why an option is not offered to the seat `key`: the label typed, or those its clicks would make."""
        viewer, decision = self.viewer(key), self.game.decision
        player = decision.player if viewer is EVERYTHING and decision else viewer
        if decision is None or not decision.may_answer(player):  # explained as the decider sees it: theirs alone
            raise Refused("there is no decision of yours to explain")
        if label is not None:
            asked = [label]
        else:
            asked = near_misses(self.game, decision, picks or [], player)
            if not asked:
                return [{"label": None, "lines": [f"no option of `{decision.name}` takes what was clicked: "
                                                  "pick it from the list"]}]
        return [{"label": text, "lines": self.game.why_not(text, by=player).lines()} for text in asked]


class Played(Logged):
    """A game played in the page: `humans` answer at their seats, the bots of `make_bots(game)` at the others."""

    def __init__(self, journal: Journal, humans: tuple[str, ...], make_bots: Callable[[Game], dict], debug: bool):
        self.journal, self.humans, self.make_bots, self.debug = journal, humans, make_bots, debug
        super().__init__(journal.game, list(journal.game.players) + [SPECTATOR] + ([ALL] if debug else []))
        self.bots = make_bots(self.game)
        self.error: str | None = None
        self.lock = threading.Lock()
        self.play_bots()

    def play_bots(self) -> None:
        """Let the bots answer until a person must decide, or the game ends (or stops on an error)."""
        try:
            while not self.game.finished and self.game.decision is not None and self.game.decision.player not in self.humans:
                decision = self.game.decision
                self.answer(self.bots[decision.player].choose(decision), self.journal.choose)
        except RuleRuntimeError as error:
            self.error = f"the rules stopped on an error: {error}"

    def seats(self) -> dict:
        return {"mode": "play", "seats": self.viewers, "humans": list(self.humans), "debug": self.debug}

    def state(self, key: str) -> dict:
        seen = super().state(key)
        viewer = self.viewer(key)
        decision = self.game.decision
        mine = decision is not None and decision.player in self.humans and (
            viewer is EVERYTHING or decision.may_answer(viewer))
        if seen["decision"] is not None and not mine:
            seen["decision"].update(yours=False, options=None)  # a bot's decision, or another person's
        seen.update(error=self.error, can_undo=viewer in self.humans and any(
            step[0] == viewer for step in self.journal.steps))
        return seen

    def take(self, key: str, index: int) -> None:
        """The seat `key` answers the pending decision with option `index`; then the bots play."""
        viewer, decision = self.viewer(key), self.game.decision
        if decision is None:
            raise Refused("the game is over" if self.game.finished else "the game stopped")
        if decision.player not in self.humans or not (viewer is EVERYTHING or decision.may_answer(viewer)):
            raise Refused(f"it is {decision.player}'s decision, `{decision.name}`")
        if not 0 <= index < len(decision.options):
            raise Refused(f"no option {index} of `{decision.name}`")
        try:
            self.answer(index, self.journal.choose)  # the journal keeps what each choice meant, for undo
        except RuleRuntimeError as error:
            self.error = f"the rules stopped on an error: {error}"
            return
        self.play_bots()

    def undo(self, key: str) -> str:
        """Back to the seat's previous decision (replayed from the seed); what was taken back."""
        player = self.viewer(key)
        if player not in self.humans:
            raise Refused("only a person's seat can take a move back")
        undone = self.journal.undone(player)
        if undone is None:
            raise Refused(f"nothing to undo: {player} has made no decision yet")
        self.journal, back = undone
        taken = self.log[back]
        self.game, self.log, self.error = self.journal.game, self.log[:back], None
        self.bots = self.make_bots(self.game)
        return f"undone: {player}'s `{taken['decision']}` ({taken['labels'][key]}) and what followed"


class Replayed(Logged):
    """A finished (or stopped) game stepped through: `goto(step)` shows it after that many choices.
    `stopped`: the error a simulated game stopped on, after its last choice."""

    def __init__(self, make_game: Callable[[], Game], choices: list[int], stopped: str | None = None):
        self.make_game, self.stopped = make_game, stopped
        first = make_game()
        super().__init__(first, list(first.players) + [SPECTATOR, ALL])
        self.choices: list[int] = []
        for index in choices:  # once through, for the log of every step
            try:
                self.answer(index, self.game.choose)
            except RuleRuntimeError as error:
                self.stopped = f"the rules stopped on an error: {error}"
            self.choices.append(index)
            if self.game.decision is None:
                break
        self.lock = threading.Lock()
        self.step, self.game = 0, make_game()

    def goto(self, step: int) -> None:
        step = max(0, min(step, len(self.choices)))
        if step < self.step:
            self.game, self.step = self.make_game(), 0
        while self.step < step:
            try:
                self.game.choose(self.choices[self.step])
            except RuleRuntimeError:  # the last choice of a game that stopped on it: `stopped` says so
                pass
            self.step += 1

    def shown(self) -> list[dict]:
        return self.log[:self.step]

    def seats(self) -> dict:
        return {"mode": "replay", "seats": self.viewers, "humans": [], "debug": False, "steps": len(self.choices),
                "seed": self.game.seed}  # a replay shows every view: its seed hides nothing more

    def state(self, key: str) -> dict:
        seen = super().state(key)
        if seen["decision"] is not None:
            seen["decision"].update(yours=False, options=None)
        following = self.log[self.step] if self.step < len(self.log) else None
        seen.update(step=self.step, steps=len(self.choices), can_undo=False,
                    error=self.stopped if self.step == len(self.choices) else None,
                    next=None if following is None else {"player": following["player"], "decision": following["decision"],
                                                         "label": following["labels"][key]})
        return seen


def table_info(table: Logged) -> dict:
    return {**table_of(table.game), **table.seats()}
