"""`ludolex lsp`: the language server, over standard input and output (pygls).

Each ruleset of the workspace is a project (`Project`). An edit checks the whole ruleset again, as
`ludolex validate` does, from the texts open in the editor, then publishes the diagnostics of
every file of the ruleset, then indexes the names for the other requests. Checks run one at a
time in a worker thread, the newest edit first: an edit made while a check runs starts another.

A game may be a stranger's: the server reads its files as `validate` does (`read_source`: the
game's own regular files, each within the size limit), never as pygls would (any file a request
names, a FIFO or /dev/zero included). An open document's text is the editor's.
"""
from __future__ import annotations

import asyncio
import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import unquote

from cattrs import ClassValidationError, transform_error
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import to_fs_path

from interpreter.content.manifest import MANIFEST
from interpreter.diagnostics.diagnostic import Diagnostic
from interpreter.diagnostics.errors import LudolexError
from interpreter.language.grammar import reserved_words
from interpreter.lsp.answers import completions, hover, occurrence_at
from interpreter.lsp.names import Occurrence
from interpreter.lsp.project import Project, discover
from interpreter.safety.files import read_source

SETTLE_SECONDS = 0.05  # after an edit, how long to wait for the next keystroke before checking
SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning,
            "note": lsp.DiagnosticSeverity.Information}
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
MOST_RULESETS = 100  # checked at start, over all the workspace folders the editor names
ANSWERED = object()  # a request already answered with an error while it was read


class Protocol(LanguageServerProtocol):
    """pygls's protocol, except that a request whose parameters do not fit its method, or whose id is
    neither a number nor a text, gets an error answer: pygls only logs it, and the editor would wait
    for the answer for ever."""

    def structure_message(self, data: dict):
        if "method" in data and data.get("id") is not None and not _is_request_id(data["id"]):
            self._send_response(None, None, JsonRpcInvalidRequest("a request's id is a number or a text").to_response_error())
            return ANSWERED
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if "method" not in data or "id" not in data:
                raise  # a notification or a response: nobody waits for an answer
            cause = error.__cause__
            if isinstance(cause, ClassValidationError):
                error = JsonRpcInvalidParams(f"invalid parameters for {data['method']}: {'; '.join(transform_error(cause))}")
            self._send_response(data["id"] if _is_request_id(data["id"]) else None, None, error.to_response_error())
            return ANSWERED

    def handle_message(self, message) -> None:
        if message is not ANSWERED:
            super().handle_message(message)


def _is_request_id(value) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


LONGEST_PATH = 4096  # PATH_MAX of Linux, more than other systems allow: no file has a longer path


def file_of(uri) -> Path | None:
    """The file a document's uri names (absolute), or None if it names none (`untitled:`, not a uri,
    a path longer than any file's: looking for its ruleset above it would take seconds)."""
    path = to_fs_path(uri) if isinstance(uri, str) else None
    if not path or "\0" in path or not os.path.isabs(path) or len(path) > LONGEST_PATH:
        return None
    return Path(os.path.normpath(path))


class RulesServer(LanguageServer):
    def __init__(self):
        super().__init__("ludolex", "0.1.0", text_document_sync_kind=lsp.TextDocumentSyncKind.Full,
                         protocol_cls=Protocol)
        self.projects: dict[Path, Project] = {}
        self.checker = ThreadPoolExecutor(max_workers=1)  # one check at a time: the loader is not re-entrant
        self.edits: dict[Path, int] = {}  # project -> edits seen, so that a check for an old edit is dropped
        self.published: dict[str, list] = {}  # uri -> the diagnostics last sent

    def project_of(self, path: Path) -> Project | None:
        """The ruleset `path` (absolute) belongs to: one that lists it, else the nearest manifest
        above it as written (a link that leads out of its ruleset is not followed out)."""
        for project in self.projects.values():
            if project.owns(project.local_path(path)):
                return project
        for folder in path.parents:  # a ruleset not yet seen
            if _is_manifest(folder / MANIFEST):
                return self.projects.setdefault(folder.resolve(), Project(folder))
        return None

    def unsaved(self) -> dict[Path, str]:
        """The texts of the documents open in the editor, by file (a document that is no file left out)."""
        texts = {}
        for uri, document in self.workspace.text_documents.items():
            path = file_of(uri)
            if path is None:
                continue
            try:
                texts[path.resolve()] = document.source  # open: pygls holds its text, and reads no file
            except (OSError, RuntimeError):  # a link in a loop
                continue
        return texts

    async def check(self, project: Project) -> None:
        """Check the project once no newer edit is waiting; publish; index its names."""
        self.edits[project.folder] = edit = self.edits.get(project.folder, 0) + 1
        await asyncio.sleep(SETTLE_SECONDS)
        if self.edits[project.folder] != edit:
            return
        loop, texts = asyncio.get_running_loop(), self.unsaved()
        by_file = await loop.run_in_executor(self.checker, project.check, texts)
        if self.edits[project.folder] != edit:
            return
        for path, diagnostics in by_file.items():
            self.publish(path, diagnostics)
        await loop.run_in_executor(self.checker, project.reindex, texts)

    def publish(self, path: Path, diagnostics: list[Diagnostic]) -> None:
        uri = path.as_uri()
        found = [_to_lsp(d) for d in diagnostics]
        if self.published.get(uri) == found:
            return
        self.published[uri] = found
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=found))

    def place(self, params) -> tuple[Project, Path, str, int, int] | None:
        """The project, file, text, line and column (from 1) of a request about a place; None for a
        document of no ruleset."""
        uri = params.text_document.uri
        path = file_of(uri)
        project = path and self.project_of(path)
        if not project:
            return None
        return project, project.local_path(path), self.text_of(uri, path, project), \
            params.position.line + 1, params.position.character + 1

    def text_of(self, uri: str, path: Path, project: Project) -> str:
        """The editor's text of an open document; else the file's, read as `validate` reads it (never
        pygls's own reading: it reads any file, a FIFO or /dev/zero included, with no limit)."""
        document = self.workspace.text_documents.get(unquote(uri))
        if document is not None:
            return document.source
        try:
            return read_source(path, project.boundary)
        except LudolexError as error:
            raise JsonRpcInvalidParams(error.diagnostics[0].message) from None


server = RulesServer()


@server.feature(lsp.INITIALIZED)
async def initialized(ls: RulesServer, params: lsp.InitializedParams) -> None:
    """Check every ruleset of the workspace at once: its problems show before any file is opened."""
    roots = [file_of(f.uri) for f in ls.workspace.folders.values()] or [file_of(ls.workspace.root_uri)]
    for root in filter(None, roots):
        try:
            found = discover(root)
        except OSError:  # a folder that cannot be listed
            continue
        for folder in found:
            if len(ls.projects) >= MOST_RULESETS:
                break
            ls.projects.setdefault(folder.resolve(), Project(folder))
    await asyncio.gather(*(ls.check(p) for p in list(ls.projects.values())))


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
async def changed(ls: RulesServer, params) -> None:
    path = file_of(params.text_document.uri)
    project = path and ls.project_of(path)
    if project:
        await ls.check(project)


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def on_hover(ls: RulesServer, params: lsp.HoverParams) -> lsp.Hover | None:
    place = ls.place(params)
    text = place and hover(*place)
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text)) if text else None


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
def on_completion(ls: RulesServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    place = ls.place(params)
    items = [lsp.CompletionItem(label=label, kind=_item_kind(what), detail=what,
                                documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=doc) if doc else None)
             for label, what, doc in (completions(*place) if place else [])]
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def on_definition(ls: RulesServer, params: lsp.DefinitionParams) -> lsp.Location | None:
    place = ls.place(params)
    occurrence = place and occurrence_at(*place)
    declaration = occurrence and place[0].index.declaration(occurrence.name)
    return _location(declaration) if declaration else None


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
def on_references(ls: RulesServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
    place = ls.place(params)
    occurrence = place and occurrence_at(*place)
    if not occurrence:
        return []
    found = place[0].index.references(occurrence.name)
    return [_location(o) for o in found if params.context.include_declaration or not o.declares]


@server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
def on_prepare_rename(ls: RulesServer, params: lsp.PrepareRenameParams) -> lsp.Range | None:
    place = ls.place(params)
    occurrence = place and occurrence_at(*place)
    if occurrence and place[0].index.declaration(occurrence.name):
        return _range(occurrence)
    return None


@server.feature(lsp.TEXT_DOCUMENT_RENAME)
def on_rename(ls: RulesServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
    place = ls.place(params)
    occurrence = place and occurrence_at(*place)
    if not occurrence:
        return None
    project, new = place[0], params.new_name
    if not NAME.match(new) or new in reserved_words():
        raise JsonRpcInvalidParams(f"`{new}` cannot be a name: a letter or _, then letters, digits or _, and not a keyword")
    short = re.split(r"[.:]", occurrence.name)[-1]
    renamed = occurrence.name[: -len(short)] + new
    if renamed in project.kinds_of_names:
        raise JsonRpcInvalidParams(f"`{renamed}` is already a {project.kinds_of_names[renamed]} of the game")
    changes: dict[str, list[lsp.TextEdit]] = {}
    for found in project.index.references(occurrence.name):
        changes.setdefault(found.file.as_uri(), []).append(lsp.TextEdit(range=_range(found), new_text=new))
    return lsp.WorkspaceEdit(changes=changes)


def _is_manifest(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a folder that may not be looked into
        return False


def _to_lsp(diagnostic: Diagnostic) -> lsp.Diagnostic:
    p = diagnostic.position
    start = lsp.Position(line=max(p.line - 1, 0), character=max(p.column - 1, 0)) if p else lsp.Position(line=0, character=0)
    end = lsp.Position(line=start.line, character=start.character + (p.width if p else 1))
    message = diagnostic.message + (f"\nhint: {diagnostic.hint}" if diagnostic.hint else "")
    return lsp.Diagnostic(range=lsp.Range(start=start, end=end), message=message, code=diagnostic.code,
                          source="ludolex", severity=SEVERITY.get(diagnostic.severity, lsp.DiagnosticSeverity.Hint))


def _range(occurrence: Occurrence) -> lsp.Range:
    start = lsp.Position(line=occurrence.line - 1, character=occurrence.column - 1)
    return lsp.Range(start=start, end=lsp.Position(line=start.line, character=start.character + occurrence.width))


def _location(occurrence: Occurrence) -> lsp.Location:
    return lsp.Location(uri=occurrence.file.as_uri(), range=_range(occurrence))


def _item_kind(what: str) -> lsp.CompletionItemKind:
    return {"keyword": lsp.CompletionItemKind.Keyword, "built-in function": lsp.CompletionItemKind.Function,
            "function": lsp.CompletionItemKind.Function, "procedure": lsp.CompletionItemKind.Method,
            "zone": lsp.CompletionItemKind.Module, "variable": lsp.CompletionItemKind.Variable,
            "kind": lsp.CompletionItemKind.Class, "trait": lsp.CompletionItemKind.Interface,
            "property": lsp.CompletionItemKind.Property, "player": lsp.CompletionItemKind.Constant,
            "location": lsp.CompletionItemKind.Constant, "decision": lsp.CompletionItemKind.Event,
            "event": lsp.CompletionItemKind.Event}.get(what, lsp.CompletionItemKind.Text)


def main() -> None:
    server.start_io()
