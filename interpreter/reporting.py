"""Diagnostics written for people and for CI: text, JSON lines, GitHub annotations, SARIF 2.1.0."""
from __future__ import annotations

import json
import os
from pathlib import Path

from .codes import CODES
from .diagnostics import Diagnostic

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
        text = shown.render(source=_source(d))
        if colour:
            style = "\033[1;31m" if d.severity == "error" else "\033[1;33m"
            first, _, rest = text.partition("\n")
            text = first.replace(f"{d.severity} {d.code}", f"{style}{d.severity} {d.code}\033[0m", 1) + ("\n" + rest if rest else "")
        out.append(text)
    errors = sum(d.severity == "error" for d in diagnostics)
    warnings = len(diagnostics) - errors
    out.append(f"{errors} error(s), {warnings} warning(s)" if diagnostics else "ok: no errors")
    return "\n".join(out)


def _source(d: Diagnostic) -> str | None:
    if d.position is None:
        return None
    try:
        return Path(d.position.file).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def as_json_lines(diagnostics: list[Diagnostic]) -> str:
    return "\n".join(json.dumps({**d.as_dict(), "file": relative(d.position.file) if d.position else None})
                     for d in diagnostics)


def _escape(text: str, property_value: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property_value else text


def as_github(diagnostics: list[Diagnostic]) -> str:
    lines = []
    for d in diagnostics:
        level = "error" if d.severity == "error" else "warning"
        message = d.message + (f" ({d.hint})" if d.hint else "")
        if d.position:
            p = d.position
            where = (f"file={_escape(relative(p.file), True)},line={p.line},col={p.column},"
                     f"endColumn={p.column + p.width},title={d.code}")
        else:
            where = f"title={d.code}"
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
            "level": "error" if d.severity == "error" else "warning",
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
    return json.dumps(log, indent=2)


def render(diagnostics: list[Diagnostic], fmt: str, colour: bool = False) -> str:
    if fmt == "json":
        return as_json_lines(diagnostics)
    if fmt == "github":
        return as_github(diagnostics)
    if fmt == "sarif":
        return as_sarif(diagnostics)
    return as_text(diagnostics, colour)
