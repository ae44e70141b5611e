"""The time from an edit to fresh diagnostics, through `ludolex lsp` and a real LSP client (pygls's).

    python tools/bench_lsp.py [RULESET] [--edits 20]

An editor opens a rules file of the ruleset (Root by default: its whole ruleset is checked at
each edit, rules, content, scenarios and bots) and types, in turn, a misspelt keyword and its
correction; each edit is timed until the server publishes that file's new diagnostics. Prints
the median and the range, and, as the baseline measured in the same run, `ludolex validate` of
the same ruleset in a fresh process.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

REPO = Path(__file__).resolve().parent.parent


async def edit_times(folder: Path, edits: int) -> list[float]:
    rules = sorted(folder.glob("*.rules"))[0]
    text = rules.read_text()
    line = next(line for line in text.split("\n") if " where " in line)
    broken = text.replace(line, line.replace(" where ", " wher ", 1), 1)
    client = LanguageClient("bench", "1")
    arrived: dict[str, asyncio.Future] = {}

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: lsp.PublishDiagnosticsParams) -> None:
        waiting = arrived.get(params.uri)
        if waiting and not waiting.done():
            waiting.set_result(params.diagnostics)

    await client.start_io(sys.executable, "-m", "interpreter", "lsp", cwd=str(REPO))
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), root_uri=REPO.as_uri()))
    uri = rules.resolve().as_uri()
    loop = asyncio.get_running_loop()
    arrived[uri] = loop.create_future()
    client.initialized(lsp.InitializedParams())
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=uri, language_id="ludolex", version=1, text=text)))
    await arrived[uri]
    times = []
    for version in range(2, edits + 2):
        arrived[uri] = loop.create_future()
        started = time.perf_counter()
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=broken if version % 2 == 0 else text)]))
        found = await arrived[uri]
        times.append(time.perf_counter() - started)
        assert bool(found) == (version % 2 == 0), "the diagnostics do not follow the edit"
        await asyncio.sleep(2)  # the index is built after the diagnostics: let it finish, as a typist would
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return times


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
    median = statistics.median(times)
    print(f"{args.ruleset}: edit to fresh diagnostics, median of {len(times)} edits: {median * 1000:.0f} ms "
          f"(from {min(times) * 1000:.0f} to {max(times) * 1000:.0f} ms)")
    print(f"baseline, `ludolex validate rulesets/{args.ruleset}` in a new process: {validate * 1000:.0f} ms "
          f"(ratio {median / validate:.2f})")


if __name__ == "__main__":
    main()
