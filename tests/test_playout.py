"""Playout mode (`Game.play_out`): a game played on at random without making the list of each
decision's options. It must pick as the list would (each legal option and `pass` equally likely
when the values are drawn independently), never an option the rules refuse, fall back to the list
when drawing fails, and play every game of the repository to its end."""
import random
from collections import Counter

import pytest
from toy import toy_folder

from interpreter import Game, load

CONTENT = """\
players: [red, blue]
board:
  grid: {columns: 3, rows: 1, connections: [orthogonal]}
pieces:
  bead: {count: 1, starts_in: pouch}
"""


def picks(tmp_path, choose: str, games: int = 3000) -> Counter:
    """What `choose` bound, over `games` playouts of a toy game (`none` for pass): the first
    decision is pending when the playout begins, the one of `choose` is drawn by the rules."""
    folder = toy_folder(tmp_path, CONTENT, toy=f"""\
        zone pouch
        variable picked = none

        play:
            turn red:
                choose y in [0, 1] as first
                {choose}
                set picked = x
            win red
        """)
    ruleset, seen = load(folder), Counter()
    for seed in range(games):
        game = Game(ruleset, seed=seed)
        game.play_out(random.Random(seed))
        assert game.finished and len(game.log) == 1  # pending when the playout began; the next was the rules' own
        seen[game.state.variables["picked"]] += 1
    return seen


def test_every_legal_option_and_pass_are_equally_likely(tmp_path):
    seen = picks(tmp_path, "choose x in [1, 2, 3, 4, 5, 6] where x != 2 and x != 5 as pick or pass")
    assert set(seen) == {1, 3, 4, 6, None}  # never a refused option
    assert all(500 <= n <= 700 for n in seen.values()), seen  # 600 each expected


def test_drawing_falls_back_to_the_list_when_the_condition_is_rare(tmp_path):
    seen = picks(tmp_path, "choose x in numbers(1, 200) where x mod 97 = 0 as pick", games=400)
    assert set(seen) == {97, 194} and min(seen.values()) > 150


def test_a_list_that_depends_on_a_value_drawn_before(tmp_path):
    seen = picks(tmp_path, "choose a in [1, 2], x in (if a = 1 then [10, 11] else [20, 21, 22, 23]) where x != 21 as pick",
                 games=3000)
    assert set(seen) == {10, 11, 20, 22, 23}  # never the refused 21
    # a first, then x from a's list: of the draws kept (7 in 8), 10 and 11 two sevenths each (857
    # expected), the others one seventh (429)
    assert all(750 <= seen[x] <= 970 for x in (10, 11)) and all(350 <= seen[x] <= 510 for x in (20, 22, 23)), seen


def test_a_playout_is_its_game_and_its_stream():
    ruleset = load("rulesets/cernunos")
    ends = []
    for _ in range(2):
        game = Game(ruleset, seed=5)
        game.play_out(random.Random(11))
        ends.append(game.state.to_json())
    assert ends[0] == ends[1]
    other = Game(ruleset, seed=5)
    other.play_out(random.Random(12))
    assert other.state.to_json() != ends[0]


@pytest.mark.parametrize("name", ["cernunos", "root", "wonderlands_war", "seventh_citadel"])
def test_every_game_plays_out_to_its_end(name):
    ruleset = load(f"rulesets/{name}")
    for seed in range(3):
        game = Game(ruleset, seed=seed)
        game.play_out(random.Random(seed))
        assert game.finished, (name, seed)
