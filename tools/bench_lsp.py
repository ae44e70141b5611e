"""The time from an edit to fresh diagnostics, through `ludolex lsp` and a real LSP client (pygls's).

    python tools/bench_lsp.py [RULESET] [--edits 20]

An editor opens the project (the server checks every game of it), then a rules file of the
ruleset (Root by default) and, once the server is idle, types one-word edits in turn: a keyword
misspelt (each time another line, another spelling: a text never seen) and then put right (the
text of the file before). Each edit is timed until the server publishes that file's new
diagnostics, and until the server has done all the edit asks (scenarios, bots, names: its CPU
time stops growing). Prints the median and range of all edits, then of each kind apart: a
misspelling is a text never checked, whose rules are compiled again; a text put right was checked
before, and what was found is reused. As the baseline measured in the same run, it prints
`ludolex validate` of the same ruleset in a fresh process.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import string
import subprocess
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

REPO = Path(__file__).resolve().parent.parent
QUIET = 0.5  # seconds without the server using CPU: it has done all an edit asks
LONGEST = 600  # seconds to wait for diagnostics before giving up: a server that never answers
MISSPELT = string.ascii_lowercase.replace("e", "")  # `whera`, `wherb`...: never `where`


def cpu_seconds(pid: int) -> float:
    """The CPU time process `pid` used so far (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def idle(pid: int, started: float) -> float:
    """Wait until the server has used no CPU for QUIET seconds; the time from `started` to its last use."""
    last_use, used = time.perf_counter(), cpu_seconds(pid)
    while time.perf_counter() - last_use < QUIET:
        await asyncio.sleep(0.05)
        now = cpu_seconds(pid)
        if now != used:
            last_use, used = time.perf_counter(), now
    return last_use - started


def edits_of(text: str, count: int) -> list[tuple[str, bool]]:
    """(the file's new text, whether it is misspelt): a keyword misspelt, then put right, in turn."""
    lines = [line for line in text.split("\n") if " where " in line.split("#")[0] and '"' not in line]  # in code
    edits = []
    for n in range(count):
        if n % 2:
            edits.append((text, False))
            continue
        line = lines[n // 2 % len(lines)]
        wrong = line.replace(" where ", f" wher{MISSPELT[n // 2 % len(MISSPELT)]} ", 1)
        edits.append((text.replace(line, wrong, 1), True))
    return edits


async def edit_times(folder: Path, edits: int) -> list[tuple[bool, float, float, float]]:
    """Of each edit: misspelt or not, the seconds to the file's diagnostics, the server's CPU seconds
    meanwhile (what a loaded machine changes least), the seconds until the server is idle."""
    rules = sorted(folder.glob("*.rules"))[0]
    text = rules.read_text()
    client = LanguageClient("bench", "1")
    arrived: dict[str, asyncio.Future] = {}

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: lsp.PublishDiagnosticsParams) -> None:
        waiting = arrived.get(params.uri)
        if waiting and not waiting.done():
            waiting.set_result(params.diagnostics)

    await client.start_io(sys.executable, "-m", "interpreter", "lsp", cwd=str(REPO))
    pid = client._server.pid
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), root_uri=REPO.as_uri()))
    uri = rules.resolve().as_uri()
    loop = asyncio.get_running_loop()
    arrived[uri] = loop.create_future()
    client.initialized(lsp.InitializedParams())
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=uri, language_id="ludolex", version=1, text=text)))
    await asyncio.wait_for(arrived[uri], LONGEST)
    await idle(pid, time.perf_counter())  # every game of the project checked once
    times = []
    for version, (new, misspelt) in enumerate(edits_of(text, edits), start=2):
        arrived[uri] = loop.create_future()
        started, cpu = time.perf_counter(), cpu_seconds(pid)
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=new)]))
        found = await asyncio.wait_for(arrived[uri], LONGEST)
        fresh, used = time.perf_counter() - started, cpu_seconds(pid) - cpu
        assert bool(found) == misspelt, "the diagnostics do not follow the edit"
        times.append((misspelt, fresh, used, await idle(pid, started)))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return times


def summary(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1000:.0f} ms (from {min(seconds) * 1000:.0f} to {max(seconds) * 1000:.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset", nargs="?", default="root")
    parser.add_argument("--edits", type=int, default=20)
    args = parser.parse_args()
    folder = REPO / "rulesets" / args.ruleset
    times = asyncio.run(edit_times(folder, args.edits))
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "interpreter", "validate", str(folder)], capture_output=True, check=False)
    validate = time.perf_counter() - started
    fresh = [t for _, t, _, _ in times]
    print(f"{args.ruleset}: edit to fresh diagnostics, median of {len(times)} edits: {summary(fresh)}")
    for label, kind in (("misspelt (a new text)", True), ("put right (the text before)", False)):
        print(f"  {label}: {summary([t for wrong, t, _, _ in times if wrong == kind])}; "
              f"server CPU {summary([c for wrong, _, c, _ in times if wrong == kind])}")
    print(f"  edit to the server idle (scenarios, bots and names done): {summary([t for *_, t in times])}")
    print(f"baseline, `ludolex validate rulesets/{args.ruleset}` in a new process: {validate * 1000:.0f} ms "
          f"(ratio {statistics.median(fresh) / validate:.2f})")


if __name__ == "__main__":
    main()
