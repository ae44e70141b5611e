"""Notes for the values a game's content marks as provisional: a kind property or a location
attribute `provisional` (a label, or a list of labels such as `[M3, M8]`) says that the values
written beside it stand in for what the rulebook does not give, so that a designer with the
physical game knows exactly what to fill in."""
from __future__ import annotations

from pathlib import Path

from interpreter.content.models import Content
from interpreter.diagnostics.diagnostic import Diagnostic, Position

PROPERTY = "provisional"


def _labels(value) -> list[str]:
    return [str(v) for v in (value if isinstance(value, list) else [value])]


def provisional_notes(content: Content) -> list[Diagnostic]:
    """One note per label and file: the kinds and locations it covers, at the first of them."""
    marked: dict[tuple[str, str], list[tuple[str, Position | None]]] = {}
    for kind, spec in content.pieces.items():
        if PROPERTY in spec.properties:
            where = content.positions.get(("pieces", kind))
            for label in _labels(spec.properties[PROPERTY]):
                marked.setdefault((label, where.file if where else ""), []).append((kind, where))
    locations = (content.board.locations or {}) if content.board else {}
    for name, attributes in locations.items():
        if PROPERTY in attributes:
            where = content.positions.get(("location", name))
            for label in _labels(attributes[PROPERTY]):
                marked.setdefault((label, where.file if where else ""), []).append((name, where))
    notes = []
    for (label, file), items in marked.items():
        names = [name for name, _ in items]
        shown = ", ".join(names)
        notes.append(Diagnostic("LX401", f"provisional ({label}) in {Path(file).name}: {shown} "
                                         f"({len(names)} {'entry' if len(names) == 1 else 'entries'})", items[0][1]))
    return notes
