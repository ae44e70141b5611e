"""Extra seats (`seats:` in the content): a table may seat one faction twice, the second seat
playing a copy of the faction's file with names of its own, except the zones declared `common`."""
import pytest
from toy import toy_folder

from interpreter import Game, LudolexError, load
from interpreter.agents.rule_of_thumb import Policy

CONTENT = """\
players: [red, wanderer]
seats: {second_wanderer: wanderer}
board:
  grid: {columns: 3, rows: 1, connections: [orthogonal]}
pieces:
  pawn: {per_player: {wanderer: 1}, starts_in: wanderer.camp}
  quest: {count: 3, starts_in: wanderer.quests}
"""

CORE = """\
play:
    for each p in players:
        turn p:
            emit act()
    end game ranked by most wanderer_points
function wanderer_points(p) = 0
"""

WANDERER = """\
faction wanderer
zone camp
zone quests common
zone done
variable walked = 0
override wanderer_points(p) = size(done) if p = wanderer
when act() if you = wanderer:
    choose q in pieces(quests) as take_quest
    move q to done
    move first(x in pieces(camp) where x.owner = wanderer) to a1
    set walked = walked + 1
"""


def game_folder(tmp_path, content=CONTENT, **rules):
    return toy_folder(tmp_path, content, **({"core": CORE, "wanderer": WANDERER} | rules))


def test_a_game_seats_the_content_s_players_unless_a_table_names_the_extra_seat(tmp_path):
    ruleset = load(game_folder(tmp_path))
    assert Game(ruleset).players == ["red", "wanderer"]
    assert Game(ruleset, players=["red", "wanderer", "second_wanderer"]).players == ["red", "wanderer", "second_wanderer"]


def test_the_second_seat_plays_its_own_copy_of_the_faction_s_file(tmp_path):
    game = Game(load(game_folder(tmp_path)), players=["wanderer", "second_wanderer"])
    game.choose("quest-1")                 # the wanderer's quest, from the common zone
    assert game.decision.player == "second_wanderer" and game.decision.labels() == ["quest-2", "quest-3"]
    game.choose("quest-3")
    zones, variables = game.state.zones, game.state.variables
    assert [c.id for c in zones["wanderer.done"]] == ["quest-1"]
    assert [c.id for c in zones["second_wanderer.done"]] == ["quest-3"]
    assert [c.id for c in zones["wanderer.quests"]] == ["quest-2"] and "second_wanderer.quests" not in zones
    assert [c.id for c in zones["a1"]] == ["wanderer-pawn-1", "second_wanderer-pawn-1"]  # each its own pawn
    assert variables["wanderer.walked"] == 1 and variables["second_wanderer.walked"] == 1
    assert game.result.scores == {"wanderer": 1, "second_wanderer": 1}


def test_faction_of_names_the_player_whose_faction_a_seat_plays(tmp_path):
    game = Game(load(game_folder(tmp_path)), players=["wanderer", "second_wanderer"])
    assert game.evaluate("faction_of(second_wanderer)") == "wanderer"
    assert game.evaluate("faction_of(wanderer)") == "wanderer"


def test_a_bot_of_the_second_seat_reads_the_faction_s_names_as_the_seat_s_own(tmp_path):
    folder = game_folder(tmp_path)
    (folder / "bots").mkdir()
    (folder / "bots" / "b.yaml").write_text("all:\n  take_quest: size(done) + (if q is quest then 1 else 0)\n")
    ruleset = load(folder)
    game = Game(ruleset, players=["wanderer", "second_wanderer"])
    game.state.zones["second_wanderer.done"] = []
    policy = Policy(folder / "bots" / "b.yaml", ruleset)
    game.choose("quest-1")
    value, _ = policy.valuer("second_wanderer", game.decision)
    env = {"you": "second_wanderer", "q": game.state.components["quest-2"]}
    assert value(game.runtime, env) == 1  # second_wanderer.done is empty; wanderer.done holds a quest
    first, _ = policy.valuer("wanderer", game.decision)
    assert first(game.runtime, {**env, "you": "wanderer"}) == 2


@pytest.mark.parametrize("seats, code, message", [
    ("{red: wanderer}", "LX301", "seat `red` is a player already"),
    ("{second_wanderer: nomad}", "LX302", "seat `second_wanderer` plays `nomad`, which is not a player of the content"),
])
def test_a_seat_named_like_a_player_or_of_no_player_is_an_error(tmp_path, seats, code, message):
    content = CONTENT.replace("{second_wanderer: wanderer}", seats)
    with pytest.raises(LudolexError) as error:
        load(game_folder(tmp_path, content))
    assert any(d.code == code and d.message == message for d in error.value.diagnostics)


def test_an_extra_seat_needs_its_faction_s_first_seat_at_the_table(tmp_path):
    # Root's RV-4: the reach of 2 belongs to a second Vagabond, so it plays only beside a first one
    ruleset = load(game_folder(tmp_path))
    with pytest.raises(ValueError, match="`second_wanderer` is a second seat of `wanderer`'s faction: seat `wanderer` too"):
        Game(ruleset, players=["red", "second_wanderer"])


REFUSED_SCENARIOS = """\
scenarios:
  - name: "the second wanderer alone is refused"
    rules: ["T-1"]
    players: [red, second_wanderer]
    expect:
      refused: "seat `wanderer` too"
  - name: "a table the game seats is not refused"
    rules: ["T-2"]
    players: [red, wanderer, second_wanderer]
    expect:
      refused: "seat `wanderer` too"
"""


def test_a_scenario_expects_a_refused_table_and_fails_where_the_game_starts(tmp_path):
    from interpreter.scenarios import ScenarioFailure
    from interpreter.scenarios.files import load_scenarios
    from interpreter.scenarios.run import run_scenario

    folder = game_folder(tmp_path)
    (folder / "tests").mkdir()
    (folder / "tests" / "seats.yaml").write_text(REFUSED_SCENARIOS)
    refused, seated = load_scenarios(folder / "tests" / "seats.yaml")
    ruleset = load(folder)
    assert run_scenario(ruleset, refused.scenario) is None
    with pytest.raises(ScenarioFailure, match="but it started"):
        run_scenario(ruleset, seated.scenario)
