"""`compare` as a designer uses it: what changed between two versions and whether it came into play,
a sequential test that stops when the evidence decides, and bot sets whose verdicts are compared."""
import io
import re
import textwrap

from click.testing import CliRunner
from rich.console import Console
from toy import toy_folder

from interpreter.interfaces.cli import main
from interpreter.loading.stages import load_ruleset
from interpreter.reports.change_usage import change_usage_sheet, identical, usage_of_changes, use_in
from interpreter.reports.summary import rich_table
from interpreter.simulation.changes import Change, changes_between

# Two rounds: each player steps 1 or 2, times the value of a coin of their purse, which they spend;
# the most points win. Red's coins are gold, blue's silver. The gem is never in play: it stays in the box.
CONTENT = """\
    players: [red, blue]
    board:
      locations: {}
    pieces:
      gold: {per_player: {red: 2}, starts_in: purse, properties: {value: 1}}
      silver: {per_player: {blue: 2}, starts_in: purse, properties: {value: 1}}
      gem: {count: 1, starts_in: box, properties: {value: 5}}
    """
RULES = """\
    zone purse per player
    zone spent per player
    variable points per player = 0

    function score(p) = points(p)

    play:
        repeat 2 times:
            for each p in players:
                turn p:
                    choose n in [1, 2] as step
                    choose coin in pieces(purse(you)) as spend
                    set points(you) = points(you) + n * coin.value
                    move coin to spent(you)
        end game ranked by most score
    """


def coins(tmp_path):
    """The coin game and two variants: red's gold worth 2 (a strong change), the gem worth 9 (none)."""
    game = toy_folder(tmp_path, CONTENT, coins=RULES)
    variants = {}
    for name, overrides in (("rich_red", "gold: {value: 2}"), ("gem", "gem: {value: 9}")):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "game.yaml").write_text(f"name: {name}\nbase: ../game\noverrides:\n  {overrides}\n")
        variants[name] = folder
    return game, variants


def invoke(*args):
    done = CliRunner().invoke(main, [str(a) for a in args], env={"COLUMNS": "400"})
    assert done.exception is None or isinstance(done.exception, SystemExit), done.output
    return done, " ".join(done.output.split())


def test_the_differences_between_two_versions_are_named_with_what_shows_their_use(tmp_path):
    game, variants = coins(tmp_path)
    base = load_ruleset(game)
    assert changes_between(base, load_ruleset(variants["gem"])) == [Change("kind gem", "value: 5 -> 9", ("gem",))]
    rules = tmp_path / "rules_changed"
    rules.mkdir()
    (rules / "game.yaml").write_text("name: rules_changed\nbase: ../game\nremove: [coins.rules]\nadd: [steps.rules]\n")
    (rules / "steps.rules").write_text(textwrap.dedent(RULES).replace("[1, 2]", "[1, 3]"))
    (found,) = changes_between(base, load_ruleset(rules))  # moved to another file: only `play` changed
    assert found == Change("rule play (steps.rules)", "changed", (), ("step", "spend"))


def record(seed, winners, moved=(), counts=None, log="x"):
    return {"seed": seed, "players": ["red", "blue"], "winners": winners, "winner": None, "turns": 5,
            "decisions": 10, "scores": {}, "error": None, "kinds_moved": list(moved),
            "option_counts": counts or {}, "log_digest": log}


def test_a_change_is_in_play_where_its_kind_moved_or_was_chosen():
    change = Change("kind favor", "cost: [fox, fox, fox] -> [fox]", ("favor",))
    crafted = {"red": {"craft": {"favor": 1, "pass": 2}}}
    assert use_in(change, record(0, ["red"], counts=crafted)).decisions == {"craft"}
    assert use_in(change, record(0, ["red"], moved=["favor"])).moved
    assert not use_in(change, record(0, ["red"], moved=["warrior"])).in_play
    pairs = [(record(0, ["red"], ["favor"]), record(0, ["blue"], ["favor"], crafted, log="y")),
             (record(1, ["red"]), record(1, ["red"])),
             (record(2, ["blue"]), record(2, ["blue"], counts=crafted, log="z"))]
    (usage,) = usage_of_changes([change], pairs)
    moved, crafted_row = usage.rows
    assert (moved.how, moved.games, moved.pairs, moved.identical) == ("moved", (1, 1), 1, 0)
    assert (crafted_row.how, crafted_row.games, crafted_row.pairs) == ("chosen in craft", (0, 2), 2)
    assert [identical(a, b) for a, b in pairs] == [False, True, False]
    assert crafted_row.effect.measure in ("red's win rate", "blue's win rate") and crafted_row.effect.pairs == 2
    shown = io.StringIO()
    Console(file=shown, width=300).print(rich_table(change_usage_sheet([usage], pairs)))
    row = r"kind favor: cost: \[fox, fox, fox\] -> \[fox\] │ moved\s+│\s+1 / 1 │\s+1 │\s+0 │"
    assert re.search(row, shown.getvalue()), shown.getvalue()  # a value in brackets is no markup


def test_a_strong_change_is_decided_early_and_says_where_it_came_into_play(tmp_path):
    game, variants = coins(tmp_path)
    done, said = invoke("compare", game, variants["rich_red"], "--until-decided", "--games", 2000, "--batch", 50,
                        "--jobs", 1, "--db", tmp_path / "r.sqlite")
    assert done.exit_code == 0, done.output
    decided = re.search(r"Sequential verdict: an effect: (red higher|blue lower) in B by 3 points or more is accepted "
                        r"after (\d+) pairs", said)
    assert decided and int(decided[2]) < 2000, said
    row = re.search(r"kind gold: value: 1 -> 2 │ moved +│ (\d+) / \1 │ +\1 │ +0 │ red .*│ +│ chosen in spend +│ "
                    r"\1 / \1 │ +\1 │ +0 │ red ", said)
    assert row and int(row[1]) == int(decided[2]), said  # spent in every game, and no pair alike
    assert re.search(r"\d+ pairs \(\d+ seeds\): win rate B - A in points: red \+", said)  # the progress, batch by batch


def test_a_change_that_cannot_matter_is_accepted_as_no_effect_and_shown_never_used(tmp_path):
    game, variants = coins(tmp_path)
    done, said = invoke("compare", game, variants["gem"], "--until-decided", "--batch", 50, "--jobs", 1,
                        "--db", tmp_path / "r.sqlite")
    assert done.exit_code == 0, done.output
    decided = re.search(r"Sequential verdict: no effect of 3 points or more on any of the 2 measures, accepted after "
                        r"(\d+) pairs", said)
    assert decided and int(decided[1]) <= 150, said
    assert re.search(r"kind gem: value: 5 -> 9 │ never \(moved nor chosen\) │ +0 / 0 │ +0 │ +— │ +— │", said), said
    assert f"{decided[1]} pairs, {decided[1]} of them played identically" in said


def test_two_bot_sets_are_compared_and_their_verdicts_set_side_by_side(tmp_path):
    game, variants = coins(tmp_path)
    (game / "bots").mkdir()
    (game / "bots" / "greedy.yaml").write_text("all:\n  step: 'n'\n")  # always steps 2
    done, said = invoke("compare", game, variants["rich_red"], "--until-decided", "--batch", 50, "--jobs", 1,
                        "--bots", "random", "--bots", "greedy", "--db", tmp_path / "r.sqlite")
    assert done.exit_code == 0, done.output
    assert "Bots: random (each seed" in said and "Bots: greedy (each seed" in said
    assert "The verdicts of the 2 bot sets agree (with random: an effect: " in said
    assert "; with greedy: an effect: " in said
