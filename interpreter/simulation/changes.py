"""What differs between two versions of a game, and what in a game would show that a difference came
into play: for `compare`'s table of usage (`reports.change_usage`).

A kind of piece or card that differs (a property, its count, an ability...) came into play in a game
where one of its components moved (drawn, placed, crafted into a zone) or was chosen in a decision.
A top-level declaration of the rules that differs (a procedure, a function, `play:`...) came into
play where a decision it asks (`choose ... as NAME`) was answered; a declaration that asks none is
listed, its use not traced. The board's changes are listed, and count as in play in every game.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from interpreter.content.variants import flow_text
from interpreter.loading.ruleset import Ruleset

DECISION = re.compile(r"\bchoose\b.*?\bas\s+([A-Za-z_]\w*)")


@dataclass(frozen=True)
class Change:
    """One difference: what (`kind gold`), how (`value: 1 -> 2`), the component kinds and the decisions
    whose use shows it came into play, and whether it is in play in every game (`everywhere`: the board,
    whose use nothing in particular shows)."""

    subject: str
    detail: str
    kinds: tuple[str, ...] = ()
    decisions: tuple[str, ...] = ()
    everywhere: bool = False


def changes_between(a: Ruleset, b: Ruleset) -> list[Change]:
    """The differences from `a` to `b`: kinds of components, the board, then the rules' declarations."""
    return _kind_changes(a, b) + _board_changes(a, b) + _rule_changes(a, b)


def _kind_changes(a: Ruleset, b: Ruleset) -> list[Change]:
    found = []
    before, after = a.content.pieces, b.content.pieces
    for kind in [*before, *(k for k in after if k not in before)]:
        if kind not in after:
            found.append(Change(f"kind {kind}", "removed", (kind,)))
        elif kind not in before:
            found.append(Change(f"kind {kind}", "added", (kind,)))
        else:
            old, new = _flat(before[kind].model_dump()), _flat(after[kind].model_dump())
            differences = [f"{key}: {_shown(old.get(key))} -> {_shown(new.get(key))}"
                           for key in [*old, *(k for k in new if k not in old)] if old.get(key) != new.get(key)]
            if differences:
                found.append(Change(f"kind {kind}", "; ".join(differences), (kind,)))
    return found


def _flat(spec: dict) -> dict:
    """A kind's fields, its properties, abilities and functions each a field of its own (`cost`)."""
    flat = {key: value for key, value in spec.items() if key not in ("properties", "abilities", "functions")}
    for group in ("properties", "abilities", "functions"):
        flat |= {key: value for key, value in (spec.get(group) or {}).items()}
    return flat


def _shown(value) -> str:
    return "(none)" if value is None else flow_text(value)


def _board_changes(a: Ruleset, b: Ruleset) -> list[Change]:
    before, after = a.board.graph, b.board.graph
    added = [x for x in after.nodes if x not in before.nodes]
    removed = [x for x in before.nodes if x not in after.nodes]
    changed = [x for x in before.nodes if x in after.nodes and before.nodes[x] != after.nodes[x]]
    parts = [f"{how} {', '.join(map(str, places))}" for how, places in
             (("added", added), ("removed", removed), ("changed", changed)) if places]
    if not parts and set(before.edges(keys=True)) != set(after.edges(keys=True)):
        parts.append("its connections")
    return [Change("the board", "; ".join(parts), everywhere=True)] if parts else []


def _rule_changes(a: Ruleset, b: Ruleset) -> list[Change]:
    before, after = _declarations(a), _declarations(b)
    found = []
    for name in [*before, *(k for k in after if k not in before)]:
        (_, old), (_, new) = before.get(name, (None, None)), after.get(name, (None, None))
        if old == new:
            continue
        how = "added" if old is None else "removed" if new is None else "changed"
        asked = tuple(dict.fromkeys(DECISION.findall(new or old)))
        found.append(Change(f"rule {name} ({after.get(name, before.get(name))[0]})", how, (), asked))
    return found


def _declarations(ruleset: Ruleset) -> dict[str, tuple[str, str]]:
    """Each top-level declaration of the rules files by its name, with its file and its text as written
    (comments and blank lines left out): a line at the margin and the indented lines under it. Names
    are the rules' (unique but for `when` rules and the like, numbered in file order: `turn#2`)."""
    found: dict[str, tuple[str, str]] = {}
    for path in sorted(ruleset.rule_files, key=lambda p: p.name):
        name, lines = None, []
        for line in [*_code_lines(path), "end"]:
            if not line[0].isspace():
                if name:
                    found[name] = (path.name, "\n".join(lines))
                name, lines = _name_of(line, found), []
            lines.append(line.rstrip())
    return found


def _code_lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _name_of(line: str, found: dict) -> str:
    """`procedure score_round(p):` is `score_round`, `play:` is `play`; a name taken already gets `#2`..."""
    words = re.findall(r"[A-Za-z_]\w*", line.split("(")[0].split("=")[0].split(":")[0])
    name = words[-1] if words else line.strip()[:20]
    taken, n = name, 1
    while taken in found:
        n += 1
        taken = f"{name}#{n}"
    return taken
