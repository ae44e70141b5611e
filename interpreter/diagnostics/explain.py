"""`ludolex explain CODE`: what a diagnostic code means, an example that produces it, and the fix.

The explanations are data, `explanations.yaml` beside this module (shipped in the wheel with the
package). Each entry has `meaning`, `wrong` (the lines of a file that produce the code), `right`
(the same lines corrected) and `fix`; `file` says which file the lines belong to (a rules file
unless it says otherwise). tests/test_explain.py builds every example into a small game and
checks that `wrong` reports the code and `right` does not.
"""
from __future__ import annotations

import re
import textwrap
from functools import cache
from pathlib import Path

from interpreter.diagnostics.codes import CODES
from interpreter.diagnostics.suggestions import did_you_mean, new_run

EXPLANATIONS = Path(__file__).resolve().with_name("explanations.yaml")

# Where the lines of an example go, as the explanation says it.
FILES = {
    "rules": "in a rules file (rulesets/<game>/*.rules)",
    "more_rules": "in another rules file of the game",
    "content": "in a content file (cards/<game>/*.yaml)",
    "manifest": "in the manifest (rulesets/<game>/game.yaml)",
    "scenario": "in a scenario file (rulesets/<game>/tests/*.yaml)",
    "bot": "in a bot file (rulesets/<game>/bots/*.yaml)",
    "command": "at the command line",
    "files": "among the files of the project",
}
FIELDS = ("meaning", "wrong", "right", "fix")
# An example may span several files: a line `# in the content:` starts the lines of another file.
PART = re.compile(r"# in (the rules|another rules file|the content|game\.yaml|a scenario|a bot):[ \t]*$")
PART_FILES = {"the rules": "rules", "another rules file": "more_rules", "the content": "content",
              "game.yaml": "manifest", "a scenario": "scenario", "a bot": "bot"}


class UnknownCode(LookupError):
    """A code that is not one of CODES; its message says so in one line, with a suggestion."""


@cache
def explanations() -> dict[str, dict]:
    """Every explanation, by code, read once from explanations.yaml (safe loading: plain data only)."""
    from ruamel.yaml import YAML

    data = YAML(typ="safe", pure=True).load(EXPLANATIONS.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{EXPLANATIONS.name}: a mapping of codes was expected")
    for code, entry in data.items():
        missing = [f for f in FIELDS if not isinstance(entry, dict) or not isinstance(entry.get(f), str)]
        if missing:
            raise ValueError(f"{EXPLANATIONS.name}: {code} has no {', '.join(missing)}")
        if entry.get("file", "rules") not in FILES:
            raise ValueError(f"{EXPLANATIONS.name}: {code}: `file: {entry['file']}` is not one of {', '.join(FILES)}")
    return data


def parts(entry: dict, example: str) -> list[tuple[str, str]]:
    """The files of an example (`wrong` or `right`): (what file, its lines), in order."""
    found: list[tuple[str, list[str]]] = [(entry.get("file", "rules"), [])]
    for line in entry[example].splitlines(keepends=True):
        part = PART.match(line)
        if part:
            found.append((PART_FILES[part[1]], []))
        else:
            found[-1][1].append(line)
    return [(file, "".join(lines)) for file, lines in found if "".join(lines).strip()]


def _where(entry: dict) -> str:
    """`, in a rules file` when an example is the lines of one file (the others say where each part goes)."""
    several = len(parts(entry, "wrong")) > 1 or len(parts(entry, "right")) > 1
    return "" if several else f", {FILES[entry.get('file', 'rules')]}"


def normalize(text: str) -> str:
    """The code as CODES writes it: `lx309`, `LX309` and `309` are all `LX309`; `lx1` is `LX001`."""
    written = text.strip().upper()
    digits = re.fullmatch(r"(?:LX)?(\d{1,3})", written)
    return f"LX{int(digits[1]):03d}" if digits else written


def known(text: str) -> str:
    """The code `text` names, or UnknownCode with a "did you mean"."""
    code = normalize(text)
    if code in CODES:
        return code
    new_run()  # a command of its own: the suggestion gets the whole budget
    suggestion = did_you_mean(code, CODES)
    shown = text.strip() or text
    raise UnknownCode(f"no diagnostic code `{shown}`" + (f"; {suggestion}" if suggestion
                      else f": the codes are {min(CODES)} to {max(CODES)} (`ludolex explain` lists them)"))


def _wrapped(text: str, first: str = "", width: int = 96) -> str:
    """The text's words in lines of at most `width` characters, the first line starting with `first`;
    a `code span` is never broken across two lines."""
    kept = re.sub(r"`[^`]*`", lambda span: span[0].replace(" ", "\0"), " ".join(text.split()))
    return textwrap.fill(kept, width, initial_indent=first, break_long_words=False,
                         break_on_hyphens=False).replace("\0", " ")


NOT_YET = "No explanation is written for this code yet: docs/language.md, section 8, says what it means."


Line = list[tuple[str, str]]  # a line of the explanation: runs of (text, rich style for a terminal)


def _lines(code: str, width: int) -> list[Line]:
    """The explanation of `code` (any spelling `normalize` accepts), its paragraphs wrapped to `width`."""
    code = known(code)
    severity, summary = CODES[code]
    colour = {"error": "red", "warning": "yellow"}.get(severity, "cyan")
    lines: list[Line] = [[(code, f"bold {colour}"), (f" ({severity})", colour), (f": {summary}", "")], []]
    entry = explanations().get(code)
    if entry is None:  # a code newer than its explanation (tests/test_explain.py fails until it is written)
        return lines + [[(NOT_YET, "")]]
    fix = _wrapped(entry["fix"], first="Fix: ", width=width).split("\n")
    return (lines + [[(line, "")] for line in _wrapped(entry["meaning"], width=width).split("\n")] + [[]]
            + [[("Wrong", "bold red"), (f"{_where(entry)}:", "")], []] + _example(entry["wrong"]) + [[]]
            + [[("Right", "bold green"), (":", "")], []] + _example(entry["right"]) + [[]]
            + [[("Fix:", "bold"), (fix[0].removeprefix("Fix:"), "")]] + [[(line, "")] for line in fix[1:]])


def _example(text: str) -> list[Line]:
    """An example's lines, indented; the lines saying which file a part goes in are dimmed."""
    return [[(f"    {line}", "dim" if PART.match(line) else "bold")] if line.strip() else []
            for line in text.rstrip("\n").split("\n")]


def explain(code: str, width: int = 96) -> str:
    """The explanation of `code` as plain text."""
    return "\n".join("".join(text for text, _ in line) for line in _lines(code, width))


def explain_for_terminal(code: str, width: int = 96):
    """The same explanation for rich to print on a terminal, in colour; code is never wrapped."""
    from rich.text import Text

    shown = Text(no_wrap=True, overflow="ignore")
    for i, line in enumerate(_lines(code, width)):
        shown.append("\n" if i else "")
        for text, style in line:
            shown.append(text, style=style)
    return shown


def listing() -> str:
    """Every code with its severity and what it means, one a line."""
    return "\n".join(f"{code}  {severity:<7}  {summary}" for code, (severity, summary) in CODES.items())
