"""docs/language.md documents every construct of the grammar with an example that parses.

Each ```ludolex block of the reference is parsed (as a whole file, or failing that as a block of
statements); every rule of grammar/ludolex.lark must appear in some example's parse tree.
"""
import re
from pathlib import Path

from lark import Tree

from interpreter.language.parser import parse_tree

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "language.md"


def examples() -> list[str]:
    return re.findall(r"```ludolex\n(.*?)```", REFERENCE.read_text(encoding="utf-8"), flags=re.S)


def rules_used(tree, found: set[str]) -> set[str]:
    if isinstance(tree, Tree):
        found.add(tree.data if isinstance(tree.data, str) else tree.data.value)
        for child in tree.children:
            rules_used(child, found)
    return found


def parse_example(text: str):
    try:
        return parse_tree(text, "start")
    except Exception:
        return parse_tree(text, "snippet")


def test_every_example_parses():
    for number, text in enumerate(examples(), 1):
        try:
            parse_example(text)
        except Exception as error:
            raise AssertionError(f"example {number} of docs/language.md does not parse:\n{text}\n{error}") from None


def test_every_grammar_rule_has_an_example():
    grammar = (ROOT / "grammar" / "ludolex.lark").read_text(encoding="utf-8")
    declared = set(re.findall(r"^[?!]?([a-z_]+):", grammar, flags=re.M))
    declared |= set(re.findall(r"->\s*([a-z_]+)", grammar))
    used: set[str] = set()
    for text in examples():
        rules_used(parse_example(text), used)
    inlined = {rule for rule in declared if re.search(rf"^\?{rule}:", grammar, flags=re.M)}
    missing = sorted(declared - used - inlined - {"start", "snippet"})
    assert not missing, f"grammar rules with no example in docs/language.md: {missing}"
