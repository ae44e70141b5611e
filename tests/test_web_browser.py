"""The page of `ludolex serve` as a person uses it: a real headless Chromium, driven by Playwright,
clicking the board, the cards and the buttons of a page served by the real command.

Chromium comes from the system (Debian's `chromium`; `.ci/run` installs it, and sets
LUDOLEX_BROWSER_TESTS=required so that a missing browser fails these tests instead of skipping them).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from toy import chips_game

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
def served(*args: str):
    """`ludolex serve ARGS` on a free port: the address of its page, while it runs."""
    server = subprocess.Popen([str(LUDOLEX), "serve", *args, "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        found = re.search(r"http://\S+", line)
        assert found, line + server.stderr.read()
        yield found.group(0)
    finally:
        server.terminate()
        server.wait(timeout=30)


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
    simulated = subprocess.run([str(LUDOLEX), "simulate", "root", "--games", "1", "--max-turns", "4", "--jobs", "1",
                                "--db", str(database)], cwd=ROOT, capture_output=True, text=True, timeout=300)
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
    """Root: the marquise's hand is shown to her seat as cards; switched to the eyrie's seat, the page
    holds nowhere the names of the marquise's cards (only how many she has), and there is no `all`
    seat outside debug mode."""
    with served("root", "--human", "marquise", "--seed", "4") as url, page_of(browser, url) as page:
        hand = page.get_attribute("#zones [data-zone='hand/marquise'] .cards .card", "title")
        cards = page.eval_on_selector_all("#zones [data-zone='hand/marquise'] .card", "nodes => nodes.map(n => n.title)")
        ids = [i for title in cards for i in title.split("\n")[0].split()]
        assert hand and len(ids) >= 3
        seats = page.eval_on_selector_all("#seat option", "nodes => nodes.map(n => n.value)")
        assert "(all)" not in seats and "eyrie" in seats
        before = shown(page)
        page.select_option("#seat", "eyrie")
        settled(page, before)
        html = page.content()
        leaked = [i for i in ids if i in html]
        assert not leaked, leaked
        assert re.search(r"\d+ hidden", page.inner_text("#zones [data-zone='hand/marquise']"))
        assert page.locator("#zones [data-zone='hand/eyrie'] .card").count() >= 1
        before = shown(page)
        page.select_option("#seat", "marquise")
        settled(page, before)
        assert all(i in page.content() for i in ids)


def test_the_debug_view_is_marked(browser):
    with served("root", "--human", "marquise", "--debug") as url, page_of(browser, url) as page:
        assert page.is_hidden("#debug-banner")
        before = shown(page)
        page.select_option("#seat", "(all)")
        settled(page, before)
        assert page.is_visible("#debug-banner") and "every hidden component" in page.inner_text("#debug-banner")
        assert "hidden" not in page.inner_text("#zones [data-zone='hand/eyrie']")


def test_a_game_without_a_board_is_played_from_its_zones(browser, tmp_path):
    with served(str(chips_game(tmp_path)), "--human", "red") as url, page_of(browser, url) as page:
        assert page.is_hidden("#board")
        before = shown(page)
        page.click("#zones [data-zone='supply/red'] .card")
        settled(page, before)
        assert "red bet: red-chip-" in page.inner_text("#log")
        assert "pot (" in page.inner_text("#zones")


def test_a_save_is_replayed_in_the_page(tmp_path):
    save = tmp_path / "game.json"
    played = subprocess.run([str(LUDOLEX), "play", "cernunos", "--seed", "6", "--save", str(save)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert played.returncode == 0, played.stderr
    choices = json.loads(save.read_text())["choices"]
    with served(str(save)) as url:
        table = json.load(urllib.request.urlopen(url + "api/table"))
        assert table["mode"] == "replay" and table["steps"] == len(choices) and table["seat"] == "(all)"
        request = urllib.request.Request(url + "api/goto", data=json.dumps({"step": len(choices)}).encode(),
                                         headers={"Content-Type": "application/json"})
        assert json.load(urllib.request.urlopen(request))["result"].startswith(("green", "purple", "a draw"))


def test_what_cannot_be_served_is_said_in_one_line(tmp_path):
    (tmp_path / "notes.json").write_text("{not json")
    database = tmp_path / "games.db"
    subprocess.run([str(LUDOLEX), "simulate", "cernunos", "--games", "1", "--jobs", "1", "--db", str(database)],
                   cwd=ROOT, capture_output=True, timeout=120, check=True)
    for args, said in [(["no_such_game"], "no_such_game"), ([str(tmp_path / "notes.json")], "not a saved game"),
                       ([str(database)], "give --seed S"), (["cernunos", "--human", "blue"], "the players are")]:
        served_ = subprocess.run([str(LUDOLEX), "serve", *args, "--port", "0"], cwd=ROOT, capture_output=True,
                                 text=True, timeout=60)
        assert served_.returncode == 2 and said in served_.stderr and "Traceback" not in served_.stderr, served_.stderr
