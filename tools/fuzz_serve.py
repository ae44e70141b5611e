"""The `serve` target of tools/fuzz.py: mutated requests to the web API of `ludolex serve`.

The page's server is driven in-process through its public interface, `create_app(table, access)`
and Flask's test client (no socket). Before its workers start, tools/fuzz.py makes one table per
game and per `--debug` (`Served`): the game on seed SERVED_SEED, the game's first player a person
(the fuzzer holds that seat's link, and only that one), random bots at the other seats. Each input
runs in a child forked from it: every session starts from the same table, and its moves end with it.

A session (`session(rng, players)`) is 4 to 20 requests, each a request the page itself sends (the
state, an answer, why not, undo) or one changed in one to three ways: another seat (another player,
`(all)`, hostile texts, not a text), bad numbers and labels, odd JSON bodies (not an object, deep,
invalid, invalid UTF-8, up to 4 MB), query strings, methods and paths, and the headers that guard
the server: Host (DNS rebinding), Origin, Authorization (no secret, a wrong one, another scheme).
Values the fuzzer cannot know in advance are placeholders (`@@option:0.37`: the option at 37% of the
seat's pending decision), resolved when the request is sent, so that a saved session replays.

For each answer: a 5xx (or an exception out of the test client) is a crash; an answer is a leak
when it names a component the fuzzer's seat cannot tell apart now (another player's hand, the
deck...), a log label other than the seat's own or the spectator's, the game's seed, or the secret
of another link.
"""
from __future__ import annotations

import json
import mimetypes
import random
import re
import traceback

from flask.testing import EnvironBuilder
from werkzeug.wrappers import Request

from interpreter.agents.bots import make_agent
from interpreter.engine.knowledge import knows
from interpreter.interfaces.web.app import create_app
from interpreter.interfaces.web.table import ALL, SPECTATOR, Played
from interpreter.play.game import Game
from interpreter.play.saves import Journal

SERVED_SEED = 7_340_519_862_113  # distinctive digits: an answer that holds them gives the seed away
HOST, PORT = "127.0.0.1", 8000
PLACEHOLDER = re.compile(r"@@(token|human|option|label|picks|other)(?::(\d+\.\d+))?")

ENDPOINTS = [  # (method, path, weight): what the page sends
    ("GET", "/api/state", 4), ("POST", "/api/choose", 8), ("POST", "/api/why", 3), ("POST", "/api/undo", 1),
    ("GET", "/api/table", 1), ("POST", "/api/goto", 1), ("GET", "/", 1),
]
HOSTILE_TEXTS = [
    "", " ", "(all)", "(spectator)", "all", "ALL", "(ALL)", "\x00", "a\x00b", "é", "\U0001f642", "\udcff",
    "{0}", "%s", "'", '"', "\\", "../../../../etc/passwd", "/etc/passwd", "__class__", "__proto__", "constructor",
    "null", "true", "0", "-1", "1e400", "x" * 300, "x" * 301, "x" * 10_000, "[" * 1000,
]
ODD_VALUES = [None, True, False, 0, -1, 1, 2**31, 2**63, -2**63, 10**100, 1.5, float("inf"), float("nan"), "0", "1",
              [], [0], {}, {"seat": "x"}, [[]], [["loc:x"]], "a" * 1000]
HOSTS = ["evil.example", "evil.example:8000", "127.0.0.1", "127.0.0.1:80", "127.0.0.1:8001", "localhost:8000",
         "[::1]:8000", "0.0.0.0:8000", "127.0.0.2:8000", "127.0.0.1.evil.example:8000", "127.0.0.1:8000@evil.example",
         "127.0.0.1:8000 evil.example", "", " ", "127.0.0.1:99999", "127.0.0.1:-1", "localhost.:8000",
         "LOCALHOST:8000", "xn--80ak6aa92e.com:8000", "127.1:8000", "2130706433:8000", "h" * 5000]
ORIGINS = ["http://evil.example", "null", "http://127.0.0.1:8000", "https://127.0.0.1:8000", "HTTP://127.0.0.1:8000",
           "http://localhost:8000", "http://127.0.0.1:8000.evil.example", "file://", "", "*"]
AUTHORIZATIONS = [None, "", "Bearer", "Bearer ", "Bearer wrong", "bearer @@token", "Basic @@token",
                  "Bearer @@token @@token", "Bearer  @@token", "@@token", "Bearer " + "A" * 10_000,
                  "Bearer @@token%00", "Bearer @@tokenx"]
PATHS = ["/api/state/", "/API/STATE", "/api//state", "/api/state/../table", "/api/%2e%2e/table", "/static/../app.py",
         "/static/%2e%2e/app.py", "/static/..%2fapp.py", "/static/app.js", "/static/index.html", "/static/nope",
         "/%00", "/api/%00", "/api/nope", "//api/state", "/api/state;x", "/" + "a" * 10_000, "/api/choose?seat=x"]
METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "BREW"]
SIZES = [1_000, 65_535, 65_536, 70_000, 1_000_000, 4_000_000]


# --- the table the fuzzer plays at ------------------------------------------------------------------

class Served:
    """One game served: the table, the app over it, and the secrets of the fuzzer's seat and of the others."""

    def __init__(self, ruleset, debug: bool):
        mimetypes.init()  # read here, once: the children serve the page's files without reading /etc/mime.types
        players = list(ruleset.program.players)
        self.human = players[0]
        self.others = players[1:]

        def make_bots(game: Game) -> dict:
            return {p: make_agent("random", ruleset, game, SERVED_SEED + i) for i, p in enumerate(players)}

        self.table = Played(Journal(Game(ruleset, seed=SERVED_SEED), ruleset.content_hash()), (self.human,), make_bots,
                            debug)
        self.app, self.token, self.secrets = app_and_secrets(self.table, self.human)


def app_and_secrets(table, human: str):
    """The app, the fuzzer's seat's secret (None when the server has none) and the other links' secrets."""
    try:
        from interpreter.interfaces.web.access import Access
    except ImportError:  # a server without links: every request is anybody's
        return create_app(table), None, []
    access = Access(table, HOST, PORT)
    mine = [link for link in access.links if link.name == human]
    return create_app(table, access), mine[0].token, [link.token for link in access.links if link.name != human]


def hidden_ids(game: Game, seat: str) -> set[str]:
    """The ids of the components `seat` cannot tell apart now."""
    return {c.id for c in game.state.components.values() if not knows(game.runtime, seat, c)}


# --- sessions ---------------------------------------------------------------------------------------

def session(rng: random.Random, players: list[str]) -> list[dict]:
    """The requests of one input (plain data, placeholders for what only the table knows)."""
    return [request_spec(rng, players) for _ in range(rng.randint(4, 20))]


def request_spec(rng: random.Random, players: list[str]) -> dict:
    method, path = rng.choices([(m, p) for m, p, _ in ENDPOINTS], weights=[w for *_, w in ENDPOINTS])[0]
    spec = {"method": method, "path": path, "query": {}, "headers": {"Authorization": "Bearer @@token"}, "json": None}
    if path == "/api/state":
        spec["query"] = {"seat": "@@human"} if rng.random() < 0.7 else {}
    elif path == "/api/choose":
        spec["json"] = {"seat": "@@human", "index": f"@@option:{rng.random():.3f}"}
    elif path == "/api/why":
        spec["json"] = {"seat": "@@human", "label": f"@@label:{rng.random():.3f}"} if rng.random() < 0.6 else \
            {"seat": "@@human", "picks": f"@@picks:{rng.random():.3f}"}
    elif path == "/api/undo":
        spec["json"] = {"seat": "@@human"}
    elif path == "/api/goto":
        spec["json"] = {"seat": "@@human", "step": rng.randint(-2, 30)}
    changes = [] if rng.random() < 0.35 else [rng.choice(CHANGES) for _ in range(rng.choices([1, 2, 3], [6, 3, 1])[0])]
    for change in changes:
        change(rng, spec, players)
    spec["changes"] = [c.__name__ for c in changes]
    return spec


def other_seat(rng, spec, players):
    put_seat(spec, rng.choice(players[1:] + [ALL, SPECTATOR]))


def hostile_seat(rng, spec, players):
    put_seat(spec, rng.choice(HOSTILE_TEXTS + ODD_VALUES + [p.upper() for p in players] + [p + " " for p in players]))


def put_seat(spec, seat) -> None:
    if isinstance(spec["json"], dict):
        spec["json"]["seat"] = seat
    else:
        spec["query"]["seat"] = seat if isinstance(seat, str) else json.dumps(seat)


def odd_field(rng, spec, players):
    body = spec["json"] if isinstance(spec["json"], dict) else {}
    key = rng.choice(["index", "label", "picks", "step", "seat", "token", "__proto__", "x" * 100])
    body[key] = rng.choice(ODD_VALUES + HOSTILE_TEXTS + [big_picks(rng)])
    spec["json"] = body


def big_picks(rng) -> list:
    return [[f"comp:{rng.randint(0, 99)}"] * rng.randint(1, 50) for _ in range(rng.choice([1, 20, 21, 1000]))]


def long_label(rng, spec, players):
    spec["json"] = {"seat": "@@human", "label": "x" * rng.choice([300, 301, 50_000, 70_000])}
    spec["method"], spec["path"] = "POST", "/api/why"


def odd_body(rng, spec, players):
    spec["method"] = "POST" if rng.random() < 0.8 else spec["method"]
    choice = rng.randrange(8)
    if choice == 0:  # JSON, but not an object
        spec["json"] = rng.choice([[], "seat", 1, None, [{"seat": "@@human"}], True])
    elif choice == 1:  # deep
        depth = rng.choice([100, 1000, 100_000])
        spec["body"] = '{"seat": "@@human", "index": ' + "[" * depth + "]" * depth + "}"
    elif choice == 2:  # not JSON
        spec["body"] = rng.choice(["{", "{'seat': 1}", "seat=x&index=1", "\x00", '{"seat": "@@human", "index": 0,}',
                                   "NaN"])
    elif choice == 3:  # invalid UTF-8
        spec["body"] = '{"seat": "@@human", "label": "\udcff\udcfe"}'
    elif choice == 4:  # large
        size = rng.choice(SIZES)
        spec["body"] = '{"seat": "@@human", "label": "' + "x" * size + '"}'
    elif choice == 5:  # duplicate keys
        spec["body"] = '{"seat": "@@human", "seat": "@@other:0.5", "index": 0}'
    elif choice == 6:  # another content type
        spec["content_type"] = rng.choice(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                                           "application/json; charset=latin-1", ""])
    else:  # no body at all
        spec["json"], spec["body"] = None, ""


def odd_query(rng, spec, players):
    spec["query"] = rng.choice([{"seat": rng.choice(HOSTILE_TEXTS)}, {"seat": ["@@human", "@@other:0.3"]},
                                {"seat": "@@human", "token": "@@token"}, {"x" * 1000: "y"}, {"seat": "@@other:0.7"},
                                {"seat": "@@human", "debug": "1"}])


def odd_host(rng, spec, players):
    spec["headers"]["Host"] = rng.choice(HOSTS)


def odd_origin(rng, spec, players):
    spec["headers"]["Origin"] = rng.choice(ORIGINS)


def odd_authorization(rng, spec, players):
    value = rng.choice(AUTHORIZATIONS)
    if value is None:
        spec["headers"].pop("Authorization", None)
    else:
        spec["headers"]["Authorization"] = value


def odd_method(rng, spec, players):
    spec["method"] = rng.choice(METHODS)


def odd_path(rng, spec, players):
    spec["path"] = rng.choice(PATHS)


CHANGES = [other_seat, other_seat, hostile_seat, odd_field, odd_field, long_label, odd_body, odd_body, odd_query,
           odd_host, odd_origin, odd_authorization, odd_method, odd_path]


# --- running a session (in the child) ----------------------------------------------------------------

def run_session(served: Served, requests: list[dict], send) -> None:
    """Send each request, report crashes and leaks; `send(**message)` reports to the fuzzer."""
    client = served.app.test_client()
    send(phase="serve start")
    for number, spec in enumerate(requests):
        send(phase=f"serve request {number}")
        try:  # a request no HTTP client could send (the test client refuses it) is not the server's fault
            sent = Request(EnvironBuilder(served.app, **request_arguments(served, spec)).get_environ())
        except Exception as error:  # noqa: BLE001
            send(answered=f"not sent ({type(error).__name__})")
            continue
        try:
            response = client.open(sent)  # a Request as it is: the client does not parse its Host again
        except Exception as error:  # noqa: BLE001 - what escapes the app is a crash
            send(target_finding="crash", signature=f"{type(error).__name__} out of {spec['method']} {short_path(spec)}",
                 details={"request": number, "traceback": "".join(traceback.format_exception(error))[-20_000:]})
            return
        body = response.get_data()
        send(answered=str(response.status_code))
        if response.status_code >= 500:
            said = error_of(body)
            send(target_finding="crash", signature=f"{response.status_code}: {shape(said)}",
                 details={"request": number, "sent": f"{spec['method']} {short_path(spec)}", "body": said[:3000]})
            return
        leaked = leaks(served, body)
        if leaked:
            send(target_finding="leak", signature=f"{spec['method']} {short_path(spec)} gives away {leaked[0]}",
                 details={"request": number, "leaks": leaked[:10], "body": body[:3000].decode("utf-8", "replace")})
            return


def request_arguments(served: Served, spec: dict) -> dict:
    """The test client's arguments for a spec, its placeholders resolved against the table now."""
    headers = {k: resolved(served, v) for k, v in spec["headers"].items()}
    headers.setdefault("Host", f"{HOST}:{PORT}")
    arguments = {"path": spec["path"], "method": spec["method"], "headers": headers,
                 "query_string": {k: resolved(served, v) for k, v in spec["query"].items()}}
    if "body" in spec:
        arguments["data"] = resolved(served, spec["body"]).encode("utf-8", errors="surrogateescape")
        arguments["content_type"] = spec.get("content_type", "application/json")
    elif spec["json"] is not None or spec["method"] == "POST":
        arguments["data"] = json.dumps(resolved(served, spec["json"]))
        arguments["content_type"] = spec.get("content_type", "application/json")
    return arguments


def resolved(served: Served, value):
    """`value` with each placeholder replaced (see the module)."""
    if isinstance(value, dict):
        return {k: resolved(served, v) for k, v in value.items()}
    if isinstance(value, list):
        return [resolved(served, v) for v in value]
    if not isinstance(value, str):
        return value
    whole = PLACEHOLDER.fullmatch(value)
    if whole:
        return placeholder_value(served, *whole.groups())
    return PLACEHOLDER.sub(lambda m: str(placeholder_value(served, *m.groups())), value)


def placeholder_value(served: Served, what: str, fraction: str | None):
    if what == "token":
        return served.token or ""
    if what == "human":
        return served.human
    return chosen(served, what, float(fraction or 0))


def chosen(served: Served, what: str, fraction: float):
    """The option, label, clicks or other seat at `fraction` of those there are now."""
    if what == "other":
        seats = served.others or [SPECTATOR]
        return seats[int(fraction * len(seats))]
    decision = served.table.game.decision
    options = decision.options if decision is not None else []
    if what == "option":
        return int(fraction * len(options)) if options else int(fraction * 100)
    if not options:
        return "nothing" if what == "label" else [["loc:nowhere"]]
    index = int(fraction * len(options))
    if what == "label":
        return decision.labels(served.human)[index] if decision.may_answer(served.human) else "a label"
    return [[f"comp:{c}"] for c in sorted(served.table.game.state.components)[:3]]


def leaks(served: Served, body: bytes) -> list[str]:
    """What the answer gives away that the fuzzer's seat may not see (see the module)."""
    text = body.decode("utf-8", errors="replace")
    found = []
    if str(SERVED_SEED) in text:
        found.append("the seed")
    found += ["another link's secret" for secret in served.secrets if secret in text][:1]
    try:
        answer = json.loads(text)
    except ValueError:
        return found
    if not isinstance(answer, dict):
        return found
    now = json.dumps({k: v for k, v in answer.items() if k != "log"})
    game = served.table.game
    named = set(re.findall(r"[\w-]+", now))  # a component's id is a word of letters, digits, - and _
    found += [f"component {i}" for i in sorted(hidden_ids(game, served.human) & named)][:3]
    labels = getattr(served.table, "log", None)
    if isinstance(answer.get("log"), list) and isinstance(labels, list):
        for number, (sent, kept) in enumerate(zip(answer["log"], labels)):
            allowed = {kept["labels"].get(served.human), kept["labels"].get(SPECTATOR)}
            if isinstance(sent, dict) and sent.get("label") not in allowed:
                found.append(f"the label of choice {number}, {str(sent.get('label'))[:60]!r}")
                break
    return found


def error_of(body: bytes) -> str:
    try:
        return str(json.loads(body).get("error"))
    except (ValueError, AttributeError):
        return body.decode("utf-8", errors="replace")


def shape(message: str) -> str:
    message = re.sub(r"`[^`]*`|'[^']*'", lambda m: m.group()[0] * 2, message)
    return " ".join(re.sub(r"\w*\d\w*", "N", message).split())[:100]


def short_path(spec: dict) -> str:
    path = spec["path"]
    return path if len(path) <= 40 else path[:37] + "..."


def pristine_session() -> list[dict]:
    """What the page sends for a few moves, unchanged: the fuzzer's warm-up checks it finds nothing."""
    def spec(method, path, query=None, body=None):
        return {"method": method, "path": path, "query": query or {}, "headers": {"Authorization": "Bearer @@token"},
                "json": body}

    return [spec("GET", "/"), spec("GET", "/api/table"), spec("GET", "/api/state", {"seat": "@@human"}),
            spec("POST", "/api/why", body={"seat": "@@human", "label": "@@label:0.5"}),
            spec("POST", "/api/choose", body={"seat": "@@human", "index": "@@option:0.5"}),
            spec("POST", "/api/choose", body={"seat": "@@human", "index": "@@option:0.1"}),
            spec("POST", "/api/undo", body={"seat": "@@human"})]
