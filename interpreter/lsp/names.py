"""Where each of a game's names is declared and used, across its rules and YAML files: for go to
definition, find references, rename and hover.

In a rules file, names are read off Lark's tree: a name is declared by `zone`, `function`,
`procedure`..., bound locally by `let`, `for each`, `choose`, a parameter... (a local is not the
game's name, even when it is spelt the same), and used everywhere else. Names local to a
faction's file are known by their qualified form (`red.stash`), as the checker knows them. In YAML
files, a key or a value that is a whole game name is a use, as is a game name inside an
expression of a scenario or a bot file; the content's own names (kinds, locations...) are declared
where the content first writes them as a key. Each declaration and snippet is parsed once per text
(`parsed`), each YAML file read once per text (the project keeps its `yaml_scalars`): indexing
again after an edit walks trees already made.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Callable
from pathlib import Path

from lark import Token, Tree
from lark.exceptions import LarkError
from lark.indenter import DedentError

from interpreter.language.parser import declaration_chunks, parse_tree
from interpreter.loading.stages import VALUE_PREFIX

DECLARING = {"option_decl", "zone_decl", "variable_decl", "property_decl", "function_decl", "procedure_decl",
             "anytime_decl", "always_decl"}
BINDING = {"let_stmt", "for_stmt", "binding", "simultaneously_stmt", "quantifier", "sorted_by"}
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
DECISION = "decision:"  # a decision's name in the index: `place` may name a procedure and a decision


@dataclass(frozen=True)
class Occurrence:
    name: str  # as the checker knows it: `red.stash` for a name local to faction red's file
    file: Path
    line: int  # 1-based, as diagnostics count
    column: int
    width: int  # of the name as written here (`stash`), the part a rename replaces
    declares: bool = False

    def contains(self, file: Path, line: int, column: int) -> bool:
        return file == self.file and line == self.line and self.column <= column <= self.column + self.width


class NameIndex:
    def __init__(self, occurrences: list[Occurrence]):
        self.by_name: dict[str, list[Occurrence]] = defaultdict(list)
        for occurrence in occurrences:
            self.by_name[occurrence.name].append(occurrence)

    def at(self, file: Path, line: int, column: int) -> Occurrence | None:
        for occurrences in self.by_name.values():
            for occurrence in occurrences:
                if occurrence.contains(file, line, column):
                    return occurrence
        return None

    def declaration(self, name: str) -> Occurrence | None:
        occurrences = self.by_name.get(name, [])
        return next((o for o in occurrences if o.declares), None)

    def references(self, name: str) -> list[Occurrence]:
        return list(self.by_name.get(name, []))


# --- rules files -------------------------------------------------------------------------------

def rules_occurrences(text: str, file: Path, known: set[str]) -> list[Occurrence]:
    """The game's names in one rules file. Each top-level declaration is parsed alone, so a syntax
    error loses only the names of its own declaration. `known`: the game's names, qualified."""
    chunks = []
    for start, _, chunk in declaration_chunks(text.split("\n")):
        tree = parsed(chunk + "\n", "start")
        if tree is not None:
            chunks.append((start, tree))
    declared_here = {_declared_name(tree) for _, tree in chunks} - {None}
    faction = next((_first_name(node) for _, tree in chunks for node in tree.iter_subtrees()
                    if node.data == "faction_decl"), None)

    def meaning(name: str) -> str | None:
        name = f"{faction}.{name}" if faction and name in declared_here else name
        return name if name in known else None

    found = []
    for start, tree in chunks:
        found += tree_occurrences(tree, file, start, 0, False, meaning, known_factions(known))
    return found


def tree_occurrences(tree: Tree, file: Path, line_offset: int, column_offset: int, block: bool,
                     meaning: Callable[[str], str | None], factions: set[str]) -> list[Occurrence]:
    """The game's names in one parsed declaration or snippet, shifted to their place in `file`.
    `meaning`: the game's name a word written here means, if any."""
    locals_ = set()
    for node in tree.iter_subtrees():
        if node.data in BINDING:
            locals_.add(_first_name(node))
        elif node.data == "params":
            locals_ |= {t.value for t in node.children if isinstance(t, Token)}
        elif node.data in ("when_decl", "instead_decl") and isinstance(node.children[-2], Token):
            locals_.add(node.children[-2].value)  # `as NAME`
    found = []

    def add(token: Token, name: str | None, declares: bool = False) -> None:
        if name:
            column = token.column + (column_offset if block or token.line == 1 else 0)
            found.append(Occurrence(name, file, token.line + line_offset, column, len(token.value), declares))

    for node in tree.iter_subtrees():
        names = [c for c in node.children if isinstance(c, Token) and c.type == "NAME"]
        if not names or node.data in BINDING or node.data in ("params", "when_decl", "instead_decl"):
            continue
        if node.data in DECLARING:
            add(names[0], meaning(names[0].value) or names[0].value, declares=True)
        elif node.data == "choose_stmt":  # `as NAME`: decisions have names of their own, never a faction's
            add(names[0], DECISION + names[0].value, declares=True)
        elif node.data == "name" and names[0].value in locals_:
            continue
        elif node.data in ("attr", "qualified_call") and _plain_name(node.children[0]) in factions:
            add(names[0], f"{_plain_name(node.children[0])}.{names[0].value}")
        elif node.data == "dotted_name" and len(names) == 2:
            add(names[1], f"{names[0].value}.{names[1].value}")
            add(names[0], meaning(names[0].value))
        else:
            for token in names:
                add(token, meaning(token.value))
    return found


_TREES: dict[tuple[str, str], Tree | None] = {}  # (text, start rule) -> its tree, None for a syntax error
MOST_TREES = 5_000  # declarations and snippets: those of two states of a large game's files


def parsed(text: str, start: str) -> Tree | None:
    """Lark's tree of a declaration or a snippet (never changed once made), parsed once per text."""
    key = (text, start)
    if key not in _TREES:
        if len(_TREES) >= MOST_TREES:
            _TREES.clear()
        try:
            _TREES[key] = parse_tree(text, start=start)
        except (LarkError, DedentError):
            _TREES[key] = None
    return _TREES[key]


def known_factions(known: set[str]) -> set[str]:
    return {name.split(".")[0] for name in known if "." in name}


def _plain_name(node) -> str | None:
    if isinstance(node, Tree) and node.data == "name" and isinstance(node.children[0], Token):
        return node.children[0].value
    return None


def _first_name(node: Tree) -> str | None:
    return next((c.value for c in node.children if isinstance(c, Token) and c.type == "NAME"), None)


def _declared_name(tree: Tree) -> str | None:
    for node in tree.iter_subtrees():
        if node.data in DECLARING:
            return _first_name(node)
    return None


def snippet_occurrences(source: str, file: Path, line: int, column: int, block: bool, value: bool,
                        meaning: Callable[[str], str | None], factions: set[str]) -> list[Occurrence]:
    """The game's names in rules code written in a YAML file: a piece's ability or function, a
    scenario's check, a bot's score. `line`, `column`: where the code starts in the file."""
    prefix = VALUE_PREFIX if value else ""
    tree = parsed(prefix + source.rstrip("\n") + "\n", "snippet")
    if tree is None:
        return []
    return tree_occurrences(tree, file, line - 1, column - 1 - len(prefix), block, meaning, factions)


# --- YAML files --------------------------------------------------------------------------------

def yaml_scalars(document, text: str) -> list[tuple[str, int, int, bool]]:
    """The one-line texts of a YAML document that may name something: (text, line, column, whether
    it is a key), lines and columns from 0. The values under a scenario's `choices` are left out:
    they are the words of options, not names."""
    lines = text.split("\n")
    found = []

    def scalar(value, line: int, column: int, key: bool = False) -> None:
        if not isinstance(value, str) or line >= len(lines) or "\n" in value:
            return
        start = lines[line].find(value, column)
        if start >= 0:
            found.append((value, line, start, key))

    def walk(node, labels: bool = False) -> None:
        if hasattr(node, "items") and hasattr(node, "lc"):
            for key, value in node.items():
                scalar(key, *node.lc.key(key), key=True)
                if not isinstance(value, str):
                    walk(value, labels or key == "choices")
                elif not labels:
                    scalar(value, *node.lc.value(key))
        elif isinstance(node, list) and hasattr(node, "lc"):
            for i, value in enumerate(node):
                if not isinstance(value, str):
                    walk(value, labels)
                elif not labels:
                    scalar(value, *node.lc.item(i))

    walk(document)
    return found


def yaml_occurrences(scalars: list[tuple[str, int, int, bool]], file: Path, known: set[str],
                     outside: dict[str, str] | None, skip_lines: set[int] = frozenset()) -> list[Occurrence]:
    """The game's names in a YAML file (its `yaml_scalars`): keys and values that are a whole name,
    and with `outside` (what each word means there, `outside_names`), names in the rules expressions
    of a scenario or a bot file. `skip_lines`: lines read otherwise (a piece's abilities)."""
    factions = known_factions(known)
    found = []
    for value, line, start, key in scalars:
        if line in skip_lines:
            continue
        decision = DECISION + value if DECISION + value in known else None
        name = decision if key and outside is not None else None  # a bot's or a scenario's keys name decisions
        name = name or (value if value in known else decision)
        if name:
            found.append(Occurrence(name, file, line + 1, start + 1, len(value)))
        elif outside is not None and WORD.search(value):
            found.extend(snippet_occurrences(value, file, line + 1, start + 1, False, True, outside.get, factions))
    return found


def outside_names(known: set[str]) -> dict[str, str]:
    """The game's name each word written outside the rules means: itself, or `red.stash` for
    `stash` if only faction red's file declares one (as scenarios and bots read it)."""
    short: dict[str, list[str]] = defaultdict(list)
    for name in known:
        if "." in name:
            short[name.split(".", 1)[1]].append(name)
    meanings = {word: names[0] for word, names in short.items() if len(names) == 1 and word not in known}
    return meanings | {name: name for name in known}
