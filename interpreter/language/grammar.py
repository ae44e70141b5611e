"""The language's grammar file (grammar/ludolex.lark), and the keywords it reserves."""
from __future__ import annotations

import re
from functools import lru_cache

from interpreter.safety.files import resource_path


@lru_cache(maxsize=1)
def grammar_text() -> str:
    return resource_path("grammar", "ludolex.lark").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def reserved_words() -> frozenset[str]:
    """The language's keywords, read from the grammar: no name may be one of them."""
    grammar = grammar_text()
    quoted = re.findall(r'"([a-z]+)"', grammar)
    alternatives = [w for group in re.findall(r"/\(([a-z|]+)\)\\b/", grammar) for w in group.split("|")]
    return frozenset(quoted + alternatives)
