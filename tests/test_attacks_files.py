"""Hostile rulesets, as a stranger's pull request could bring them to a CI run of `ludolex validate`.

Each test builds a project in a temporary folder, a copy of Cernunos laid out as in the repo,

    <tmp>/project/.git                     (so the project root is <tmp>/project)
    <tmp>/project/rulesets/cernunos/       game.yaml, cernunos.rules, tests/ (two scenario files)
    <tmp>/project/cards/cernunos/          content
    <tmp>/secret.txt                       a file of the CI machine, outside the project

then plants one attack and checks that validation ends with a diagnostic (never a crash, a hang
or a traceback) and that nothing outside the project reaches any output format.
"""
from __future__ import annotations

import difflib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import processes
import pytest
from processes import CEILING

from interpreter.diagnostics.diagnostic import Diagnostic, Position
from interpreter.diagnostics.errors import LudolexError
from interpreter.diagnostics.formats import FORMATS, render
from interpreter.validation.schemas import write_schemas
from interpreter.validation.validate import validate_ruleset

ROOT = Path(__file__).resolve().parent.parent
SECRET = "SECRET-TOKEN-4242"
KEPT_SCENARIOS = {"cn_a_setup.yaml", "cn_a_power.yaml"}


@pytest.fixture
def game(tmp_path) -> Path:
    """The ruleset folder of a fresh project (see the module's docstring)."""
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)

    def other_scenarios(folder, names):
        return [n for n in names if Path(folder).name == "tests" and n not in KEPT_SCENARIOS]

    shutil.copytree(ROOT / "rulesets" / "cernunos", project / "rulesets" / "cernunos", ignore=other_scenarios)
    shutil.copytree(ROOT / "cards" / "cernunos", project / "cards" / "cernunos")
    (tmp_path / "secret.txt").write_text(f"{SECRET}\nkey: {SECRET}\n", encoding="utf-8")
    return project / "rulesets" / "cernunos"


def secret_file(game: Path) -> Path:
    return game.parent.parent.parent / "secret.txt"


def validate(folder: Path) -> list[Diagnostic]:
    try:
        return validate_ruleset(folder)
    except LudolexError as error:
        return error.diagnostics


def every_output(diagnostics: list[Diagnostic]) -> dict[str, str]:
    """What each format prints, and what `ludolex play` prints for a ruleset that does not load."""
    outputs = {fmt: render(diagnostics, fmt) for fmt in FORMATS}
    outputs["error"] = str(LudolexError(diagnostics))
    return outputs


def assert_no_secret(diagnostics: list[Diagnostic]) -> None:
    for fmt, output in every_output(diagnostics).items():
        assert SECRET not in output, f"{fmt} output shows the secret:\n{output}"


def with_code(diagnostics: list[Diagnostic], code: str) -> list[Diagnostic]:
    return [d for d in diagnostics if d.code == code]


def ludolex(*args, env: dict | None = None, timeout: float = CEILING) -> subprocess.CompletedProcess:
    """The real command line, in a new process (a crash shows as a negative return code)."""
    script = Path(sys.executable).parent / "ludolex"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "interpreter"]
    return processes.run(command + [str(a) for a in args], capture_output=True, text=True, timeout=timeout,
                         env={**os.environ, **(env or {})}, cwd=ROOT)


class Timeout(BaseException):
    pass


@contextmanager
def time_limit(seconds: float):
    def expire(signum, frame):
        raise Timeout()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --- finding 2: files outside the project --------------------------------------------------

LINKED_FILES = {
    "rules": "extra.rules",
    "content": "../../cards/cernunos/extra.yaml",
    "scenario": "tests/extra.yaml",
    "bot": "bots/extra.yaml",
    "manifest": "game.yaml",
}


@pytest.mark.parametrize("where", LINKED_FILES)
def test_a_link_to_a_file_outside_the_project_is_refused_and_not_quoted(game, where):
    link = game / LINKED_FILES[where]
    link.parent.mkdir(exist_ok=True)
    if link.exists():
        link.unlink()
    link.symlink_to(secret_file(game))
    diagnostics = validate(game)
    refused = with_code(diagnostics, "LX209")
    assert refused and all(Path(d.position.file).name == link.name for d in refused), diagnostics
    assert all(d.position.line == 1 and d.position.column == 1 for d in refused)
    assert_no_secret(diagnostics)


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="no /proc")
@pytest.mark.parametrize("fmt", ["text", "github"])
def test_a_link_to_proc_self_environ_prints_no_environment(game, fmt):
    (game / "environ.rules").symlink_to("/proc/self/environ")
    result = ludolex("validate", game, "--format", fmt, env={"LUDOLEX_TEST_SECRET": SECRET})
    assert result.returncode == 1 and "LX209" in result.stdout and "environ.rules" in result.stdout
    assert SECRET not in result.stdout + result.stderr


def test_a_linked_content_folder_leading_outside_is_refused_at_the_manifest_entry(game):
    outside = game.parent.parent.parent / "outside_cards"
    shutil.move(game.parent.parent / "cards" / "cernunos", outside)
    (outside / "stolen.yaml").symlink_to(secret_file(game))
    (game.parent.parent / "cards" / "cernunos").symlink_to(outside)
    diagnostics = validate(game)
    assert [(d.code, Path(d.position.file).name, d.position.line, d.position.column)
            for d in with_code(diagnostics, "LX209")] == [("LX209", "game.yaml", 4, 10)]
    assert_no_secret(diagnostics)


def test_a_linked_tests_folder_leading_outside_is_refused_per_file(game):
    outside = game.parent.parent.parent / "outside_tests"
    outside.mkdir()
    (outside / "stolen.yaml").write_text(f"{SECRET}: 1\n", encoding="utf-8")
    shutil.rmtree(game / "tests")
    (game / "tests").symlink_to(outside)
    diagnostics = validate(game)
    assert [(d.code, Path(d.position.file).name) for d in diagnostics] == [("LX209", "stolen.yaml")]
    assert_no_secret(diagnostics)


@pytest.mark.parametrize("key, entry", [
    ("content", "../../../outside"),
    ("content", "ABSOLUTE/outside"),
    ("content", "[../../cards/cernunos, ../../../outside/stolen.yaml]"),
    ("rules", "[../../../outside]"),
])
def test_a_manifest_path_leaving_the_project_is_refused_at_its_entry(game, key, entry):
    outside = game.parent.parent.parent / "outside"
    outside.mkdir()
    (outside / "stolen.yaml").write_text(f"players: [{SECRET}]\n{SECRET}: x\n", encoding="utf-8")
    (outside / "stolen.rules").write_text(f"{SECRET} {SECRET}\n", encoding="utf-8")
    entry = entry.replace("ABSOLUTE", str(outside.parent))
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    text = re.sub(r"^content:.*$", f"content: {entry}" if key == "content" else "content: ../../cards/cernunos",
                  text, flags=re.M)
    if key == "rules":
        text += f"rules: {entry}\n"
    manifest.write_text(text, encoding="utf-8")
    diagnostics = validate(game)
    refused = with_code(diagnostics, "LX209")
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith(f"{key}:"))
    assert [(Path(d.position.file).name, d.position.line) for d in refused] == [("game.yaml", line)], diagnostics
    assert_no_secret(diagnostics)


def test_without_git_the_project_is_the_folder_above_rulesets(game):
    (game.parent.parent / ".git").rmdir()
    (game / "extra.rules").symlink_to(secret_file(game))
    assert [d.code for d in validate(game)] == ["LX209"]


def test_links_inside_the_game_are_followed(game):
    (game / "lib").mkdir()
    shutil.move(game / "cernunos.rules", game / "lib" / "cernunos.rules")
    (game / "cernunos.rules").symlink_to(Path("lib") / "cernunos.rules")
    assert validate(game) == []


def test_a_folder_elsewhere_in_the_project_is_read_once_the_manifest_names_it(game):
    shared = game.parent.parent / "shared"
    shared.mkdir()
    shutil.move(game / "cernunos.rules", shared / "cernunos.rules")
    (game / "cernunos.rules").symlink_to(Path("..") / ".." / "shared" / "cernunos.rules")
    assert [d.code for d in validate(game)] == ["LX209"]
    (game / "cernunos.rules").unlink()
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "rules: [../../shared]\n", encoding="utf-8")
    assert validate(game) == []


def test_a_folder_named_like_a_yaml_file_is_not_read(game):
    (game.parent.parent / "cards" / "cernunos" / "more.yaml").mkdir()
    diagnostics = validate(game)
    assert [(d.code, Path(d.position.file).name) for d in diagnostics] == [("LX210", "more.yaml")]


def test_a_fifo_is_not_read(game):
    os.mkfifo(game.parent.parent / "cards" / "cernunos" / "pipe.yaml")
    result = ludolex("validate", game)
    assert result.returncode == 1, result.stderr
    assert "pipe.yaml:1:1: error LX210" in result.stdout and "Traceback" not in result.stderr


def test_a_file_over_the_size_limit_is_not_read(game):
    largest = max(p.stat().st_size for p in game.parent.parent.rglob("*") if p.is_file())
    (game / "big.rules").write_text("# padding\n" * (largest // 10 + 2), encoding="utf-8")
    result = ludolex("validate", game, env={"LUDOLEX_FILE_BYTES": str(largest + 5)})
    assert result.returncode == 1, result.stderr
    assert "big.rules:1:1: error LX211" in result.stdout and "LUDOLEX_FILE_BYTES" in result.stdout
    assert result.stdout.count("error LX") == 1


def test_the_text_renderer_never_opens_a_file_named_in_a_diagnostic(game):
    diagnostics = [Diagnostic("LX302", "unknown name", Position(str(secret_file(game)), 1, 1))]
    assert_no_secret(diagnostics)
    assert SECRET not in diagnostics[0].render()


# --- finding 4: nesting ---------------------------------------------------------------------

DEEP = 30_000


@pytest.mark.parametrize("style", ["flow", "block"])
def test_a_scenario_nested_30000_deep_is_an_error_not_a_crash(game, style):
    nested = "[" * DEEP + "]" * DEEP if style == "flow" else "\n        " + "- " * DEEP + "x"
    text = "scenarios:\n- name: deep\n  rules: [CN-1]\n  expect:\n    values:\n      v: " + nested + "\n"
    (game / "tests" / "deep.yaml").write_text(text, encoding="utf-8")
    result = ludolex("validate", game)
    assert result.returncode == 1, (result.returncode, result.stderr[-2000:])
    assert re.search(r"deep\.yaml:\d+:\d+: error LX211: .*nested", result.stdout), result.stdout
    assert "Traceback" not in result.stderr
    assert len(result.stdout) < 5_000  # the 60,000-character line is quoted cut around the caret


@pytest.mark.parametrize("target", ["tests/deep.yaml", "../../cards/cernunos/deep.yaml"], ids=["scenario", "content"])
@pytest.mark.parametrize("text, line, column", [
    ("a: " + "[" * 70 + "]" * 70 + "\n", 1, 67),
    ("a: " + "{k: " * 70 + "x" + "}" * 70 + "\n", 1, 67 + 3 * 63),
    ("a:\n" + "".join(" " * (2 * i + 2) + f"k{i}:\n" for i in range(70)) + " " * 142 + "x\n", 65, 129),
    ("a:\n" + "- " * 70 + "x\n", 2, 127),
], ids=["flow-sequences", "flow-mappings", "block-mappings", "block-sequences"])
def test_nesting_deeper_than_the_limit_is_reported_where_it_gets_too_deep(game, target, text, line, column):
    (game / target).write_text(text, encoding="utf-8")
    diagnostics = [d for d in validate(game) if Path(d.position.file).name == "deep.yaml"]
    assert [(d.code, d.position.line, d.position.column) for d in diagnostics] == [("LX211", line, column)]
    assert "nested" in diagnostics[0].message and "LUDOLEX_YAML_DEPTH" in diagnostics[0].message


# --- finding 5: aliases, merges, suggestions ------------------------------------------------

def alias_bomb(levels: int, width: int) -> str:
    """A "billion laughs": a few hundred bytes of YAML whose aliases expand to width ** levels items."""
    return "[&b0 lol, " + ", ".join(f"&b{n} [" + ", ".join([f"*b{n - 1}"] * width) + "]"
                                    for n in range(1, levels + 1)) + "]"


@pytest.mark.parametrize("target, text", [
    ("../../cards/cernunos/bomb.yaml", "pieces:\n  bomb:\n    count: 1\n    starts_in: reserve\n"
                                       "    properties: {p: " + alias_bomb(9, 10) + "}\n"),
    ("tests/bomb.yaml", "scenarios:\n- name: x\n  rules: [A]\n  expect:\n    values: {v: " + alias_bomb(9, 10) + "}\n"),
    ("bots/bomb.yaml", "all: {place: x}\ndescription: " + alias_bomb(9, 10) + "\n"),
], ids=["content", "scenario", "bot"])
def test_an_alias_bomb_is_refused_before_it_is_expanded(game, target, text):
    (game / target).parent.mkdir(exist_ok=True)
    (game / target).write_text(text, encoding="utf-8")
    result = ludolex("validate", game, "--format", "json")
    assert result.returncode == 1, result.stderr[-2000:]
    found = [json.loads(line) for line in result.stdout.splitlines()]
    bombs = [d for d in found if d["file"].endswith("bomb.yaml")]
    assert [d["code"] for d in bombs] == ["LX211"] and "LUDOLEX_YAML_VALUES" in bombs[0]["message"]
    assert bombs[0]["line"] >= 1 and bombs[0]["column"] > 1


def test_a_chain_of_merge_keys_is_refused_before_it_is_built(game):
    maps = "".join(f"  m{i}: &m{i} {{<<: *m{i - 1}, k{i}: 1}}\n" if i else "  m0: &m0 {k0: 1}\n" for i in range(1500))
    (game / "tests" / "merges.yaml").write_text("defaults:\n  position:\n    variables:\n" + maps.replace("  m", "      m"),
                                                encoding="utf-8")
    with time_limit(120):  # a ceiling against a hang, not a measure of speed
        diagnostics = validate(game)
    assert [d.code for d in diagnostics] == ["LX211"]


def test_a_value_that_contains_itself_is_refused(game):
    (game / "tests" / "loop.yaml").write_text(
        "scenarios:\n- name: x\n  rules: [A]\n  position: {variables: {v: &a [*a]}}\n  expect: {}\n", encoding="utf-8")
    diagnostics = validate(game)
    assert [(d.code, d.position.line, d.position.column) for d in diagnostics] == [("LX202", 4, 33)]


def test_suggestions_stay_cheap_with_many_unknown_names(game):
    names = 1000  # was 21 s: each unknown name compared with every declared one
    (game / "many.rules").write_text("".join(f"variable name_number_{i} = missing_number_{i}\n" for i in range(names)),
                                     encoding="utf-8")
    compared = []
    close_matches = difflib.get_close_matches

    def counting(word, possibilities, *args, **kwargs):
        compared.append(len(possibilities))
        return close_matches(word, possibilities, *args, **kwargs)

    with mock.patch("difflib.get_close_matches", counting):
        diagnostics = validate(game)
    # a guard against the quadratic search coming back: a million comparisons, each name with every one
    assert sum(compared) < 100_000
    assert len(with_code(diagnostics, "LX302")) == names
    assert diagnostics[0].hint == "did you mean `name_number_0`?"


# --- finding 8: bots ------------------------------------------------------------------------

def test_validate_reports_a_bot_file_with_an_unknown_key(game):
    (game / "bots").mkdir(exist_ok=True)
    (game / "bots" / "broken.yaml").write_text("description: x\nal:\n  place: '1'\n", encoding="utf-8")
    assert [(d.code, Path(d.position.file).name, d.position.line, d.position.column) for d in validate(game)] \
        == [("LX203", "broken.yaml", 2, 1)]


def test_validate_reports_mistakes_in_a_bot_file_expressions(game):
    (game / "bots").mkdir(exist_ok=True)
    (game / "bots" / "broken.yaml").write_text(
        "all:\n  place: count(x in pieces(square) where x.colour = you)\n  nothing_asked: '1'\n"
        "passing: {plaec: 1}\n", encoding="utf-8")
    found = [(d.code, Path(d.position.file).name, d.position.line) for d in validate(game)]
    assert ("LX302", "broken.yaml", 3) in found and ("LX302", "broken.yaml", 4) in found
    assert ("LX308", "broken.yaml", 2) in found, found


def test_a_bot_value_that_is_not_a_number_is_reported(game):
    """Found by tools/fuzz.py: a text as a bot's value validated clean, then stopped the game."""
    (game / "bots").mkdir(exist_ok=True)
    (game / "bots" / "texts.yaml").write_text(
        "all:\n  place: '\"north\"'\n  grow: size(reserve(you)) > 2\n", encoding="utf-8")
    found = [(d.code, Path(d.position.file).name, d.position.line, d.message) for d in validate(game)]
    assert found == [("LX323", "texts.yaml", 2, "the bot's value of `place` must be a number, not a text")], found


def test_a_good_bot_file_passes_validate():
    assert [d for d in validate(ROOT / "rulesets" / "root") if d.severity != "note"] == []


def test_schema_writes_one_for_bot_files(tmp_path):
    written = {p.name: p for p in write_schemas(tmp_path)}
    schema = json.loads(written["ludolex-bot.schema.json"].read_text(encoding="utf-8"))
    assert {"description", "all", "players", "passing"} <= set(schema["properties"])


# --- finding 10: output hygiene --------------------------------------------------------------

INJECTIONS = ["a\n::error::pwned", "x\n::add-mask::hidden", "b\r\n  ::warning file=x::pwned", "c ##[error]pwned",
              "d\x1b[31mred\x1b[0m\u2028::error::sep", "::error::e"]


def assert_no_injection(diagnostics: list[Diagnostic]) -> None:
    for fmt, output in every_output(diagnostics).items():
        lines = output.split("\n")
        for line in lines:
            assert "##[" not in line, f"{fmt}: {line!r}"
            assert "\r" not in line and "\x1b" not in line and "\u2028" not in line, f"{fmt}: {line!r}"
            if fmt == "github":
                assert re.match(r"::(error|warning) file=[^:,]*,line=\d+,col=\d+,endColumn=\d+,title=LX\d{3}::", line), line
            else:
                assert not line.lstrip().startswith("::"), f"{fmt}: {line!r}"
        if fmt == "github":
            assert len(lines) == len(diagnostics)


@pytest.mark.parametrize("name", INJECTIONS)
def test_a_yaml_key_cannot_inject_workflow_commands(game, name):
    tokens = game.parent.parent / "cards" / "cernunos" / "tokens.yaml"
    text = tokens.read_text(encoding="utf-8").replace("pieces:\n", f"pieces:\n  {json.dumps(name)}:\n"
                                                      "    count: 1\n    starts_in: reserve\n", 1)
    tokens.write_text(text, encoding="utf-8")
    diagnostics = validate(game)
    assert diagnostics and diagnostics[0].code == "LX205"
    assert_no_injection(diagnostics)
    if "\n" in name:
        assert "\\n" in render(diagnostics, "text")


@pytest.mark.parametrize("line", ["::error file=a.rules,line=1::pwned", "  ::add-mask::x", "zone z = ##[error]pwned",
                                  "zone \x1b]0;title\x07 z"])
def test_a_quoted_source_line_cannot_inject_workflow_commands(game, line):
    (game / "inject.rules").write_text(f"{line}\n", encoding="utf-8")
    diagnostics = validate(game)
    assert any(Path(d.position.file).name == "inject.rules" for d in diagnostics)
    assert_no_injection(diagnostics)
    assert "\\x1b" in render(diagnostics, "text") or "\x1b" not in line


def test_a_file_name_cannot_inject_workflow_commands(game):
    name = "x\n::error::pwned ##[error]y.rules"
    (game / name).write_text("zone zone zone\n", encoding="utf-8")
    diagnostics = validate(game)
    assert diagnostics
    assert_no_injection(diagnostics)


def test_a_scenario_expecting_the_value_of_an_unknown_name_is_an_error_not_a_crash(game):
    """Found by tools/fuzz.py: `expect: values:` was evaluated only when the scenario ran, where an
    unknown name raised a ValueError out of the runner."""
    from interpreter.loading.stages import load_ruleset
    from interpreter.scenarios.run import ScenarioFailure, run_scenario
    from interpreter.scenarios.files import load_scenarios

    scenario = game / "tests" / "cn_a_setup.yaml"
    text = scenario.read_text(encoding="utf-8").replace('"held(purple)": 0}', '"held(purple)": 0, from: purple}', 1)
    scenario.write_text(text, encoding="utf-8")
    (unknown,) = [d for d in validate(game) if d.code == "LX302"]
    assert unknown.position.file == str(scenario) and "`from`" in unknown.message
    first = load_scenarios(scenario)[0]
    with pytest.raises(ScenarioFailure, match="from: "):
        run_scenario(load_ruleset(game), first.scenario)


def test_a_scenario_expecting_what_a_player_sees_of_an_unknown_name_or_a_number_is_an_error_not_a_crash(game):
    """Found by tools/fuzz.py: `expect: sees:` was neither checked by `validate` nor guarded when the
    scenario ran, where an unknown name raised a ValueError out of the runner."""
    from interpreter.loading.stages import load_ruleset
    from interpreter.scenarios.run import ScenarioFailure, run_scenario
    from interpreter.scenarios.files import load_scenarios

    scenario = game / "tests" / "sees.yaml"
    scenario.write_text("scenarios:\n- name: sees\n  rules: [CN-1]\n  expect:\n    sees:\n"
                        "      green: {nowhere: true, '1': true, 'reserve(green)': true}\n      grey: {burned: true}\n",
                        encoding="utf-8")
    problems = [d for d in validate(game) if d.position and d.position.file == str(scenario)]
    assert sorted((d.code, d.position.line) for d in problems) == [("LX302", 6), ("LX327", 7)], problems
    with pytest.raises(ScenarioFailure) as failed:
        run_scenario(load_ruleset(game), load_scenarios(scenario)[0].scenario)
    assert "nowhere: " in str(failed.value) and "1: `sees` names a zone or a component, but this gives 1" in str(failed.value)


def characters_parsed(monkeypatch) -> list[int]:
    """The length of each text the rules parser parses from now on."""
    from interpreter.language import parser

    parsed, parse_tree = [], parser.parse_tree

    def counted(source, start="start"):
        parsed.append(len(source))
        return parse_tree(source, start)

    monkeypatch.setattr(parser, "parse_tree", counted)
    return parsed


def test_many_long_declarations_with_a_missing_keyword_are_parsed_again_a_bounded_number_of_times(monkeypatch):
    # Each error's hint ("is `each` missing?") parses its declaration again once per expected keyword:
    # a fuzzed file of 300 KB took 16 s to validate. The ruleset's budget bounds that work.
    from interpreter.language import parser

    body = "    for p in players:\n" + "".join(f"        let v{i} = {i}\n" for i in range(300))
    text = "".join(f"procedure p{n}():\n{body}" for n in range(40))
    parsed = characters_parsed(monkeypatch)
    _, diagnostics, _ = parser.parse_recovering(text, "many.rules")
    assert len(diagnostics) == 40
    assert sum(parsed) <= len(text) + parser.HINT_CHARACTERS
    hinted = [d for d in diagnostics if d.hint == "is `each` missing before `p`?"]
    assert 0 < len(hinted) < 40  # the first errors get the hint, while the budget lasts


def test_the_hint_budget_is_the_rulesets_across_its_files_and_its_contents_abilities(tmp_path, monkeypatch):
    from interpreter.language import parser
    from interpreter.loading.stages import load_ruleset
    from toy import toy_folder

    # 60 declarations of 10 KB, each missing its `each`: 30 procedures and 30 abilities of the content
    broken = ["for p in players:"] + [f"    let v{i} = {i}" for i in range(600)]
    ability = "".join(f"        {line}\n" for line in broken)
    kinds = "".join(f"  k{n}:\n    per_player: 1\n    starts_in: supply\n    abilities:\n      go: |\n{ability}"
                    for n in range(30))
    body = "".join(f"    {line}\n" for line in broken)
    rules = {f"r{n}": f"procedure p{n}():\n{body}" for n in range(30)}
    rules["r0"] = "zone supply per player\n" + rules["r0"]
    folder = toy_folder(tmp_path, "players: [red, blue]\nboard:\n  locations: {}\npieces:\n" + kinds, **rules)
    parsed = characters_parsed(monkeypatch)
    with pytest.raises(LudolexError) as failed:
        load_ruleset(folder)
    assert len([d for d in failed.value.diagnostics if d.code == "LX101"]) == 60
    written = sum(len(path.read_text()) for path in tmp_path.rglob("*") if path.is_file())
    assert sum(parsed) <= written + parser.HINT_CHARACTERS
