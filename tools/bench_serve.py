"""The time from a click in the page of `ludolex serve` to the next decision shown, over a whole game.

    python tools/bench_serve.py root --human marquise --seed 1
    python tools/bench_serve.py cernunos --human green

It starts the real command, opens its page in the system's headless Chromium (Playwright), and at
each of the seat's decisions clicks an option of the list and waits until the page shows the next
state (the bots' moves in between included). It prints the median and spread of those times and,
measured in the same run, two parts of them: the `/api/choose` request alone (the engine and the
bots, as the browser's resource timing gives it), and a bare `/api/state` request of the same page
(the cost of asking anything at all), as the baseline the ratio is taken against.
"""
from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"]
REQUEST_TIMES = """name => performance.getEntriesByType("resource").filter(e => e.name.includes(name)).map(e => e.duration)"""


def spread(times: list[float]) -> str:
    ordered = sorted(times)
    return (f"median {statistics.median(ordered):.1f} ms, p90 {ordered[int(len(ordered) * 0.9)]:.1f} ms, "
            f"min {ordered[0]:.1f} ms, max {ordered[-1]:.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--human", required=True)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--bots", default="random")
    parser.add_argument("--decisions", type=int, default=1000, help="Stop after this many of the seat's decisions.")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        sys.exit("no Chromium: install Debian's `chromium`")
    server = subprocess.Popen([str(Path(sys.executable).with_name("ludolex")), "serve", args.game, "--human", args.human,
                               "--seed", args.seed, "--bots", args.bots, "--port", "0"],
                              cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        url = re.search(r"http://\S+", server.stdout.readline()).group(0)
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=chromium, args=FLAGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(url)
            page.wait_for_selector("body[data-shown]")
            clicks, bare = [], []
            while len(clicks) < args.decisions and not page.is_visible("#result") and page.is_hidden("#error"):
                buttons = page.locator("#options li button")
                ranged = page.is_visible("#range")
                if buttons.count() == 0 and not ranged:
                    break
                shown = page.get_attribute("body", "data-shown")
                started = time.perf_counter()
                if ranged:  # a number: the lowest
                    page.click("#answer-number")
                else:
                    buttons.nth(len(clicks) * 7 % buttons.count()).click()
                page.wait_for_function(f"document.body.dataset.shown !== '{shown}' && document.body.dataset.busy === '0'")
                clicks.append((time.perf_counter() - started) * 1000)
                bare.append(page.evaluate("async () => { const t = performance.now(); "
                                          "await fetch('/api/state?seat=' + encodeURIComponent(seat), "
                                          "{headers: {Authorization: `Bearer ${TOKEN}`}}); "
                                          "return performance.now() - t; }"))
            requests = page.evaluate(REQUEST_TIMES, "/api/choose")
            ended = page.inner_text("#result") or page.inner_text("#error") or page.inner_text("#asked")
            browser.close()
    finally:
        server.terminate()
    if not clicks:
        sys.exit("the seat had no decision to click")
    print(f"{args.game}, {args.human} in the page, the other seats {args.bots} bots, seed {args.seed}: "
          f"{len(clicks)} decisions; at the end: {ended}")
    print(f"click to the next decision shown: {spread(clicks)}")
    print(f"  of which the /api/choose request: {spread(requests)}")
    print(f"baseline, a bare /api/state request: {spread(bare)}")
    print(f"ratio of the medians, click / bare request: {statistics.median(clicks) / statistics.median(bare):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
