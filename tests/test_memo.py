"""Derived values survive the changes they do not read (engine/memo.py, language/reads.py): a cached
function's value is worked out again only after a change to a zone, variable or property it reads."""
from toy import toy_folder

from interpreter import Game, load

CONTENT = """\
players: [red, blue]
board:
  grid: {columns: 3, rows: 1, connections: [orthogonal]}
pieces:
  stone: {per_player: 2, starts_in: supply}
"""

RULES = """\
zone supply per player
variable round = 1
variable score per player = 0
property weight = 1

function stones(site) = count(x in pieces(site) where x is stone)
function weighed(site) = round * sum(x in pieces(site): x.weight)
function doubled(site) = count(x in pieces(site) where true) + stones(site)
function held(p) = count(x in pieces(supply(p)) where true)
function reds() = count(x in pieces(supply(red)) where true)
function covered() = count(l in locations where top(l) != none)
function lucky(site) = count(x in pieces(site) where roll(6) > 0)
function total(values) = sum(v in values: v)
function squares() = count(l in locations where true)
function is_stone(c) = count(x in [c] where x is stone)
function placed(c) = count(x in [c] where x.location != none)

play:
    turn red:
        choose s in locations as place
        pass
"""


def counted(ruleset, *names):
    """Count the computations of these functions (their values, worked out), by name."""
    namespace, calls = ruleset.program.codegen.namespace, {name: [] for name in names}
    for name in names:
        def compute(rt, *args, _compute=namespace[f"compute_{name}"], _calls=calls[name]):
            _calls.append(args)
            return _compute(rt, *args)
        namespace[f"compute_{name}"] = compute
    return calls


def start(tmp_path, *names):
    ruleset = load(toy_folder(tmp_path, CONTENT, toy=RULES))
    calls = counted(ruleset, *names)
    return Game(ruleset), calls


def move(game, owner, site):
    """A stone of `owner` from their supply to `site`, as the rules' `move` does it."""
    game.state.move(game.state.zones[f"supply/{owner}"][-1], site)


def test_what_a_function_reads_is_found_in_its_code(tmp_path):
    reads = load(toy_folder(tmp_path, CONTENT, toy=RULES)).program.codegen.code_reads.reads
    assert reads("compute_stones").zones == {("", 0)}  # the zone its first parameter names
    assert reads("compute_doubled").zones == {("", 0)}  # its own, and that of `stones` it calls with the same site
    assert reads("compute_held").zones == {("supply/", 0)}  # the player's own supply
    assert reads("compute_reds").zones == {("supply/red", None)}  # a zone named in full
    assert reads("compute_covered").zones is None  # every location: any zone
    assert reads("compute_placed").zones is None  # where a component lies: any zone
    weighed = reads("compute_weighed")
    assert (weighed.variables, weighed.properties, weighed.volatile) == ({"round"}, {"weight"}, False)
    assert reads("compute_lucky").volatile and not reads("compute_doubled").volatile  # a die: valid until any change


def test_a_value_is_kept_until_its_zone_changes(tmp_path):
    game, calls = start(tmp_path, "stones", "doubled")
    assert game.evaluate("stones(a1)") == 0 and game.evaluate("doubled(a1)") == 0
    move(game, "red", "b1")
    assert game.evaluate("stones(a1)") == 0 and game.evaluate("doubled(a1)") == 0
    assert (len(calls["stones"]), len(calls["doubled"])) == (1, 1)  # b1 changed, not a1
    move(game, "blue", "a1")
    assert game.evaluate("stones(a1)") == 1 and game.evaluate("doubled(a1)") == 2
    assert (len(calls["stones"]), len(calls["doubled"])) == (2, 2)


def test_a_players_zone_a_named_zone_and_any_zone(tmp_path):
    game, calls = start(tmp_path, "held", "reds", "covered")
    assert game.evaluate("held(red) + held(blue) + reds()") == 6 and game.evaluate("covered()") == 0
    move(game, "blue", "a1")
    assert game.evaluate("held(red) + reds()") == 4 and game.evaluate("held(blue)") == 1
    assert game.evaluate("covered()") == 1
    assert calls["held"] == [("red",), ("blue",), ("blue",)] and len(calls["reds"]) == 1  # red's supply did not change
    assert len(calls["covered"]) == 2  # it reads every location: any move changes it
    move(game, "red", "b1")
    assert game.evaluate("reds()") == 1 and len(calls["reds"]) == 2


def test_a_value_is_kept_until_a_variable_or_property_it_reads_changes(tmp_path):
    game, calls = start(tmp_path, "weighed")
    move(game, "red", "a1")
    assert game.evaluate("weighed(a1)") == 1
    game.state.variables["score"]["red"] = 5
    game.state.variable_changed("score")
    assert game.evaluate("weighed(a1)") == 1 and len(calls["weighed"]) == 1
    game.state.variables["round"] = 3
    game.state.variable_changed("round")
    assert game.evaluate("weighed(a1)") == 3 and len(calls["weighed"]) == 2
    game.state.zones["a1"][0].props["weight"] = 2
    game.state.property_changed("weight")
    assert game.evaluate("weighed(a1)") == 6 and len(calls["weighed"]) == 3
    game.state.knowledge_changed()  # a reveal: no function reads who knows what
    game.state.zone_changed("b1")
    assert game.evaluate("weighed(a1)") == 6 and len(calls["weighed"]) == 3
    game.state.changed()  # a change that does not say what changed: every value goes
    assert game.evaluate("weighed(a1)") == 6 and len(calls["weighed"]) == 4


def test_a_value_drawn_at_random_is_kept_until_any_change(tmp_path):
    game, calls = start(tmp_path, "lucky")
    move(game, "red", "a1")
    game.evaluate("lucky(a1)")
    game.evaluate("lucky(a1)")
    assert len(calls["lucky"]) == 1  # no change between: the same draw, as before this memo
    game.state.knowledge_changed()
    game.evaluate("lucky(a1)")
    assert len(calls["lucky"]) == 2


def test_a_list_argument_is_worked_out_every_time(tmp_path):
    game, calls = start(tmp_path, "total")
    assert game.evaluate("total([1, 2]) + total([1, 2])") == 6 and len(calls["total"]) == 2


def test_a_value_that_reads_nothing_of_the_state_survives_any_change(tmp_path):
    game, calls = start(tmp_path, "squares", "is_stone")
    move(game, "red", "a1")
    for _ in range(2):
        assert game.evaluate("squares()") == 3 and game.evaluate("is_stone(top(a1))") == 1
        game.state.changed()
    assert len(calls["squares"]) == 1  # the board's locations: no change can change it
    assert len(calls["is_stone"]) == 2  # which component it is: a redeal of hidden components may change it
