"""Values carried by a card: a kind's `functions:` in the content, read by `test NAME of c` in the rules."""
import pytest
from toy import toy_folder

from interpreter import Game, LudolexError, load

CONTENT = """\
players: [red, blue]
board:
  grid: {columns: 3, rows: 1, connections: [orthogonal]}
pieces:
  gem: {per_player: 2, starts_in: hand}
  hoard_quest:
    count: 1
    starts_in: quests
    functions: {done: "size(pieces(hand(you))) >= 2", reward: "2 + size(pieces(hand(you)))"}
  square_quest: {count: 1, starts_in: quests, functions: {done: 'top(self.location) != none or top(a1) != none'}}
  plain_card: {count: 1, starts_in: quests}
"""

RULES = """\
zone quests
zone hand per player
variable points per player = 0

play:
    turn red:
        choose q in pieces(quests) where test done of q as fulfil
        set points(red) = test reward of q
        win red by "quest"
"""


def make(tmp_path, content=CONTENT, rules=RULES):
    return load(toy_folder(tmp_path, content, toy=rules))


def test_a_card_offers_itself_when_its_function_holds_for_the_player_reading_it(tmp_path):
    game = Game(make(tmp_path))
    assert game.decision.labels() == ["hoard_quest-1"]  # red holds 2 gems; a1 is empty; the plain card has no `done`
    game.choose("hoard_quest-1")
    assert game.state.variables["points"]["red"] == 4  # 2 + red's 2 gems
    assert game.evaluate("test reward of first(c in pieces(quests) where c is plain_card)") is None


def test_a_function_no_kind_carries_is_refused(tmp_path):
    with pytest.raises(LudolexError) as error:
        make(tmp_path, rules=RULES.replace("test reward of q", "test rewrad of q"))
    [diagnostic] = error.value.diagnostics
    assert diagnostic.code == "LX314" and diagnostic.hint == "did you mean `reward`?"


def test_a_mistake_inside_a_cards_function_is_shown_where_the_content_writes_it(tmp_path):
    with pytest.raises(LudolexError) as error:
        make(tmp_path, content=CONTENT.replace('reward: "2 + size', 'reward: "2 + sise'))
    [diagnostic] = error.value.diagnostics
    assert diagnostic.code == "LX303" and diagnostic.position.file.endswith("content.yaml")
    assert (diagnostic.position.line, diagnostic.position.column) == (9, 68)
