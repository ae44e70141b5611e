"""Root's Vagabond (rulesets/root/vagabond.rules, 9.3.4): the items laid face down under the ruins
are seen by every seat only as their back until one is explored, and the Vagabond's items lie
face up on its board, their `exhausted` and `damaged` properties seen by everyone."""
from pathlib import Path

from interpreter import Game, load
from interpreter.play.visibility import observation

ROOT = Path(__file__).resolve().parent.parent


def test_every_seat_sees_a_ruin_item_only_as_its_back():
    game = Game(load(ROOT / "rulesets" / "root"), seed=1, players=["vagabond"])
    game.choose("ranger-1")
    game.choose("f1")
    seen = observation(game, "vagabond")
    ruin_items = [c for site in ("c6", "c10", "c11", "c12") for c in seen["zones"][site] if c.get("back") == "item"]
    assert len(ruin_items) == 4
    assert all("kind" not in c and "id" not in c for c in ruin_items)
    satchel = observation(game, "vagabond")["zones"]["vagabond.satchel"]
    assert {c["kind"] for c in satchel} == {"start_boots", "start_torch", "start_crossbow", "start_sword"}
    assert all(c["props"].get("exhausted", False) is False for c in satchel)


def test_another_seat_sees_the_ruin_items_as_backs_and_the_satchel_whole():
    game = Game(load(ROOT / "rulesets" / "root"), seed=3, players=["eyrie", "vagabond"])
    for choice in ("c1", "eyrie-builder-1", "thief-1", "f1"):
        game.choose(choice)
    seen = observation(game, "eyrie")
    backs = [c for site in ("c6", "c10", "c11", "c12") for c in seen["zones"][site] if c.get("face_down")]
    assert len(backs) == 4 and all(c == {"back": "item", "owner": None, "face_down": True} for c in backs)
    assert {c["kind"] for c in seen["zones"]["vagabond.satchel"]} == {"start_boots", "start_torch", "start_sword"}
