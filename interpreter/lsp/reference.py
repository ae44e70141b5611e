"""The language's reference text for hover and completion, read from docs/language.md: the section
of each keyword (its `### ` heading names it) and the table row of each built-in function."""
from __future__ import annotations

import re
from functools import lru_cache

from interpreter.language.builtins import BUILTINS
from interpreter.language.grammar import reserved_words
from interpreter.safety.files import resource_path

MOST_LINES = 24  # of a section shown on hover: its opening and first example


@lru_cache(maxsize=1)
def keyword_sections() -> dict[str, str]:
    """Each keyword, and the reference section whose heading names it, or whose table gives its
    form (`count(x in L where C)`, that row first), or else that first writes it as code (Markdown)."""
    sections: dict[str, str] = {}
    keywords = reserved_words()
    found = re.findall(r"^### ([^\n]+)\n(.*?)(?=^#{2,3} |\Z)", _language_doc(), re.S | re.M)
    for heading, body in found:  # "if, elif, else": each part's first word is what the section is about
        for part in heading.split(","):
            word = part.split()[0].strip(":") if part.split() else ""
            if word in keywords:
                sections.setdefault(word, _shortened(f"**{heading}**\n\n{body.strip()}"))
    for word in keywords - set(sections):  # else the section whose table gives its form: a quantifier
        for heading, body in found:
            row = re.search(rf"^\| `({word}\(.*?\))` \| (.+?) \|", body, re.M)
            if row:
                sections[word] = _shortened(f"`{row[1]}`: {row[2]}\n\n**{heading}**\n\n{body.strip()}")
                break
    for word in keywords - set(sections):  # else the first section that writes it as code
        for heading, body in found:
            if re.search(rf"`([^`]*\W)?{word}\b", body):
                sections[word] = _shortened(f"**{heading}**\n\n{body.strip()}")
                break
    return sections


@lru_cache(maxsize=1)
def builtin_lines() -> dict[str, str]:
    """Each built-in function, and its line of the reference's table: `top(zone)`: what it gives."""
    rows = re.findall(r"^\| `(([a-z_]+)\(.*?\))` \| (.+?) \|$", _language_doc(), re.M)
    found = {name: f"`{signature}`: {gives}" for signature, name, gives in rows}
    return {name: found.get(name, f"`{name}(...)`, a built-in function") for name in BUILTINS}


def _shortened(text: str) -> str:
    lines = text.split("\n")
    if len(lines) <= MOST_LINES:
        return text
    cut = lines[:MOST_LINES]
    if sum(line.startswith("```") for line in cut) % 2:  # do not leave an example open
        cut.append("```")
    return "\n".join(cut + ["", "(more in docs/language.md)"])


@lru_cache(maxsize=1)
def _language_doc() -> str:
    try:
        return resource_path("docs", "language.md").read_text(encoding="utf-8")
    except OSError:  # an installation without the reference: hover says less
        return ""
