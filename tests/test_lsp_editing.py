"""What an editor asks the language server while a designer writes rules, through a real LSP client
(pygls's) talking to `ludolex lsp` over stdio, on a copy of Cernunos: hover on a quantifier, the
completion after `is`, the quick fix of a "did you mean", the outline of a rules file, the
parameters of a call, and a refused rename."""
from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from test_lsp import RULES, WAIT, Editor, project, session  # noqa: F401 (project: the fixture)

from interpreter.lsp.outline import outline


@session
async def test_hover_on_a_quantifier_quotes_the_quantifiers_reference(editor: Editor):
    for word, written in (("count", "count(t in pieces(reserve(p))"), ("first", "first(x in beneath(t))"),
                          ("select", "select(s in locations")):
        text = await editor.hover(RULES, written, 2)
        assert text.startswith(f"`{word}(x in L where C")
        assert "**Quantifiers**" in text and "A quantifier goes through a list" in text


@session
async def test_completion_after_is_offers_kinds_and_traits_only(editor: Editor):
    uri = editor.open(RULES)
    text = (editor.root / RULES).read_text()
    for written in ("d is deer", "d is not deer"):  # `is not`, typed where `is` was
        if written not in text:
            text = text.replace("d is deer", written, 1)
            editor.type(uri, text)
        line = next(n for n, line in enumerate(text.split("\n")) if written in line)
        column = text.split("\n")[line].index(written) + len(written) - len("deer")
        found = await asyncio.wait_for(editor.client.text_document_completion_async(lsp.CompletionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=line, character=column))), WAIT)
        offered = {item.label: item.detail for item in found.items}
        assert {"deer", "tree", "fire", "activable"} <= set(offered)
        assert set(offered.values()) == {"kind", "trait"}  # no square, function, keyword or built-in


@session
async def test_a_quick_fix_writes_what_the_hint_suggests(editor: Editor):
    uri = editor.open(RULES)
    original = (editor.root / RULES).read_text()
    editor.type(uri, original.replace("d is deer", "d is dear", 1))
    found = await editor.diagnostics_of(uri, lambda found: found)
    assert "did you mean `deer`?" in found[0].message
    actions = await asyncio.wait_for(editor.client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), range=found[0].range,
        context=lsp.CodeActionContext(diagnostics=found))), WAIT)
    assert [a.title for a in actions] == ["Change `dear` to `deer`"] and actions[0].kind == lsp.CodeActionKind.QuickFix
    edit, = actions[0].edit.changes[uri]
    lines = original.replace("d is deer", "d is dear", 1).split("\n")
    line = lines[edit.range.start.line]
    assert line[edit.range.start.character:edit.range.end.character] == "dear"
    lines[edit.range.start.line] = line[:edit.range.start.character] + edit.new_text + line[edit.range.end.character:]
    assert "\n".join(lines) == original
    editor.type(uri, "\n".join(lines))
    assert not await editor.diagnostics_of(uri, lambda found: not found)


@session
async def test_the_outline_of_a_rules_file(editor: Editor):
    symbols = await asyncio.wait_for(editor.client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        text_document=lsp.TextDocumentIdentifier(uri=editor.uri(RULES)))), WAIT)
    by_name = {s.name: s for s in symbols}
    assert by_name["can_place"].kind == lsp.SymbolKind.Function
    assert by_name["activate"].kind == lsp.SymbolKind.Method
    assert by_name["reserve"].kind == lsp.SymbolKind.Array
    assert {"play", "always burning", "when placed(t)"} <= set(by_name)
    lines = (editor.root / RULES).read_text().split("\n")
    can_place = by_name["can_place"]
    assert lines[can_place.range.start.line].startswith("function can_place(p, k, s) = (")
    assert can_place.range.end.line - can_place.range.start.line == 4  # the function's four lines
    selected = can_place.selection_range
    assert lines[selected.start.line][selected.start.character:selected.end.character] == "can_place"


def test_the_outline_of_a_with_faction_block_holds_its_declarations():
    symbols = outline("faction red\n\nwith faction blue:\n    # shared\n    function f(x) = 1\n\n"
                      "    when moved(c) if c is tree:\n        pass\nzone z\n")
    assert [(s.what, s.name, s.line, s.end_line) for s in symbols] == [
        ("faction", "red", 1, 1), ("with faction", "blue", 3, 8), ("zone", "z", 9, 9)]
    assert [(s.what, s.name, s.line, s.end_line) for s in symbols[1].children] == [
        ("function", "f", 5, 5), ("when", "when moved(c)", 7, 8)]


@session
async def test_signature_help_inside_a_call(editor: Editor):
    uri = editor.open(RULES)
    text = (editor.root / RULES).read_text()
    typing = text.replace("\n    activate(t)\n", "\n    swap_activations(t, \n", 1)  # in `when placed(t)`
    editor.type(uri, typing)
    line = next(n for n, line in enumerate(typing.split("\n")) if "swap_activations(t, " in line)

    async def help_at(line: int, character: int) -> lsp.SignatureHelp:
        return await asyncio.wait_for(editor.client.text_document_signature_help_async(lsp.SignatureHelpParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=line, character=character))), WAIT)

    found = await help_at(line, len("    swap_activations(t, "))
    signature, = found.signatures
    assert signature.label == "swap_activations(x, y)" and found.active_parameter == 1
    assert [signature.label[a:b] for a, b in (p.label for p in signature.parameters)] == ["x", "y"]
    assert "procedure" in signature.documentation.value
    written = next(n for n, line in enumerate(typing.split("\n")) if "adjacent(t.location, orthogonal)" in line)
    column = typing.split("\n")[written].index("adjacent(t.location, orthogonal)") + len("adjacent(t.location, ")
    found = await help_at(written, column)  # a built-in, its second parameter
    assert found.signatures[0].label.startswith("adjacent(") and found.active_parameter == 1
    assert await help_at(written, 0) is None  # outside any call


@session
async def test_a_refused_rename_answers_an_error_and_logs_no_traceback(editor: Editor):
    at = editor.where(RULES, "function can_place", len("function "))
    with pytest.raises(JsonRpcException, match="not a keyword"):
        await asyncio.wait_for(editor.client.text_document_rename_async(lsp.RenameParams(
            text_document=at.text_document, position=at.position, new_name="choose")), WAIT)
    with pytest.raises(JsonRpcException, match="already a zone"):
        await asyncio.wait_for(editor.client.text_document_rename_async(lsp.RenameParams(
            text_document=at.text_document, position=at.position, new_name="reserve")), WAIT)
    assert await editor.hover(RULES, "function can_place", len("function "))  # still answering
    server = editor.client._server
    await editor.stop()
    logged = (await asyncio.wait_for(server.stderr.read(), WAIT)).decode()
    assert "Traceback" not in logged
