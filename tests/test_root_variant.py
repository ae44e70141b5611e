"""A second map is content only: Root's rules, unchanged, play on another board."""
from pathlib import Path

from ruamel.yaml import YAML

from interpreter import Game
from interpreter.loading.stages import load_ruleset
from interpreter.simulation.runner import Table, play_one

REPO = Path(__file__).resolve().parent.parent


def other_map(path: Path) -> None:
    """The Autumn map with every location renamed and the fox and mouse suits swapped."""
    board = YAML(typ="safe").load((REPO / "cards/root/maps/autumn.yaml").read_text())["board"]
    rename = {name: f"glade_{name}" for name in board["locations"]}
    swap = {"fox": "mouse", "mouse": "fox"}
    locations = {}
    for name, attributes in board["locations"].items():
        attributes = dict(attributes)
        if "clearing_suit" in attributes:
            attributes["clearing_suit"] = swap.get(attributes["clearing_suit"], attributes["clearing_suit"])
        if "opposite" in attributes:
            attributes["opposite"] = rename[attributes["opposite"]]
        locations[rename[name]] = attributes
    connections = [{**c, "from": rename[c["from"]], "to": rename[c["to"]]} for c in board["connections"]]
    YAML(typ="safe").dump({"board": {"locations": locations, "connections": connections}}, path)


def test_root_plays_on_another_map_without_a_change_to_its_rules(tmp_path):
    other_map(tmp_path / "map.yaml")
    (tmp_path / "variant").mkdir()
    (tmp_path / ".git").mkdir()  # the project of the variant and its map
    (tmp_path / "variant" / "game.yaml").write_text(
        f"name: root_variant\ncontent: [{REPO / 'cards/root'}, {tmp_path / 'map.yaml'}]\n"
        f"rules: [{REPO / 'rulesets/root'}]\nscore: points\ntable: [marquise, eyrie, alliance, vagabond]\n")
    variant = load_ruleset(tmp_path / "variant")
    game = Game(variant, seed=3)
    assert game.evaluate("select(c in clearings() where c.clearing_suit = \"mouse\" and c.corner)") == ["glade_c1"]
    records = [play_one(variant, seed, Table(check=True)) for seed in range(10)]
    assert all(r["error"] is None for r in records), [r["error"] for r in records]
    # the four factions of its table are seated; a game may also end with no single winner
    assert all(r["winner"] is None or r["winner"] in r["players"] for r in records), [r["winner"] for r in records]
