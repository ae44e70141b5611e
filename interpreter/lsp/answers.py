"""What the language server answers about a place in a file: the name or word there, its hover
text, its completions. Plain data (lines and columns from 1, as diagnostics count); the server
turns it into LSP's types."""
from __future__ import annotations

import re
from pathlib import Path

from interpreter.diagnostics.diagnostic import loaded_text
from interpreter.language.builtins import BUILTINS, COMPONENT_ATTRIBUTES
from interpreter.language.grammar import reserved_words
from interpreter.lsp.names import DECISION, WORD, Occurrence
from interpreter.lsp.project import Project
from interpreter.lsp.reference import builtin_lines, keyword_sections

def word_at(text: str, line: int, column: int) -> tuple[str, int] | None:
    """The word at (line, column) of `text`, and the column it starts at."""
    lines = text.split("\n")
    if not 0 < line <= len(lines):
        return None
    for match in WORD.finditer(lines[line - 1]):
        if match.start() + 1 <= column <= match.end() + 1:
            return match.group(), match.start() + 1
    return None


def occurrence_at(project: Project, file: Path, text: str, line: int, column: int) -> Occurrence | None:
    """The game's name at this place: from the index, or (while the index lags behind an edit)
    the name spelt there."""
    found = project.index.at(file, line, column)
    if found:
        return found
    word = word_at(text, line, column)
    if word and word[0] in reserved_words():  # `first(...)`: the quantifier, not a decision called `first`
        return None
    for name in (word[0], DECISION + word[0]) if word else ():
        if name in project.index.by_name:
            return Occurrence(name, file, line, word[1], len(word[0]))
    return None


def hover(project: Project, file: Path, text: str, line: int, column: int) -> str | None:
    """Markdown: a game name's kind and declaration, a keyword's reference section, a built-in's line."""
    occurrence = occurrence_at(project, file, text, line, column)
    if occurrence:
        return describe(project, occurrence.name)
    word = word_at(text, line, column)
    if not word:
        return None
    if word[0] in BUILTINS:
        return builtin_lines()[word[0]]
    return keyword_sections().get(word[0])


def describe(project: Project, name: str) -> str:
    what = project.kinds_of_names.get(name, "name")
    lines = [f"**{name.removeprefix(DECISION)}**: {what}"]
    declaration = project.index.declaration(name)
    if declaration:
        source = (loaded_text(str(declaration.file)) or "").split("\n")
        if 0 < declaration.line <= len(source):
            comments = _comments_above(source, declaration.line - 1)
            fence = "ludolex" if declaration.file.suffix == ".rules" else "yaml"
            lines += ["", f"```{fence}", *comments, source[declaration.line - 1].rstrip(), "```"]
        lines.append(f"\n{declaration.file.name}:{declaration.line}")
    content = project.stages.content if project.stages else None
    if what == "kind" and content and name in content.pieces:
        kind = content.pieces[name]
        facts = [f"traits: {', '.join(kind.traits)}" if kind.traits else "",
                 f"properties: {', '.join(f'{k} = {v}' for k, v in kind.properties.items())}" if kind.properties else "",
                 f"abilities: {', '.join(kind.abilities)}" if kind.abilities else "",
                 f"starts in: {kind.starts_in}"]
        lines += ["", *(f"- {fact}" for fact in facts if fact)]
    return "\n".join(lines)


def _comments_above(source: list[str], index: int) -> list[str]:
    """The comment lines right above a declaration: what its author says of it."""
    above = []
    while index > 0 and source[index - 1].lstrip().startswith("#"):
        index -= 1
        above.insert(0, source[index].rstrip())
    return above


def completions(project: Project, file: Path, text: str, line: int, column: int) -> list[tuple[str, str, str]]:
    """(label, what it is, its documentation) for what may be written here: after `x.`, the
    properties; after `is` (or `is not`), the kinds of pieces and the traits; in a rules file,
    keywords, built-ins and the game's names; in YAML, the game's names."""
    before = text.split("\n")[line - 1][: column - 1] if 0 < line <= text.count("\n") + 1 else ""
    names = project.kinds_of_names
    if re.search(r"\bis(\s+not)?\s+[A-Za-z_]*$", before):  # `c is KIND`, `c is not TRAIT`
        return [(name, what, "") for name, what in sorted(names.items()) if what in ("kind", "trait")]
    if re.search(r"\.\s*[A-Za-z_]*$", before):  # an attribute
        attributes = {**{a: "attribute of every component" for a in COMPONENT_ATTRIBUTES},
                      **{n: w for n, w in names.items() if w == "property" or w == "attribute of locations"}}
        return [(name, what, "") for name, what in sorted(attributes.items())]
    found = [(_written(name, file, project), what, "") for name, what in sorted(names.items())]
    if file.suffix == ".rules":
        found += [(name, "built-in function", builtin_lines()[name]) for name in sorted(BUILTINS)]
        found += [(word, "keyword", keyword_sections().get(word, "")) for word in sorted(reserved_words())]
    return list(dict.fromkeys(found))


def _written(name: str, file: Path, project: Project) -> str:
    """How a name is written in this file: unqualified in its own faction's file."""
    name = name.removeprefix(DECISION)
    if "." not in name:
        return name
    faction, short = name.split(".", 1)
    declaration = project.index.declaration(name)
    return short if declaration and declaration.file == file else name
