"""The page's server without a browser: what each seat is sent (never another player's hidden cards),
answers, undo, "why not" from clicks, replays, and where the board's locations are drawn.
The page itself, in a real browser, is tested in test_web_browser.py."""
import json
import random

from interpreter import Game, load
from interpreter.agents.bots import make_agent
from interpreter.engine.knowledge import knows
from interpreter.interfaces.web.app import create_app
from interpreter.interfaces.web.layout import positions
from interpreter.interfaces.web.table import ALL, SPECTATOR, Played, Replayed
from interpreter.play.saves import Journal



def played(game: str, humans: tuple[str, ...], seed: int = 1, debug: bool = False) -> Played:
    ruleset = load(f"rulesets/{game}")
    players = ruleset.program.players
    return Played(Journal(Game(ruleset, seed=seed), ruleset.content_hash()), humans,
                  lambda g: {p: make_agent("random", ruleset, g, seed * 10 + i) for i, p in enumerate(players)}, debug)


def hidden_ids(game: Game, seat: str) -> set[str]:
    """The ids of the components `seat` cannot tell apart (another player's hand, the deck...)."""
    return {c.id for c in game.state.components.values() if not knows(game.runtime, seat, c)}


def test_a_seat_is_sent_only_what_it_observes_at_every_decision():
    """Root, four seats, a random game of 150 decisions: at each, every seat's state names no
    component that seat cannot tell apart now; and in its log, a card chosen out of its sight is
    named by its back (a card played face up is named: it was seen when played)."""
    table = played("root", humans=("marquise", "eyrie", "alliance", "vagabond"))
    client = create_app(table).test_client()
    chooser = random.Random(3)
    for _ in range(150):
        decision = table.game.decision
        if decision is None:
            break
        for seat in table.game.players + [SPECTATOR]:
            sent = client.get("/api/state", query_string={"seat": seat}).get_json()
            now = json.dumps({key: value for key, value in sent.items() if key != "log"})
            viewer = None if seat == SPECTATOR else seat
            leaked = [i for i in hidden_ids(table.game, viewer) if f'"{i}"' in now or f" {i}" in now]
            assert not leaked, f"{seat} is sent {leaked[:3]}"
        answer = client.post("/api/choose", json={"seat": decision.player, "index": chooser.randrange(len(decision.options))})
        assert answer.status_code == 200, answer.get_json()
    secret = [e for e in table.log if any(label != e["labels"][e["player"]] for label in e["labels"].values())]
    assert secret, "no choice of these 150 was made out of the others' sight"
    for entry in secret:
        others = [label for seat, label in entry["labels"].items() if seat != entry["player"]]
        assert all("#" in label for label in others if label != entry["labels"][entry["player"]]), entry


def test_the_all_seat_exists_only_in_debug_mode():
    plain = create_app(played("cernunos", ("green",))).test_client()
    assert plain.get("/api/state", query_string={"seat": ALL}).status_code == 400
    assert ALL not in plain.get("/api/table").get_json()["seats"]
    debug = create_app(played("cernunos", ("green",), debug=True)).test_client()
    assert ALL in debug.get("/api/table").get_json()["seats"]
    zones = debug.get("/api/state", query_string={"seat": ALL}).get_json()["zones"]
    assert all(isinstance(items, list) for items in zones.values())  # nothing hidden


def test_a_seat_answers_only_its_own_decision_and_bots_play_the_others():
    table = played("cernunos", ("green",))
    client = create_app(table).test_client()
    assert table.game.decision.player == "green"
    refused = client.post("/api/choose", json={"seat": "purple", "index": 0})
    assert refused.status_code == 400 and "green's decision" in refused.get_json()["error"]
    assert client.post("/api/choose", json={"seat": "green", "index": 10_000}).status_code == 400
    for _ in range(4):
        state = client.post("/api/choose", json={"seat": "green", "index": 0}).get_json()
        assert state["decision"]["player"] == "green" and state["decision"]["options"]
    players = [e["player"] for e in state["log"]]
    assert players.count("green") == 4 and "purple" in players  # purple, a bot, has played in between


def test_undo_goes_back_to_the_seats_previous_decision():
    table = played("cernunos", ("green",))
    client = create_app(table).test_client()
    first = client.get("/api/state", query_string={"seat": "green"}).get_json()
    assert not first["can_undo"]
    between = client.post("/api/choose", json={"seat": "green", "index": 5}).get_json()
    after = client.post("/api/choose", json={"seat": "green", "index": 0}).get_json()
    assert len(after["log"]) > len(between["log"]) and after["can_undo"]
    undone = client.post("/api/undo", json={"seat": "green"}).get_json()
    assert undone["log"] == between["log"] and undone["zones"] == between["zones"]
    assert undone["decision"] == between["decision"]
    assert undone["said"].startswith("undone: green's `place`")
    again = client.post("/api/undo", json={"seat": "green"}).get_json()
    assert again["log"] == [] and again["zones"] == first["zones"]
    assert client.post("/api/undo", json={"seat": "green"}).status_code == 400  # nothing left to undo
    assert client.post("/api/undo", json={"seat": "purple"}).status_code == 400  # a bot's seat


def test_a_refused_click_is_explained_through_the_option_it_would_make():
    """Cernunos: purple's tree on a1 has power 1; green's deer clicked then a1 make `deer a1`, which the
    rules refuse, and the answer quotes the condition with its file and line."""
    table = played("cernunos", ("green",), seed=2)
    client = create_app(table).test_client()
    game = table.game
    refused = None
    while refused is None:  # play on until green is refused some placement
        labels = game.decision.labels()
        refused = next(((kind, square) for kind in ("deer", "boar", "wolf") for square in game.ruleset.board.locations
                        if f"{kind} {square}" not in labels and game.evaluate(f"count(c in pieces(reserve(green)) where c is {kind})") > 0), None)
        if refused is None:
            client.post("/api/choose", json={"seat": "green", "index": 0})
    kind, square = refused
    answers = client.post("/api/why", json={"seat": "green", "picks": [[f"kind:{kind}"], [f"loc:{square}"]]}).get_json()["answers"]
    assert answers[0]["label"] == f"{kind} {square}"
    assert any("cernunos.rules:" in line for line in answers[0]["lines"]), answers
    typed = client.post("/api/why", json={"seat": "green", "label": f"{kind} z9"}).get_json()["answers"]
    assert "z9" in typed[0]["lines"][0]


def test_a_replay_steps_forward_and_back_to_the_same_states():
    ruleset = load("rulesets/cernunos")
    game, chooser = Game(ruleset, seed=4), random.Random(4)
    states = [json.dumps(game.state.to_json())]
    while not game.finished:
        game.choose(chooser.randrange(len(game.decision.options)))
        states.append(json.dumps(game.state.to_json()))
    table = Replayed(lambda: Game(ruleset, seed=4), game.log)
    client = create_app(table).test_client()
    for step in (5, 2, len(game.log), 0, 7):
        seen = client.post("/api/goto", json={"step": step, "seat": ALL}).get_json()
        assert seen["step"] == step and len(seen["log"]) == step
        assert json.dumps(table.game.state.to_json()) == states[step]
    assert client.post("/api/choose", json={"seat": "green", "index": 0}).status_code == 400
    last = client.post("/api/goto", json={"step": 10_000, "seat": "green"}).get_json()
    assert last["step"] == len(game.log) and last["result"] and last["next"] is None


def test_the_board_is_drawn_from_coordinates_a_grid_or_the_graph():
    shape, places = positions(load("rulesets/root").board)
    assert shape == "map" and places["c1"][0] < places["c2"][0] and places["c1"][1] < places["c4"][1]
    shape, places = positions(load("rulesets/cernunos").board)
    assert shape == "grid" and places["a1"][1] == places["d1"][1] < places["a2"][1]
    shape, places = positions(load("rulesets/wonderlands_war").board)
    assert shape == "graph" and len(set(places.values())) == len(places)  # no two locations on one spot
    assert all(0 <= x <= 100 and 0 <= y <= 100 for x, y in places.values())


def test_the_search_bot_plays_a_seat_of_the_page():
    ruleset = load("rulesets/cernunos")
    table = Played(Journal(Game(ruleset, seed=3), ruleset.content_hash()), ("green",),
                   lambda g: {"purple": make_agent("search:5", ruleset, g, 7)}, debug=False)
    client = create_app(table).test_client()
    for _ in range(3):
        state = client.post("/api/choose", json={"seat": "green", "index": 0}).get_json()
    assert "purple" in [e["player"] for e in state["log"]] and state["decision"]["player"] == "green"
    assert state["error"] is None


def test_why_not_is_answered_only_to_the_seat_deciding():
    """The answer speaks of the decider's cards as the decider sees them: no other seat may ask."""
    client = create_app(played("root", ("marquise", "eyrie"))).test_client()
    for seat in ("eyrie", SPECTATOR):
        refused = client.post("/api/why", json={"seat": seat, "label": "c1 c5"})
        assert refused.status_code == 400 and "no decision of yours" in refused.get_json()["error"]
    assert client.post("/api/why", json={"seat": "marquise", "label": "c9"}).status_code == 200
