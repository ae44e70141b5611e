"""Simulations: reproducible games, the same with one process or several, kept and resumed in SQLite."""
from pathlib import Path

from interpreter import Game
from interpreter.simulation.results_db import Results
from interpreter.simulation.runner import Table, play_one
from interpreter.simulation.local import run_local

CERNUNOS = Path(__file__).resolve().parent.parent / "rulesets" / "cernunos"


def test_a_seed_always_plays_the_same_game(cernunos):
    assert play_one(cernunos, 12, Table()) == play_one(cernunos, 12, Table())
    assert play_one(cernunos, 12, Table())["log"] != play_one(cernunos, 13, Table())["log"]


def test_one_process_or_two_play_the_same_games():
    one = sorted(run_local(CERNUNOS, range(30), Table(), jobs=1), key=lambda r: r["seed"])
    two = sorted(run_local(CERNUNOS, range(30), Table(), jobs=2), key=lambda r: r["seed"])
    assert one == two and [r["seed"] for r in one] == list(range(30))


def test_the_score_curve_follows_the_manifest_score_function(cernunos):
    record = play_one(cernunos, 4, Table())
    turns = [turn for turn, _ in record["score_curve"]]
    assert turns == list(range(1, record["turns"] + 2))  # the last: the final position, as if a next turn started
    assert record["score_curve"][-1][1] == record["scores"]
    assert record["score_curve"][0][1] == {"green": 0, "purple": 0}  # an empty board at the first turn


def test_results_are_kept_and_a_stored_log_replays(tmp_path, cernunos):
    results = Results(tmp_path / "r.sqlite")
    records = list(run_local(CERNUNOS, range(5), Table(), jobs=1))
    for record in records:
        results.add("cernunos", "v1", "random", record)
    results.commit()
    assert results.seeds_done("v1", "random") == set(range(5)) and results.seeds_done("v2", "random") == set()
    stored = results.records("v1", "random", range(3, 4))
    assert [{k: v for k, v in r.items() if k != "finished_at"} for r in stored] == [r for r in records if r["seed"] == 3]
    assert stored[0]["players"] == ["purple", "green"]  # the seating turns by one each game
    game = Game.replay(cernunos, 3, stored[0]["log"], players=stored[0]["players"])
    assert game.result.winner == stored[0]["winner"] and game.result.scores == stored[0]["scores"]
    results.close()
