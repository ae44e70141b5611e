"""The page's server without a browser: what each seat is sent (never another player's hidden cards,
never the seed), what each link may ask and from where, answers, undo, "why not" from clicks,
replays, and where the board's locations are drawn.
The page itself, in a real browser, is tested in test_web_browser.py."""
import json
import random

from flask.testing import FlaskClient

from interpreter import Game, load
from interpreter.agents.bots import make_agent
from interpreter.engine.knowledge import knows
from interpreter.interfaces.web.access import Access
from interpreter.interfaces.web.app import LARGEST_REQUEST, LONGEST_LABEL, MOST_PICKS, create_app
from interpreter.interfaces.web.layout import positions
from interpreter.interfaces.web.table import ALL, SPECTATOR, Played, Replayed
from interpreter.play.saves import Journal


def played(game: str, humans: tuple[str, ...], seed: int = 1, debug: bool = False) -> Played:
    ruleset = load(f"rulesets/{game}")
    players = ruleset.program.players
    return Played(Journal(Game(ruleset, seed=seed), ruleset.content_hash()), humans,
                  lambda g: {p: make_agent("random", ruleset, g, seed * 10 + i) for i, p in enumerate(players)}, debug)


def links(table) -> dict[str, FlaskClient]:
    """The page opened by each link the server prints (keyed by its player, or ALL), served at
    localhost's port 80 (the test client's address)."""
    access = Access(table, "127.0.0.1", 80)
    app = create_app(table, access)
    clients = {}
    for link in access.links:
        clients[link.name] = app.test_client()
        clients[link.name].environ_base["HTTP_AUTHORIZATION"] = f"Bearer {link.token}"
    return clients


def hidden_ids(game: Game, seat: str) -> set[str]:
    """The ids of the components `seat` cannot tell apart (another player's hand, the deck...)."""
    return {c.id for c in game.state.components.values() if not knows(game.runtime, seat, c)}


def test_a_seat_is_sent_only_what_it_observes_at_every_decision():
    """Root, four seats, a random game of 150 decisions: at each, every seat's state names no
    component that seat cannot tell apart now; and in its log, a card chosen out of its sight is
    named by its back (a card played face up is named: it was seen when played)."""
    table = played("root", humans=("marquise", "eyrie", "alliance", "vagabond"))
    clients = links(table)
    chooser = random.Random(3)
    for _ in range(150):
        decision = table.game.decision
        if decision is None:
            break
        for seat in table.game.players + [SPECTATOR]:
            client = clients["marquise" if seat == SPECTATOR else seat]
            sent = client.get("/api/state", query_string={"seat": seat}).get_json()
            now = json.dumps({key: value for key, value in sent.items() if key != "log"})
            viewer = None if seat == SPECTATOR else seat
            leaked = [i for i in hidden_ids(table.game, viewer) if f'"{i}"' in now or f" {i}" in now]
            assert not leaked, f"{seat} is sent {leaked[:3]}"
        answer = clients[decision.player].post("/api/choose", json={"seat": decision.player,
                                                                    "index": chooser.randrange(len(decision.options))})
        assert answer.status_code == 200, answer.get_json()
    secret = [e for e in table.log if any(label != e["labels"][e["player"]] for label in e["labels"].values())]
    assert secret, "no choice of these 150 was made out of the others' sight"
    for entry in secret:
        others = [label for seat, label in entry["labels"].items() if seat != entry["player"]]
        assert all("@" in label for label in others if label != entry["labels"][entry["player"]]), entry


def test_the_all_seat_exists_only_in_debug_mode_with_a_link_of_its_own():
    plain = links(played("cernunos", ("green",)))
    assert list(plain) == ["green"]
    assert plain["green"].get("/api/state", query_string={"seat": ALL}).status_code == 403
    assert plain["green"].get("/api/table").get_json()["seats"] == ["green", SPECTATOR]
    debug = links(played("cernunos", ("green",), debug=True))
    assert list(debug) == ["green", ALL]
    assert ALL not in debug["green"].get("/api/table").get_json()["seats"]
    seats = debug[ALL].get("/api/table").get_json()
    assert seats["seats"] == ["green", "purple", SPECTATOR, ALL] and seats["seat"] == "green"
    zones = debug[ALL].get("/api/state", query_string={"seat": ALL}).get_json()["zones"]
    assert all(isinstance(items, list) for items in zones.values())  # nothing hidden


def test_a_seat_answers_only_its_own_decision_and_bots_play_the_others():
    table = played("cernunos", ("green",), debug=True)
    client = links(table)["green"]
    assert table.game.decision.player == "green"
    refused = links(table)[ALL].post("/api/choose", json={"seat": "purple", "index": 0})
    assert refused.status_code == 400 and "green's decision" in refused.get_json()["error"]
    assert client.post("/api/choose", json={"seat": "green", "index": 10_000}).status_code == 400
    for _ in range(4):
        state = client.post("/api/choose", json={"seat": "green", "index": 0}).get_json()
        assert state["decision"]["player"] == "green" and state["decision"]["options"]
    players = [e["player"] for e in state["log"]]
    assert players.count("green") == 4 and "purple" in players  # purple, a bot, has played in between


def test_undo_goes_back_to_the_seats_previous_decision():
    table = played("cernunos", ("green",), debug=True)
    client = links(table)["green"]
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
    assert links(table)[ALL].post("/api/undo", json={"seat": "purple"}).status_code == 400  # a bot's seat


def test_a_refused_click_is_explained_through_the_option_it_would_make():
    """Cernunos: purple's tree on a1 has power 1; green's deer clicked then a1 make `deer a1`, which the
    rules refuse, and the answer quotes the condition with its file and line."""
    table = played("cernunos", ("green",), seed=2)
    client = links(table)["green"]
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
    client = links(table)[ALL]
    shown = client.get("/api/table").get_json()
    assert shown["seed"] == 4 and shown["seat"] == ALL  # a replay shows every view: its seed hides nothing more
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
    client = links(table)["green"]
    for _ in range(3):
        state = client.post("/api/choose", json={"seat": "green", "index": 0}).get_json()
    assert "purple" in [e["player"] for e in state["log"]] and state["decision"]["player"] == "green"
    assert state["error"] is None


def test_why_not_is_answered_only_to_the_seat_deciding():
    """The answer speaks of the decider's cards as the decider sees them: no other seat may ask."""
    clients = links(played("root", ("marquise", "eyrie")))
    for seat in ("eyrie", SPECTATOR):
        refused = clients["eyrie"].post("/api/why", json={"seat": seat, "label": "c1 c5"})
        assert refused.status_code == 400 and "no decision of yours" in refused.get_json()["error"]
    assert clients["marquise"].post("/api/why", json={"seat": "marquise", "label": "c9"}).status_code == 200


def test_a_link_opens_its_own_seat_and_the_spectators_only():
    """Hot-seat at Root: the marquise's link neither sees nor plays the eyrie's seat (another
    person's) nor the all-seeing one, by any request; a request without a key, or a wrong one, is refused."""
    table = played("root", ("marquise", "eyrie"))
    clients = links(table)
    marquise, eyrie = clients["marquise"], clients["eyrie"]
    assert marquise.get("/api/table").get_json()["seats"] == ["marquise", SPECTATOR]
    assert marquise.get("/api/state").get_json()["zones"]["hand/marquise"]  # its own view by default
    for seat in ("eyrie", ALL, "vagabond"):
        assert marquise.get("/api/state", query_string={"seat": seat}).status_code == 403
        for path, body in [("/api/choose", {"index": 0}), ("/api/why", {"label": "c1"}), ("/api/undo", {})]:
            refused = marquise.post(path, json={"seat": seat, **body})
            assert refused.status_code == 403 and "not for the seat" in refused.get_json()["error"], (path, seat)
    assert eyrie.get("/api/state", query_string={"seat": "marquise"}).status_code == 403
    assert eyrie.get("/api/state", query_string={"seat": SPECTATOR}).status_code == 200
    for authorization in (None, "Bearer", "Bearer wrong", "Basic " + marquise.environ_base["HTTP_AUTHORIZATION"][7:]):
        stranger = create_app(table, Access(table, "127.0.0.1", 80)).test_client()
        headers = {"Authorization": authorization} if authorization else {}
        for path in ("/api/table", "/api/state?seat=(spectator)"):
            assert stranger.get(path, headers=headers).status_code == 403
        assert stranger.post("/api/choose", json={"seat": "marquise", "index": 0}, headers=headers).status_code == 403
    assert stranger.get("/").status_code == 200  # the page itself holds nothing of the game


def test_the_seed_is_never_sent_during_a_game():
    table = played("root", ("marquise",), seed=918273645, debug=True)
    for client in links(table).values():
        for path in ("/api/table", "/api/state"):
            sent = client.get(path)
            assert "918273645" not in sent.get_data(as_text=True) and "seed" not in sent.get_json(), path


def test_a_request_that_names_another_site_is_refused():
    """DNS rebinding: a hostile page whose name is made to point at 127.0.0.1 sends its own name as
    Host; a page of another site that posts to this one sends its Origin. Both are refused."""
    table = played("cernunos", ("green",))
    client = links(table)["green"]
    for path in ("/", "/static/app.js", "/api/table", "/api/state"):
        refused = client.get(path, headers={"Host": "evil.example:80"})
        assert refused.status_code == 403 and "Host" in refused.get_json()["error"], path
    refused = client.post("/api/choose", json={"seat": "green", "index": 0}, headers={"Origin": "http://evil.example"})
    assert refused.status_code == 403 and "Origin" in refused.get_json()["error"]
    assert table.log == []  # nothing was played
    assert client.post("/api/undo", json={"seat": "green"}, headers={"Origin": "null"}).status_code == 403
    same_site = client.post("/api/choose", json={"seat": "green", "index": 0}, headers={"Origin": "http://localhost"})
    assert same_site.status_code == 200


def test_the_addresses_a_request_may_name():
    table = played("cernunos", ("green",))
    here = Access(table, "127.0.0.1", 8000)
    for host in ("127.0.0.1:8000", "localhost:8000", "LocalHost:8000", "[::1]:8000"):
        assert here.host_allowed(host), host
    for host in ("127.0.0.1:8001", "127.0.0.1", "evil.example:8000", "127.0.0.1.evil.example:8000", "", None,
                 "192.168.1.9:8000", "[::1:8000", "localhost:80000"):
        assert not here.host_allowed(host), host
    everywhere = Access(table, "0.0.0.0", 8000)
    assert everywhere.host_allowed("192.168.1.9:8000") and everywhere.host_allowed("[fe80::1]:8000")
    assert not everywhere.host_allowed("evil.example:8000")
    named = Access(table, "mybox.lan", 8000)
    assert named.host_allowed("mybox.lan:8000") and not named.host_allowed("evil.example:8000")


def test_a_request_is_bounded_in_size_and_in_the_work_it_asks():
    table = played("root", ("marquise",))
    client = links(table)["marquise"]
    huge = client.post("/api/why", json={"seat": "marquise", "label": "x" * 4_000_000})
    assert huge.status_code == 413 and "64 KB" in huge.get_json()["error"]
    assert len(json.dumps({"seat": "marquise", "label": "x" * (LONGEST_LABEL + 1)})) < LARGEST_REQUEST
    long_label = client.post("/api/why", json={"seat": "marquise", "label": "x" * (LONGEST_LABEL + 1)})
    assert long_label.status_code == 400 and f"at most {LONGEST_LABEL}" in long_label.get_json()["error"]
    many_picks = client.post("/api/why", json={"seat": "marquise", "picks": [["loc:c1"]] * (MOST_PICKS + 1)})
    assert many_picks.status_code == 400
    stack = ["loc:c1"] + [f"comp:warrior-{i}" for i in range(2000)]  # a click on a stack of 2,000 alike pieces
    assert client.post("/api/why", json={"seat": "marquise", "picks": [stack]}).status_code == 200
    assert client.post("/api/why", json={"seat": "marquise", "label": "c9"}).status_code == 200
    deep = client.post("/api/why", data="[" * 2000 + "]" * 2000, content_type="application/json")
    assert deep.status_code == 400 and "nested" in deep.get_json()["error"]  # found by tools/fuzz.py: a 500
