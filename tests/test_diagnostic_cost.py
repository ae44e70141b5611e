"""What showing diagnostics as text costs: each quotes its source line, and finding that line must
not cost the whole file again (20,000 warnings in a large file took 79 s as text, 22 s as JSON).

Work is counted, never timed: the characters that str methods go through while diagnostics are
rendered."""
import sys

from interpreter.diagnostics.diagnostic import QUOTED_CHARACTERS, Diagnostic, Position, remember_text
from interpreter.diagnostics.formats import as_text

SCANNING = {"split", "rsplit", "splitlines", "removesuffix", "removeprefix", "find", "rfind", "index", "rindex",
            "count", "replace", "partition", "rpartition", "strip", "lstrip", "rstrip", "encode", "translate"}


def characters_scanned(work) -> int:
    """The characters that str methods reading their whole string go through while `work()` runs."""
    scanned = 0

    def profile(frame, event, arg):
        nonlocal scanned
        if event == "c_call" and getattr(arg, "__name__", "") in SCANNING and isinstance(getattr(arg, "__self__", None), str):
            scanned += len(arg.__self__)

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return scanned


def text_cost(tmp_path, lines: int, diagnostics: int) -> tuple[int, int]:
    """The characters scanned to show `diagnostics` warnings (one a line) of a file of `lines` lines, and its size."""
    file = str(tmp_path / f"long{lines}.rules")
    text = "".join(f"procedure unused_{n}(p):\n" for n in range(lines))
    remember_text(file, text)
    found = [Diagnostic("LX401", f"procedure `unused_{n}` is never called", Position(file, n + 1, 11, 8))
             for n in range(diagnostics)]
    rendered = []
    scanned = characters_scanned(lambda: rendered.append(as_text(found, colour=False)))
    assert "    procedure unused_999(p):\n              ^^^^^^^^" in rendered[0]
    return scanned, len(text)


def test_a_diagnostic_costs_the_same_in_a_file_ten_times_larger(tmp_path):
    small, _ = text_cost(tmp_path, lines=1_000, diagnostics=1_000)
    large, size = text_cost(tmp_path, lines=10_000, diagnostics=1_000)
    assert large < small + 2 * size  # the file read once at most; before, once per diagnostic (over 1,000 x size)


def test_a_diagnostic_on_a_long_line_costs_what_it_shows(tmp_path):
    """A file of one line of 1 MB, and 1,000 diagnostics on it: each shows 2,000 characters around its
    column, and costs about that, not the line (before, the file was split again for each one)."""
    file = str(tmp_path / "one_line.rules")
    text = "x " * 500_000
    remember_text(file, text)
    found = [Diagnostic("LX101", "here", Position(file, 1, 1 + 1_000 * n)) for n in range(1_000)]
    rendered = []
    scanned = characters_scanned(lambda: rendered.append(as_text(found, colour=False)))
    assert scanned < len(found) * 10 * QUOTED_CHARACTERS
    quoted = [line for line in rendered[0].split("\n") if line.startswith(("    ...", "    x"))]
    assert len(quoted) == 1_000 and all(len(line) <= QUOTED_CHARACTERS + 10 for line in quoted)
