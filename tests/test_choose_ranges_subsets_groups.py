"""Three kinds of `choose`: a number from a range as one decision whose options are made on demand
(`choose n in numbers(0, 999) as bid`), several items at once under a condition on the whole set
(`choose cards in subsets(L) where ... as select`), and a decision any player of a group may answer
(`choose ... as NAME by any of PLAYERS`)."""
import pytest
from toy import toy_folder

from interpreter import Game, LudolexError, load
from interpreter.agents.agent import PromptAgent, RandomAgent
from interpreter.agents.search import SearchAgent, parse_search
from interpreter.diagnostics.errors import RuleRuntimeError
from interpreter.engine.decisions import EVERYTHING, PASS, NumberRange
from interpreter.play.visibility import observation
from interpreter.safety.limits import LimitExceeded
from interpreter.scenarios.files import load_scenarios
from interpreter.scenarios.run import ScenarioFailure, run_scenario

CONTENT = """\
players: [red, blue, green]
board:
  grid: {columns: 2, rows: 1, connections: [orthogonal]}
pieces:
  sword: {count: 2, starts_in: hand, properties: {keyword: blade}}
  flail: {count: 1, starts_in: hand, properties: {keyword: chain}}
  card: {count: 3, starts_in: deck, back: card}
  bead: {count: 20, starts_in: pouch}
"""

ZONES = """\
zone hand
zone deck hidden
zone pouch
variable picked = none
variable chosen = none
"""


def game(tmp_path, play: str, **kwargs) -> Game:
    return Game(load(toy_folder(tmp_path, CONTENT, toy=ZONES + "play:\n" + play)), **kwargs)


# ---------------------------------------------------------------- a number from a range

RANGE = """\
    choose n in numbers(0, 999) as hidden_number by red
    set picked = n
    draw
"""


def test_a_range_is_one_decision_whose_options_are_made_on_demand(tmp_path):
    g = game(tmp_path, RANGE)
    decision = g.decision
    assert type(decision.options) is NumberRange and not isinstance(decision.options, list)
    assert len(decision.options) == 1000 and decision.number_range == (0, 999)
    assert decision.options[316] == (316,) and decision.options[-1] == (999,)
    assert decision.label(316) == "316" and decision.index_of("316") == 316
    assert decision.index_of({"n": "12"}) == 12 and decision.as_dict(12) == {"n": "12"}
    assert g.runtime.steps < 100  # no step per number: no list was made
    g.choose("316")
    assert g.state.variables["picked"] == 316 and g.result.reason == "draw"


def test_a_range_refuses_what_is_not_one_of_its_numbers(tmp_path):
    decision = game(tmp_path, RANGE).decision
    for wrong in ("1000", "-1", "0316", "+3", " 3", "pass", "three", {"m": "3"}):
        with pytest.raises(ValueError, match="a number from 0 to 999"):
            decision.index_of(wrong)
    with pytest.raises(ValueError, match="out of range"):
        decision.index_of(1000)


def test_or_pass_adds_pass_at_the_end_of_a_range(tmp_path):
    g = game(tmp_path, RANGE.replace("by red", "by red or pass"))
    decision = g.decision
    assert len(decision.options) == 1001 and decision.options[1000] is PASS and decision.label(1000) == "pass"
    assert decision.labels()[:3] == ["0", "1", "2"] and decision.labels()[-1] == "pass"  # labels() still lists them
    assert decision.index_of("pass") == 1000 and decision.index_of({"pass": True}) == 1000
    g.choose("pass")
    assert g.state.variables["picked"] is None


def test_a_range_may_be_wider_than_any_list(tmp_path):
    g = game(tmp_path, RANGE.replace("numbers(0, 999)", "numbers(1, 1000000000)"))
    assert len(g.decision.options) == 10**9 and g.decision.label(10**9 - 1) == "1000000000"
    assert "1000000000" in repr(g.decision)
    assert observation(g, "red")["decision"]["options"] == {"from": 1, "to": 10**9, "or_pass": False}
    assert observation(g, "blue")["decision"]["options"] == 10**9
    g.choose("123456789")
    assert g.state.variables["picked"] == 123456789
    with pytest.raises(LimitExceeded, match="1,000,000,001 numbers"):
        game(tmp_path, RANGE.replace("numbers(0, 999)", "numbers(0, 1000000000)"))


def test_an_empty_range_offers_nothing_and_a_range_of_none_is_an_error(tmp_path):
    g = game(tmp_path, RANGE.replace("as hidden_number by red", "as hidden_number by red\n    otherwise:\n"
                                     "        set picked = 7").replace("numbers(0, 999)", "numbers(5, 4)"))
    assert g.state.variables["picked"] is None and g.result.reason == "draw"  # `otherwise` ran, then `set picked = n`
    with pytest.raises(RuleRuntimeError, match="`numbers` takes two numbers, not none and 4"):
        game(tmp_path, RANGE.replace("numbers(0, 999)", "numbers(chosen, 4)"))


def test_with_where_a_range_is_the_filtered_list_as_before(tmp_path):
    g = game(tmp_path, RANGE.replace("as hidden_number", "where n mod 100 = 0 as hidden_number"))
    assert g.decision.options == [(n,) for n in range(0, 1000, 100)] and g.decision.number_range is None
    g.choose("300")
    assert g.state.variables["picked"] == 300


def test_a_range_is_checked_like_numbers(tmp_path):
    with pytest.raises(LudolexError) as error:
        game(tmp_path, RANGE.replace("numbers(0, 999)", "numbers(0, red)"))
    assert [d.code for d in error.value.diagnostics] == ["LX323"]
    with pytest.raises(LudolexError) as error:
        game(tmp_path, RANGE.replace("numbers(0, 999)", "numbers(0)"))
    assert [d.code for d in error.value.diagnostics] == ["LX307"]


def test_agents_answer_a_range(tmp_path):
    g = game(tmp_path, RANGE)
    assert 0 <= RandomAgent(3).choose(g.decision) < 1000
    said, answers = [], iter(["abc", "1000", "316"])
    index = PromptAgent(ask=lambda prompt: next(answers), say=said.append).choose(g.decision)
    assert index == 316 and said[0] == "red, hidden_number: a number from 0 to 999"
    assert said[1:] == ["  not an option: type a number from 0 to 999"] * 2
    g2 = game(tmp_path, RANGE.replace("by red", "by red or pass"))
    said = []
    assert PromptAgent(ask=lambda prompt: "pass", say=said.append).choose(g2.decision) == 1000
    assert said == ["red, hidden_number: a number from 0 to 999, or pass"]


def test_the_search_bot_answers_a_wide_range_without_listing_it(tmp_path):
    g = game(tmp_path, RANGE.replace("numbers(0, 999)", "numbers(1, 1000000000)").replace("    draw", """\
    if picked > 500000000:
        win red
    lose red"""))
    bot = SearchAgent(g, parse_search("search:60", g.ruleset), 1)
    index = bot.choose(g.decision)
    assert 0 <= index < 10**9
    g.choose(index)
    assert g.finished


def test_each_player_may_choose_a_number_at_once_and_in_secret(tmp_path):
    g = game(tmp_path, """\
    simultaneously for each p in [red, blue]:
        choose n in numbers(1, 5) as bid by p
        set picked = if picked = none then n else picked * 10 + n
    draw
""")
    assert [type(d.options) for d in g.decisions] == [NumberRange, NumberRange]
    g.choose("4", by="blue")
    g.choose("2", by="red")
    assert g.state.variables["picked"] == 24


# ---------------------------------------------------------------- several items at once

def test_subsets_are_every_sub_list_smallest_first_in_the_order_of_positions(tmp_path):
    g = game(tmp_path, RANGE)
    assert g.evaluate("subsets([1, 2, 3])") == [[], [1], [2], [3], [1, 2], [1, 3], [2, 3], [1, 2, 3]]
    assert g.evaluate("subsets([])") == [[]]
    assert g.evaluate("size(subsets(numbers(1, 10)))") == 1024


def test_subsets_of_too_long_a_list_is_refused(tmp_path):
    g = game(tmp_path, RANGE)
    with pytest.raises(LimitExceeded, match="subsets of a list of 20 items"):
        g.evaluate("subsets(pieces(pouch))")


SELECT = """\
    choose cards in subsets(pieces(hand)) where size(cards) <= 2 and distinct(select(c in cards : c.keyword)) = select(c in cards : c.keyword) as select_cards by red or pass
    set chosen = cards
    for each c in cards:
        move c to a1
    if all(c in cards where c.keyword != none) and any(c in cards where c is flail) and count(c in cards) = size(cards):
        win red
    draw
"""


def test_a_set_is_chosen_as_one_decision_under_a_condition_on_the_whole_set(tmp_path):
    g = game(tmp_path, SELECT)
    assert g.decision.labels() == ["[]", "[sword-1]", "[sword-2]", "[flail-1]", "[sword-1, flail-1]",
                                   "[sword-2, flail-1]", "pass"]
    assert g.decision.label(4) == "[sword-1, flail-1]"
    g.choose("[sword-2, flail-1]")
    assert [c.id for c in g.state.variables["chosen"]] == ["sword-2", "flail-1"]
    assert [c.id for c in g.state.zones["a1"]] == ["sword-2", "flail-1"] and g.result.winners == ["red"]


def test_the_empty_set_is_an_option_like_any_other(tmp_path):
    g = game(tmp_path, SELECT)
    g.choose("[]")
    assert g.state.variables["chosen"] == [] and g.result.reason == "draw"


def test_components_in_a_set_show_only_their_handle_to_who_cannot_tell_them_apart(tmp_path):
    g = game(tmp_path, """\
    choose cards in subsets(pieces(deck)) where size(cards) = 2 as pair by red
    draw
""")
    # three cards in the deck, which red does not see: numbered in a secret order, each pair once
    pairs = [label.strip("[]").split(", ") for label in g.decision.labels()]
    assert sorted(sorted(pair) for pair in pairs) == [["card@deck#1", "card@deck#2"], ["card@deck#1", "card@deck#3"],
                                                      ["card@deck#2", "card@deck#3"]]
    assert g.decision.labels(EVERYTHING) == ["[card-1, card-2]", "[card-1, card-3]", "[card-2, card-3]"]
    assert g.decision.label(1) == g.decision.labels()[1]


# ---------------------------------------------------------------- a decision the group makes

GROUP = """\
    choose x in locations as target by any of [blue, green]
    set picked = x
    draw
"""


def test_any_player_of_the_group_may_answer(tmp_path):
    g = game(tmp_path, GROUP)
    assert g.decision.player == "blue" and g.decision.group == ("blue", "green")
    with pytest.raises(ValueError, match="red has no decision to make: blue or green decides `target`"):
        g.choose("b1", by="red")
    g.choose("b1", by="green")
    assert g.state.variables["picked"] == "b1" and g.result.reason == "draw"
    g = game(tmp_path, GROUP)
    assert observation(g, "green")["decision"] == {"name": "target", "player": "blue", "options": ["a1", "b1"],
                                                   "group": ["blue", "green"]}
    assert observation(g, "red")["decision"]["options"] == 2
    g.choose("a1")  # without `by`: the first of the group
    assert g.state.variables["picked"] == "a1"


def test_an_ordinary_decision_has_no_group(tmp_path):
    assert game(tmp_path, RANGE).decision.group == ()


def test_a_group_of_nobody_has_nobody_to_ask(tmp_path):
    with pytest.raises(RuleRuntimeError, match="nobody is to decide `target`"):
        game(tmp_path, GROUP.replace("[blue, green]", "select(p in players where p = none)"))


def test_the_group_is_a_list_of_players(tmp_path):
    with pytest.raises(LudolexError) as error:
        game(tmp_path, GROUP.replace("[blue, green]", "3"))
    assert [d.code for d in error.value.diagnostics] == ["LX323"]
    g = game(tmp_path, GROUP.replace("[blue, green]", "players"))
    assert g.decision.group == ("red", "blue", "green")


def test_a_secret_decision_is_each_players_own(tmp_path):
    with pytest.raises(LudolexError) as error:
        game(tmp_path, """\
    simultaneously for each p in [red, blue]:
        choose x in locations as bet by any of [p]
    draw
""")
    assert [d.code for d in error.value.diagnostics] == ["LX333"]


SCENARIO = """\
scenarios:
  - name: green answers for the group
    rules: [X]
    choices:
      - {target: b1, by: green}
      - {select_cards: "[sword-1, flail-1]", by: red}
      - {hidden_number: 316}
    expect:
      values: {picked: 316}
"""


def test_a_scenario_answers_a_group_decision_by_any_member_and_a_set_and_a_number_by_label(tmp_path):
    rules = ZONES + "play:\n" + GROUP.replace("    draw\n", "") + SELECT.replace(
        "    if all", "    if false and all").replace("    draw\n", "") + RANGE
    folder = toy_folder(tmp_path, CONTENT, toy=rules)
    (folder / "tests").mkdir()
    path = folder / "tests" / "group.yaml"
    path.write_text(SCENARIO)
    ruleset = load(folder)
    [loaded] = load_scenarios(path)
    game_played = run_scenario(ruleset, loaded.scenario)
    assert [c.id for c in game_played.state.variables["chosen"]] == ["sword-1", "flail-1"]
    path.write_text(SCENARIO.replace("by: green", "by: red"))
    [loaded] = load_scenarios(path)
    with pytest.raises(ScenarioFailure, match="expected red to decide `target`, but blue or green decides it"):
        run_scenario(ruleset, loaded.scenario)
