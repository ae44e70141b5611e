"""`ludolex lsp`: the language server, over standard input and output (pygls).

Each ruleset of the workspace is a project (`Project`). An edit checks the ruleset again, as
`ludolex validate` does, from the texts open in the editor: the rules first (published at once),
then the names are indexed for the other requests, then each scenario and bot file is checked and
published. What the edit cannot change is not done again (`checking.py`, `loading/memo.py`).
Checks run one step at a time in a worker thread; an edit made while a check runs stops it at the
next step and starts another.

A game may be a stranger's: the server reads its files as `validate` does (`read_source`: the
game's own regular files, each within the size limit), never as pygls would (any file a request
names, a FIFO or /dev/zero included). An open document's text is the editor's.
"""
from __future__ import annotations

import asyncio
import gc
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
from interpreter.lsp.fixes import did_you_mean_fix
from interpreter.lsp.names import Occurrence
from interpreter.lsp.outline import Symbol, outline
from interpreter.lsp.project import Project, discover
from interpreter.lsp.signatures import signature_at
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

    def _send_handler_result(self, future, *, msg_id) -> None:
        error = None if future.cancelled() else future.exception()
        if isinstance(error, Refused):
            self._request_futures.pop(msg_id, None)
            self._send_response(msg_id, None, error.to_response_error())
            return
        super()._send_handler_result(future, msg_id=msg_id)


class Refused(JsonRpcInvalidParams):
    """A request the server declines, saying why (a rename to a keyword, a file it may not read):
    an error answer to the editor, not a failure of the server's to log with its traceback."""


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
        """Check the project once no newer edit is waiting: its rules first, published at once, then its
        names indexed, then each scenario and bot file, published as it is checked. A newer edit
        stops it between two steps."""
        self.edits[project.folder] = edit = self.edits.get(project.folder, 0) + 1

        def stale() -> bool:
            return self.edits[project.folder] != edit

        await asyncio.sleep(SETTLE_SECONDS)
        if stale():
            return
        loop, texts = asyncio.get_running_loop(), self.unsaved()
        first = await loop.run_in_executor(self.checker, without_collections, project.check_rules, texts)
        if stale():
            return
        for path, diagnostics in first.items():
            self.publish(path, diagnostics)
        await loop.run_in_executor(self.checker, project.reindex, texts)
        for later in project.steps:
            if stale():
                return
            await loop.run_in_executor(self.checker, project.run_step, later, texts)
            if not stale():
                path = project.local_path(later.file)
                self.publish(path, project.diagnostics().get(path, []))
        if not stale():
            for path, diagnostics in project.diagnostics().items():
                self.publish(path, diagnostics)

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

    def document(self, params) -> tuple[Project, Path, str] | None:
        """The project, file and text of a request about a whole document; None for one of no ruleset."""
        uri = params.text_document.uri
        path = file_of(uri)
        project = path and self.project_of(path)
        return (project, project.local_path(path), self.text_of(uri, path, project)) if project else None

    def text_of(self, uri: str, path: Path, project: Project) -> str:
        """The editor's text of an open document; else the file's, read as `validate` reads it (never
        pygls's own reading: it reads any file, a FIFO or /dev/zero included, with no limit)."""
        document = self.workspace.text_documents.get(unquote(uri))
        if document is not None:
            return document.source
        try:
            return read_source(path, project.boundary)
        except LudolexError as error:
            raise Refused(error.diagnostics[0].message) from None


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
        raise Refused(f"`{new}` cannot be a name: a letter or _, then letters, digits or _, and not a keyword")
    short = re.split(r"[.:]", occurrence.name)[-1]
    renamed = occurrence.name[: -len(short)] + new
    if renamed in project.kinds_of_names:
        raise Refused(f"`{renamed}` is already a {project.kinds_of_names[renamed]} of the game")
    changes: dict[str, list[lsp.TextEdit]] = {}
    for found in project.index.references(occurrence.name):
        changes.setdefault(found.file.as_uri(), []).append(lsp.TextEdit(range=_range(found), new_text=new))
    return lsp.WorkspaceEdit(changes=changes)


def without_collections(work, *args):
    """`work(*args)` with Python's cycle collector held off: in the rules' check of a large game, its
    full collections (the whole heap of the server, caches included) cost a tenth of a second; the
    garbage is collected after, during the later steps."""
    gc.disable()
    try:
        return work(*args)
    finally:
        gc.enable()


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
def on_code_action(ls: RulesServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    """A quick fix for each diagnostic of the range whose hint says "did you mean `x`?"."""
    found = ls.document(params)
    actions = []
    for diagnostic in params.context.diagnostics if found else []:
        start = diagnostic.range.start
        width = diagnostic.range.end.character - start.character if diagnostic.range.end.line == start.line else 1
        fix = did_you_mean_fix(found[2], diagnostic.message, start.line + 1, start.character + 1, width)
        if fix:
            at = lsp.Position(line=fix.line - 1, character=fix.column - 1)
            edit = lsp.TextEdit(range=lsp.Range(start=at, end=lsp.Position(line=at.line, character=at.character + fix.width)),
                                new_text=fix.new_text)
            actions.append(lsp.CodeAction(title=fix.title, kind=lsp.CodeActionKind.QuickFix, diagnostics=[diagnostic],
                                          is_preferred=True,
                                          edit=lsp.WorkspaceEdit(changes={params.text_document.uri: [edit]})))
    return actions


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def on_document_symbol(ls: RulesServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    found = ls.document(params)
    return [_document_symbol(s) for s in outline(found[2])] if found and found[1].suffix == ".rules" else []


@server.feature(lsp.TEXT_DOCUMENT_SIGNATURE_HELP, lsp.SignatureHelpOptions(trigger_characters=["(", ","]))
def on_signature_help(ls: RulesServer, params: lsp.SignatureHelpParams) -> lsp.SignatureHelp | None:
    place = ls.place(params)
    found = place and place[1].suffix == ".rules" and signature_at(*place)
    if not found:
        return None
    information = lsp.SignatureInformation(
        label=found.label, parameters=[lsp.ParameterInformation(label=span) for span in found.parameters],
        documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=found.documentation))
    return lsp.SignatureHelp(signatures=[information], active_signature=0, active_parameter=found.active)


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


SYMBOL_KINDS = {"function": lsp.SymbolKind.Function, "procedure": lsp.SymbolKind.Method, "event": lsp.SymbolKind.Event,
                "zone": lsp.SymbolKind.Array, "variable": lsp.SymbolKind.Variable, "property": lsp.SymbolKind.Property,
                "option": lsp.SymbolKind.Constant, "faction": lsp.SymbolKind.Namespace,
                "with faction": lsp.SymbolKind.Namespace}  # the rest are rules (`when`, `setup`...)


def _document_symbol(symbol: Symbol) -> lsp.DocumentSymbol:
    start = lsp.Position(line=symbol.line - 1, character=0)
    name = lsp.Position(line=symbol.line - 1, character=symbol.column - 1)
    return lsp.DocumentSymbol(
        name=symbol.name, detail=symbol.what, kind=SYMBOL_KINDS.get(symbol.what, lsp.SymbolKind.Key),
        range=lsp.Range(start=start, end=lsp.Position(line=symbol.end_line, character=0)),
        selection_range=lsp.Range(start=name, end=lsp.Position(line=name.line, character=name.character + symbol.width)),
        children=[_document_symbol(child) for child in symbol.children])


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
