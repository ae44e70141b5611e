"""The language server, end to end: `ludolex lsp` started as an editor starts it, driven by a real
LSP client (pygls's), on a copy of Cernunos (rules, content, scenarios) in its own project."""
from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import resource
import shutil
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from processes import kill_group, started
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.client import LanguageClient

from interpreter.validation.validate import validate_ruleset

REPO = Path(__file__).resolve().parent.parent
WAIT = 60  # seconds: a generous bound for a check on a loaded machine, never a measure of speed
SERVER_MEMORY = 1 << 30  # bytes of address space: a server that reads /dev/zero fails here, not the machine


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    shutil.copytree(REPO / "rulesets" / "cernunos", tmp_path / "rulesets" / "cernunos")
    shutil.copytree(REPO / "cards" / "cernunos", tmp_path / "cards" / "cernunos")
    (tmp_path / "rulesets" / "cernunos" / "bots").mkdir(exist_ok=True)  # it holds the game's rule_of_thumb.yaml already
    (tmp_path / "rulesets" / "cernunos" / "bots" / "greedy.yaml").write_text(
        "description: places where it can\nall:\n  place: if can_place(you, kind, square) then 1 else 0\n  grow: 'size(reserve(you))'\n")
    return tmp_path


class Editor:
    """A client as an editor is: it opens files, types into them, and reads what the server publishes."""

    def __init__(self, root: Path):
        self.root = root
        self.client = LanguageClient("test-editor", "1")
        self.diagnostics: dict[str, list[lsp.Diagnostic]] = {}
        self.arrived = asyncio.Event()
        self.versions: dict[str, int] = {}
        self.stopped = False

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: lsp.PublishDiagnosticsParams) -> None:
            self.diagnostics[params.uri] = params.diagnostics
            self.arrived.set()

    async def start(self) -> None:
        def bounded():
            resource.setrlimit(resource.RLIMIT_AS, (SERVER_MEMORY, SERVER_MEMORY))
        await self.client.start_io(sys.executable, "-m", "interpreter", "lsp", cwd=str(self.root), preexec_fn=bounded,
                                   start_new_session=True)  # a group of its own, killed in stop() if it lingers
        await self.client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=self.root.as_uri(),
            workspace_folders=[lsp.WorkspaceFolder(uri=self.root.as_uri(), name="game")]))
        self.client.initialized(lsp.InitializedParams())

    async def stop(self) -> None:
        """Shut the server down; one that does not answer (blocked) is killed. Once only."""
        if self.stopped:
            return
        self.stopped = True
        server = self.client._server
        try:
            try:
                await asyncio.wait_for(self.client.shutdown_async(None), WAIT)
                self.client.exit(None)
            except (asyncio.TimeoutError, RuntimeError):  # RuntimeError: it has exited already
                if server.returncode is None:
                    server.kill()
            await asyncio.wait_for(self.client.stop(), WAIT)
        finally:
            if server.returncode is None:  # not waited for yet: its pid is still its group's
                kill_group(server.pid)
                await asyncio.wait_for(server.wait(), WAIT)

    async def raw_request(self, method: str, params) -> object:
        """A request as a careless or hostile client sends it: `params` as given, unchecked."""
        protocol = self.client.protocol
        msg_id = f"raw-{uuid.uuid4()}"
        answer: concurrent.futures.Future = concurrent.futures.Future()
        protocol._request_futures[msg_id] = answer
        protocol._send_data({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        return await asyncio.wait_for(asyncio.wrap_future(answer), WAIT)

    def uri(self, relative: str) -> str:
        return (self.root / relative).resolve().as_uri()

    def open(self, relative: str) -> str:
        uri = self.uri(relative)
        self.versions[uri] = 1
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
            uri=uri, language_id="ludolex", version=1, text=(self.root / relative).read_text())))
        return uri

    def type(self, uri: str, text: str) -> None:
        """The whole new text of an open file (not saved)."""
        self.versions[uri] += 1
        self.arrived.clear()
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)]))

    async def diagnostics_of(self, uri: str, until) -> list[lsp.Diagnostic]:
        """The file's diagnostics once `until(them)` holds."""
        async def wait():
            while uri not in self.diagnostics or not until(self.diagnostics[uri]):
                self.arrived.clear()
                await self.arrived.wait()
            return self.diagnostics[uri]
        return await asyncio.wait_for(wait(), WAIT)

    async def ready(self) -> None:
        """Wait for the first check of the workspace (the rules file's diagnostics, none)."""
        await self.diagnostics_of(self.uri("rulesets/cernunos/cernunos.rules"), lambda found: True)
        for _ in range(WAIT * 10):  # and for the names to be indexed
            hovered = await self.hover("rulesets/cernunos/cernunos.rules", "function can_place", 10)
            if hovered and "function" in hovered:
                return
            await asyncio.sleep(0.1)

    def where(self, relative: str, text: str, offset: int = 0) -> lsp.TextDocumentPositionParams:
        lines = (self.root / relative).read_text().split("\n")
        line = next(i for i, line in enumerate(lines) if text in line)
        return lsp.TextDocumentPositionParams(text_document=lsp.TextDocumentIdentifier(uri=self.uri(relative)),
                                              position=lsp.Position(line=line, character=lines[line].index(text) + offset))

    async def hover(self, relative: str, text: str, offset: int = 0) -> str | None:
        at = self.where(relative, text, offset)
        return await self.hover_at(at.text_document.uri, at.position.line, at.position.character)

    async def hover_at(self, uri: str, line: int, character: int) -> str | None:
        """The hover text at a place of any document, open or not; an error answer raises."""
        found = await asyncio.wait_for(self.client.text_document_hover_async(lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=line, character=character))), WAIT)
        return found.contents.value if found else None

    async def completion_at(self, uri: str, line: int, character: int) -> list[str]:
        found = await asyncio.wait_for(self.client.text_document_completion_async(lsp.CompletionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=line, character=character))), WAIT)
        return [item.label for item in found.items] if found else []


def session(test=None, *, prepare=None):
    """Run an async test body with a started editor, and stop the server whatever happens;
    `prepare(project)` first, before the server starts."""
    if test is None:
        return lambda test: session(test, prepare=prepare)

    def run(project: Path):
        if prepare:
            prepare(project)

        async def body():
            editor = Editor(project)
            await editor.start()
            try:
                await editor.ready()
                await test(editor)
            finally:
                await editor.stop()
        asyncio.run(body())
    run.__name__ = test.__name__
    return run


RULES = "rulesets/cernunos/cernunos.rules"


@session
async def test_diagnostics_as_you_type(editor: Editor):
    uri = editor.open(RULES)
    original = (editor.root / RULES).read_text()
    editor.type(uri, original.replace("where t is tree)", "wher t is tree)", 1))
    found = await editor.diagnostics_of(uri, lambda found: found)
    assert [d.code for d in found] == ["LX101"]
    assert "did you mean `where`?" in found[0].message
    assert found[0].range.start.line == original.split("\n").index(
        next(line for line in original.split("\n") if "where t is tree)" in line))
    editor.type(uri, original)  # corrected, still unsaved: the problem goes
    assert not await editor.diagnostics_of(uri, lambda found: not found)


@session
async def test_diagnostics_in_every_file_of_the_ruleset(editor: Editor):
    """An edit in the content shows the problem it causes in a rules file that is not open."""
    tokens = "cards/cernunos/tokens.yaml"
    uri = editor.open(tokens)
    text = (editor.root / tokens).read_text()
    assert "\n  deer:" in text
    editor.type(uri, text.replace("\n  deer:", "\n  stag:", 1))
    found = await editor.diagnostics_of(editor.uri(RULES), lambda found: any("deer" in d.message for d in found))
    assert any(d.code == "LX309" for d in found)


@session
async def test_completion(editor: Editor):
    editor.open(RULES)
    at = editor.where(RULES, "function trees_left(p) = ", len("function trees_left(p) = "))
    found = await editor.client.text_document_completion_async(lsp.CompletionParams(
        text_document=at.text_document, position=at.position))
    labels = {item.label: item.detail for item in found.items}
    assert labels["choose"] == "keyword"
    assert labels["adjacent"] == "built-in function"
    assert labels["deer"] == "kind"
    assert labels["can_place"] == "function"
    assert labels["reserve"] == "zone"
    assert labels["activate"] == "procedure"
    bot = "rulesets/cernunos/bots/greedy.yaml"
    editor.open(bot)
    at = editor.where(bot, "grow:", 0)
    found = await editor.client.text_document_completion_async(lsp.CompletionParams(
        text_document=at.text_document, position=at.position))
    assert {i.label for i in found.items if i.detail == "decision"} >= {"place", "grow", "first"}


@session
async def test_hover(editor: Editor):
    assert "the locations one connection away" in await editor.hover(RULES, "adjacent(t.location", 2)
    assert "asks a player to choose" in await editor.hover(RULES, "choose square in ready", 2)
    text = await editor.hover(RULES, "can_place(p, k, s) =", 3)
    assert "**can_place**: function" in text and "function can_place(p, k, s) = (" in text
    assert "CN-26 nothing else" in text  # the comment above its declaration
    deer = await editor.hover(RULES, "d is deer", 6)
    assert "**deer**: kind" in deer and "tokens.yaml" in deer and "abilities:" not in deer


@session
async def test_definition_across_files(editor: Editor):
    scenario = "rulesets/cernunos/tests/cn_b_crow.yaml"
    editor.open(scenario)
    at = editor.where(scenario, "can_place(purple, deer", 1)
    found = await editor.client.text_document_definition_async(lsp.DefinitionParams(
        text_document=at.text_document, position=at.position))
    assert found.uri == editor.uri(RULES)
    assert (editor.root / RULES).read_text().split("\n")[found.range.start.line].startswith("function can_place")
    at = editor.where(RULES, "d is deer", 6)  # a kind: declared by the content
    found = await editor.client.text_document_definition_async(lsp.DefinitionParams(
        text_document=at.text_document, position=at.position))
    assert found.uri == editor.uri("cards/cernunos/tokens.yaml")
    assert (editor.root / "cards/cernunos/tokens.yaml").read_text().split("\n")[found.range.start.line].strip() == "deer:"


@session
async def test_references(editor: Editor):
    at = editor.where(RULES, "function can_place", len("function "))
    found = await editor.client.text_document_references_async(lsp.ReferenceParams(
        text_document=at.text_document, position=at.position, context=lsp.ReferenceContext(include_declaration=True)))
    files = {Path(location.uri).name for location in found}
    assert {"cernunos.rules", "cn_b_crow.yaml", "cn_a_effects.yaml", "greedy.yaml"} <= files
    expected = sum(path.read_text().count("can_place(") for path in (editor.root / "rulesets").rglob("*.*")
                   if path.suffix in (".rules", ".yaml"))
    assert len(found) == expected


@session
async def test_rename_across_files_keeps_the_game_valid(editor: Editor):
    at = editor.where(RULES, "function can_place", len("function "))
    edit = await editor.client.text_document_rename_async(lsp.RenameParams(
        text_document=at.text_document, position=at.position, new_name="may_place"))
    assert len(edit.changes) >= 4
    for uri, edits in edit.changes.items():
        path = Path(uri.removeprefix("file://"))
        lines = path.read_text().split("\n")
        for change in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
            line = lines[change.range.start.line]
            assert line[change.range.start.character:change.range.end.character] == "can_place"
            lines[change.range.start.line] = line[:change.range.start.character] + change.new_text + line[change.range.end.character:]
        path.write_text("\n".join(lines))
    ruleset = editor.root / "rulesets" / "cernunos"
    assert not any("can_place(" in p.read_text() for p in ruleset.rglob("*.*") if p.suffix in (".rules", ".yaml"))
    assert [d for d in validate_ruleset(ruleset) if d.severity == "error"] == []
    with pytest.raises(Exception, match="not a keyword"):
        await editor.client.text_document_rename_async(lsp.RenameParams(
            text_document=at.text_document, position=at.position, new_name="choose"))


# --- what the server reads: only the project's own files, as `validate` reads them ----------

GAME = "rulesets/cernunos"


def _traps(project: Path) -> None:
    os.symlink("/dev/zero", project / GAME / "zero.rules")
    os.mkfifo(project / GAME / "pipe.rules")


@session(prepare=_traps)
async def test_a_fifo_in_the_game_is_refused_and_the_server_keeps_answering(editor: Editor):
    """Before, hover read the FIFO with pygls (no check) and blocked the server for ever."""
    pipe = editor.uri(f"{GAME}/pipe.rules")
    with pytest.raises(JsonRpcException, match="not a regular file"):
        await editor.hover_at(pipe, 0, 0)
    with pytest.raises(JsonRpcException, match="not a regular file"):
        await editor.completion_at(pipe, 0, 0)
    assert "the locations one connection away" in await editor.hover(RULES, "adjacent(t.location", 2)
    found = await editor.diagnostics_of(pipe, lambda found: found)  # as `validate` says it
    assert [d.code for d in found] == ["LX210"]


@session(prepare=_traps)
async def test_dev_zero_is_never_read_and_the_server_keeps_answering(editor: Editor):
    """Before, hover on a link to /dev/zero, or on file:///dev/zero itself once a link named it, read
    until memory ran out."""
    link = (editor.root / GAME / "zero.rules").as_uri()
    with pytest.raises(JsonRpcException, match="leads outside"):
        await editor.hover_at(link, 0, 0)
    assert await editor.hover_at("file:///dev/zero", 0, 0) is None  # no ruleset's file: nothing to say
    assert await editor.completion_at("file:///dev/zero", 0, 0) == []
    assert "file:///dev/zero" not in editor.diagnostics
    assert "the locations one connection away" in await editor.hover(RULES, "adjacent(t.location", 2)
    found = await editor.diagnostics_of(link, lambda found: found)  # at the link, as `validate` says it
    assert [d.code for d in found] == ["LX209"]


@pytest.fixture
def outside(tmp_path_factory) -> Path:
    """A file of someone else's, in no project: a word the server would describe, and a secret."""
    secret = tmp_path_factory.mktemp("elsewhere") / "secret.rules"
    secret.write_text("adjacent TOKEN_1234\n")
    return secret


def test_a_link_out_of_the_game_is_never_shown(project: Path, outside: Path):
    """Before, the server answered from the linked file's text (hover showed `adjacent`'s reference:
    the file's first word) and published diagnostics to the target's uri."""
    os.symlink(outside, project / GAME / "notes.rules")

    async def test(editor: Editor):
        link = (editor.root / GAME / "notes.rules").as_uri()
        with pytest.raises(JsonRpcException, match="leads outside") as refused:
            await editor.hover_at(link, 0, 1)
        assert "TOKEN" not in str(refused.value) and "adjacent" not in str(refused.value)
        assert await editor.hover_at(outside.as_uri(), 0, 1) is None
        assert await editor.completion_at(outside.as_uri(), 0, 1) == []
        found = await editor.diagnostics_of(link, lambda found: found)
        assert [d.code for d in found] == ["LX209"]
        assert outside.as_uri() not in editor.diagnostics
        assert not any("TOKEN" in d.message for found in editor.diagnostics.values() for d in found)
    session(test)(project)


@session
async def test_a_request_with_bad_parameters_gets_an_error_answer(editor: Editor):
    """Before, pygls only logged parameters it could not read, and the editor waited for ever."""
    place = {"textDocument": {"uri": editor.uri(RULES)}, "position": {"line": 0, "character": 0}}
    bad = [{}, {"textDocument": {"uri": editor.uri(RULES)}}, {**place, "position": {"line": "one", "character": 0}},
           {**place, "position": {"line": -1, "character": 0}}, [1, 2], None]
    for method in ("textDocument/hover", "textDocument/completion", "textDocument/definition",
                   "textDocument/references", "textDocument/prepareRename", "textDocument/rename"):
        for params in bad:
            with pytest.raises(JsonRpcInvalidParams):
                await editor.raw_request(method, params)
    with pytest.raises(JsonRpcInvalidParams, match="position"):
        await editor.raw_request("textDocument/hover", {"textDocument": place["textDocument"]})
    deep = "file:" + "/a" * 5000 + "/"  # found by tools/fuzz.py: looking above it for a ruleset took seconds
    for uri in ("untitled:Untitled-1", "file:///nowhere%00/x.rules", "https://example.com/x.rules", deep):  # no file
        assert await editor.raw_request("textDocument/hover", {**place, "textDocument": {"uri": uri}}) is None
    assert "the locations one connection away" in await editor.hover(RULES, "adjacent(t.location", 2)


def test_a_path_longer_than_any_file_s_names_no_file():
    from interpreter.lsp.server import file_of

    assert file_of("file:" + "/a" * 2047 + "/x") is not None
    assert file_of("file:" + "/a" * 2048 + "/x") is None


def test_a_request_whose_id_is_neither_a_number_nor_a_text_gets_an_error_answer(project: Path):
    """Found by tools/fuzz.py: pygls failed on an id `[1]` (unhashable) and only logged it. Here the
    messages are written by hand, as a careless client would, over the server's real pipes."""
    with started([sys.executable, "-m", "interpreter", "lsp"], cwd=project, stdin=subprocess.PIPE,
                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as server:
        def send(message: dict) -> None:
            body = json.dumps(message).encode()
            server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            server.stdin.flush()

        def answer() -> dict:
            while True:  # skip the server's notifications and requests (they have a method)
                length = int(server.stdout.readline().split(b":")[1])
                while server.stdout.readline().strip():
                    pass
                message = json.loads(server.stdout.read(length))
                if "method" not in message:
                    return message

        watchdog = threading.Timer(WAIT, server.kill)  # a server that never answers fails the test, never hangs it
        watchdog.start()
        try:
            send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": None}})
            assert answer()["id"] == 1
            send({"jsonrpc": "2.0", "id": [1], "method": "shutdown"})
            refused = answer()
            assert refused.get("id") is None and refused["error"]["code"] == -32600  # pygls leaves out a null id
            send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
            assert answer() == {"jsonrpc": "2.0", "id": 2, "result": None}
            send({"jsonrpc": "2.0", "method": "exit"})
            assert server.wait(timeout=WAIT) == 0
        finally:
            watchdog.cancel()
