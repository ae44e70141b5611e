"""Variants in one line: a manifest that names its base game and overrides what it changes."""
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter import Game
from interpreter.agents.bots import make_agent
from interpreter.agents.rule_of_thumb import bot_names
from interpreter.diagnostics.errors import LudolexError
from interpreter.interfaces.cli import main
from interpreter.loading.stages import load_ruleset

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def variant(project: Path, name: str, manifest: str, **files: str) -> Path:
    """`project/rulesets/NAME/` with this manifest (and these files beside it)."""
    folder = project / "rulesets" / name
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(textwrap.dedent(manifest))
    for file, text in files.items():
        (folder / file.replace("_dot_", ".")).write_text(textwrap.dedent(text))
    return folder


def toy_base(project: Path) -> Path:
    """A small game, `project/rulesets/toy`, with two content files and two rules files."""
    cards, game = project / "cards" / "toy", project / "rulesets" / "toy"
    cards.mkdir(parents=True)
    game.mkdir(parents=True)
    (cards / "content.yaml").write_text(
        "players: [red, blue]\nboard:\n  grid: {columns: 3, rows: 2}\n"
        "pieces:\n  stone: {per_player: 4, starts_in: supply, properties: {weight: 2, colours: [grey]}}\n")
    (cards / "gems.yaml").write_text("pieces:\n  gem: {count: 2, starts_in: box}\n")
    (game / "game.yaml").write_text("name: toy\ncontent: ../../cards/toy\n")
    (game / "toy.rules").write_text(
        "zone supply per player\n"
        "play:\n    turn red:\n        choose s in locations where top(s) = none as put\n"
        "        move first(x in pieces(supply(you))) to s\n    end game ranked by most stones\n"
        "function stones(p) = count(s in locations where top(s).owner = p)\n")
    (game / "weights.rules").write_text("function weight_of(p) = sum(x in pieces(supply(p)): x.weight)\n")
    return game


def test_a_root_variant_changes_one_card_and_plays_with_the_bases_bots(tmp_path):
    folder = variant(tmp_path, "cheap", """\
        name: cheap_foxes
        base: root
        overrides:
          favor_of_the_foxes: {cost: [fox]}
        """)
    base, changed = load_ruleset("root"), load_ruleset(folder)
    assert changed.content.pieces["favor_of_the_foxes"].properties["cost"] == ["fox"]
    assert base.content.pieces["favor_of_the_foxes"].properties["cost"] == ["fox", "fox", "fox"]
    assert changed.name == "cheap_foxes" and changed.manifest.score == "points"  # the base's score
    assert changed.content_hash() != base.content_hash()
    assert "rule_of_thumb" in bot_names(changed)  # inherited from rulesets/root/bots/
    game = Game(changed, seed=1, players=["marquise", "eyrie"])
    bots = {p: make_agent("rule_of_thumb", changed, game, i) for i, p in enumerate(game.players)}
    while not game.finished and len(game.log) < 300:
        game.choose(bots[game.decision.player].choose(game.decision))
    assert len(game.log) == 300 or game.finished
    assert run("validate", folder).exit_code == 0


def test_override_mistakes_are_errors_at_the_manifests_line_and_column(tmp_path):
    folder = variant(tmp_path, "bad", """\
        name: bad
        base: root
        overrides:
          favor_of_the_foxes: {cost: 2, costs: [fox]}
          favor_of_the_foxs: {cost: [fox]}
          sappers:
            count: two
        """)
    result = run("validate", folder)
    assert result.exit_code == 1
    manifest = str(folder / "game.yaml")
    assert (f"{manifest}:4:30: error LX205: `cost` of `favor_of_the_foxes` is a list of texts ([fox, fox, fox]); "
            "2 is a whole number") in result.output
    assert f"{manifest}:4:33: error LX308: `favor_of_the_foxes` has no property `costs`" in result.output
    assert f"{manifest}:5:3: error LX302: `favor_of_the_foxs` in `overrides` is not a kind of the game" in result.output
    assert "did you mean `favor_of_the_foxes`?" in result.output
    assert f"{manifest}:7:12: error LX205: `count` of `sappers`" in result.output
    assert "Traceback" not in result.output


def test_files_removed_and_added_and_the_variants_own_rules(tmp_path):
    toy_base(tmp_path)
    folder = variant(tmp_path, "lighter", """\
        name: lighter
        base: toy
        overrides:
          stone: {weight: 1, colours: [red, blue]}
        remove: [weights.rules, gems.yaml]
        add: [pebbles.yaml]
        """, pebbles_dot_yaml="pieces:\n  pebble: {count: 3, starts_in: box}\n",
        own_dot_rules="function pebbles() = count(x in pieces(box) where x is pebble)\n")
    base, changed = load_ruleset(tmp_path / "rulesets" / "toy"), load_ruleset(folder)
    assert "weight_of" in base.program.functions and "weight_of" not in changed.program.functions
    assert "pebbles" in changed.program.functions
    assert set(changed.content.pieces) == {"stone", "pebble"} and "gem" in base.content.pieces
    assert changed.content.pieces["stone"].properties == {"weight": 1, "colours": ["red", "blue"]}
    assert changed.bases == (base.directory.resolve(),)


def test_a_file_to_remove_or_add_that_is_not_there(tmp_path):
    toy_base(tmp_path)
    folder = variant(tmp_path, "wrong", """\
        name: wrong
        base: toy
        remove: [weight.rules]
        add: [nothing.yaml, notes.txt]
        """, notes_dot_txt="a note\n")
    result = run("validate", folder)
    manifest = str(folder / "game.yaml")
    assert result.exit_code == 1
    assert (f"{manifest}:3:10: error LX206: `weight.rules` in `remove` is not a file of the base game `toy`"
            in result.output)
    assert "did you mean `weights.rules`?" in result.output
    assert f"{manifest}:4:7: error LX206: added file `nothing.yaml` not found" in result.output
    assert f"{manifest}:4:21: error LX206: added file `notes.txt` neither rules" in result.output


def test_a_variant_of_a_variant_and_a_base_that_leads_back(tmp_path):
    toy_base(tmp_path)
    first = variant(tmp_path, "first", "name: first\nbase: toy\noverrides:\n  stone: {weight: 3}\n")
    second = variant(tmp_path, "second", "name: second\nbase: ../first\noverrides:\n  stone: {per_player: 2}\n")
    ruleset = load_ruleset(second)
    assert ruleset.content.pieces["stone"].properties["weight"] == 3 and ruleset.content.pieces["stone"].per_player == 2
    assert [p.name for p in ruleset.bases] == ["first", "toy"]
    assert len({load_ruleset(f).content_hash() for f in (first, second, tmp_path / "rulesets" / "toy")}) == 3
    (first / "game.yaml").write_text("name: first\nbase: second\n")
    with pytest.raises(LudolexError) as error:
        load_ruleset(second)
    assert [d.code for d in error.value.diagnostics] == ["LX212"]
    assert "base `second` is this variant itself, or a variant of it" in error.value.diagnostics[0].message


def test_a_base_that_does_not_exist_and_keys_out_of_place(tmp_path):
    toy_base(tmp_path)
    missing = variant(tmp_path, "missing", "name: missing\nbase: tooy\n")
    result = run("validate", missing)
    assert result.exit_code == 1 and "game.yaml:2:7: error LX001: no base game `tooy`" in result.output
    assert "did you mean `toy`?" in result.output
    both = variant(tmp_path, "both", "name: both\nbase: toy\ncontent: ../../cards/toy\n")
    assert "error LX203: `content` in a variant" in run("validate", both).output
    plain = variant(tmp_path, "plain", "name: plain\ncontent: ../../cards/toy\noverrides:\n  stone: {weight: 1}\n")
    assert "error LX203: `overrides` is for a variant: name the game it changes with `base:`" in \
        run("validate", plain).output


def test_an_inherited_bot_is_checked_against_the_variant(tmp_path):
    # the Eyrie's files removed, but its player given again: the bot's part for it asks what no rule asks
    folder = variant(tmp_path, "no_eyrie", "name: no_eyrie\nbase: root\nremove: [eyrie.rules, eyrie.yaml]\n"
                                           "add: [eyrie_player.yaml]\n",
                     eyrie_player_dot_yaml="players: [eyrie]\nown: {warrior: 20}\n")
    result = run("validate", folder)
    assert result.exit_code == 1
    assert "rulesets/root/bots/rule_of_thumb/eyrie.yaml" in result.output  # the base's bot, checked against the variant
    assert "the rules ask no decision `add_to_decree`" in result.output


def test_variant_new_writes_a_variant_that_loads_and_changes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("rulesets").mkdir()
    made = run("variant", "new", "cheap", "--from", "root")
    assert made.exit_code == 0, made.output
    assert made.output.startswith("wrote rulesets/cheap/game.yaml: a variant of root")
    manifest = Path("rulesets/cheap/game.yaml").read_text()
    assert "\nbase: root\n" in manifest and "\noverrides:\n  # " in manifest
    assert load_ruleset("rulesets/cheap").content.pieces == load_ruleset("root").content.pieces
    assert run("validate", "rulesets/cheap").exit_code == 0
    # the commented example, uncommented, is an override that loads
    Path("rulesets/cheap/game.yaml").write_text(manifest.replace("\n  # ", "\n  ", 1))
    assert run("validate", "rulesets/cheap").exit_code == 0
    again = run("variant", "new", "cheap", "--from", "root")
    assert again.exit_code == 2 and "already exists: nothing written" in again.output
    assert run("variant", "new", "2x", "--from", "root").exit_code == 2
    assert run("variant", "new", "x", "--from", "rooot").exit_code == 2
    assert sorted(p.name for p in Path("rulesets").iterdir()) == ["cheap"]
