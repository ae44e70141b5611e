"""The page of `ludolex serve` as a person uses it: a real headless Chromium, driven by Playwright,
clicking the board, the cards and the buttons of a page served by the real command.

Chromium comes from the system (Debian's `chromium`; `.ci/run` installs it, and sets
LUDOLEX_BROWSER_TESTS=required so that a missing browser fails these tests instead of skipping them).
"""
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import processes
import pytest
from processes import CEILING, started
from toy import chips_game

from interpreter import Game, load

playwright = pytest.importorskip("playwright.sync_api") if os.environ.get("LUDOLEX_BROWSER_TESTS") != "required" \
    else __import__("playwright.sync_api").sync_api

ROOT = Path(__file__).resolve().parent.parent
LUDOLEX = Path(sys.executable).with_name("ludolex")
CHROMIUM = os.environ.get("LUDOLEX_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"]  # no network: this machine's is closed


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM:
        if os.environ.get("LUDOLEX_BROWSER_TESTS") == "required":
            pytest.fail("no Chromium (install Debian's `chromium`, or set LUDOLEX_CHROMIUM)")
        pytest.skip("no Chromium on this machine (Debian's `chromium`)")
    with playwright.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


@contextmanager
def serving(*args: str):
    """`ludolex serve ARGS` on a free port, while it runs: `said()` is the next line it prints."""
    with started([str(LUDOLEX), "serve", *args, "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE,
                 stderr=subprocess.PIPE, text=True) as server:
        lines = queue.Queue()
        reader = threading.Thread(target=lambda: [lines.put(line) for line in server.stdout], daemon=True)
        reader.start()

        def said() -> str:
            try:
                return lines.get(timeout=CEILING)
            except queue.Empty:
                server.kill()
                raise AssertionError("the server said nothing more: " + server.stderr.read()) from None

        try:
            yield said
        finally:
            server.terminate()
            server.wait(timeout=CEILING)
            reader.join(CEILING)  # to the end of what it wrote, before its pipe is closed


def link(line: str) -> str:
    found = re.search(r"http://\S+", line)
    assert found, line
    return found.group(0)


@contextmanager
def served(*args: str):
    """`ludolex serve ARGS` on a free port: the link of its first seat's page, while it runs."""
    with serving(*args) as said:
        yield link(said())


def asked(url: str, path: str, body: dict | None = None, **headers) -> tuple[int, dict]:
    """A request to the server of `url` (a link: its key is sent), as a program would make it."""
    headers = {"Authorization": "Bearer " + url.partition("token=")[2], "Content-Type": "application/json", **headers}
    request = urllib.request.Request(url.split("?")[0] + path, headers=headers,
                                     data=None if body is None else json.dumps(body).encode())
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


@contextmanager
def page_of(browser, url: str):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("body[data-shown]")
    yield page
    page.close()
    assert not errors, errors


def settled(page, before: str) -> None:
    """Wait until the page has shown a new state since `before` (its `data-shown` count), and is idle."""
    page.wait_for_function(f"document.body.dataset.shown !== '{before}' && document.body.dataset.busy === '0'")


def shown(page) -> str:
    return page.get_attribute("body", "data-shown")


def decision(page) -> dict:
    """The options the page holds for the seat shown, each with its label and targets."""
    return page.evaluate("state.decision")


def seat_menu(page) -> list[str]:
    return page.eval_on_selector_all("#seat option", "nodes => nodes.map(n => n.value)")


def click_option(page, option: dict) -> None:
    """Answer with `option` as a person would: its values clicked on the board or among the cards,
    one after the other, or else its button in the list."""
    before = shown(page)
    clickable = [targets for targets in option["targets"] if targets]
    if len(clickable) < len(option["targets"]) or not clickable:
        page.click(f"#options li[data-index='{option['index']}'] button")
    else:
        for targets in clickable:
            target = targets[0]
            if target.startswith("loc:"):
                page.click(f"#board [data-location='{target[4:]}'] .shape", force=True)
            else:
                page.click(f"#zones [data-targets~='{target}']")
    settled(page, before)


def test_a_whole_game_of_cernunos_against_a_bot(browser):
    """Green, in the page, plays a whole game against a random bot by clicking a piece of the reserve
    and then a square; the log grows with both players' moves and the result is shown."""
    with served("cernunos", "--human", "green", "--seed", "3") as url, page_of(browser, url) as page:
        moves = 0
        while not page.is_visible("#result"):
            asked = decision(page)
            option = asked["options"][moves * 7 % len(asked["options"])]
            click_option(page, option)
            moves += 1
            assert f"green {asked['name']}: {option['label']}" in page.inner_text("#log")
            assert moves < 200
        text = page.inner_text("#result")
        assert re.search(r"(green|purple) wins|draw", text), text
        log = page.inner_text("#log")
        assert "purple place:" in log and "green place:" in log
        assert page.locator("#options li").count() == 0


def test_undo_in_the_page(browser):
    with served("cernunos", "--human", "green", "--seed", "5") as url, page_of(browser, url) as page:
        assert page.is_hidden("#undo")
        first_board = page.inner_html("#board")
        click_option(page, decision(page)["options"][20])
        assert page.is_visible("#undo") and page.inner_html("#board") != first_board
        before = shown(page)
        page.click("#undo")
        settled(page, before)
        assert page.inner_text("#why-answer").startswith("undone: green's `place`")
        assert page.inner_html("#board") == first_board and page.inner_text("#log").strip() == ""
        assert page.is_hidden("#undo")


def test_why_not_for_a_refused_click(browser):
    """A piece clicked in the reserve, then a square where the rules refuse it: the page says which
    condition of which rule refused it, with its file and line."""
    with served("cernunos", "--human", "green", "--seed", "2") as url, page_of(browser, url) as page:
        for _ in range(40):
            options = decision(page)
            labels = {o["label"] for o in options["options"]}
            kinds = {o["label"].split()[0] for o in options["options"] if o["label"].count(" ") == 1}
            squares = page.eval_on_selector_all("#board [data-location]", "nodes => nodes.map(n => n.dataset.location)")
            refused = next(((k, s) for k in sorted(kinds) for s in squares if f"{k} {s}" not in labels), None)
            if options["name"] == "place" and refused:
                break
            click_option(page, options["options"][0])
        kind, square = refused
        page.click(f"#zones [data-targets~='kind:{kind}']")
        assert f"picked: {kind}" in page.inner_text("#picked")
        page.click(f"#board [data-location='{square}'] .shape", force=True)
        page.wait_for_selector("#why-answer:not([hidden])")
        answer = page.inner_text("#why-answer")
        assert f"why not `{kind} {square}`?" in answer and re.search(r"cernunos\.rules:\d+", answer), answer
        page.fill("#why-label", "tree z9")
        page.click("#why")
        page.wait_for_function("document.getElementById('why-answer').textContent.includes('z9')")


def test_root_replay_stepped_back_and_forth(browser, tmp_path):
    database = tmp_path / "games.db"
    simulated = processes.run([str(LUDOLEX), "simulate", "root", "--games", "1", "--max-turns", "4", "--jobs", "1",
                               "--db", str(database)], cwd=ROOT, capture_output=True, text=True)
    assert simulated.returncode == 0, simulated.stdout + simulated.stderr
    with served(str(database), "--seed", "0") as url, page_of(browser, url) as page:
        steps = int(page.get_attribute("#step", "max"))
        assert steps > 20 and page.inner_text("#log").strip() == ""
        start = page.inner_html("#board")
        for _ in range(3):
            before = shown(page)
            page.click("#forward")
            settled(page, before)
        assert page.locator("#log li").count() == 3
        before = shown(page)
        page.click("#back")
        settled(page, before)
        assert page.locator("#log li").count() == 2 and page.input_value("#step") == "2"
        before = shown(page)
        page.fill("#step", str(steps))
        page.dispatch_event("#step", "change")
        settled(page, before)
        assert page.locator("#log li").count() == steps and page.inner_html("#board") != start
        before = shown(page)
        page.click("#first")
        settled(page, before)
        assert page.inner_html("#board") == start
        before = shown(page)
        page.keyboard.press("ArrowRight")
        settled(page, before)
        assert page.locator("#log li").count() == 1 and "next:" in page.inner_text("#next")


def test_a_seat_switch_never_shows_another_players_hand(browser):
    """Root: the marquise's hand is shown to her seat as cards; switched to the spectator's view, the
    page holds nowhere the names of the marquise's cards (only how many she has). Her page offers
    no other seat: not the eyrie's, not `all` (outside debug mode)."""
    with served("root", "--human", "marquise", "--seed", "4") as url, page_of(browser, url) as page:
        hand = page.get_attribute("#zones [data-zone='hand/marquise'] .cards .card", "title")
        cards = page.eval_on_selector_all("#zones [data-zone='hand/marquise'] .card", "nodes => nodes.map(n => n.title)")
        ids = [i for title in cards for i in title.split("\n")[0].split()]
        assert hand and len(ids) >= 3
        seats = seat_menu(page)
        assert seats == ["marquise", "(spectator)"]
        before = shown(page)
        page.select_option("#seat", "(spectator)")
        settled(page, before)
        html = page.content()
        leaked = [i for i in ids if i in html]
        assert not leaked, leaked
        assert re.search(r"\d+ hidden", page.inner_text("#zones [data-zone='hand/marquise']"))
        before = shown(page)
        page.select_option("#seat", "marquise")
        settled(page, before)
        assert all(i in page.content() for i in ids)


def test_a_seat_cannot_obtain_another_seats_hand_or_the_seed_by_any_request(browser):
    """Root, the marquise in the page and the eyrie a bot: whatever the marquise's page asks, by any
    request it can make (fetch from inside the page, its key included), no answer names a card of
    the eyrie's hand, or the seed; a request for another seat's view, or to act for it, is refused."""
    seed = "7654321"
    eyrie_hand = [card.id for card in Game(load("root"), seed=int(seed)).state.zones["hand/eyrie"]]
    with served("root", "--human", "marquise", "--seed", seed) as url, page_of(browser, url) as page:
        assert page.evaluate("state.decision.player") == "marquise"  # the game as dealt: the eyrie's hand as above
        answers = page.evaluate("""async () => {
            const key = { Authorization: `Bearer ${new URLSearchParams(location.search).get("token")}` };
            const get = (path, headers = key) => fetch(path, { headers });
            const post = (path, body) => fetch(path, { method: "POST", body: JSON.stringify(body),
                                                       headers: { ...key, "Content-Type": "application/json" } });
            const asked = {
                "state eyrie": get("/api/state?seat=eyrie"),
                "state all": get("/api/state?seat=(all)"),
                "state eyrie without the key": get("/api/state?seat=eyrie", {}),
                "table without the key": get("/api/table", {}),
                "choose for eyrie": post("/api/choose", { seat: "eyrie", index: 0 }),
                "choose for all": post("/api/choose", { seat: "(all)", index: 0 }),
                "why for eyrie": post("/api/why", { seat: "eyrie", label: "c1" }),
                "why for all": post("/api/why", { seat: "(all)", picks: [["loc:c1"]] }),
                "undo for eyrie": post("/api/undo", { seat: "eyrie" }),
                "goto for all": post("/api/goto", { seat: "(all)", step: 0 }),
                "table": get("/api/table"),
                "state": get("/api/state"),
                "state marquise": get("/api/state?seat=marquise"),
                "state spectator": get("/api/state?seat=(spectator)"),
                "why": post("/api/why", { seat: "marquise", label: "hand/eyrie" }),
            };
            const answers = {};
            for (const [name, made] of Object.entries(asked)) {
                const response = await made;
                answers[name] = { status: response.status, text: await response.text() };
            }
            return answers;
        }""")
        for name, answer in answers.items():
            named = [card for card in eyrie_hand if re.search(rf"(?<![\w-]){card}(?![\w-])", answer["text"])]
            assert not named, (name, named)
            assert seed not in answer["text"] and '"seed"' not in answer["text"], name
        refused = [name for name in answers if any(word in name for word in ("eyrie", "all", "without"))]
        assert all(answers[name]["status"] in (400, 403) for name in refused), answers
        assert all(answers[name]["status"] == 403 for name in refused if name != "goto for all"), answers
        assert all(answers[name]["status"] == 200 for name in answers if name not in refused), answers
        assert seat_menu(page) == ["marquise", "(spectator)"]


def test_each_person_of_a_hot_seat_game_has_a_link_of_their_own(browser):
    """Two people in the page: the server prints a link per seat, and a page opened by one shows
    that seat and answers for it alone."""
    with serving("cernunos", "--human", "green", "--human", "purple", "--seed", "3") as said:
        green, purple = link(said()), link(said())
        assert green != purple
        with page_of(browser, green) as page:
            assert seat_menu(page) == ["green", "(spectator)"]
            while decision(page)["player"] == "green":
                click_option(page, decision(page)["options"][0])
            assert "green place:" in page.inner_text("#log") and not decision(page)["yours"]
        with page_of(browser, purple) as page:
            assert seat_menu(page) == ["purple", "(spectator)"]
            assert decision(page)["player"] == "purple" and decision(page)["options"]
        status, _ = asked(purple, "api/choose", {"seat": "green", "index": 0})
        assert status == 403


def test_a_page_opened_without_its_key_says_how_to_open_it(browser):
    with served("cernunos", "--human", "green") as url:
        page = browser.new_page()
        page.goto(url.split("?")[0])
        page.wait_for_selector("#why-answer:not([hidden])")
        assert "open the page by the link" in page.inner_text("#why-answer")
        assert page.locator("#options li").count() == 0
        page.close()


def test_a_request_of_another_site_is_refused():
    """DNS rebinding: a hostile page whose name is made to point at 127.0.0.1 sends its own name as
    Host, and its own Origin with what it posts: both refused, its key notwithstanding."""
    with served("cernunos", "--human", "green", "--seed", "3") as url:
        port = re.search(r":(\d+)/", url).group(1)
        status, answer = asked(url, "api/state", Host=f"evil.example:{port}")
        assert status == 403 and "Host" in answer["error"]
        status, answer = asked(url, "api/choose", {"seat": "green", "index": 0}, Origin="http://evil.example")
        assert status == 403 and "Origin" in answer["error"]
        assert asked(url, "api/state")[1]["log"] == []  # nothing was played
        assert asked(url, "api/choose", {"seat": "green", "index": 0}, Origin=f"http://127.0.0.1:{port}")[0] == 200


def test_an_oversized_request_is_refused_before_it_is_read():
    """A 4 MB `why` once held the table for seconds; now it is refused for its size, and the next is answered."""
    with served("cernunos", "--human", "green", "--seed", "3") as url:
        status, answer = asked(url, "api/why", {"seat": "green", "label": "x" * 4_000_000})
        assert status == 413 and "at most 64 KB" in answer["error"], answer
        assert asked(url, "api/why", {"seat": "green", "label": "tree z9"})[0] == 200


def test_a_game_without_a_seed_gets_a_random_one_printed_and_never_sent():
    seeds = []
    for _ in range(2):
        with serving("cernunos", "--human", "green") as said:
            url = link(said())
            printed = re.fullmatch(r"seed (\d+) \(`--seed \1` deals this game again\)\n", said())
            assert printed, "no seed printed"
            seeds.append(printed.group(1))
            for path in ("api/table", "api/state"):
                status, answer = asked(url, path)
                assert status == 200 and "seed" not in answer and printed.group(1) not in json.dumps(answer)
    assert seeds[0] != seeds[1]


def test_the_debug_view_is_marked(browser):
    """--debug prints one more link, to every view, for the person who started the server; the
    seat's own link still shows that seat alone."""
    with serving("root", "--human", "marquise", "--debug") as said:
        marquise, debug = link(said()), said()
        assert "every seat: --debug, not for play" in debug
        with page_of(browser, marquise) as page:
            assert seat_menu(page) == ["marquise", "(spectator)"]
        with page_of(browser, link(debug)) as page:
            assert page.is_hidden("#debug-banner")
            before = shown(page)
            page.select_option("#seat", "(all)")
            settled(page, before)
            assert page.is_visible("#debug-banner") and "every hidden component" in page.inner_text("#debug-banner")
            assert "hidden" not in page.inner_text("#zones [data-zone='hand/eyrie']")


def test_a_game_without_a_board_is_played_from_its_zones(browser, tmp_path):
    with served(str(chips_game(tmp_path)), "--human", "red") as url, page_of(browser, url) as page:
        assert page.is_hidden("#board") and page.is_hidden("#scores")  # no table description: no scores
        before = shown(page)
        page.click("#zones [data-zone='supply/red'] .card")
        settled(page, before)
        assert "red bet: red-chip-" in page.inner_text("#log")
        assert "pot (" in page.inner_text("#zones")


def test_a_save_is_replayed_in_the_page(tmp_path):
    save = tmp_path / "game.json"
    played = processes.run([str(LUDOLEX), "play", "cernunos", "--seed", "6", "--save", str(save)], cwd=ROOT,
                           capture_output=True, text=True)
    assert played.returncode == 0, played.stderr
    choices = json.loads(save.read_text())["choices"]
    with served(str(save)) as url:
        _, table = asked(url, "api/table")
        assert table["mode"] == "replay" and table["steps"] == len(choices) and table["seat"] == "(all)"
        assert table["seed"] == 6  # a replay shows every view: its seed hides nothing more
        _, last = asked(url, "api/goto", {"step": len(choices)})
        assert last["result"].startswith(("green", "purple", "a draw"))
        assert asked(url.split("?")[0] + "?token=wrong", "api/table")[0] == 403


def test_what_cannot_be_served_is_said_in_one_line(tmp_path):
    (tmp_path / "notes.json").write_text("{not json")
    database = tmp_path / "games.db"
    processes.run([str(LUDOLEX), "simulate", "cernunos", "--games", "1", "--jobs", "1", "--db", str(database)],
                  cwd=ROOT, capture_output=True, check=True)
    for args, said in [(["no_such_game"], "no_such_game"), ([str(tmp_path / "notes.json")], "not a saved game"),
                       ([str(database)], "give --seed S"), (["cernunos", "--human", "blue"], "the players at the table are")]:
        served_ = processes.run([str(LUDOLEX), "serve", *args, "--port", "0"], cwd=ROOT, capture_output=True,
                                text=True)
        assert served_.returncode == 2 and said in served_.stderr and "Traceback" not in served_.stderr, served_.stderr


def test_root_reads_through_its_table_description(browser):
    """Root's table description in the page: the turn line, each faction's scores with its mark beside
    its colour, the clearings coloured by suit and named with it, a stack's pieces counted with their
    owner's mark, the decision and its options in words."""
    with served("root", "--human", "marquise", "--seed", "1") as url, page_of(browser, url) as page:
        assert page.inner_text("#turns") == "turn 0, marquise's turn"
        rows = page.eval_on_selector_all("#scores tr", "rows => rows.map(r => r.innerText.split(/\\s+/).join(' '))")
        assert rows == ["player VP cards warriors on the map", "M marquise 0 3 0", "E eyrie 0 3 0",
                        "A alliance 0 3 0", "V vagabond 0 3 0"]
        assert page.inner_text("#zones [data-owner='eyrie'] h3 .mark") == "E"
        assert page.eval_on_selector("#board [data-location='c1'] .shape", "n => n.style.fill") == "rgb(228, 87, 46)"
        assert page.text_content("#board [data-location='c1'] .name") == "c1 fox"
        assert page.inner_text("#asked") == "marquise, keep_corner: the Marquise's keep: which corner clearing"
        assert page.inner_text("#options li[data-index='0'] button") == "c1 fox c1"
        click_option(page, decision(page)["options"][0])
        pieces = page.eval_on_selector_all("#board [data-location='c1'] .piece",
                                           "ps => ps.map(p => [...p.querySelectorAll('text')].map(t => t.textContent))")
        assert pieces == [["M", "warrior"], ["M", "keep"]]
        assert "marquise keep_corner: c1 (c1 fox)" in page.inner_text("#log")
        assert "sawmill in c1 fox" in page.inner_text("#options")


def test_the_names_of_wonderlands_wars_places_do_not_overlap(browser):
    """Wonderland's War's board is two rings drawn from its graph: no name of a place is drawn over another."""
    with served("wonderlands_war", "--human", "alice", "--seed", "2") as url, page_of(browser, url) as page:
        boxes = page.eval_on_selector_all("#board .location .name", """names => names.map(n => {
            const b = n.getBoundingClientRect(); return [n.textContent, b.left, b.top, b.right, b.bottom]; })""")
        assert "Red Keep" in [box[0] for box in boxes] and "chair 1" in [box[0] for box in boxes]
        for i, (name, left, top, right, bottom) in enumerate(boxes):
            for other, left2, top2, right2, bottom2 in boxes[i + 1:]:
                assert right <= left2 or right2 <= left or bottom <= top2 or bottom2 <= top, (name, other)
