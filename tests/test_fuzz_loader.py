"""Property-based fuzzing of the loader: mutated rules, content, manifest and scenario files.

Each example copies the real Cernunos ruleset and its content into a temporary folder (the
manifest's `content:` fixed to point at the copy; three of the fourteen scenario files, plus the
mutated one), replaces ONE file with a mutated version (tests/fuzz_strategies.py) and validates
the folder with `validate_ruleset` (and a mutated scenario file with `load_scenarios` too). The
property:

  * the loader returns diagnostics or raises LudolexError, or succeeds: never another exception;
  * every diagnostic has a code of interpreter/diagnostics/codes.py, with that code's severity, and a
    position (file, line >= 1, column >= 1) unless its code is LX001 or LX320; it renders;
  * no call of the loader hangs: a hard timer stops one after LIMIT seconds, a ceiling so far above
    a validation's time (well under a second) that only a hang reaches it, never a measure of speed.

A separate property checks that no YAML tag ever builds a Python object or runs code.

Open defects found by the fuzzer are pinned below as example-based tests marked
`xfail(strict=True)`, one per minimal reproducer; while one is open, the general properties
tolerate exactly that failure (KNOWN_BUGS: the exception, where it is raised, and the input
that causes it), so that every other failure still breaks the build. Defects it found that are
fixed now have plain regression tests at the end.

Runs derandomized and without an example database, so CI is deterministic. Locally, set
LUDOLEX_FUZZ_SCALE (e.g. 10) to try more examples, and LUDOLEX_FUZZ_RANDOM=1 for a fresh random
seed each run. At the end of the module a line reports how many inputs were tried and how long
it took.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
import traceback
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st
from lark.exceptions import VisitError

from fuzz_strategies import (
    CONTENT_FILES, MANIFEST_FILE, ORIGINALS, RULES_FILES, SCENARIO_FILES, Mutation, ability_mutations,
    rules_mutations, tag_placements, yaml_mutations,
)
from interpreter.diagnostics.codes import CODES
from interpreter.diagnostics.diagnostic import Diagnostic
from interpreter.diagnostics.errors import LudolexError
from interpreter.scenarios.files import load_scenarios
from interpreter.validation.validate import validate_ruleset
from interpreter.content.yaml_source import read_yaml, read_yaml_fast

LIMIT = 60.0  # seconds: a ceiling that only a hang reaches
SCALE = float(os.environ.get("LUDOLEX_FUZZ_SCALE", "1"))  # more examples, locally: LUDOLEX_FUZZ_SCALE=10
RANDOM = bool(os.environ.get("LUDOLEX_FUZZ_RANDOM"))  # a new random seed each run (exploration, not CI)
NO_POSITION_ALLOWED = {"LX001", "LX320"}

TRIED: Counter = Counter()  # inputs validated, by property
KNOWN: Counter = Counter()  # inputs that hit a known (xfailed) defect, by reproducer


def fuzz_settings(examples: int) -> settings:
    return settings(
        max_examples=max(1, int(examples * SCALE)),
        # The timer stops a call of the loader that hangs; no deadline measures an example's speed.
        deadline=None,
        derandomize=not RANDOM,
        database=None,
        print_blob=False,
        # No `explain` phase: it traces every line while shrinking, which makes examples ~20x slower
        # and would turn any failure into a spurious timeout.
        phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                               HealthCheck.large_base_example],
    )


# --- sandbox, time limit, checks ---------------------------------------------------------

class Timeout(BaseException):
    """Raised by the timer; a BaseException so that no `except Exception` in the engine swallows it."""


@contextmanager
def time_limit(seconds: float):
    """Raise Timeout in the code running after `seconds` (the deadline alone would let it run on)."""
    def expire(signum, frame):
        raise Timeout()

    if not hasattr(signal, "setitimer"):  # not on Windows: Hypothesis' deadline still applies
        yield
        return
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """The pristine sandbox: every original file, the manifest pointing at the copied content."""
    root = tmp_path_factory.mktemp("pristine")
    (root / ".git").mkdir()  # the project: the manifest may name ../content
    for relative, text in ORIGINALS.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    baseline = validate(root / "game")  # also warms up the grammar, so no example pays for it
    check_diagnostics(baseline)
    return root


# Scenario files copied into every sandbox (besides a mutated one): validating all 14 would double
# the cost of an example, and a few are enough to check the scenarios against a mutated game.
KEPT_SCENARIOS = {"game/tests/cn_a_setup.yaml", "game/tests/cn_a_power.yaml", "game/tests/cn_b_no_placement.yaml"}


@contextmanager
def sandbox(template: Path, replacements: dict[str, bytes]):
    """A fresh copy of the template with some files replaced; yields its ruleset folder."""
    kept = {Path(p).name for p in KEPT_SCENARIOS | set(replacements)}

    def skipped(folder, names):
        return [n for n in names if Path(folder).name == "tests" and n.endswith(".yaml") and n not in kept]

    with tempfile.TemporaryDirectory(prefix="ludolex-fuzz-") as tmp:
        root = Path(tmp) / "s"
        shutil.copytree(template, root, ignore=skipped)
        for relative, data in replacements.items():
            (root / relative).write_bytes(data)
        yield root / "game"


def validate(folder: Path) -> list[Diagnostic]:
    try:
        return validate_ruleset(folder)
    except LudolexError as error:
        return error.diagnostics


def check_diagnostics(diagnostics) -> None:
    assert isinstance(diagnostics, list)
    for d in diagnostics:
        assert isinstance(d, Diagnostic), d
        assert d.code in CODES, f"unregistered code {d.code!r}: {d}"
        assert d.severity == CODES[d.code][0], f"{d.code} reported as {d.severity!r}"
        assert isinstance(d.message, str) and d.message, d
        if d.position is None:
            assert d.code in NO_POSITION_ALLOWED, f"{d.code} without a position: {d.message}"
        else:
            p = d.position
            assert isinstance(p.file, str) and p.file, d
            assert isinstance(p.line, int) and p.line >= 1, f"line {p.line}: {d}"
            assert isinstance(p.column, int) and p.column >= 1, f"column {p.column}: {d}"
        d.render()  # what `ludolex validate` prints: must not fail either
        d.as_dict()


# --- defects found, tolerated by the general properties until fixed ------------------------

@dataclass(frozen=True)
class KnownBug:
    reproducer: str  # the xfail test below that pins it
    exception: tuple  # the exception raised (after unwrapping Lark's VisitError)
    where: tuple  # (file name, functions): the innermost frame of the engine that raises it
    trigger: object  # the input that causes it: Mutation -> bool
    message: str = ""  # a part of the error's message

    def matches(self, error: BaseException, mutation: Mutation) -> bool:
        error = unwrap(error)
        if not isinstance(error, self.exception) or self.message not in str(error) or not self.trigger(mutation):
            return False
        if not self.where:
            return True
        file, functions = raised_in(error)
        return file == self.where[0] and functions in self.where[1]


def unwrap(error: BaseException) -> BaseException:
    while isinstance(error, VisitError):  # Lark wraps what a transformer method raises
        error = error.orig_exc
    return error


def raised_in(error: BaseException) -> tuple[str, str]:
    """(file name, function) of the innermost frame inside interpreter/ that the error went through."""
    found = ("", "")
    for frame in traceback.extract_tb(error.__traceback__):
        if f"{os.sep}interpreter{os.sep}" in frame.filename:
            found = (Path(frame.filename).name, frame.name)
    return found


KNOWN_BUGS: list = []  # none open; add one (with its xfail reproducer) when a crash is found


def known_bug(error: BaseException, mutation: Mutation) -> str | None:
    return next((bug.reproducer for bug in KNOWN_BUGS if bug.matches(error, mutation)), None)


# --- the property ------------------------------------------------------------------------

def guarded(entry_point, folder: Path, mutation: Mutation):
    """`entry_point(folder)`'s diagnostics, within the time limit; None after a known, listed bug."""
    try:
        with time_limit(LIMIT):
            return entry_point(folder)
    except Timeout:
        raise AssertionError(f"still running after {LIMIT}s: {mutation!r}") from None
    except Exception as error:
        reproducer = known_bug(error, mutation)
        if reproducer is None:
            raise
        KNOWN[reproducer] += 1
        event(f"known bug: {reproducer}")
        return None


def check_mutation(template: Path, mutation: Mutation, counter: str) -> None:
    """Validate the sandbox with `mutation` applied: diagnostics or success, nothing else, in time."""
    TRIED[counter] += 1
    with sandbox(template, {mutation.target: mutation.data}) as folder:
        entry_points = [validate]
        if mutation.target in SCENARIO_FILES:  # the entry point of the pytest plugin, too
            entry_points.append(lambda folder: scenario_diagnostics(folder.parent / mutation.target))
        for entry_point in entry_points:
            diagnostics = guarded(entry_point, folder, mutation)
            if diagnostics is None:
                return
            event(f"{counter}: {'diagnostics' if diagnostics else 'no diagnostic'}")
            check_diagnostics(diagnostics)


def scenario_diagnostics(path: Path) -> list[Diagnostic]:
    try:
        load_scenarios(path)
    except LudolexError as error:
        return error.diagnostics
    return []


@fuzz_settings(200)
@given(mutation=rules_mutations())
def test_mutated_rules_files_give_diagnostics(template, mutation):
    check_mutation(template, mutation, "rules")


@fuzz_settings(150)
@given(mutation=st.one_of(yaml_mutations(CONTENT_FILES), ability_mutations()))
def test_mutated_content_files_give_diagnostics(template, mutation):
    check_mutation(template, mutation, "content")


@fuzz_settings(60)
@given(mutation=yaml_mutations([MANIFEST_FILE]))
def test_mutated_manifest_gives_diagnostics(template, mutation):
    check_mutation(template, mutation, "manifest")


@fuzz_settings(90)
@given(mutation=yaml_mutations(SCENARIO_FILES))
def test_mutated_scenario_files_give_diagnostics(template, mutation):
    check_mutation(template, mutation, "scenarios")


# --- YAML tags never build objects --------------------------------------------------------

MARKER = "PWNED-marker"
SAFE_TYPES = {("builtins", name) for name in ("str", "int", "float", "bool", "NoneType", "bytes", "list", "dict",
                                               "set", "tuple")} | {("datetime", "date"), ("datetime", "datetime")}


def constructed_objects(document) -> list[str]:
    """Every value in a loaded document that is not plain YAML data (ruamel's own types allowed)."""
    found, seen, stack = [], set(), [document]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        kind = type(node)
        if (kind.__module__, kind.__name__) not in SAFE_TYPES and not kind.__module__.startswith("ruamel.yaml"):
            found.append(f"{kind.__module__}.{kind.__name__}")
            continue
        if isinstance(node, dict):
            stack += list(node.keys()) + list(node.values())
        elif isinstance(node, (list, tuple, set)):
            stack += list(node)
        elif hasattr(node, "value") and kind.__module__.startswith("ruamel.yaml"):  # TaggedScalar
            stack.append(node.value)
    return found


def _recording(calls: list, name: str):
    def record(*args, **kwargs):
        calls.append((name, args))
        return 0
    return record


@fuzz_settings(60)
@given(data=tag_placements(MARKER))
def test_yaml_tags_never_construct_python_objects(template, data):
    target, tagged, description = data
    TRIED["tags"] += 1
    calls: list = []
    with sandbox(template, {}) as folder:
        marker = folder.parent / MARKER
        path = folder.parent / target
        text = tagged.replace(MARKER, str(marker))
        path.write_text(text, encoding="utf-8")
        documents, diagnostics = [], None
        with mock.patch.object(os, "system", _recording(calls, "os.system")), \
                mock.patch.object(os, "popen", _recording(calls, "os.popen")), \
                mock.patch.object(subprocess, "Popen", _recording(calls, "subprocess.Popen")):
            diagnostics = guarded(validate, folder, Mutation(target, (description,), text.encode("utf-8")))
            for reader in (read_yaml, read_yaml_fast):
                try:
                    documents.append(reader(path))
                except LudolexError:
                    pass
        assert not calls, f"{description}: code ran: {calls}"
        assert not marker.exists(), f"{description}: the marker file was created"
        for document in documents:
            assert not constructed_objects(document), f"{description}: built {constructed_objects(document)}"
    if diagnostics is None:
        return
    check_diagnostics(diagnostics)
    assert diagnostics, f"{description}: no diagnostic for a Python tag"


@pytest.mark.parametrize("target", [MANIFEST_FILE, "content/tokens.yaml", SCENARIO_FILES[0]])
def test_python_object_apply_tag_on_a_whole_file_yields_a_diagnostic(template, target):
    calls: list = []
    with sandbox(template, {}) as folder:
        marker = folder.parent / MARKER
        (folder.parent / target).write_text(f'!!python/object/apply:os.system ["touch {marker}"]\n', encoding="utf-8")
        with mock.patch.object(os, "system", _recording(calls, "os.system")):
            diagnostics = validate(folder)
        assert not calls and not marker.exists()
        check_diagnostics(diagnostics)
        assert any(str(d.position.file).endswith(target.split("/")[-1]) for d in diagnostics if d.position)


# --- defects found by the fuzzer, fixed: regression tests ------------------------------------

def validate_replaced(template: Path, replacements: dict[str, str | bytes]) -> list[Diagnostic]:
    """Validate a sandbox with some files replaced; checks the diagnostics and the time limit."""
    data = {k: v if isinstance(v, bytes) else v.encode("utf-8") for k, v in replacements.items()}
    with sandbox(template, data) as folder:
        try:
            with time_limit(LIMIT):
                diagnostics = validate(folder)
        except Timeout:
            raise AssertionError(f"validation still running after {LIMIT}s") from None
        check_diagnostics(diagnostics)
        return diagnostics


def codes_in(diagnostics: list[Diagnostic], file: str) -> set[str]:
    return {d.code for d in diagnostics if d.position and Path(d.position.file).name == Path(file).name}


RULES = RULES_FILES[0]
SCENARIO = SCENARIO_FILES[0]


@pytest.mark.parametrize("key", ["str", "'a[0]'"])
def test_an_unknown_key_named_like_a_type_is_reported(template, key):
    diagnostics = validate_replaced(template, {MANIFEST_FILE: f"name: x\ncontent: ../content\n{key}: 1\n"})
    assert "LX203" in codes_in(diagnostics, MANIFEST_FILE)


def test_a_content_path_with_a_name_too_long_is_reported(template):
    diagnostics = validate_replaced(template, {MANIFEST_FILE: "name: x\ncontent: " + "x" * 256 + "\n"})
    assert "LX206" in codes_in(diagnostics, MANIFEST_FILE)


def test_functions_inlined_into_each_other_stay_compilable(template):
    rules = ("function f0(x) = " + "-" * 70 + "x\n"
             "function f1(x) = " + "-" * 70 + "f0(x)\n"
             "function f2(x) = " + "-" * 70 + "f1(x)\n")
    validate_replaced(template, {RULES: ORIGINALS[RULES] + rules})


def alias_bomb(levels: int, width: int) -> str:
    """A "billion laughs": a few hundred bytes of YAML whose aliases expand to width ** levels items."""
    return "bomb: [&b0 lol, " + ", ".join(f"&b{n} [" + ", ".join([f"*b{n - 1}"] * width) + "]"
                                          for n in range(1, levels + 1)) + "]\n"


def test_an_alias_bomb_is_read_in_bounded_time(template):
    diagnostics = validate_replaced(template, {MANIFEST_FILE: ORIGINALS[MANIFEST_FILE] + alias_bomb(8, 10)})
    assert "LX211" in codes_in(diagnostics, MANIFEST_FILE)


# --- defects this fuzzer found that are fixed now: regression tests ---------------------------

@pytest.mark.parametrize("literal", ["1" + "0" * 4300, r'"\x"', r'"\N{nope}"', r'"\u12"'],
                         ids=["4301-digit-number", "truncated-x-escape", "unknown-N-escape", "short-u-escape"])
def test_bad_literals_are_reported(template, literal):
    # were: lark VisitError from int() (over 4300 digits) and ast.literal_eval (bad escapes)
    assert "LX104" in codes_in(validate_replaced(template, {RULES: f"variable v = {literal}\n"}), RULES)


@pytest.mark.parametrize("rules", [
    "variable v = " + "-" * 201 + "1\n",
    "variable v = " + " + ".join(["1"] * 202) + "\n",
    "variable v = " + "[" * 1000 + "1" + "]" * 1000 + "\n",
    "setup:\n" + "".join(" " * (d + 1) + "if true:\n" for d in range(400)) + " " * 401 + "pass\n",
], ids=["201-negations", "202-term-sum", "1000-nested-lists", "400-nested-blocks"])
def test_deep_nesting_is_reported(template, rules):
    # were: SyntaxError "too many nested parentheses" from the generated Python, RecursionError in Lark
    assert "LX105" in codes_in(validate_replaced(template, {RULES: rules}), RULES)


def test_many_syntax_errors_in_a_long_rules_file_are_reported_in_time(template):
    # was: the whole file parsed again after each error (50 errors in 4,800 lines: about 19s)
    rules = ORIGINALS[RULES] * 40 + "variable broken = )\n" * 50
    assert "LX101" in codes_in(validate_replaced(template, {RULES: rules}), RULES)


def test_nul_byte_in_manifest_content_path(template):
    # was: ValueError from Path.resolve()
    diagnostics = validate_replaced(template, {MANIFEST_FILE: 'name: x\ncontent: "../con\\0tent"\n'})
    assert "LX206" in codes_in(diagnostics, MANIFEST_FILE)


@pytest.mark.parametrize("label", ['""', '"   "'])
def test_blank_piece_label_in_scenario(template, label):
    # was: IndexError in scenarios.parse_label
    scenario = f"scenarios:\n- name: x\n  rules: [A]\n  expect: {{board: {{a1: [{label}]}}}}\n"
    assert "LX327" in codes_in(validate_replaced(template, {SCENARIO: scenario}), SCENARIO)


@pytest.mark.parametrize("target, text", [
    (MANIFEST_FILE, "<<: {bogus: 1}\n"),
    ("content/tokens.yaml", "pieces:\n  fire:\n    <<: {per_player: -1, starts_in: reserve}\n"),
    (SCENARIO, "scenarios:\n- <<: {name: x, rules: [], expect: {}}\n"),
], ids=["manifest", "content", "scenario"])
def test_errors_at_merged_keys_have_a_position(template, target, text):
    # was: TypeError/KeyError in yaml_source.position_of (a key brought by `<<:` has no line/column)
    assert codes_in(validate_replaced(template, {target: text}), target)


@pytest.mark.parametrize("target, text", [
    (SCENARIO, "scenarios: !foo [x]\n"),
    (SCENARIO, 'scenarios:\n- name: x\n  rules: !!python/object/apply:os.system ["echo pwned"]\n  expect: {}\n'),
    (SCENARIO, 'scenarios:\n- name: x\n  rules: [A]\n  expect: {board: {a1: !foo "green tree"}}\n'),
], ids=["tagged-sequence", "tag-on-a-valid-list", "tagged-scalar-for-a-list"])
def test_yaml_tags_are_refused(template, target, text):
    # were: TypeError in position_of; a tag dropped silently; a tagged text read as a list of characters
    assert "LX202" in codes_in(validate_replaced(template, {target: text}), target)


@pytest.mark.parametrize("board", [
    "board:\n  grid: {columns: 4, rows: 3, connections: [orthogonal, diagonal, wrap], attributes: {a1: {column: 0}}}\n",
    "board:\n  locations: {x: {node_for_adding: 1}}\n",
], ids=["grid-column", "locations-node_for_adding"])
def test_board_attributes_named_like_networkx_arguments(template, board):
    # was: TypeError from networkx add_node(**attributes)
    validate_replaced(template, {"content/board.yaml": board})


# --- the count ------------------------------------------------------------------------------

@pytest.fixture(scope="module", autouse=True)
def report_count(request):
    started = time.perf_counter()
    yield
    total = sum(TRIED.values())
    parts = ", ".join(f"{name} {count}" for name, count in sorted(TRIED.items()))
    known = ", ".join(f"{name.removeprefix('test_known_bug_')} {count}" for name, count in sorted(KNOWN.items()))
    line = (f"fuzz_loader: {total} inputs tried ({parts}) in {time.perf_counter() - started:.1f}s; "
            f"known-bug inputs tolerated: {sum(KNOWN.values())}" + (f" ({known})" if known else ""))
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None:
        print(line)
        return
    with capture.global_and_fixture_disabled():  # shown even though output is captured
        reporter.write_line("")
        reporter.write_line(line)
