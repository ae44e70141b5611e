"""Diagnostics written for people and for CI: text, JSON lines, GitHub annotations, SARIF 2.1.0."""
from __future__ import annotations

import json
import os
from pathlib import Path

from interpreter.diagnostics.codes import CODES
from interpreter.diagnostics.diagnostic import Diagnostic, loaded_text, printable

FORMATS = ("text", "json", "github", "sarif")


def relative(file: str) -> str:
    """The path from the working directory when the file is under it; otherwise as given."""
    try:
        path = os.path.relpath(file)
    except ValueError:  # another drive (Windows)
        return file
    return file if path.startswith("..") else path


def as_text(diagnostics: list[Diagnostic], colour: bool) -> str:
    out = []
    for d in diagnostics:
        shown = Diagnostic(d.code, d.message, d.position and type(d.position)(relative(d.position.file), d.position.line,
                           d.position.column, d.position.width), d.severity, d.hint)
        text = shown.render(source=loaded_text(d.position.file) if d.position else None)
        if colour:
            style = {"error": "\033[1;31m", "warning": "\033[1;33m"}.get(d.severity, "\033[1;36m")
            first, _, rest = text.partition("\n")
            text = first.replace(f"{d.severity} {d.code}", f"{style}{d.severity} {d.code}\033[0m", 1) + ("\n" + rest if rest else "")
        out.append(text)
    errors = sum(d.severity == "error" for d in diagnostics)
    warnings = sum(d.severity == "warning" for d in diagnostics)
    notes = len(diagnostics) - errors - warnings
    summary = f"{errors} error(s), {warnings} warning(s)" + (f", {notes} note(s)" if notes else "")
    out.append(summary if diagnostics else "ok: no errors")
    return "\n".join(out)


def _inert_json(text: str) -> str:
    """JSON that no CI log takes for a command: GitHub Actions runs `##[command]` anywhere in a line.

    A `#` can only be inside a JSON string, where `\\u0023` means the same."""
    return text.replace("##[", "#\\u0023[")


def as_json_lines(diagnostics: list[Diagnostic]) -> str:
    return "\n".join(_inert_json(json.dumps({**d.as_dict(), "file": relative(d.position.file) if d.position else None}))
                     for d in diagnostics)


def _escape(text: str, property_value: bool = False) -> str:
    """A field of a workflow command: control characters shown escaped (a name read from a file must
    not colour the log), then GitHub's own escapes. The line starts with `::error`, so GitHub
    reads no other command in it; `##[` is broken all the same."""
    text = printable(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A").replace("##[", "#%23[")
    return text.replace(":", "%3A").replace(",", "%2C") if property_value else text


def as_github(diagnostics: list[Diagnostic]) -> str:
    lines = []
    for d in diagnostics:
        level = {"error": "error", "warning": "warning"}.get(d.severity, "notice")
        message = d.message + (f" ({d.hint})" if d.hint else "")
        if d.position:
            p = d.position
            where = (f"file={_escape(relative(p.file), True)},line={p.line},col={p.column},"
                     f"endColumn={p.column + p.width},title={_escape(d.code, True)}")
        else:
            where = f"title={_escape(d.code, True)}"
        lines.append(f"::{level} {where}::{_escape(message)}")
    return "\n".join(lines)


def as_sarif(diagnostics: list[Diagnostic]) -> str:
    rules = [{"id": code, "shortDescription": {"text": text}, "defaultConfiguration": {"level": level}}
             for code, (level, text) in CODES.items()]
    results = []
    for d in diagnostics:
        result = {
            "ruleId": d.code,
            "ruleIndex": list(CODES).index(d.code),
            "level": d.severity,
            "message": {"text": d.message + (f" ({d.hint})" if d.hint else "")},
        }
        if d.position:
            p = d.position
            result["locations"] = [{"physicalLocation": {
                "artifactLocation": {"uri": Path(relative(p.file)).as_posix()},
                "region": {"startLine": p.line, "startColumn": p.column, "endColumn": p.column + p.width},
            }}]
        results.append(result)
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "ludolex", "rules": rules}}, "results": results}],
    }
    return _inert_json(json.dumps(log, indent=2))


def render(diagnostics: list[Diagnostic], fmt: str, colour: bool = False) -> str:
    if fmt == "json":
        return as_json_lines(diagnostics)
    if fmt == "github":
        return as_github(diagnostics)
    if fmt == "sarif":
        return as_sarif(diagnostics)
    return as_text(diagnostics, colour)
