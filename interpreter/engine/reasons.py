"""Points by reason: what `STATEMENT because REASON` (and `because REASON:` over a block) records.

A game's score is the function its manifest names (`score:` in game.yaml). Over a statement given a
reason, each player's score may change, whichever rule changed it and whoever acted: that change is
the player's points for the reason (negative when the score went down). Reasons nest, and the
innermost wins: the points an inner `because` gave its own reason are taken out of the outer one's.
What no reason took is the player's `other` in a simulated game's record (`simulation.runner`).
"""
from __future__ import annotations

from interpreter.engine.state import Component


def reason_name(value) -> str | None:
    """A reason as recorded: a text as written, a component by its kind; none gives no reason."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Component):
        return value.kind
    raise ValueError(f"a reason (`because`) is a text or a component, not {value!r}")


class PointsByReason:
    """One game's points by reason, per player (`by_player[player][reason]`)."""

    def __init__(self) -> None:
        self.by_player: dict[str, dict[str, int]] = {}
        self.given: dict[str, int] = {}  # player -> the points given to some reason so far
        self.scored_at = (-1, [])  # the state's version when the scores were last worked out, and the scores

    def scores(self, rt) -> list:
        """Each seated player's score now (worked out again only if the state changed since)."""
        version, scores = self.scored_at
        if version != rt.state.version:
            score = rt.program.score
            scores = [score(rt, p) for p in rt.players]
            self.scored_at = (rt.state.version, scores)
        return scores

    def before(self, rt) -> tuple:
        """What a `because` notes as it starts: the state's version, the scores, the points given so far."""
        return rt.state.version, self.scores(rt), dict(self.given)

    def after(self, rt, reason: str, before: tuple) -> None:
        """Give `reason` each player's change of score since `before`, less what inner reasons took."""
        version, scores_before, given_before = before
        if version == rt.state.version:  # nothing changed: no score did
            return
        for player, score, score_before in zip(rt.players, self.scores(rt), scores_before):
            given = self.given.get(player, 0)
            gained = score - score_before - (given - given_before.get(player, 0))
            if gained:
                reasons = self.by_player.setdefault(player, {})
                reasons[reason] = reasons.get(reason, 0) + gained
                self.given[player] = given + gained
