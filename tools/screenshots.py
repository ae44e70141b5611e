"""Takes the screenshots of docs/tables.md: each game at a mid-game decision, in the terminal
(`ludolex play --load`, in a pseudo-terminal, drawn as an image) and in the web page (`ludolex serve`,
in headless Chromium). Run from the repository root: `.venv/bin/python tools/screenshots.py`.

Each game is played by seeded random choices up to a decision of the seat shown, saved; the terminal
resumes that save, and the page is brought to the same point by posting the same choices."""
import io
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

import pexpect
from PIL import Image
from playwright.sync_api import sync_playwright
from rich.console import Console
from rich.text import Text

from interpreter import Game, load
from interpreter.play.saves import Journal, write_save

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "docs" / "screenshots"
LUDOLEX = Path(sys.executable).with_name("ludolex")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ANSI_OUT = re.compile(r"\x1b\[\?[0-9;]*[A-Za-z]")
# the name of the shots, game, seat shown, seed, the decision to stop at, the least number of choices before it,
# whether the page is shot too
SHOTS = [("cernunos", "cernunos", "green", 3, "place", 9, True), ("root", "root", "marquise", 5, "move", 60, True),
         ("wonderlands_war", "wonderlands_war", "alice", 2, "draw", 60, True),
         ("seventh_citadel", "seventh_citadel", "brooks", 5, "undertake", 150, True),
         ("seventh_citadel-share_hp", "seventh_citadel", "brooks", 1, "share_hp", 0, False)]


def played(game: str, seat: str, seed: int, stop: str, least: int) -> tuple[Journal, list[tuple[str, int]]]:
    ruleset = load(game)
    journal = Journal(Game(ruleset, seed=seed), ruleset.content_hash())
    chooser, answered = random.Random(seed), []
    while True:
        decision = journal.game.decision
        if decision.player == seat and decision.name == stop and len(answered) >= least:
            return journal, answered
        index = chooser.randrange(len(decision.options))
        answered.append((decision.player, index))
        journal.choose(index)


def png(image_bytes: bytes, path: Path, colours: int = 64) -> None:
    """A small PNG: the screenshot with its colours reduced."""
    image = Image.open(io.BytesIO(image_bytes)).convert("RGB")
    image.quantize(colors=colours, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def terminal(browser, name: str, game: str, seat: str, save: Path) -> None:
    child = pexpect.spawn(str(LUDOLEX), ["play", game, "--load", str(save), "--human", seat], cwd=str(save.parent),
                          encoding="utf-8", timeout=120, dimensions=(200, 150), env={"TERM": "xterm-256color",
                                                                                     "COLORTERM": "truecolor"})
    child.expect(f"{seat} > ")
    screen = ANSI_OUT.sub("", child.before).replace("\r", "") + f"{seat} > "
    child.sendintr()
    child.expect(pexpect.EOF)
    shown = screen[screen.index("choice(s) replayed") + len("choice(s) replayed") + 1:]
    console = Console(record=True, width=150, force_terminal=True, color_system="truecolor", file=io.StringIO())
    console.print(Text.from_ansi(shown.rstrip("\n")))
    svg = console.export_svg(title=f"ludolex play {game} --human {seat}")
    page = browser.new_page(viewport={"width": 1200, "height": 600}, device_scale_factor=0.7)
    page.set_content(f"<body style='margin:0'>{svg}</body>")
    size = page.evaluate("(() => { const b = document.querySelector('svg').getBoundingClientRect(); return [b.width, b.height]; })()")
    page.set_viewport_size({"width": int(size[0]), "height": int(size[1])})
    png(page.screenshot(full_page=True), HERE / f"{name}-terminal.png", 64)
    page.close()


def web(browser, name: str, game: str, seat: str, seed: int, answered: list[tuple[str, int]]) -> None:
    players = Game(load(game), seed=seed).players
    humans = [arg for p in players for arg in ("--human", p)]
    server = subprocess.Popen([str(LUDOLEX), "serve", game, *humans, "--seed", str(seed), "--port", "0"], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    try:
        links = {}
        while len(links) < len(players):
            line = server.stdout.readline()
            found = re.search(r"(?:^|\(|\s)(\w+)?:? ?(http://\S+)", line)
            owner = re.search(r"\((\w+);", line) or re.match(r"\s+(\w+):", line)
            if found and owner:
                links[owner.group(1)] = found.group(2)
        for player, index in answered:
            url = links[player]
            request = urllib.request.Request(url.split("?")[0] + "api/choose", data=json.dumps(
                {"seat": player, "index": index}).encode(), headers={
                "Authorization": "Bearer " + url.partition("token=")[2], "Content-Type": "application/json"})
            urllib.request.urlopen(request, timeout=60).read()
        page = browser.new_page(viewport={"width": 1400, "height": 1000}, device_scale_factor=0.8)
        page.goto(links[seat])
        page.wait_for_selector("body[data-shown]")
        png(page.screenshot(), HERE / f"{name}-web.png", 48)  # the board, the scores and the decision
        page.close()
    finally:
        server.terminate()
        server.wait(30)


def main() -> None:
    with sync_playwright() as driver, tempfile.TemporaryDirectory() as folder:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for name, game, seat, seed, stop, least, page in SHOTS:
            journal, answered = played(game, seat, seed, stop, least)
            save = Path(folder) / f"{name}.json"
            write_save(save, journal.save())
            terminal(browser, name, game, seat, save)
            if page:
                web(browser, name, game, seat, seed, answered)
            print(name, len(answered), "choices")
        browser.close()


if __name__ == "__main__":
    main()
