"""Factions as modules that can be removed: a faction's files (rules, content, bot part) can be removed and the rest
still loads and plays. What makes it so: events declared where they are emitted (`event`), a
faction's rules applying only when it is seated, `with faction NAME:` blocks for rules that reach
another faction, players and counts declared by each faction's content (`own`), the manifest's
`table`, and bots written as one part per faction."""
import re
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from toy import toy_folder

from interpreter import Game, LudolexError, load
from interpreter.agents.rule_of_thumb import Policy
from interpreter.interfaces.cli import main
from interpreter.language.declarations import WithFactionDecl
from interpreter.language.expressions import Attribute, Name
from interpreter.language.tree import nodes
from interpreter.language.parser import parse_recovering
from interpreter.validation.validate import validate_ruleset

SHARED = """\
board:
  grid: {columns: 3, rows: 1, connections: [orthogonal]}
pieces:
  chip: {per_player: {}, starts_in: supply}
"""
RED = "players: [red]\nown: {chip: 2}\n"
BLUE = "players: [blue]\nown: {chip: 3}\n"

CORE = """\
zone supply per player
variable points per player = 0
function score(p) = points(p)
event scored(p, n)
event unheard(p)
play:
    for each p in players:
        turn p:
            choose x in pieces(supply(you)) as play_chip or pass
            if x != none:
                move x to a1
                set points(you) = points(you) + 1
                emit scored(you, 1)
            emit unheard(you)
    end game ranked by most score
"""
BLUE_RULES = """\
faction blue
when scored(p, n) if p != blue:
    set points(blue) = points(blue) + 10
"""
RED_RULES = """\
faction red
with faction blue:
    when scored(p, n) if p = blue:
        set points(red) = points(red) + 100
"""


def game(tmp_path: Path, blue: bool = True, table: str | None = None) -> Path:
    folder = toy_folder(tmp_path, SHARED, core=CORE, red=RED_RULES, **({"blue": BLUE_RULES} if blue else {}))
    (tmp_path / "cards" / "red.yaml").write_text(RED)
    if blue:
        (tmp_path / "cards" / "blue.yaml").write_text(BLUE)
    if table:
        (folder / "game.yaml").write_text(f"name: toy\ncontent: ../cards\ntable: {table}\n")
    return folder


def played(folder: Path, players=None, choices=("chip", "chip")) -> dict:
    g = Game(load(folder), players=players)
    for _ in choices:
        g.choose(g.decision.labels()[0])
    return g.state.variables["points"]


def test_each_faction_s_content_declares_its_player_and_how_many_of_a_shared_kind_it_has(tmp_path):
    ruleset = load(game(tmp_path))
    assert sorted(ruleset.content.players) == ["blue", "red"]
    assert ruleset.content.pieces["chip"].per_player == {"red": 2, "blue": 3}


def test_the_manifest_s_table_seats_the_players_in_its_order(tmp_path):
    assert Game(load(game(tmp_path, table="[red, blue]"))).players == ["red", "blue"]
    assert Game(load(game(tmp_path, table="[blue, red]"))).players == ["blue", "red"]


def test_a_faction_s_rules_apply_only_when_it_is_seated(tmp_path):
    folder = game(tmp_path, table="[red, blue]")
    assert played(folder) == {"red": 1 + 100, "blue": 1 + 10}  # blue's rule for red's chip; red's for blue's
    assert played(folder, players=["red"], choices=("chip",))["red"] == 1  # blue is not seated: no rule of its applies


def test_a_with_faction_block_is_left_out_with_a_note_when_that_faction_s_file_is_not_there(tmp_path):
    folder = game(tmp_path, blue=False)
    notes = [d for d in validate_ruleset(folder) if d.severity != "note" or d.code == "LX402"]
    assert [(d.code, d.position.line) for d in notes] == [("LX402", 2)]
    assert played(folder, choices=("chip",)) == {"red": 1}


def test_an_event_declared_needs_no_handler_and_its_handlers_take_its_values(tmp_path):
    folder = game(tmp_path)
    (folder / "blue.rules").write_text(BLUE_RULES.replace("scored(p, n)", "scored(p)"))
    (folder / "more.rules").write_text("event scored(p, n)\n")
    found = {(d.code, Path(d.position.file).name, d.position.line) for d in validate_ruleset(folder)}
    assert ("LX307", "blue.rules", 2) in found and ("LX301", "more.rules", 1) in found


def test_players_or_counts_given_twice_and_a_table_of_no_player_are_errors(tmp_path):
    folder = game(tmp_path, table="[red, green]")
    (tmp_path / "cards" / "more.yaml").write_text("players: [blue]\nown: {chip: 1, stone: 1}\n")
    with pytest.raises(LudolexError) as error:
        load(folder)
    found = {(d.code, d.message) for d in error.value.diagnostics}
    assert ("LX301", "player `blue` is declared twice (first at blue.yaml:1)") in found
    assert ("LX302", "`own`: no piece kind `stone` in the content") in found
    assert ("LX302", "`table`: no player `green` in the content") in found


BOT = """\
all:
  play_chip: '1'
passing: {play_chip: 5}
"""


def test_a_bot_s_parts_merge_and_a_part_of_a_player_the_game_lacks_is_left_out(tmp_path):
    folder = game(tmp_path)
    (folder / "bots" / "b").mkdir(parents=True)
    (folder / "bots" / "b.yaml").write_text(BOT)
    (folder / "bots" / "b" / "blue.yaml").write_text("players:\n  blue:\n    passing: {play_chip: -1}\n")
    (folder / "bots" / "b" / "green.yaml").write_text("players:\n  green: {play_chip: '1'}\n")  # no green: left out
    ruleset = load(folder)
    policy = Policy(folder / "bots" / "b.yaml", ruleset)
    assert policy.passing_worth("blue", "play_chip") == -1 and policy.passing_worth("red", "play_chip") == 5
    (folder / "bots" / "b" / "red.yaml").write_text("passing: {play_chip: 2}\n")
    with pytest.raises(LudolexError) as error:
        Policy(folder / "bots" / "b.yaml", ruleset)
    assert [(d.code, d.message) for d in error.value.diagnostics] == [
        ("LX301", "every player's `play_chip` is given twice in this bot")]


ROOT = Path(__file__).resolve().parent.parent / "rulesets" / "root"
FACTIONS = sorted(p.stem for p in ROOT.glob("*.rules") if re.search(r"^faction ", p.read_text(), re.MULTILINE))


@pytest.mark.parametrize("faction", FACTIONS)
def test_root_without_any_one_faction_validates_and_plays(tmp_path, faction):
    variant = tmp_path / "rulesets" / f"no_{faction}"
    variant.mkdir(parents=True)
    (tmp_path / ".git").mkdir()
    (variant / "game.yaml").write_text(textwrap.dedent(f"""\
        name: no_{faction}
        base: {ROOT}
        remove: [{faction}.rules, {faction}.yaml]
        """))
    problems = [d for d in validate_ruleset(variant) if d.severity != "note"]
    assert problems == []
    result = CliRunner().invoke(main, ["simulate", str(variant), "--games", "2", "--jobs", "1", "--check",
                                       "--bots", "rule_of_thumb", "--db", str(tmp_path / "runs.db")])
    assert result.exit_code == 0, result.output
    seated = result.output.split(" between ")[1].split(";")[0].replace("\n", " ")
    assert "(2 finished)" in result.output and f" {faction}" not in f" {seated}"


def test_a_faction_s_content_may_exclude_another_from_its_table(tmp_path):
    folder = game(tmp_path)
    (tmp_path / "cards" / "blue.yaml").write_text(BLUE + "excludes: [red]\n")
    ruleset = load(folder)
    with pytest.raises(ValueError, match="`red` cannot sit at a table with `blue`|`blue` cannot sit at a table with `red`"):
        Game(ruleset, players=["red", "blue"])
    assert Game(ruleset, players=["blue"]).players == ["blue"]


def test_no_root_faction_file_names_another_faction_s_own_names_outside_a_with_faction_block():
    """The core names no faction; a faction's file reaches another faction's zones, functions and
    procedures (`alliance.pay_outrage`) only inside `with faction alliance:`."""
    core = (ROOT / "core.rules").read_text()
    assert not [f for f in FACTIONS if re.search(rf"\b{f}\b", core, re.IGNORECASE)]
    for faction in FACTIONS:
        declarations, _, _ = parse_recovering((ROOT / f"{faction}.rules").read_text(), f"{faction}.rules")
        for decl in declarations:
            allowed = {faction, decl.faction} if isinstance(decl, WithFactionDecl) else {faction}
            for node in nodes(decl):
                name = getattr(node, "name", None)
                if isinstance(node, Attribute) and isinstance(node.subject, Name):  # `alliance.supporters`
                    name = f"{node.subject.name}.{node.name}"
                prefix = name.partition(".")[0] if isinstance(name, str) and "." in name else None
                assert prefix not in set(FACTIONS) - allowed, f"{faction}.rules line {decl.pos.line} names `{name}`"
