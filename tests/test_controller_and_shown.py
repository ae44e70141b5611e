"""Two primitives of the faction platform: a component's controller, distinct from its owner
(`x.controller`, `set x.controller = p`), and one player's copy of a per-player zone seen otherwise
than its zone (`public hand(p)`)."""
import pytest
from toy import toy_folder

from interpreter import Game, LudolexError, load
from interpreter.engine.knowledge import knows, sees_zone

CONTENT = """\
players: [red, blue, green]
board:
  grid: {columns: 2, rows: 1, connections: [orthogonal]}
pieces:
  chip: {per_player: 2, starts_in: supply}
  card: {per_player: 1, starts_in: hand}
"""

RULES = """\
zone hand per player private
zone supply per player
setup:
    for each p in players:
        move pieces(supply(p)) to a1
function chips(p, site) = count(x in pieces(site) where x.controller = p)
play:
    turn red:
        choose x in pieces(a1) where x.owner = blue as hire
        set x.controller = red
        choose again in [1] as look
        set x.controller = none
    end game ranked by most score
function score(p) = chips(p, a1)
"""


def game(tmp_path, rules=RULES, **more):
    return Game(load(toy_folder(tmp_path, CONTENT, core=rules, **more)))


def test_a_hired_piece_counts_for_its_controller_and_stays_its_owner_s(tmp_path):
    g = game(tmp_path)
    assert g.evaluate("chips(red, a1)") == 2 and g.evaluate("chips(blue, a1)") == 2
    g.choose("blue-chip-1")
    assert g.evaluate("chips(red, a1)") == 3 and g.evaluate("chips(blue, a1)") == 1
    assert g.evaluate("first(x in pieces(a1) where x.controller = red and x.owner = blue).id") == "blue-chip-1"
    g.choose("1")  # `set x.controller = none`: back to its owner
    assert g.evaluate("chips(red, a1)") == 2 and g.evaluate("chips(blue, a1)") == 2


def test_a_controller_is_a_player(tmp_path):
    with pytest.raises(LudolexError) as error:
        game(tmp_path, RULES.replace("set x.controller = red", "set x.controller = 3"))
    assert [d.code for d in error.value.diagnostics] == ["LX323"]


def test_one_player_s_copy_of_a_private_zone_is_public_to_every_player_and_spectator(tmp_path):
    g = game(tmp_path, blue="faction blue\npublic hand(blue)\n")
    rt, blue_card, red_card = g.runtime, g.state.components["blue-card-1"], g.state.components["red-card-1"]
    assert all(sees_zone(rt, viewer, "hand/blue") and knows(rt, viewer, blue_card) for viewer in ("red", "green", None))
    assert not sees_zone(rt, "blue", "hand/red") and not knows(rt, None, red_card)


@pytest.mark.parametrize("line, code", [("public hand(purple)", "LX302"), ("public score(blue)", "LX302"),
                                        ("public hand(blue)\nhidden hand(blue)", "LX301")])
def test_a_zone_seen_otherwise_is_a_per_player_zone_of_a_player_said_once(tmp_path, line, code):
    with pytest.raises(LudolexError) as error:
        game(tmp_path, blue=f"faction blue\n{line}\n")
    assert code in [d.code for d in error.value.diagnostics]
