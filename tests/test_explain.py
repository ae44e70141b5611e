"""`ludolex explain CODE`: every diagnostic code has an explanation, and every explanation's example is real.

Each example of interpreter/diagnostics/explanations.yaml is built into a small game, then validated:
the `wrong` lines must report the code (and no other), the `right` lines must not (nor any error). The
game is the toy game of tests/diagnostics/41-property-also-given-by-the-content without its mistake,
laid out as in a project: `rulesets/toy/` (game.yaml, toy.rules) and `cards/toy/` (its content).

How the lines are put into the toy game (the entry's `file`, or a line `# in the content:` and the
like inside an example, which starts the lines of another file):
- `rules` (the default): the lines are a rules file of the game. A declaration of theirs that the toy
  game has too (`zone supply`, `function stones`, `play:`) takes the place of the toy game's.
- `content`: a content file of the game. A top-level key (`players`, `board`) or piece kind of
  theirs takes the place of the toy game's.
- `manifest`: the game's `game.yaml`. `scenario`: a file of its `tests/`. `bot`: a file of its `bots/`.
- `command`: a command line: its last word is looked up as the command looks up a game.
- `files`: paths in the project (the folder of `rulesets/` and `cards/`); one ending in `/` is a folder.
With `kind: whole` the lines are the whole of the rules (or content), the toy game's left out; with
`kind: latin-1` the wrong lines are written in Latin-1, not UTF-8 (the right ones in UTF-8).
"""
from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from interpreter.content.manifest import find_ruleset
from interpreter.diagnostics.codes import CODES
from interpreter.diagnostics.errors import LudolexError
from interpreter.diagnostics.explain import FILES, explain, explain_for_terminal, explanations, normalize, parts
from interpreter.interfaces.cli import main
from interpreter.validation.validate import validate_ruleset

# Codes whose example cannot be built from a few lines: a case of the golden corpus (tests/diagnostics/,
# checked by test_diagnostics_corpus.py) produces each of them instead. Keep this short.
CHECKED_BY_THE_CORPUS = {  # code: (the case, why)
    "LX105": ("88-nested-too-deeply", "an expression nested more than 100 levels deep is a line of over a "
              "thousand characters: the explanation shows it shortened"),
    "LX106": ("100-rules-that-compile-to-too-much-code", "rules that compile to more than 20 million characters "
              "are a large game, not a few lines (the case lowers the limit): the explanation shows the command "
              "and the variable that raises the limit"),
    "LX211": ("103-yaml-nested-too-deeply", "a file past a limit of docs/limits.md is a megabyte long or 64 lists "
              "deep: the explanation shows it shortened"),
}
CORPUS = Path(__file__).resolve().parent / "diagnostics"

# --- the toy game --------------------------------------------------------------------------------

TOY_MANIFEST = "name: toy\ncontent: ../../cards/toy\n"
TOY_RULES = {  # its declarations, by what an example's declaration replaces
    "zone supply": "zone supply per player\n",
    "play": ("play:\n"
             "    turn red:\n"
             "        choose s in locations where top(s) = none as put\n"
             "        move first(x in pieces(supply(you))) to s\n"
             "    end game ranked by most stones\n"),
    "function stones": "function stones(p) = count(s in locations where top(s).owner = p)\n",
}
TOY_CONTENT = {  # its top-level keys and piece kinds, the same way
    "players": "players: [red, blue]\n",
    "board": "board:\n  grid: {columns: 3, rows: 2, connections: [orthogonal]}\n",
    "pieces stone": ("  stone:\n    per_player: 4\n    starts_in: supply\n    traits: [heavy]\n"
                     "    properties: {weight: 2}\n"),
}
DECLARATION = re.compile(r"(zone|variable|property|function|procedure|option)\s+(\w+)|(play|setup)\b")


def rules_keys(text: str) -> set[str]:
    keys = set()
    for line in text.splitlines():
        found = DECLARATION.match(line)
        if found:
            keys.add(found[3] or f"{found[1]} {found[2]}")
    return keys


def content_keys(text: str) -> set[str]:
    keys, top = set(), None
    for line in text.splitlines():
        if (found := re.match(r"([\w-]+)\s*:", line)):
            top = found[1]
            keys.add(top)
        elif top == "pieces" and (found := re.match(r"  ([\w-]+)\s*:", line)):
            keys.add(f"pieces {found[1]}")
    return keys


def toy_content(without: set[str]) -> str:
    top = [part for key, part in TOY_CONTENT.items() if " " not in key and key not in without]
    kinds = [part for key, part in TOY_CONTENT.items() if key.startswith("pieces ") and key not in without]
    return "".join(top) + ("pieces:\n" + "".join(kinds) if kinds else "")


def build(tmp_path: Path, entry: dict, example: str) -> Path:
    """The toy game, in a project of its own, with the example's lines in their place; its folder."""
    project = tmp_path / "project"
    game, cards = project / "rulesets" / "toy", project / "cards" / "toy"
    for folder in (game, cards):
        folder.mkdir(parents=True)
    files = dict(parts(entry, example))
    kind = entry.get("kind")

    def write(path: Path, text: str, as_example: bool = True) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        latin_1 = kind == "latin-1" and example == "wrong" and as_example  # the right one is saved as UTF-8
        path.write_bytes(text.encode("latin-1" if latin_1 else "utf-8"))

    write(game / "game.yaml", files.get("manifest", TOY_MANIFEST), as_example="manifest" in files)
    rules = files.get("rules", "")
    replaced = set(TOY_RULES) if kind == "whole" and rules else rules_keys(rules)
    if toy := "".join(text for key, text in TOY_RULES.items() if key not in replaced):
        write(game / "toy.rules", toy, as_example=False)
    if rules:
        write(game / "example.rules", rules)
    if "more_rules" in files:
        write(game / "other.rules", files["more_rules"])
    content = files.get("content", "")
    if toy := "" if kind == "whole" and content else toy_content(content_keys(content)):
        write(cards / "toy.yaml", toy, as_example=False)
    if content:
        write(cards / "example.yaml", content)
    if "scenario" in files:
        write(game / "tests" / "example.yaml", files["scenario"])
    if "bot" in files:
        write(game / "bots" / "example.yaml", files["bot"])
    for line in files.get("files", "").splitlines():
        path = line.split("#")[0].strip()
        if path.endswith("/"):
            (project / path).mkdir(parents=True, exist_ok=True)
        elif path:
            write(project / path, "")
    return game


def reported(tmp_path: Path, entry: dict, example: str) -> list:
    """The diagnostics of the toy game with the example's lines: (code, severity, message) of each."""
    game = build(tmp_path, entry, example)
    command = dict(parts(entry, example)).get("command")
    if command is None:
        return [(d.code, d.severity, d.message) for d in validate_ruleset(game)]
    previous = os.getcwd()
    os.chdir(game.parent.parent)  # a game is looked up in ./rulesets, as `ludolex test NAME` does
    try:
        find_ruleset(command.split()[-1])
        return []
    except LudolexError as error:
        return [(d.code, d.severity, d.message) for d in error.diagnostics]
    finally:
        os.chdir(previous)


# --- the tests -----------------------------------------------------------------------------------

def test_every_code_has_an_explanation_and_every_explanation_a_code():
    assert sorted(set(CODES) - set(explanations())) == []
    assert sorted(set(explanations()) - set(CODES)) == []
    assert set(CHECKED_BY_THE_CORPUS) <= set(CODES)


def test_every_entry_says_where_its_lines_go_and_has_its_parts():
    for code, entry in explanations().items():
        assert entry.get("file", "rules") in FILES, code
        assert entry.get("kind") in (None, "whole", "latin-1"), code
        assert entry["wrong"].strip() != entry["right"].strip(), f"{code}: wrong and right are the same"
        for part in ("meaning", "fix"):
            assert entry[part].strip().endswith((".", ")")), f"{code}: `{part}` is not written as sentences"


EXAMPLES = sorted(code for code in CODES if code not in CHECKED_BY_THE_CORPUS)


@pytest.mark.parametrize("code", EXAMPLES)
def test_the_wrong_example_reports_the_code_and_the_right_one_does_not(code, tmp_path):
    entry = explanations()[code]
    wrong = reported(tmp_path / "wrong", entry, "wrong")
    assert {c for c, _, _ in wrong} == {code}, f"{code}: the wrong example reports {wrong}"
    right = reported(tmp_path / "right", entry, "right")
    assert code not in {c for c, _, _ in right}, f"{code}: the right example still reports it: {right}"
    assert not [d for d in right if d[1] == "error"], f"{code}: the right example has errors: {right}"


def test_the_codes_left_to_the_corpus_are_few_and_each_has_its_case():
    assert len(CHECKED_BY_THE_CORPUS) <= 3
    for code, (case, _why) in CHECKED_BY_THE_CORPUS.items():
        expected = (CORPUS / case / "expected.txt").read_text(encoding="utf-8")
        assert f" {code}: " in expected, f"{code}: the corpus case {case} does not report it"


def test_codes_are_read_in_any_case_and_without_their_letters():
    assert normalize("lx309") == normalize(" LX309 ") == normalize("309") == "LX309"
    assert normalize("lx1") == "LX001"


def test_explain_prints_the_meaning_an_example_and_the_fix():
    text = explain("LX309")
    assert text.startswith("LX309 (error): `is` needs a kind of piece or a trait")
    assert "Wrong, in a rules file" in text and "Right:" in text and "Fix:" in text
    assert explanations()["LX309"]["wrong"].splitlines()[0] in text


def test_every_explanation_renders_in_a_terminal_too():
    console = Console(file=io.StringIO(), force_terminal=True, width=100)
    for code in CODES:
        console.print(explain_for_terminal(code))
    shown = console.file.getvalue()
    assert "LX309" in shown and "\x1b[" in shown  # in colour


def run(*args: str):
    return CliRunner().invoke(main, ["explain", *args])


def test_the_command_explains_a_code():
    result = run("LX309")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("LX309 (error)") and "Fix:" in result.output


def test_the_command_takes_a_code_in_lower_case_or_by_its_number():
    assert run("lx202").output == run("LX202").output == run("202").output
    assert run("lx202").exit_code == 0 and run("lx202").output.startswith("LX202 (error)")


def test_an_unknown_code_is_one_line_with_a_suggestion_and_exit_2():
    result = run("LX39")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: no diagnostic code `LX39`") and "did you mean `LX" in lines[0]


def test_something_that_is_not_a_code_at_all_is_refused_the_same_way():
    result = run("banana")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [result.output.strip()]
    assert "no diagnostic code `banana`" in result.output


def test_without_a_code_the_command_lists_them_all():
    result = run()
    assert result.exit_code == 0
    assert len(result.output.strip().splitlines()) == len(CODES)
    assert "LX309" in result.output and "LX401" in result.output
