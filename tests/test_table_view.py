"""A game's table description (`rulesets/<game>/table.yaml`, docs/tables.md): its mistakes told at
their file, line and column; what it shows, in the terminal and to the page, never more than the seat
sees; the four shipped games' descriptions clean."""
import re
import sys
import textwrap
from pathlib import Path

import processes
import pytest
from test_web_table import links
from toy import toy_folder

from interpreter import Game, load
from interpreter.content.table_view import TableView, fill, name_problems, read_table_view
from interpreter.content.yaml_source import read_yaml
from interpreter.interfaces.web.table import Played
from interpreter.play.saves import Journal

LUDOLEX = Path(sys.executable).with_name("ludolex")

BIDS_CONTENT = """\
    players: [red, blue]
    board:
      locations: {}
    pieces:
      gem: {per_player: 2, starts_in: hand}
      coin: {per_player: 1, starts_in: hand}
    """
BIDS_RULES = """\
    zone hand per player private
    zone pot
    variable current = red
    variable bid per player private = 0     # each sees their own bid only
    variable grudge per player hidden = 7   # nobody sees it

    play:
        repeat:
            turn current:
                set bid(you) = 6 + roll(6)
                choose card in pieces(hand(you)) as play or pass
                if card = none:
                    win next(you)
                move card to pot
            set current = next(current)
    """
BIDS_TABLE = """\
    turn: ["turn {turns}", "{current} to play"]
    scores:
      - {label: bid, variable: bid}
      - {label: grudge, variable: grudge}
      - {label: cards, count: hand}
      - {label: gems, count: hand, kind: gem}
    zones:
      each_player: [hand]
      shared: [pot]
    decisions:
      play: {title: "put a card in the pot", option: "{card} to the pot"}
    """


def bids_game(where: Path, table: str = BIDS_TABLE) -> Path:
    """Red and blue in turn bid in secret (a die rolled: 7 to 12), then put a card of their hidden hand
    in the pot; the table description names the secret bid, a variable nobody sees, and the hidden hands."""
    folder = toy_folder(where, BIDS_CONTENT, bids=BIDS_RULES)
    (folder / "table.yaml").write_text(textwrap.dedent(table))
    return folder


def score_rows(text: str) -> dict[str, list[str]]:
    """The rows of a scores table printed without colour: player -> its values."""
    return {line.split()[0]: line.split()[1:] for line in text.splitlines() if line.split()[:1] in (["red"], ["blue"])
            and len(line.split()) == 5}


def test_a_description_naming_secrets_shows_another_seat_nothing_of_them(tmp_path):
    """Red bids in secret and puts a gem in the pot; at blue's seat (hot-seat, in the terminal) red's
    bid, the hidden grudges and the gems in red's hand read `?`; red's hand shows only how many it
    holds. Red's own seat saw its bid and its gems."""
    game = bids_game(tmp_path)
    played = processes.run([LUDOLEX, "play", str(game), "--human", "red", "--human", "blue", "--seed", "1"],
                           input="0\n", capture_output=True, text=True)
    red_seat, _, blue_seat = played.stdout.partition("--- blue's seat ---")
    assert blue_seat, played.stdout + played.stderr
    bid = str(Game(load(game), seed=1).state.variables["bid"]["red"])
    assert bid != "0" and "red, play: put a card in the pot" in red_seat and "[0] red-gem-1  gem to the pot" in red_seat
    assert score_rows(red_seat.split("red, play:")[0]) == {"red": [bid, "?", "3", "2"], "blue": ["?", "?", "3", "?"]}
    assert "red play: red-gem-1 (gem to the pot)" in red_seat
    shown = blue_seat.split("blue, play:")[0]
    assert "turn 2, blue to play" in shown
    assert score_rows(shown)["red"] == ["?", "?", "2", "?"] and score_rows(shown)["blue"][1:] == ["?", "3", "2"]
    assert "hand/red   2 hidden" in shown and bid not in shown.replace("turn 2", "")


def test_the_page_is_sent_no_more_of_the_secrets_than_the_seat_sees(tmp_path):
    ruleset = load(bids_game(tmp_path))
    table = Played(Journal(Game(ruleset, seed=1), ruleset.content_hash()), ("red", "blue"),
                   lambda g: {}, debug=False)
    clients = links(table)
    bids = table.game.state.variables["bid"]
    red = clients["red"].get("/api/state", query_string={"seat": "red"}).get_json()
    assert red["table"]["scores"][0] == {"player": "red", "values": [str(bids["red"]), "?", "3", "2"]}
    assert red["decision"]["title"] == "put a card in the pot"
    assert [o.get("text") for o in red["decision"]["options"]] == ["gem to the pot"] * 2 + ["coin to the pot", None]
    clients["red"].post("/api/choose", json={"seat": "red", "index": 0})
    blue = clients["blue"].get("/api/state", query_string={"seat": "blue"}).get_json()
    assert blue["table"]["status"] == "turn 2, blue to play"
    assert blue["table"]["scores"] == [{"player": "red", "values": ["?", "?", "2", "?"]},
                                      {"player": "blue", "values": [str(bids["blue"]), "?", "3", "2"]}]
    assert [(entry["label"], entry.get("text")) for entry in blue["log"]] == [("red-gem-1", "gem to the pot")]
    assert blue["table"]["boards"] == [["red", ["hand/red"]], ["blue", ["hand/blue"]], [None, ["pot"]], ["", []]]
    sent = str({key: value for key, value in blue.items() if key != "log"}).replace('"', "'")
    assert f"'bid': {{'blue': {bids['blue']}}}" in sent and "grudge" not in sent


@pytest.mark.parametrize("table, expected", [
    ("scroes: []\n", [("LX203", 1, 1, "unknown key `scroes`", "did you mean `scores`?")]),
    ("scores:\n  - {label: bid, variable: bid, count: hand}\n",
     [("LX205", 2, 5, "a score is either a `variable` or a `count`", None)]),
    ("scores:\n  - {label: bid, variable: bids}\n",
     [("LX302", 2, 28, "no per-player variable `bids`", "did you mean `bid`?")]),
    ("scores:\n  - {label: pot, variable: current}\n", [("LX302", 2, 28, "no per-player variable `current`", None)]),
    ("zones:\n  each_player: [hand, pot]\n", [("LX305", 2, 23, "`pot` is not a per-player zone", None)]),
    ("turn: [\"turn {turns}\", \"{curent} to play\"]\n", [("LX302", 1, 24, "no field `curent`", "did you mean `current`?")]),
    ("decisions:\n  plays: {title: x}\n  play: {option: \"{cards} to the pot\"}\n",
     [("LX302", 2, 3, "no decision `plays`", "did you mean `play`?"),
      ("LX302", 3, 18, "no field `cards`", "did you mean `card`?")]),
    ("pieces:\n  gems: {plural: gems}\nplayers:\n  green: {mark: G}\n",
     [("LX302", 2, 3, "no kind or trait `gems`", "did you mean `gem`?"),
      ("LX302", 4, 3, "no player `green`", None)]),
    ("players:\n  red: {mark: RED}\n", [("LX205", 2, 15, "too long (at most 2 characters)", None)]),
    ("stacks: sorted\n", [("LX205", 1, 9, "`sorted` is not one of `ordered` or `grouped`", None)]),
])
def test_a_mistake_in_a_table_description_is_told_at_its_line_and_column(tmp_path, table, expected):
    folder = bids_game(tmp_path, table)
    view, problems = read_table_view(load(folder))
    assert view is None
    found = [(p.code, p.position.line, p.position.column, p.message, p.hint) for p in problems]
    assert [(code, line, column) for code, line, column, _, _ in found] == [e[:3] for e in expected], found
    for (_, _, _, message, hint), (*_, wanted, wanted_hint) in zip(found, expected):
        assert wanted in message and hint == wanted_hint, (message, hint)
    assert all(p.position.file == str(folder / "table.yaml") for p in problems)


def test_a_broken_description_is_said_once_and_the_game_is_shown_without_it(tmp_path):
    game = bids_game(tmp_path, "scores: [{label: bid, variable: bids}]\n")
    played = processes.run([LUDOLEX, "play", str(game), "--human", "red", "--seed", "1"], input="0\n",
                           capture_output=True, text=True)
    assert played.stdout.count("the table description has problems") == 1, played.stdout
    assert "table.yaml:1:33: error LX302: no per-player variable `bids`" in played.stdout
    assert "hand/red" in played.stdout and "Traceback" not in played.stderr


def test_validate_reports_a_broken_description_at_its_line_and_column(tmp_path):
    game = bids_game(tmp_path, "scores: [{label: bid, variable: bids}]\n")
    checked = processes.run([LUDOLEX, "validate", str(game)], capture_output=True, text=True)
    assert checked.returncode == 1, checked.stdout
    assert "table.yaml:1:33: error LX302: no per-player variable `bids`" in checked.stdout


def test_a_template_leaves_out_the_parts_with_no_value():
    values = {"turns": "3", "phase": None, "current": "red"}
    assert fill(["turn {turns}", "{phase}", "{current} to play"], lambda name, _: values[name]) == "turn 3, red to play"
    assert fill("{current} in {phase}", lambda name, _: values[name]) is None
    assert fill(["{phase}"], lambda name, _: values[name]) is None


@pytest.mark.parametrize("game", ["cernunos", "root", "wonderlands_war", "seventh_citadel", "root_winter"])
def test_each_shipped_game_reads_through_a_clean_table_description(game):
    ruleset = load(game)
    view, problems = read_table_view(ruleset)
    assert not problems, "\n".join(p.render() for p in problems)
    assert view is not None and view.scores and view.turn


def test_the_example_of_the_documentation_is_a_clean_description_of_root(tmp_path):
    """docs/tables.md shows part of Root's description, and a faction's part: each reads, and names
    only what Root has."""
    docs = (Path(__file__).resolve().parent.parent / "docs" / "tables.md").read_text()
    examples = re.findall(r"```yaml\n# rulesets/root/table[^\n]*\n(.*?)```", docs, re.S)
    assert len(examples) == 2
    for example in examples:
        (tmp_path / "table.yaml").write_text(example)
        document = read_yaml(tmp_path / "table.yaml")
        view = TableView.model_validate(document)
        assert name_problems(view, document, "table.yaml", load("root")) == []


def test_a_faction_s_part_is_read_only_where_the_game_has_the_faction(tmp_path):
    root = Path(__file__).resolve().parent.parent / "rulesets" / "root"
    view, problems = read_table_view(load(root))
    assert problems == [] and "eyrie" in view.zones.player and "roost" in view.pieces
    phases = view.decisions["move"].phase
    assert {p: phases[p] for p in ("alliance", "eyrie", "marquise")} == {"alliance": "evening", "eyrie": "daylight",
                                                                         "marquise": "daylight"}
    (tmp_path / "no_eyrie").mkdir()
    (tmp_path / "no_eyrie" / "game.yaml").write_text(f"name: no_eyrie\nbase: {root}\nremove: [eyrie.rules, eyrie.yaml]\n")
    view, problems = read_table_view(load(tmp_path / "no_eyrie"))
    assert problems == [] and "eyrie" not in view.zones.player and "roost" not in view.pieces
    assert view.decisions["move"].phase == {p: phase for p, phase in phases.items() if p != "eyrie"}
