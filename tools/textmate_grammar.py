"""Write the TextMate grammar of the rules language (syntax highlighting in editors) from the Lark grammar.

    python tools/textmate_grammar.py           # writes editors/vscode/syntaxes/ludolex.tmLanguage.json
    python tools/textmate_grammar.py --check   # exit status 1 if that file is not what the grammar gives

Every word of grammar/ludolex.lark gets a scope, chosen by how the grammar uses it:
- the words that open a declaration (`procedure`, `instead of`), at the start of a line, and the
  name the declaration gives (a function's if `(` follows it, a variable's if it gets a value with `=`);
- constants (`none`, `true`): a word that is a whole expression alone;
- word operators (`and`, `not`, `in`, `is`, `mod`): the words of an operator of expressions, written
  between its operands or before its one operand;
- words used like functions (`count(...)`, `sorted(...)`): a word followed by `(`;
- every other word is a keyword.
Built-in functions are those of interpreter/language/builtins.py. The patterns keep to the regular
expressions that Python's `re` and the Oniguruma of TextMate engines read alike, so that
tests/test_textmate_grammar.py can run them.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from lark import Lark
from lark.lexer import PatternRE, PatternStr, TerminalDef

from interpreter.language.builtins import BUILTINS
from interpreter.language.grammar import grammar_text

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "editors" / "vscode" / "syntaxes" / "ludolex.tmLanguage.json"
REGENERATE = "python tools/textmate_grammar.py"
SCOPE = "source.ludolex"
GIVEN_NAMES = ("you", "self", "players", "locations", "box")  # docs/language.md, section 3
DECLARATION_RULE, EXPRESSION_RULE = "decl", "expr"  # the grammar's rules for a declaration and an expression
PUNCTUATION = {"(": None, ")": None, "[": None, "]": None, ".": None,  # brackets: the editor's own colours
               ",": "punctuation.separator.comma", ":": "punctuation.separator.colon"}


@dataclass
class Vocabulary:
    """The words and symbols of the language, each by the part it plays."""
    declarations: dict[str, str | None]  # words opening a declaration -> scope of the name it gives
    constants: list[str]
    word_operators: list[str]
    function_words: list[str]
    keywords: list[str]
    symbols: list[str]  # operators written with symbols: `!=`, `+`...
    name: str  # the regular expression of a name, an integer and a comment
    integer: str
    comment: str


def lark_grammar() -> Lark:
    return Lark(grammar_text(), parser="lalr", start=["start", "snippet"])


def keyword_terminals(grammar: Lark) -> list[TerminalDef]:
    """Terminals that stand for words: a quoted word, or a regular expression given priority over names."""
    name_priority = _terminal(grammar, "NAME").priority
    return [t for t in grammar.terminals
            if (isinstance(t.pattern, PatternStr) and t.pattern.value.isidentifier())
            or (isinstance(t.pattern, PatternRE) and t.priority > name_priority)]


def words_of(terminal: TerminalDef) -> list[str]:
    """The words a keyword terminal stands for: `faction`; `public`, `private`, `hidden` for
    /(public|private|hidden)\\b/; `ties share` for /ties[ \\t]+share\\b/."""
    if isinstance(terminal.pattern, PatternStr):
        return [terminal.pattern.value]
    regex = terminal.pattern.value
    body = regex.removesuffix(r"\b")
    if body.startswith("(?:") and body.endswith(")"):  # a word of one declaration, still free as a name
        body = body[3:-1]
    elif body.startswith("(") and body.endswith(")"):
        body = body[1:-1]
    words = [re.sub(r"\[ (\t|\\t)\]\+", " ", alternative) for alternative in body.split("|")]  # blanks: a space
    if not all(re.fullmatch(r"[a-z]+( [a-z]+)*", word) and re.fullmatch(regex, word) for word in words):
        raise ValueError(f"terminal {terminal.name} /{regex}/ is not a list of words: teach "
                         f"tools/textmate_grammar.py to read it")
    return words


def vocabulary(grammar: Lark) -> Vocabulary:
    keywords = {t.name: words_of(t) for t in keyword_terminals(grammar)}
    alternatives: dict[str, list] = {}
    for rule in grammar.rules:
        alternatives.setdefault(rule.origin.name, []).append(rule)
    in_expressions = [rule for name in _reachable(alternatives, EXPRESSION_RULE) for rule in alternatives[name]]

    def words(symbols) -> list[str]:
        return [word for symbol in symbols if symbol.name in keywords for word in keywords[symbol.name]]

    constants = words(r.expansion[0] for r in in_expressions if len(r.expansion) == 1)
    word_operators = words(s for r in in_expressions if r.alias for s in _operator_words(r.expansion, keywords))
    function_words = words(s for r in grammar.rules for s, after in zip(r.expansion, r.expansion[1:])
                           if after.name == "LPAR")
    special = set(constants) | set(word_operators) | set(function_words)
    symbols = [t.pattern.value for t in grammar.terminals
               if isinstance(t.pattern, PatternStr) and not t.pattern.value.isidentifier()]
    return Vocabulary(
        declarations=_declarations(alternatives, keywords),
        constants=_unique(constants), word_operators=_unique(word_operators), function_words=_unique(function_words),
        keywords=_unique(w for ws in keywords.values() for w in ws if w not in special),
        symbols=[s for s in symbols if s not in PUNCTUATION],
        name=_terminal(grammar, "NAME").pattern.to_regexp(),
        integer=_terminal(grammar, "INT").pattern.to_regexp(),
        comment=_terminal(grammar, "COMMENT").pattern.to_regexp())


def _declarations(alternatives, keywords) -> dict[str, str | None]:
    """Each declaration's opening words (its leading keywords), and the scope of the name that follows them."""
    found: dict[str, str | None] = {}
    for choice in alternatives[DECLARATION_RULE]:
        for rule in alternatives[choice.expansion[0].name]:
            symbols = rule.expansion
            count = next(i for i, s in enumerate(symbols) if s.name not in keywords)
            leading = [keywords[s.name] for s in symbols[:count]]
            # a declaration opened by a keyword terminal of several words (`public`, `private`...) opens with any of them
            openings = leading[0] if len(leading) == 1 else [" ".join(w for words in leading for w in words)]
            scope = None
            if symbols[count].name in ("NAME", "dotted_name"):
                after = symbols[count + 1].name if count + 1 < len(symbols) else None
                scope = ("entity.name.function" if after == "LPAR"
                         else "variable.other.definition" if any(s.name == "EQUAL" for s in symbols)
                         else "entity.name.type")
            for opening in openings:
                found.setdefault(opening, scope)
    return found


def _operator_words(expansion, keywords):
    """The keywords of `operand word... operand` or `word... operand` (an operand is a rule or a name)."""
    def operand(symbol):
        return not symbol.is_term or symbol.name == "NAME"
    middle = expansion[1:-1] if operand(expansion[0]) else expansion[:-1]
    if len(expansion) > 1 and operand(expansion[-1]) and middle and all(s.name in keywords for s in middle):
        return middle
    return []


def _reachable(alternatives, start: str) -> list[str]:
    seen, todo = [start], [start]
    while todo:
        for rule in alternatives[todo.pop()]:
            for symbol in rule.expansion:
                if not symbol.is_term and symbol.name not in seen:
                    seen.append(symbol.name)
                    todo.append(symbol.name)
    return seen


def _terminal(grammar: Lark, name: str) -> TerminalDef:
    return next(t for t in grammar.terminals if t.name == name)


def _unique(words) -> list[str]:
    return sorted(set(words))


def _any_word(words) -> str:
    """A regular expression for any of these whole words (longest first; a space stands for blanks)."""
    spelled = [w.replace(" ", r"[ \t]+") for w in sorted(words, key=lambda w: (-len(w), w))]
    return rf"\b(?:{'|'.join(spelled)})\b"


def _scoped(scope: str) -> str:
    return f"{scope}.ludolex"


def textmate_grammar(words: Vocabulary) -> dict:
    name = words.name
    declarations = []
    for scope in sorted({s for s in words.declarations.values() if s}) + [None]:
        openings = [w for w, s in words.declarations.items() if s == scope]
        if scope is None:
            declarations.append({"match": f"^{_any_word(openings)}", "name": _scoped("storage.type.declaration")})
            continue
        declarations.append({
            "match": rf"^({_any_word(openings)})(?:[ \t]+({name}(?:\.{name})?))?",
            "captures": {"1": {"name": _scoped("storage.type.declaration")}, "2": {"name": _scoped(scope)}}})
    calls = r"(?=[ \t]*\()"
    symbols = "|".join(re.escape(s) for s in sorted(words.symbols, key=lambda s: (-len(s), s)))
    repository = {
        "comment": {"name": _scoped("comment.line.number-sign"), "match": words.comment},
        "string": {"name": _scoped("string.quoted.double"), "begin": '"', "end": '"|$',
                   "patterns": [{"name": _scoped("constant.character.escape"), "match": r"\\."}]},
        "declaration": {"patterns": declarations},
        "attribute": {"match": rf"(\.)[ \t]*({name})", "captures": {
            "1": {"name": _scoped("punctuation.accessor")}, "2": {"name": _scoped("variable.other.property")}}},
        "function-word": {"name": _scoped("support.function"), "match": _any_word(words.function_words) + calls},
        "builtin": {"name": _scoped("support.function.builtin"), "match": _any_word(BUILTINS) + calls},
        "constant": {"name": _scoped("constant.language"), "match": _any_word(words.constants)},
        "number": {"name": _scoped("constant.numeric.integer"), "match": rf"\b{words.integer}\b"},
        "word-operator": {"name": _scoped("keyword.operator.word"), "match": _any_word(words.word_operators)},
        "keyword": {"name": _scoped("keyword.control"), "match": _any_word(words.keywords)},
        "given-name": {"name": _scoped("variable.language"), "match": _any_word(GIVEN_NAMES)},
        "call": {"name": _scoped("entity.name.function.call"), "match": rf"\b{name}{calls}"},
        "operator": {"name": _scoped("keyword.operator"), "match": symbols},
        **{f"punctuation-{scope.rsplit('.', 1)[-1]}": {"name": _scoped(scope), "match": re.escape(symbol)}
           for symbol, scope in PUNCTUATION.items() if scope},
    }
    return {
        "$comment": f"Generated from grammar/ludolex.lark by `{REGENERATE}`: do not edit by hand.",
        "name": "ludolex",
        "scopeName": SCOPE,
        "fileTypes": ["rules"],
        "patterns": [{"include": f"#{key}"} for key in repository],  # in this order: the first wins a tie
        "repository": repository,
    }


def grammar_json() -> str:
    return json.dumps(textmate_grammar(vocabulary(lark_grammar())), indent=2) + "\n"


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--check", action="store_true", help="only check that the written grammar is up to date")
    options.add_argument("--output", type=Path, default=OUTPUT)
    arguments = options.parse_args(argv)
    text = grammar_json()
    if arguments.check:
        current = arguments.output.read_text(encoding="utf-8") if arguments.output.exists() else None
        if current != text:
            print(f"{arguments.output} is out of date with grammar/ludolex.lark: run `{REGENERATE}`")
            return 1
        print(f"{arguments.output} is up to date")
        return 0
    arguments.output.parent.mkdir(parents=True, exist_ok=True)
    arguments.output.write_text(text, encoding="utf-8")
    print(f"wrote {arguments.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
