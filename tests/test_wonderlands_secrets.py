"""Wonderland's War keeps its secrets at every simultaneous decision (the bets, WW-190, and "draw or
withdraw", WW-198): seeded random games at 3 and 5 players are played through, and at each decision
made at once the test checks, for every seat, that

- no answer shows before all are given: answering one decision of the group changes nothing any
  player observes (the state does not move, and no observation but the answerer's pending list does);
- a player is offered only their own options (the others see how many there are, never which);
- every bag shows only how many tokens it holds, to everyone, its owner included (WW-185): neither
  its contents nor their order;
- a player's bet cards in hand are private, and a bet card laid face down shows only its back to
  the other players, while its owner still knows it (WW-190).
"""
import json
import random
from pathlib import Path

import pytest

from interpreter import Game, load
from interpreter.agents.agent import RandomAgent
from interpreter.play.visibility import observation

ROOT = Path(__file__).resolve().parent.parent
THREE = ["queen_of_hearts", "alice", "mad_hatter"]
FIVE = None  # every faction of the content


@pytest.fixture(scope="module")
def ruleset():
    return load(ROOT / "rulesets" / "wonderlands_war")


def owner_of(zone: str) -> str:
    return zone.split("/", 1)[1]


def what_is_seen(game: Game, player: str) -> str:
    """The player's observation without the line saying whose decision comes first (that line
    moves on when anyone answers, without telling what they answered)."""
    seen = dict(observation(game, player))
    seen.pop("decision")
    return json.dumps(seen, sort_keys=True, default=str)


def check_seat(game: Game, player: str, counts: dict) -> None:
    """What one seat observes at a simultaneous decision: bags, bet cards, the pending decision."""
    seen = observation(game, player)
    for zone, shown in seen["zones"].items():
        if zone.startswith("bag/"):  # WW-185: how many, nothing else, to everyone
            assert shown == {"hidden": len(game.state.zones[zone])}, f"{player} sees inside {zone}: {shown}"
            counts["bags"] += 1
        elif zone.startswith("bets/") and owner_of(zone) != player:
            assert shown == {"hidden": len(game.state.zones[zone])}, f"{player} sees the bet cards of {zone}"
        elif zone.startswith("bet_laid/"):
            for card, laid in zip(shown, game.state.zones[zone]):
                assert laid.face_down, f"a bet card lies face up in {zone} during the drawing"
                if owner_of(zone) == player:
                    assert card["id"] == laid.id  # its owner knows which card it is
                else:
                    assert card == {"back": "bet", "owner": owner_of(zone), "face_down": True}, \
                        f"{player} sees the face of {laid.id}"
                    counts["bets"] += 1
    pending = seen["decision"]
    if pending is not None and pending["player"] != player:
        assert isinstance(pending["options"], int), f"{player} sees the options of {pending['player']}"


def answer_the_group(game: Game, agents: dict, rng: random.Random, counts: dict) -> None:
    """Answer every decision of a simultaneous group, in a random order, checking before each answer
    that the seats see what they may, and after each one that nobody learned anything from it."""
    while True:
        pending = list(game.decisions)
        for player in game.players:
            check_seat(game, player, counts)
        before = {p: what_is_seen(game, p) for p in game.players}
        version = game.state.version
        decision = rng.choice(pending)
        game.choose(agents[decision.player].choose(decision), by=decision.player)
        counts["answers"] += 1
        if len(pending) == 1:
            return  # the last answer: all are applied together and the game goes on
        assert game.at_once and len(game.decisions) == len(pending) - 1
        assert game.state.version == version, f"{decision.player}'s secret answer changed the state"
        for player in game.players:
            assert what_is_seen(game, player) == before[player], \
                f"{player} can tell something from {decision.player}'s secret `{decision.name}`"


def play_checking(ruleset, players, seed: int) -> dict:
    game = Game(ruleset, seed=seed, players=players)
    agents = {p: RandomAgent(seed * 11 + i) for i, p in enumerate(game.players)}
    rng = random.Random(seed)
    counts = {"groups": 0, "answers": 0, "bags": 0, "bets": 0}
    while not game.finished:
        if game.at_once:
            counts["groups"] += 1
            answer_the_group(game, agents, rng, counts)
        else:
            game.choose(agents[game.decision.player].choose(game.decision))
    return counts


@pytest.mark.parametrize("players, seeds", [(THREE, [1, 2]), (FIVE, [1, 2])], ids=["3 players", "5 players"])
def test_no_seat_learns_a_secret_answer_a_bag_or_a_face_down_bet(ruleset, players, seeds):
    totals = {"groups": 0, "answers": 0, "bags": 0, "bets": 0}
    for seed in seeds:
        for key, value in play_checking(ruleset, players, seed).items():
            totals[key] += value
    # the games did go through many simultaneous decisions, with several answers each, and bets laid
    assert totals["groups"] > 20 and totals["answers"] > totals["groups"]
    assert totals["bags"] > 0 and totals["bets"] > 0
