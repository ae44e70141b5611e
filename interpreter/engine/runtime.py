"""What compiled rules run against: the state, the board, the program, and the control-flow signals."""
from __future__ import annotations

from dataclasses import dataclass, field

from interpreter.diagnostics.diagnostic import Position
from interpreter.engine.board import Board
from interpreter.engine.knowledge import back_of, handle, knows
from interpreter.engine.reasons import PointsByReason
from interpreter.engine.state import State
from interpreter.safety.limits import LIMITS, LimitExceeded


class Signal(Exception):
    """Control flow that unwinds compiled rules (not an error)."""


class Return(Signal):
    """Leave the current procedure or ability; also what an effect with no legal option does."""


class TableRefused(Signal):
    """`refuse`: the rules cannot set up a game at this table; `Game` says so as a table the content
    does not allow (ValueError)."""


class EndTurn(Signal):
    pass


class Pause(Signal):
    """The game stops where a scenario asked it to (at the end of a turn), with no decision pending."""


@dataclass(init=False)
class Result:
    """How a game ended. `winners` (in seating order) is the truth: one player, several (a shared or
    co-operative win), or none (a draw, or a game everybody lost). `winner` is the single winner or None."""

    winners: list[str]
    scores: dict[str, int] = field(default_factory=dict)
    reason: str = ""
    decided_by: str = ""  # for a ranking, the key that made the winner, e.g. `most held`; not saved with the result
    ending: str = ""  # how the game ended, in the rules' words (`win p by "knockout"`), or ""

    def __init__(self, winners: str | list[str] | None, scores: dict[str, int] | None = None, reason: str = "",
                 decided_by: str = "", ending: str = ""):
        """`winners`: a list of players, or (as before) one player's name or None."""
        self.winners = [] if winners is None else [winners] if isinstance(winners, str) else list(winners)
        self.scores = {} if scores is None else scores
        self.reason = reason
        self.decided_by = decided_by
        self.ending = ending

    @property
    def winner(self) -> str | None:
        """The one winner, or None: a draw, nobody won, or several players won together."""
        return self.winners[0] if len(self.winners) == 1 else None

    def to_json(self) -> dict:
        """As saved before shared wins (`winner`, `scores`, `reason`), plus `winners` when several won."""
        saved = {"winner": self.winner, "scores": dict(self.scores), "reason": self.reason}
        if len(self.winners) > 1:
            saved["winners"] = list(self.winners)
        if self.ending:
            saved["ending"] = self.ending
        return saved

    @classmethod
    def from_json(cls, data: dict) -> Result:
        """A saved result; without `winners` (one winner or none, or saved before shared wins), from `winner`."""
        winners = data.get("winners")
        return cls(data.get("winner") if winners is None else winners, dict(data.get("scores") or {}), data.get("reason", ""),
                   ending=data.get("ending", ""))


def joined(names: list[str]) -> str:
    """`red`, `red and blue`, `red, blue and green`."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


class GameOver(Signal):
    def __init__(self, result: Result):
        super().__init__(result.reason)
        self.result = result


_NOBODY = {"you": None}  # continuous rules act for no player


class Runtime:
    """One running game: compiled closures receive it as their first argument."""

    def __init__(self, state: State, board: Board, program):
        self.state = state
        self.board = board
        self.program = program
        self.players: list[str] = program.players
        self.batch = 0  # depth of `at once` blocks: continuous rules wait until the outermost ends
        self.settling = False
        self.decisions = 0
        self.rolls: list[int] = []  # dice results a scenario imposes, used before the generator
        self.steps = 0  # loop turns, calls and rule runs so far (the step budget, see limits.py)
        self.step_limit = LIMITS.steps_per_decision
        self.running = False  # rules (or a bot's valuation) are running now: the watchdog may stop them
        self.turn_player = None  # whose turn it is (`turn`), and the phase of it running (`phase`), for
        self.phase = None        # the `anytime ... during` actions
        self.start_phase: str | None = None  # a scenario starts the turn at this phase: the ones before are skipped
        self.pause_at: tuple | None = None  # a scenario stops the game here: ("end", "turn"), ("end", a phase), ("event", a name)
        self.playout = None  # playout mode: a random.Random with which each `choose` picks itself (Game.play_out)
        self.replaying = None  # a copy replaying recorded answers, which each `choose` takes (play/replaying.py)
        self.taken: list = []  # the option each `choose` took, in order, or NO_OPTION where it had none (ibid.)
        self.points_by_reason = PointsByReason()  # what `because` records (engine.reasons)
        self.seated_rules: dict = {}  # procedure -> its `instead of` rules that this game's table has (Program)
        self.seated_triggers: dict = {}  # event -> its `when` rules that this game's table has
        self._guards: dict | None = None  # "place", "move", "remove" -> the `cannot` rules this game's table has

    def triggers(self, event: tuple) -> list:
        """The `when` rules of an event that this game has: those of a faction's file only if its
        player is seated (the program's `needs` of each)."""
        found = self.seated_triggers.get(event)
        if found is None:
            found = self.seated_triggers[event] = [t for t in self.program.triggers.get(event, ())
                                                   if all(p in self.players for p in getattr(t, "needs", ()))]
        return found

    @property
    def guards(self) -> dict:
        """The `cannot` rules this game has, by what they forbid: those of a faction's file only if its
        player is seated."""
        if self._guards is None:
            self._guards = {action: found for action, rules in self.program.guards.items()
                            if (found := [g for needs, g in rules if all(p in self.players for p in needs)])}
        return self._guards

    def too_many_steps(self, position: Position | None) -> LimitExceeded:
        """The error for a rule that went past the step budget (raised by the loops and calls that count steps)."""
        if self.step_limit >= LIMITS.steps_per_game:
            budget = f"{LIMITS.steps_per_game:,} steps in one game (LUDOLEX_STEPS_PER_GAME)"
        else:
            budget = f"{LIMITS.steps_per_decision:,} steps between two decisions (LUDOLEX_STEPS_PER_DECISION)"
        return LimitExceeded(position, f"the rules ran past the limit of {budget}: a loop that never ends?")

    def decided_unasked(self) -> None:
        """A decision the rules took themselves (in playout mode, or replaying), counted as one asked."""
        self.decisions += 1
        self.next_decision()

    def next_decision(self) -> None:
        """The rules go on towards the next decision: within the game's limit of decisions, with the
        step budget of a decision."""
        if self.decisions > LIMITS.decisions_per_game:
            raise LimitExceeded(None, f"the game went past {LIMITS.decisions_per_game:,} decisions "
                                      "(LUDOLEX_DECISIONS_PER_GAME): do the rules ever end it?")
        self.step_limit = min(self.steps + LIMITS.steps_per_decision, LIMITS.steps_per_game)

    def hidden_as(self, viewer: str | None, component) -> str | None:
        """What `viewer` sees of `component` when they cannot tell which it is (its back), else None."""
        return None if knows(self, viewer, component) else back_of(self, component)

    def handle_of(self, viewer: str | None, component, memo: dict) -> str | None:
        """What `viewer` calls `component` when they cannot tell which it is (knowledge.handle), else None."""
        return handle(self, viewer, component, memo)

    def settle(self) -> None:
        """Apply the continuous (`always`) rules until the state stops changing."""
        if self.batch or self.settling or not self.program.always:
            return
        self.settling = True
        try:
            for _ in range(LIMITS.settle_rounds):
                version = self.state.version
                for rule in self.program.always:
                    rule(self, _NOBODY)
                if self.state.version == version:
                    return
            raise LimitExceeded(None, f"the continuous (`always`) rules still change the state after "
                                      f"{LIMITS.settle_rounds:,} rounds (LUDOLEX_SETTLE_ROUNDS)")
        finally:
            self.settling = False
