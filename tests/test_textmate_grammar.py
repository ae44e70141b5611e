"""The TextMate grammar of editors/vscode (syntax highlighting) is the one tools/textmate_grammar.py makes from
grammar/ludolex.lark, and it colours every word of the language. Its patterns are run here with Python's `re`,
the way a TextMate engine runs them on each line: at each point the pattern that matches first wins, the
earlier pattern on a tie."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import textmate_grammar  # tools/, put on the path by conftest.py
from lark.lexer import PatternStr

from interpreter.language.builtins import BUILTINS
from interpreter.language.grammar import reserved_words
from interpreter.language.parser import DECLARATION

ROOT = Path(__file__).resolve().parents[1]
RULES_FILES = sorted((ROOT / "rulesets").glob("*/*.rules"))
KEYWORD_SCOPES = ("storage.type.declaration.", "keyword.", "constant.language.", "support.function.")


@pytest.fixture(scope="module")
def grammar() -> dict:
    return json.loads(textmate_grammar.OUTPUT.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def language_words() -> list[str]:
    """Every word of the Lark grammar: its quoted words and the words of its keyword terminals."""
    lark = textmate_grammar.lark_grammar()
    quoted = {t.pattern.value for t in lark.terminals
              if isinstance(t.pattern, PatternStr) and t.pattern.value.isalpha()}
    words = [w for t in textmate_grammar.keyword_terminals(lark) for w in textmate_grammar.words_of(t)]
    assert quoted <= set(words) and reserved_words() <= set(words)
    return words


def tokenize(grammar: dict, line: str) -> list[tuple[str, str | None]]:
    """The pieces of one line, each with its innermost scope (None for text no pattern matched)."""
    patterns = _flattened(grammar, grammar["patterns"])
    pieces, position = [], 0
    while position < len(line):
        found = _first_match(patterns, line, position)
        if found is None:
            pieces.append((line[position:], None))
            break
        pattern, match = found
        pieces.append((line[position:match.start()], None))
        if "begin" in pattern:
            position = _region(grammar, pattern, line, match, pieces)
        else:
            pieces += _captured(pattern, match)
            position = match.end()
    return [(text, scope) for text, scope in pieces if text]


def _flattened(grammar, patterns) -> list[dict]:
    found = []
    for pattern in patterns:
        if "include" in pattern:
            pattern = grammar["repository"][pattern["include"].removeprefix("#")]
        is_a_group = "match" not in pattern and "begin" not in pattern
        found += _flattened(grammar, pattern["patterns"]) if is_a_group else [pattern]
    return found


def _first_match(patterns, line, position, end: str | None = None):
    candidates = [({"end": end}, re.compile(end).search(line, position))] if end else []
    candidates += [(p, re.compile(p.get("match") or p["begin"]).search(line, position)) for p in patterns]
    matches = [(match.start(), order, pattern, match) for order, (pattern, match) in enumerate(candidates) if match]
    if not matches:
        return None
    _, _, pattern, match = min(matches, key=lambda m: m[:2])
    assert match.end() > match.start() or "end" in pattern, f"{pattern} matches nothing at column {position}"
    return pattern, match


def _captured(pattern, match) -> list[tuple[str, str | None]]:
    scope, pieces, position = pattern.get("name"), [], match.start()
    for group, capture in sorted(pattern.get("captures", {}).items()):
        start, end = match.span(int(group))
        if start >= 0:
            pieces += [(match.string[position:start], scope), (match.string[start:end], capture["name"])]
            position = end
    return pieces + [(match.string[position:match.end()], scope)]


def _region(grammar, pattern, line, begin, pieces) -> int:
    """A `begin`/`end` pattern that ends on its line (a text): its pieces; returns where it ends."""
    scope, inner = pattern["name"], _flattened(grammar, pattern.get("patterns", []))
    pieces.append((begin.group(), scope))
    position = begin.end()
    while True:
        found, match = _first_match(inner, line, position, end=pattern["end"])
        pieces.append((line[position:match.start()], scope))
        pieces.append((match.group(), scope if found.keys() == {"end"} else found["name"]))
        position = match.end()
        if found.keys() == {"end"}:
            return position


def scope_of(pieces, text: str) -> str | None:
    return next(scope for piece, scope in pieces if piece.strip() == text)


def test_the_grammar_is_the_one_the_lark_grammar_gives():
    assert textmate_grammar.OUTPUT.read_text(encoding="utf-8") == textmate_grammar.grammar_json(), (
        f"{textmate_grammar.OUTPUT.relative_to(ROOT)} is out of date with grammar/ludolex.lark: "
        f"run `.venv/bin/{textmate_grammar.REGENERATE}`")


def test_every_word_of_the_language_and_every_builtin_is_coloured(grammar, language_words):
    for word in language_words:
        pieces = tokenize(grammar, f"{word}(x)")
        assert pieces[0][0] == word and pieces[0][1].startswith(KEYWORD_SCOPES), (word, pieces)
    for name in BUILTINS:
        assert scope_of(tokenize(grammar, f"    let a = {name}(x)"), name) == "support.function.builtin.ludolex"


def test_a_word_the_language_does_not_have_is_not_a_keyword(grammar):
    """The check above would catch a keyword the TextMate grammar lacks: an unknown word is not coloured as one."""
    assert tokenize(grammar, "frobnicate(x)")[0] == ("frobnicate", "entity.name.function.call.ludolex")
    for name in ("orthogonal", "summary", "first_player", "order", "inside", "is_ready"):
        assert (f" {name} ", None) in tokenize(grammar, f"    let {name} = 1")


def test_every_pattern_compiles_with_python_re(grammar):
    for pattern in _flattened(grammar, grammar["patterns"]):
        for key in ("match", "begin", "end"):
            if key in pattern:
                re.compile(pattern[key])


def test_a_line_of_cernunos_gets_the_scopes_of_its_words(grammar):
    lines = (ROOT / "rulesets/cernunos/cernunos.rules").read_text(encoding="utf-8").splitlines()
    zone = tokenize(grammar, next(line for line in lines if line.startswith("zone reserve ")))
    assert [scope for _, scope in zone if scope] == [
        "storage.type.declaration.ludolex", "entity.name.type.ludolex", "keyword.control.ludolex",
        "keyword.control.ludolex", "keyword.control.ludolex", "comment.line.number-sign.ludolex"]
    assert zone[-1][0].startswith("# CN-5")
    power = tokenize(grammar, next(line for line in lines if line.startswith("function power(t)")))
    assert scope_of(power, "power") == "entity.name.function.ludolex"
    assert scope_of(power, "count") == "support.function.ludolex"
    assert scope_of(power, "in") == "keyword.operator.word.ludolex"
    assert scope_of(power, "beneath") == "support.function.builtin.ludolex"
    assert scope_of(power, "while") == "keyword.control.ludolex"
    assert scope_of(power, "owner") == "variable.other.property.ludolex"
    assert scope_of(power, "=") == "keyword.operator.ludolex"
    variable = tokenize(grammar, next(line for line in lines if line.startswith("variable current")))
    assert scope_of(variable, "current") == "variable.other.definition.ludolex"
    choose = tokenize(grammar, next(line for line in lines if line.strip() == "choose square in ready as first"))
    assert scope_of(choose, "first") is None  # a name here: `first(...)` is the quantifier
    assert scope_of(tokenize(grammar, "    if x is fire and top(s) = none:"), "none") == "constant.language.ludolex"


def test_texts_numbers_and_given_names_of_root(grammar):
    lines = (ROOT / "rulesets/root/alliance.rules").read_text(encoding="utf-8").splitlines()
    line = next(line for line in lines if '["craft", "mobilize", "train"]' in line)
    pieces = tokenize(grammar, line)
    assert [text for text, scope in pieces if scope == "string.quoted.double.ludolex"][:3] == ['"', "craft", '"']
    assert scope_of(pieces, "you") == "variable.language.ludolex"
    escaped = tokenize(grammar, r'    let a = "say \"hi\"" + -12')
    assert scope_of(escaped, r"\"") == "constant.character.escape.ludolex"
    assert scope_of(escaped, "12") == "constant.numeric.integer.ludolex"
    assert scope_of(escaped, "-") == "keyword.operator.ludolex"


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_declaration_and_comment_of_a_ruleset_is_coloured(grammar, path):
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        pieces = tokenize(grammar, line)
        where = f"{path.name}:{number}: {line}"
        if line.lstrip().startswith("#"):
            assert pieces[-1] == (line.lstrip(), "comment.line.number-sign.ludolex"), where
        elif line[:1].isalpha():
            declaration = DECLARATION.match(line)
            assert declaration, where
            opening = line[:declaration.end(1)]
            assert pieces[0] == (opening, "storage.type.declaration.ludolex"), where
            if declaration.group(2) and opening not in ("when", "setup", "play"):
                name, scope = pieces[2]  # after the opening words and a blank
                assert name.split(".")[0] == declaration.group(2), where
                assert scope.startswith(("entity.name.", "variable.other.definition.")), where


def test_the_given_names_are_those_of_the_language_reference():
    reference = (ROOT / "docs/language.md").read_text(encoding="utf-8")
    given = re.search(r"\*\*Given names\.\*\* (.*?) are given by the language", reference).group(1)
    assert set(re.findall(r"`(\w+)`", given)) == set(textmate_grammar.GIVEN_NAMES)
