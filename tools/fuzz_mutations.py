"""The mutations of tools/fuzz.py: one file of a shipped game changed, deterministically.

`shipped_games()` names the games of rulesets/. `game_files(game)` reads one into a `GameFiles`:
every file of its sandbox (see tools/fuzz.py) by sandbox-relative path, grouped by kind (rules,
content, manifest, scenario, bot), and the names the game uses. `mutate(files, kind, rng)` picks
a file of that kind and applies one to three operations to it, each drawn from `rng` (a
`random.Random`), so an input is rebuilt from the seed and its number alone.

Operations: byte-level (bit flips, invalid UTF-8, control characters, random bytes), line-level
(delete, duplicate, swap, re-indent, truncate, splice, very long lines), token-level in rules
(swap, delete, duplicate, keywords, numbers including 2**63 and negatives, names of the same
game, Python's own names), hostile strings (`{0}`, quotes, backslashes, NUL, `__import__` payloads
that would create the sentinel file SENTINEL), loops and recursion inserted into rule bodies,
expression bombs, deep nesting; and structure-aware YAML edits at the keys and values of the
original text (wrong types, renamed, duplicated and unknown keys, tags, dangerous tags, aliases,
alias bombs, recursive aliases, merge keys, deep nesting, hostile paths in the manifest, rules
snippets inside content abilities and bot expressions).

The tables of values come from tests/fuzz_strategies.py (the Hypothesis fuzzer of the loader).
"""
from __future__ import annotations

import json
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fuzz_strategies import (  # noqa: E402  (the tables of the loader's fuzzer, reused)
    CONTROL, HUGE_NUMBERS, INVALID_UTF8, KEYWORDS, NEST_FORMS, TAGS, TOKEN, UNKNOWN_KEYS, WRONG_VALUES,
    dangerous_payloads, yaml_slots,
)

SENTINEL = "LUDOLEX_PWNED"  # a payload that runs creates this file in the current directory
KINDS = ("rules", "content", "manifest", "scenario", "bot")
KEPT_SCENARIOS = {  # scenario files always in a sandbox (the others only when mutated): validation stays cheap;
    # another game keeps its two smallest
    "cernunos": ["cn_b_no_placement.yaml", "cn_a_power.yaml"],
    "root": ["marquise_birdsong.yaml", "core_hidden.yaml"],
}

# --- hostile values --------------------------------------------------------------------------

TOUCH = f"__import__('os').system('touch {SENTINEL}')"
CODE_PAYLOADS = [
    TOUCH, f"'+{TOUCH}+'", f'"+{TOUCH}+"', f"');{TOUCH};('", f'");{TOUCH};("', f"\n{TOUCH}\n",
    f"{{{TOUCH}}}", f"x)or({TOUCH})or(x", f"x]or({TOUCH})or[x", f"open('{SENTINEL}', 'w')",
    f"__import__('pathlib').Path('{SENTINEL}').touch()", f"exec(\"open('{SENTINEL}','w')\")",
    f"eval(\"{TOUCH}\")", f"$(touch {SENTINEL})", f"`touch {SENTINEL}`", f"; touch {SENTINEL}",
    f"{{0.__class__.__init__.__globals__[os].system(touch {SENTINEL})}}",
    f"\\\n{TOUCH}", f"#\n{TOUCH}",
]
HOSTILE_STRINGS = CODE_PAYLOADS + [
    "{0}", "{", "}", "{}", "{x}", "{0!r:>{1}}", "{0.__class__}", "%s", "%(x)s", "%n", '"', "'", "\\", "\\x", "\\u12",
    "\\N{nope}", '\\"', "\n", "\r", "\r\n", "\x00", "a\x00b", "\t", "#", ": ", "- ", "? ", "&a", "*a", "|", ">", "---",
    "...", "${HOME}", "~", "/", "../../../../etc/passwd", "/etc/passwd", "/dev/zero", "/dev/stdin",
    "/proc/self/environ", "\u202e", "\ufeff", "\u2028", "é", "\U0001f642", "\udcff", "x" * 10_000, "[" * 500,
]
PYTHON_NAMES = [  # names with a meaning in Python or in the generated code
    "__class__", "__globals__", "__builtins__", "__import__", "__init__", "__dict__", "__subclasses__", "__mro__",
    "__getattribute__", "__name__", "None", "True", "False", "lambda", "import", "def", "class", "return", "yield",
    "await", "async", "nonlocal", "global", "del", "rt", "Z", "env", "MISSING", "takewhile", "memo", "key",
    "value", "c", "x", "a0", "_t0", "_text0", "_c0", "fn_x", "compute_x", "exec", "eval", "open", "print", "os",
    "sys", "self", "you", "players", "locations", "box", "_", "__", "A" * 300,
]
NUMBERS = ["0", "-0", "1", "-1", "2", "-2", "7", "100", "1000000", "2147483647", "2147483648", str(2**63 - 1),
           str(2**63), str(-2**63), str(-2**63 - 1), str(2**64), "1000000000000", str(10**15), str(10**15 + 1),
           str(-10**15), str(-10**15 - 1), str(10**18)] + HUGE_NUMBERS
YAML_NUMBERS = NUMBERS + ["1e400", "-1e400", "0x10", "0o17", "1_000", ".inf", "-.inf", ".nan", "1.5", "-0.5", "+1"]
HOSTILE_PATHS = ["/", "/etc", "/proc", "/proc/self", "/dev", "/tmp", "..", "../..", "../../..", "../" * 30,
                 "~", "~/", "/dev/zero", "/dev/stdin", "/dev/urandom", "/etc/passwd", "/proc/self/environ",
                 "/dev/zero.yaml", "/etc/passwd.yaml", "../ruleset", ".", "", "content", "../content/../../..",
                 "\x00", "a" * 5000, "/proc/self/fd/0"]

# --- loops, recursion and bombs for rule bodies ----------------------------------------------

LOOPS = [
    "while true:\n    pass",
    "repeat:\n    pass",
    "repeat 1000000000000 times:\n    pass",
    "repeat 1000000000000 times:\n    let zz_n = 1",
    "while 1 = 1:\n    let zz_n = 1",
    "for each zz_a in numbers(1, 1000000000000):\n    pass",
    "let zz_l = numbers(1, 1000000000000)",
    "let zz_l = numbers(-1000000000000000, 1000000000000000)",
    "let zz_n = count(zz_a in numbers(1, 100000) : count(zz_b in numbers(1, 100000)))",
    "let zz_n = sum(zz_a in numbers(1, 100000000) : zz_a * zz_a)",
    "let zz_n = 2\nrepeat 64 times:\n    set zz_n = zz_n * zz_n",
    "let zz_l = [1]\nrepeat 64 times:\n    set zz_l = zz_l + zz_l",
    "let zz_n = 0\nwhile zz_n >= 0:\n    set zz_n = zz_n + 1",
]
RECURSIONS = [  # (declarations appended to the file, a statement put in a body to use them)
    ("function zz_f(x) = zz_f(x + 1) + 1", "let zz_n = zz_f(1)"),
    ("function zz_f(x) = if x > 0 then zz_f(x - 1) + zz_f(x - 1) else 1", "let zz_n = zz_f(60)"),
    ("function zz_f(x) = zz_g(x)\nfunction zz_g(x) = zz_f(x)", "let zz_n = zz_f(1)"),
    ("procedure zz_p(x):\n    zz_p(x + 1)", "zz_p(1)"),
    ("procedure zz_p(x):\n    zz_p(x)\n    zz_p(x)", "zz_p(1)"),
    ("when zz_e(x):\n    emit zz_e(x + 1)", "emit zz_e(1)"),
    ("variable zz_v = 0\nalways zz_a:\n    set zz_v = zz_v + 1", None),
    ("variable zz_v = [1]\nalways zz_a:\n    set zz_v = zz_v + zz_v", None),
]
EXPRESSION_BOMBS = [
    "count(zz_a in numbers(1, 1000000000000))",
    "size(numbers(1, 1000000000000))",
    "sum(zz_a in numbers(1, 100000) : count(zz_b in numbers(1, 100000)))",
    "max(zz_a in numbers(-1000000000000000, 1000000000000000))",
    "size(numbers(1, 1000000) + numbers(1, 1000000))",
    "nth(numbers(0, 1000000000000000), 3)",
    "1000000000000000 * 1000000000000000",
    "-1000000000000000 - 1000000000000000",
    f"\"{'x' * 100_000}\"",
]
NAME_TOKEN = re.compile(r"[A-Za-z_]\w*\Z")
NUMBER_TOKEN = re.compile(r"\d+\Z")
STRING_TOKEN = re.compile(r'"')
BODY_LINE = re.compile(r"^([ \t]+)(?!elif\b|else\b|otherwise\b|#)\S")


# --- the game's files --------------------------------------------------------------------------

@dataclass
class GameFiles:
    """A game's sandbox files: sandbox-relative path -> original bytes, and more about them."""
    name: str
    files: dict[str, bytes]
    kinds: dict[str, list[str]]  # kind -> the paths that may be mutated
    sandbox: list[str]  # the paths present in a pristine sandbox (not every scenario file)
    names: list[str]  # names the game uses: kinds, players, locations, functions...
    slots: dict = field(default_factory=dict)  # path -> yaml_slots of the original text (filled lazily)

    def text(self, path: str) -> str:
        return self.files[path].decode("utf-8", errors="surrogateescape")

    def yaml_slots(self, path: str) -> list:
        if path not in self.slots:
            try:
                self.slots[path] = yaml_slots(self.text(path))
            except Exception:  # not a YAML text ruamel reads: only text-level mutations
                self.slots[path] = []
        return self.slots[path]


def sandbox_manifest(manifest: str, ruleset: Path, cards: Path) -> str:
    """The manifest with `content:` naming the sandbox's `content` folder instead of cards/<game>."""
    from ruamel.yaml import YAML

    document = YAML(typ="safe").load(manifest)
    entries = document["content"] if isinstance(document["content"], list) else [document["content"]]
    moved = []
    for entry in entries:
        relative = (ruleset / entry).resolve().relative_to(cards.resolve()).as_posix()
        moved.append("../content" if relative == "." else f"../content/{relative}")
    value = moved[0] if isinstance(document["content"], str) else "[" + ", ".join(moved) + "]"
    return re.sub(r"^content:.*$", f"content: {value}", manifest, count=1, flags=re.MULTILINE)


def shipped_games(root: Path = ROOT) -> list[str]:
    """The games of `rulesets/`: each folder whose manifest names its own content. A variant (`base:`)
    is left out: its files are its base's, fuzzed with it."""
    games = []
    for manifest in sorted((root / "rulesets").glob("*/game.yaml")):
        text = manifest.read_text(encoding="utf-8", errors="replace")
        if re.search(r"^content:", text, re.MULTILINE) and not re.search(r"^base:", text, re.MULTILINE):
            games.append(manifest.parent.name)
    return games


def game_files(game: str, root: Path = ROOT) -> GameFiles:
    ruleset, cards = root / "rulesets" / game, root / "cards" / game
    files: dict[str, bytes] = {}
    kinds: dict[str, list[str]] = {kind: [] for kind in KINDS}
    manifest = sandbox_manifest((ruleset / "game.yaml").read_text(encoding="utf-8"), ruleset, cards)
    files["ruleset/game.yaml"] = manifest.encode("utf-8")
    kinds["manifest"].append("ruleset/game.yaml")
    for path in sorted(ruleset.glob("*.rules")):
        files[f"ruleset/{path.name}"] = path.read_bytes()
        kinds["rules"].append(f"ruleset/{path.name}")
    for path in sorted((ruleset / "tests").glob("*.yaml")):
        files[f"ruleset/tests/{path.name}"] = path.read_bytes()
        kinds["scenario"].append(f"ruleset/tests/{path.name}")
    for path in sorted((ruleset / "bots").glob("*.yaml")):
        files[f"ruleset/bots/{path.name}"] = path.read_bytes()
        kinds["bot"].append(f"ruleset/bots/{path.name}")
    for path in sorted(cards.rglob("*.yaml")):
        relative = f"content/{path.relative_to(cards).as_posix()}"
        files[relative] = path.read_bytes()
        kinds["content"].append(relative)
    smallest = sorted((ruleset / "tests").glob("*.yaml"), key=lambda path: (path.stat().st_size, path.name))[:2]
    kept = {f"ruleset/tests/{name}" for name in KEPT_SCENARIOS.get(game, [path.name for path in smallest])}
    sandbox = [p for p in files if not p.startswith("ruleset/tests/") or p in kept]
    kinds = {kind: paths for kind, paths in kinds.items() if paths}
    return GameFiles(game, files, kinds, sandbox, names_of(files))


def names_of(files: dict[str, bytes]) -> list[str]:
    """Identifiers of the rules files and keys and plain values of the content: the game's names."""
    words = set()
    for path, data in files.items():
        if path.endswith(".rules") or path.startswith("content/"):
            words |= set(re.findall(r"\b[A-Za-z_][A-Za-z0-9_]*\b", data.decode("utf-8", errors="replace")))
    return sorted(words - set(KEYWORDS) - {"true", "false", "none"})


# --- one mutation ------------------------------------------------------------------------------

@dataclass
class Mutation:
    path: str  # the sandbox-relative file replaced
    kind: str
    ops: list[str]  # what was done, readable
    data: bytes


def mutate(files: GameFiles, kind: str, rng: random.Random) -> Mutation:
    path = rng.choice(files.kinds[kind])
    text, ops = files.text(path), []
    if kind == "rules":
        for _ in range(op_count(rng)):
            text = apply(RULES_OPS, rng, text, files, ops)
    else:
        text = yaml_structure_edits(files, path, kind, text, rng, ops)
        for _ in range(op_count(rng) if not ops or rng.random() < 0.4 else 0):
            text = apply(YAML_TEXT_OPS, rng, text, files, ops)
    return Mutation(path, kind, ops, encode(text))


def op_count(rng: random.Random) -> int:
    return rng.choices([1, 2, 3], weights=[6, 3, 1])[0]


def apply(table: list, rng: random.Random, text: str, files: GameFiles, ops: list[str]) -> str:
    operation = rng.choices([op for op, _ in table], weights=[w for _, w in table])[0]
    text, description = operation(rng, text, files)
    ops.append(description)
    return text


def encode(text: str) -> bytes:
    return text.encode("utf-8", errors="surrogateescape")


def decode(data: bytes) -> str:
    return data.decode("utf-8", errors="surrogateescape")


def short(value) -> str:
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:50]}...({len(text)} chars)"


# --- byte and line operations (any file) --------------------------------------------------------

def flip_bytes(rng, text, files):
    data = bytearray(encode(text))
    if not data:
        return decode(bytes([rng.randrange(256)])), "flip_bytes(empty)"
    places = [rng.randrange(len(data)) for _ in range(rng.randint(1, 8))]
    for at in places:
        data[at] = data[at] ^ (1 << rng.randrange(8)) if rng.random() < 0.7 else rng.randrange(256)
    return decode(bytes(data)), f"flip_bytes({places})"


def insert_bytes(rng, text, files):
    at = rng.randint(0, len(text))
    inserted = rng.choice([rng.choice(INVALID_UTF8), rng.choice(CONTROL), decode(rng.randbytes(rng.randint(1, 20)))])
    return text[:at] + inserted + text[at:], f"insert_bytes({at}, {short(encode(inserted))})"


def random_chunk(rng, text, files):
    at = rng.randint(0, len(text))
    length = rng.randint(1, 64)
    chunk = decode(rng.randbytes(length))
    return text[:at] + chunk + text[at + rng.randint(0, length):], f"random_chunk({at}, {length})"


def random_file(rng, text, files):
    if rng.random() < 0.2:
        return "", "empty_file"
    return decode(rng.randbytes(rng.randint(1, 300))), "random_file"


def delete_lines(rng, text, files):
    lines = text.split("\n")
    at, n = rng.randrange(len(lines)), rng.randint(1, 6)
    del lines[at:at + n]
    return "\n".join(lines), f"delete_lines({at}, {n})"


def duplicate_lines(rng, text, files):
    lines = text.split("\n")
    at, n, to = rng.randrange(len(lines)), rng.randint(1, 8), rng.randint(0, len(lines))
    lines[to:to] = lines[at:at + n]
    return "\n".join(lines), f"duplicate_lines({at}, {n}, to {to})"


def swap_lines(rng, text, files):
    lines = text.split("\n")
    a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[a], lines[b] = lines[b], lines[a]
    return "\n".join(lines), f"swap_lines({a}, {b})"


def reindent(rng, text, files):
    lines = text.split("\n")
    at = rng.randrange(len(lines))
    indent = rng.choice(["", " ", "  ", "   ", "\t", " \t", "\t ", " " * 9, " " * 40, " " * 2000])
    lines[at] = indent + lines[at].lstrip(" \t")
    return "\n".join(lines), f"reindent({at}, {len(indent)})"


def truncate(rng, text, files):
    at = rng.randint(0, len(text))
    return text[:at], f"truncate({at})"


def splice(rng, text, files):
    start = rng.randint(0, len(text))
    end = min(len(text), start + rng.randint(1, 400))
    to = rng.randint(0, len(text))
    return text[:to] + text[start:end] + text[to:], f"splice({start}:{end}, to {to})"


def long_line(rng, text, files):
    lines = text.split("\n")
    at, length = rng.randrange(len(lines)), rng.choice([1_000, 100_000, 1_000_000])
    lines[at] += rng.choice([" ", "x", "# ", "a,", "[", "{"]) * (length // 2)
    return "\n".join(lines), f"long_line({at}, {length})"


def insert_hostile(rng, text, files):
    at = rng.choice([rng.randint(0, len(text)), line_start(text, rng)])
    inserted = rng.choice(HOSTILE_STRINGS)
    return text[:at] + inserted + text[at:], f"insert_hostile({at}, {short(inserted)})"


def line_start(text: str, rng: random.Random) -> int:
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    return rng.choice(starts)


# --- rules files (and rules snippets) -----------------------------------------------------------

def tokens(text: str, pattern=None) -> list[re.Match]:
    found = list(TOKEN.finditer(text))
    return [t for t in found if pattern.match(t.group())] if pattern else found


def replace(text: str, token: re.Match, new: str) -> str:
    return text[:token.start()] + new + text[token.end():]


def pick_token(rng, text, pattern=None):
    found = tokens(text, pattern) or tokens(text)
    return (rng.randrange(len(found)), found) if found else (None, found)


def swap_tokens(rng, text, files):
    found = tokens(text)
    if len(found) < 2:
        return insert_hostile(rng, text, files)
    a, b = sorted(rng.sample(range(len(found)), 2))
    ta, tb = found[a], found[b]
    return (text[:ta.start()] + tb.group() + text[ta.end():tb.start()] + ta.group() + text[tb.end():],
            f"swap_tokens({a}, {b})")


def delete_token(rng, text, files):
    i, found = pick_token(rng, text)
    if i is None:
        return insert_hostile(rng, text, files)
    return replace(text, found[i], ""), f"delete_token({i}: {short(found[i].group())})"


def duplicate_token(rng, text, files):
    i, found = pick_token(rng, text)
    if i is None:
        return insert_hostile(rng, text, files)
    token = found[i].group()
    return replace(text, found[i], token + " " + token), f"duplicate_token({i}: {short(token)})"


def replace_token(rng, text, files):
    i, found = pick_token(rng, text)
    if i is None:
        return insert_hostile(rng, text, files)
    new = rng.choice(KEYWORDS)
    return replace(text, found[i], new), f"replace_token({i}, {new!r})"


def insert_keyword(rng, text, files):
    at = rng.randint(0, len(text))
    shape = rng.choice([" {} ", "{}", "\n{}", " {}:\n", "\n    {} "]).format(rng.choice(KEYWORDS))
    return text[:at] + shape + text[at:], f"insert_keyword({at}, {shape!r})"


def change_number(rng, text, files):
    i, found = pick_token(rng, text, NUMBER_TOKEN)
    if i is None:
        return insert_hostile(rng, text, files)
    old = found[i].group()
    nearby = [str(int(old) + 1), str(int(old) - 1), f"-{old}"] if NUMBER_TOKEN.match(old) else []
    new = rng.choice(NUMBERS + nearby)
    return replace(text, found[i], new), f"change_number({i}: {short(found[i].group())} -> {short(new)})"


def swap_name(rng, text, files):
    i, found = pick_token(rng, text, NAME_TOKEN)
    if i is None:
        return insert_hostile(rng, text, files)
    new = rng.choice(files.names)
    return replace(text, found[i], new), f"swap_name({i}: {found[i].group()} -> {new})"


def python_name(rng, text, files):
    i, found = pick_token(rng, text, NAME_TOKEN)
    if i is None:
        return insert_hostile(rng, text, files)
    new = rng.choice(PYTHON_NAMES)
    return replace(text, found[i], new), f"python_name({i}: {found[i].group()} -> {short(new)})"


def rules_literal(value: str) -> str:
    """A quoted text of the rules language whose value is `value`."""
    escaped = (value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
               .replace("\x00", "\\x00"))
    return f'"{escaped}"'


def hostile_string(rng, text, files):
    """A text literal (or any atom) replaced by a hostile text, escaped so that it still parses."""
    i, found = pick_token(rng, text, STRING_TOKEN)
    if i is None:
        return insert_hostile(rng, text, files)
    value = rng.choice(HOSTILE_STRINGS)
    new = rules_literal(value) if rng.random() < 0.8 else f'"{value}"'
    return replace(text, found[i], new), f"hostile_string({i}, {short(new)})"


def expression_bomb(rng, text, files):
    i, found = pick_token(rng, text, NAME_TOKEN if rng.random() < 0.5 else NUMBER_TOKEN)
    if i is None:
        return insert_hostile(rng, text, files)
    bomb = rng.choice(EXPRESSION_BOMBS)
    return replace(text, found[i], f"({bomb})"), f"expression_bomb({i}: {short(found[i].group())} -> {short(bomb)})"


def nest(rng, text, files):
    i, found = pick_token(rng, text, re.compile(r'[\w"]'))
    if i is None:
        return insert_hostile(rng, text, files)
    depth = rng.choice([2, 10, 50, 150, 199, 200, 201, 300, 1000])
    atom = found[i].group()
    if rng.random() < 0.3:
        return replace(text, found[i], " + ".join([atom] * (depth + 1))), f"long_sum({i}, {depth})"
    form = rng.choice(sorted(NEST_FORMS))
    opening, closing = NEST_FORMS[form]
    return replace(text, found[i], opening * depth + atom + closing * depth), f"nest({i}, {form}, {depth})"


def body_lines(text: str) -> list[tuple[int, str]]:
    """(line number, indentation) of the statements inside blocks."""
    return [(n, m.group(1)) for n, line in enumerate(text.split("\n")) if (m := BODY_LINE.match(line))]


def insert_statement(rng, text: str, statement: str) -> tuple[str, int | None]:
    """`statement` (several lines, indented by 4) put before a statement inside a block."""
    lines, places = text.split("\n"), body_lines(text)
    if not places:
        return text, None
    at, indent = rng.choice(places)
    unit = "\t" if indent.startswith("\t") else "    "
    lines[at:at] = [indent + line.replace("    ", unit) for line in statement.split("\n")]
    return "\n".join(lines), at


def insert_loop(rng, text, files):
    loop = rng.choice(LOOPS)
    text, at = insert_statement(rng, text, loop)
    return text, f"insert_loop(line {at}, {loop.splitlines()[0]!r})"


def insert_recursion(rng, text, files):
    declarations, use = rng.choice(RECURSIONS)
    if use:
        text, at = insert_statement(rng, text, use)
    else:
        at = None
    return text.rstrip("\n") + "\n\n" + declarations + "\n", f"insert_recursion({declarations.splitlines()[0]!r}, use at line {at})"


def long_declaration(rng, text, files):
    length = rng.choice([100, 10_000, 100_000, 1_000_000])
    new = rng.choice([f"variable {'v' * length} = 1", f'variable zz_t = "{"a" * length}"',
                      f"variable zz_l = [{', '.join(['1'] * (length // 10))}]",
                      "procedure zz_deep():\n" + "".join(" " * (d + 1) + "if true:\n" for d in range(min(length, 400)))
                      + " " * (min(length, 400) + 1) + "pass"])
    lines = text.split("\n")
    at = rng.randint(0, len(lines))
    lines[at:at] = [new]
    return "\n".join(lines), f"long_declaration(line {at}, {short(new)})"


GENERIC_OPS = [(flip_bytes, 3), (insert_bytes, 3), (random_chunk, 2), (random_file, 1), (delete_lines, 4),
               (duplicate_lines, 4), (swap_lines, 3), (reindent, 3), (truncate, 2), (splice, 3), (long_line, 1),
               (insert_hostile, 4)]
RULES_OPS = GENERIC_OPS + [(swap_tokens, 6), (delete_token, 6), (duplicate_token, 5), (replace_token, 5),
                           (insert_keyword, 4), (change_number, 8), (swap_name, 10), (python_name, 5),
                           (hostile_string, 6), (expression_bomb, 6), (nest, 3), (insert_loop, 10),
                           (insert_recursion, 6), (long_declaration, 2)]
SNIPPET_OPS = [(swap_tokens, 4), (delete_token, 4), (duplicate_token, 3), (replace_token, 3), (change_number, 6),
               (swap_name, 8), (python_name, 4), (hostile_string, 4), (expression_bomb, 6), (nest, 2),
               (insert_hostile, 3), (delete_lines, 2), (reindent, 2)]
YAML_TEXT_OPS = GENERIC_OPS


# --- YAML files: edits at the keys and values of the original text ---------------------------------

def yaml_structure_edits(files: GameFiles, path: str, kind: str, text: str, rng, ops: list[str]) -> str:
    """Zero to two non-overlapping edits at slots of the original text, applied together."""
    slots = files.yaml_slots(path)
    if not slots:
        return text
    edits, used, prefix = [], [], ""
    for _ in range(rng.choices([0, 1, 2], weights=[2, 6, 3])[0]):
        table = YAML_EDITS + KIND_EDITS.get(kind, [])
        edit = rng.choices([e for e, _ in table], weights=[w for _, w in table])[0]
        found = edit(rng, text, [s for s in slots if not overlaps(s, used)], files, kind)
        if found is None:
            continue
        start, end, new, description, *more = found
        used.append((start, max(end, start + 1)))
        edits.append((start, end, new))
        ops.append(description)
        prefix = more[0] if more else prefix
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:start] + new + text[end:]
    return prefix + text


def overlaps(slot, used) -> bool:
    return any(slot.start < end and start < max(slot.end, slot.start + 1) for start, end in used)


def pick_slot(rng, slots, kinds=("scalar", "flow"), test=None):
    pool = [s for s in slots if s.kind in kinds and (test is None or test(s))]
    return rng.choice(pool) if pool else None


def yaml_quoted(value: str, rng) -> str:
    if rng.random() < 0.7:
        return json.dumps(value, ensure_ascii=rng.random() < 0.5)
    return "'" + value.replace("'", "''") + "'"


def line_of(text: str, slot) -> tuple[int, int]:
    start = text.rfind("\n", 0, slot.start) + 1
    end = text.find("\n", slot.start)
    return start, len(text) if end < 0 else end


def wrong_type(rng, text, slots, files, kind):
    slot = pick_slot(rng, slots)
    if slot is None:
        return None
    new = rng.choice(WRONG_VALUES)
    return slot.start, slot.end, new, f"wrong_type({slot.start}, {short(new)})"


def delete_value(rng, text, slots, files, kind):
    slot = pick_slot(rng, slots)
    return None if slot is None else (slot.start, slot.end, "", f"delete_value({slot.start})")


def yaml_number(rng, text, slots, files, kind):
    slot = pick_slot(rng, slots, ("scalar",), lambda s: re.fullmatch(r"-?\d+", text[s.start:s.end]) is not None)
    slot = slot or pick_slot(rng, slots, ("scalar",))
    if slot is None:
        return None
    new = rng.choice(YAML_NUMBERS)
    return slot.start, slot.end, new, f"yaml_number({slot.start}: {short(text[slot.start:slot.end])} -> {short(new)})"


def yaml_swap_name(rng, text, slots, files, kind):
    slot = pick_slot(rng, slots, ("scalar", "key"))
    if slot is None:
        return None
    new = rng.choice(files.names)
    return slot.start, slot.end, new, f"swap_name({slot.start}: {short(text[slot.start:slot.end])} -> {new})"


def yaml_hostile(rng, text, slots, files, kind):
    slot = pick_slot(rng, slots, ("scalar", "key"))
    if slot is None:
        return None
    value = rng.choice(HOSTILE_STRINGS + PYTHON_NAMES)
    new = yaml_quoted(value, rng) if rng.random() < 0.8 else value
    return slot.start, slot.end, new, f"hostile({slot.kind} {slot.start}: {short(new)})"


def rename_key(rng, text, slots, files, kind):
    slot = pick_slot(rng, slots, ("key",))
    if slot is None:
        return None
    new = rng.choice(UNKNOWN_KEYS + PYTHON_NAMES[:20])
    return slot.start, slot.end, new, f"rename_key({slot.start}: {short(text[slot.start:slot.end])} -> {short(new)})"


def duplicate_key(rng, text, slots, files, kind):
    slot = pick_slot(rng, slots, ("key",), lambda s: not s.flow)
    if slot is None:
        return None
    start, end = line_of(text, slot)
    return start, start, text[start:end] + "\n", f"duplicate_key({start}: {short(text[slot.start:slot.end])})"


def unknown_key(rng, text, slots, files, kind):
    slot = pick_slot(rng, slots, ("key",), lambda s: not s.flow)
    if slot is None:
        return None
    start, _ = line_of(text, slot)
    indent = " " * (slot.start - start)
    new = f"{indent}{rng.choice(UNKNOWN_KEYS)}: {rng.choice(WRONG_VALUES[:12])}\n"
    return start, start, new, f"unknown_key({start}, {short(new)})"


def tag(rng, text, slots, files, kind):
    slot = pick_slot(rng, slots, ("scalar", "flow", "block"))
    if slot is None:
        return None
    new = rng.choice(TAGS)
    spaced = f" {new} " if slot.kind == "block" else f"{new} "
    return slot.start, slot.start, spaced, f"tag({slot.start}, {new})"


def dangerous_tag(rng, text, slots, files, kind):
    slot = pick_slot(rng, slots)
    if slot is None:
        return None
    payload = rng.choice(dangerous_payloads(SENTINEL))
    return slot.start, slot.end, payload, f"dangerous_tag({slot.start}, {short(payload)})"


def deep_flow(rng, text, slots, files, kind):
    slot = pick_slot(rng, slots)
    if slot is None:
        return None
    depth = rng.choice([10, 63, 64, 65, 100, 300, 1000])
    new = "[" * depth + "]" * depth if rng.random() < 0.5 else "{a: " * depth + "1" + "}" * depth
    return slot.start, slot.end, new, f"deep_flow({slot.start}, {depth})"


def block_nesting(rng, text, slots, files, kind):
    slot = pick_slot(rng, slots, ("key",), lambda s: not s.flow)
    if slot is None:
        return None
    start, _ = line_of(text, slot)
    indent, depth = " " * (slot.start - start), rng.choice([2, 63, 64, 65, 200, 500])
    new = "".join(indent + "  " * d + f"k{d}:\n" for d in range(depth)) + indent + "  " * depth + "leaf\n"
    return start, start, new, f"block_nesting({start}, {depth})"


def alias_bomb(rng, text, slots, files, kind):
    slot = pick_slot(rng, slots)
    if slot is None:
        return None
    levels, width = rng.randint(1, 9), rng.randint(2, 10)
    prefix = ("zz_bomb: [&b0 lol, " + ", ".join(f"&b{n} [" + ", ".join([f"*b{n - 1}"] * width) + "]"
                                                for n in range(1, levels + 1)) + "]\n")
    return slot.start, slot.end, f"*b{levels}", f"alias_bomb({slot.start}, {levels}x{width})", prefix


def recursive_alias(rng, text, slots, files, kind):
    slot = pick_slot(rng, slots)
    if slot is None:
        return None
    new = rng.choice(["&r [*r]", "&r {a: *r}", "&r [1, [2, *r]]", "&r {<<: *r}", "&r [*r, *r, *r]"])
    return slot.start, slot.end, new, f"recursive_alias({slot.start}, {new})"


def anchor_alias(rng, text, slots, files, kind):
    """A value given an anchor, and another value replaced by its alias (a value in two places)."""
    values = [s for s in slots if s.kind in ("scalar", "flow")]
    if len(values) < 2:
        return None
    a, b = sorted(rng.sample(values, 2), key=lambda s: s.start)
    if overlaps(b, [(a.start, max(a.end, a.start + 1))]):
        return None
    new = text[a.start:a.end]
    return a.start, b.end, f"&zz {new}" + text[a.end:b.start] + "*zz", f"anchor_alias({a.start} -> {b.start})"


def merge_key(rng, text, slots, files, kind):
    slot = pick_slot(rng, slots, ("key",), lambda s: not s.flow)
    if slot is None:
        return None
    start, _ = line_of(text, slot)
    value = rng.choice(["{bogus: 1}", "{}", "{name: merged}", "[{a: 1}, {b: 2}]", "*undefined", "1"])
    new = " " * (slot.start - start) + f"<<: {value}\n"
    return start, start, new, f"merge_key({start}, {value})"


def embedded_rules(rng, text, slots, files, kind):
    """A rules snippet inside YAML mutated like rules: a content ability (`|` block) or a bot expression."""
    if kind == "content":
        slot = pick_slot(rng, slots, ("scalar",), lambda s: text[s.start] == "|")
        return None if slot is None else ability_edit(rng, text, slot, files)
    if kind == "bot":
        slot = pick_slot(rng, slots, ("scalar",), lambda s: text[s.start] != "|")
        return None if slot is None else expression_edit(rng, text, slot, files)
    return None


def ability_edit(rng, text, slot, files):
    body_start = text.index("\n", slot.start) + 1
    lines = text[body_start:slot.end].split("\n")
    indent = min((len(line) - len(line.lstrip(" ")) for line in lines if line.strip()), default=0)
    snippet, ops = "\n".join(line[indent:] for line in lines), []
    # a snippet's statements have no indentation: give them one, so that loops can go before any of them
    snippet = "\n".join("    " + line if line.strip() else line for line in snippet.split("\n"))
    table = SNIPPET_OPS + [(insert_loop, 8), (insert_recursion_statement, 3)]
    for _ in range(op_count(rng)):
        snippet = apply(table, rng, snippet, files, ops)
    snippet = "\n".join(line[4:] if line.startswith("    ") else line for line in snippet.split("\n"))
    body = "\n".join(" " * indent + line if line.strip() else line for line in snippet.split("\n"))
    return body_start, slot.end, body, f"ability({slot.start}: {'; '.join(ops)})"


def insert_recursion_statement(rng, text, files):
    """In a snippet only statements go: a loop made of the ability calling itself is not possible, so a bomb."""
    statement = f"let zz_n = {rng.choice(EXPRESSION_BOMBS)}"
    text, at = insert_statement(rng, text, statement)
    return text, f"insert_statement(line {at}, {short(statement)})"


def expression_edit(rng, text, slot, files):
    source = text[slot.start:slot.end]
    if source[:1] in "'\"":
        try:
            from ruamel.yaml import YAML

            source = str(YAML(typ="safe").load(source))
        except Exception:
            source = source[1:-1]
    ops: list[str] = []
    for _ in range(op_count(rng)):
        source = apply(SNIPPET_OPS, rng, source, files, ops)
    return slot.start, slot.end, yaml_quoted(source, rng), f"expression({slot.start}: {'; '.join(ops)})"


def hostile_path(rng, text, slots, files, kind):
    """The manifest's `content:` (or a new `rules:`) naming a place outside the sandbox."""
    path = rng.choice(HOSTILE_PATHS)
    quoted = yaml_quoted(path, rng)
    match = re.search(r"^content:.*$", text, re.MULTILINE)
    if match is None or rng.random() < 0.3:
        return len(text), len(text), f"\nrules: [{quoted}]\n", f"hostile_path(rules: {short(path)})"
    if rng.random() < 0.5:
        new = f"content: {quoted}"
    else:
        new = f"content: [../content, {quoted}]"
    return match.start(), match.end(), new, f"hostile_path(content: {short(new)})"


YAML_EDITS = [(wrong_type, 8), (delete_value, 3), (yaml_number, 8), (yaml_swap_name, 10), (yaml_hostile, 8),
              (rename_key, 5), (duplicate_key, 4), (unknown_key, 3), (tag, 2), (dangerous_tag, 3), (deep_flow, 2),
              (block_nesting, 2), (alias_bomb, 2), (recursive_alias, 2), (anchor_alias, 3), (merge_key, 2)]
KIND_EDITS = {"manifest": [(hostile_path, 12)], "content": [(embedded_rules, 16)], "bot": [(embedded_rules, 30)]}
