"""Hypothesis strategies that mutate the files of a real ruleset (Cernunos), one file per example.

Used by tests/test_fuzz_loader.py. The sandbox a test builds has this layout (the manifest's
`content:` is rewritten to point at the copied content):

    <tmp>/game/game.yaml          manifest
    <tmp>/game/*.rules            rules files
    <tmp>/game/tests/*.yaml       scenario files
    <tmp>/content/*.yaml          content (board, pieces)

Every strategy draws a `Mutation`: the sandbox-relative file it replaces, the operations it
applied (a readable description, enough to rebuild the file from the original) and the bytes.
Text is handled as `str` with surrogate escapes, so that invalid UTF-8 bytes can be inserted
and the result encoded with `errors="surrogateescape"`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "rulesets" / "cernunos"
CARDS = ROOT / "cards" / "cernunos"
CONTENT_LINE = re.compile(r"^content:.*$", re.MULTILINE)


# --- the original files -------------------------------------------------------------------

def original_files() -> dict[str, str]:
    """Sandbox-relative path -> text of every file of the sandbox (the manifest's `content:` fixed)."""
    files = {"game/game.yaml": CONTENT_LINE.sub("content: ../content", (GAME / "game.yaml").read_text(encoding="utf-8"))}
    for path in sorted(GAME.glob("*.rules")):
        files[f"game/{path.name}"] = path.read_text(encoding="utf-8")
    for path in sorted((GAME / "tests").glob("*.yaml")):
        files[f"game/tests/{path.name}"] = path.read_text(encoding="utf-8")
    for path in sorted(CARDS.glob("*.yaml")):
        files[f"content/{path.name}"] = path.read_text(encoding="utf-8")
    return files


ORIGINALS = original_files()
RULES_FILES = sorted(p for p in ORIGINALS if p.endswith(".rules"))
MANIFEST_FILE = "game/game.yaml"
CONTENT_FILES = sorted(p for p in ORIGINALS if p.startswith("content/"))
SCENARIO_FILES = sorted(p for p in ORIGINALS if p.startswith("game/tests/"))


def _keywords() -> list[str]:
    """Every keyword and symbol of the rules language, read from its grammar."""
    grammar = (ROOT / "grammar" / "ludolex.lark").read_text(encoding="utf-8")
    words = set(re.findall(r'"([^"\s]+)"', grammar))
    words |= {"public", "private", "hidden", "most", "fewest", "count", "sum", "any", "all", "select", "first",
              "max", "min", "self", "you", "players", "locations"}
    return sorted(words)


KEYWORDS = _keywords()


class Mutation:
    """A replaced file. Not a dataclass, so that Hypothesis reports it by its short repr."""

    __slots__ = ("target", "ops", "data")

    def __init__(self, target: str, ops: tuple, data: bytes):
        self.target = target  # the sandbox-relative file replaced
        self.ops = ops  # what was done to it, in order
        self.data = data

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", errors="replace")

    def __repr__(self) -> str:
        return f"Mutation({self.target!r}, ops={_short(self.ops)}, {len(self.data)} bytes)"


def _short(value):
    """A description with long strings abbreviated, for readable Hypothesis reports."""
    if isinstance(value, tuple):
        return tuple(_short(v) for v in value)
    if isinstance(value, str) and len(value) > 80:
        return f"{value[:40]!r}...({len(value)} chars)...{value[-20:]!r}"
    return value


def _encode(text: str) -> bytes:
    return text.encode("utf-8", errors="surrogateescape")


# --- building blocks ----------------------------------------------------------------------

HUGE_NUMBERS = [str(10**100), "-" + str(10**100), str(2**63), str(2**64 + 1), "0" * 60 + "7",
                "1" + "0" * 4299,  # 4300 digits: the most int() accepts
                "1" + "0" * 4300]  # 4301 digits: more than int() converts by default
INVALID_UTF8 = ["\udcff", "\udcfe", "\udcc3(", "\udced\udca0\udc80", "\udc80", "\udcf8\udc88\udc80\udc80\udc80"]
CONTROL = ["\x00", "\r", "\r\n", "\x0c", "\x1b", "\x7f", "\ufeff", "\u2028", "\x85", "\t", "\x0b"]
printable = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40)
any_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


def _index(draw, size: int) -> int:
    return draw(st.integers(0, max(0, size - 1)))


def _lines_op(draw, text: str, kind: str) -> tuple[str, tuple]:
    """Operations on lines and characters that make sense for any text file."""
    lines = text.split("\n")
    if kind == "delete_lines":
        i, n = _index(draw, len(lines)), draw(st.integers(1, 6))
        del lines[i:i + n]
        return "\n".join(lines), (kind, i, n)
    if kind == "duplicate_lines":
        i, n = _index(draw, len(lines)), draw(st.integers(1, 8))
        at = draw(st.integers(0, len(lines)))
        lines[at:at] = lines[i:i + n]
        return "\n".join(lines), (kind, i, n, at)
    if kind == "swap_lines":
        i, j = _index(draw, len(lines)), _index(draw, len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines), (kind, i, j)
    if kind == "reindent":
        i = _index(draw, len(lines))
        indent = draw(st.sampled_from(["", " ", "  ", "   ", "\t", " \t", "\t ", " " * 9, " " * 40]))
        lines[i] = indent + lines[i].lstrip(" \t")
        return "\n".join(lines), (kind, i, indent)
    if kind == "truncate":
        at = draw(st.integers(0, len(text)))
        return text[:at], (kind, at)
    if kind == "insert_text":
        at = draw(st.integers(0, len(text)))
        inserted = draw(st.one_of(printable, any_text))
        return text[:at] + inserted + text[at:], (kind, at, inserted)
    if kind == "insert_control":
        at = draw(st.integers(0, len(text)))
        inserted = draw(st.sampled_from(CONTROL))
        return text[:at] + inserted + text[at:], (kind, at, inserted)
    if kind == "insert_invalid_utf8":
        at = draw(st.integers(0, len(text)))
        inserted = draw(st.sampled_from(INVALID_UTF8))
        return text[:at] + inserted + text[at:], (kind, at, _encode(inserted))
    if kind == "random_bytes":
        raw = draw(st.binary(max_size=300))
        return raw.decode("utf-8", errors="surrogateescape"), (kind, raw)
    if kind == "long_line":
        i = _index(draw, len(lines))
        length = draw(st.sampled_from([1_000, 100_000]))
        lines[i] = lines[i] + draw(st.sampled_from([" ", "x", "# ", "a,"])) * (length // 2)
        return "\n".join(lines), (kind, i, length)
    raise AssertionError(kind)


GENERIC_OPS = ["delete_lines", "duplicate_lines", "swap_lines", "reindent", "truncate", "insert_text",
               "insert_control", "insert_invalid_utf8", "random_bytes", "long_line"]


# --- rules files --------------------------------------------------------------------------

TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\w+|[^\w\s]')
ATOM = re.compile(r'"|\w')
NEST_FORMS = {  # how to wrap an atom `depth` times
    "paren": ("(", ")"), "negate": ("-(", ")"), "list": ("[", "]"), "not": ("not (", ")"),
    "call": ("next(", ")"), "quantifier": ("count(x in [", "])"),
}
NEST_DEPTHS = [1, 2, 10, 50, 150, 199, 200, 201, 300, 500]
RULE_OPS = ["delete_lines", "duplicate_lines", "swap_tokens", "insert_keyword", "replace_token", "insert_text",
            "reindent", "truncate", "huge_number", "nest", "long_sum", "long_line", "long_name", "long_string",
            "long_list", "deep_blocks", "insert_control", "insert_invalid_utf8", "swap_lines", "random_bytes"]


def _tokens(text: str, atoms_only: bool = False) -> list[re.Match]:
    found = list(TOKEN.finditer(text))
    if atoms_only:
        found = [t for t in found if ATOM.match(t.group())] or found
    return found


def _replace(text: str, token: re.Match, new: str) -> str:
    return text[:token.start()] + new + text[token.end():]


def _rules_op(draw, text: str, kind: str) -> tuple[str, tuple]:
    tokens = _tokens(text)
    if kind in GENERIC_OPS and kind not in ("long_line",):
        return _lines_op(draw, text, kind)
    if not tokens:
        return _lines_op(draw, text, "insert_text")
    if kind == "swap_tokens":
        a, b = sorted((_index(draw, len(tokens)), _index(draw, len(tokens))))
        ta, tb = tokens[a], tokens[b]
        if a == b:
            return text, (kind, a, b)
        return text[:ta.start()] + tb.group() + text[ta.end():tb.start()] + ta.group() + text[tb.end():], (kind, a, b)
    if kind == "insert_keyword":
        at = draw(st.integers(0, len(text)))
        word = draw(st.sampled_from(KEYWORDS))
        shape = draw(st.sampled_from([" {} ", "{}", "\n{}", " {}:\n", "\n    {} "]))
        return text[:at] + shape.format(word) + text[at:], (kind, at, shape.format(word))
    if kind == "replace_token":
        t = _index(draw, len(tokens))
        new = draw(st.one_of(st.sampled_from(KEYWORDS), printable))
        return _replace(text, tokens[t], new), (kind, t, new)
    if kind == "huge_number":
        atoms = _tokens(text, atoms_only=True)
        t = _index(draw, len(atoms))
        number = draw(st.sampled_from(HUGE_NUMBERS))
        return _replace(text, atoms[t], number), (kind, t, number)
    if kind in ("nest", "long_sum"):
        atoms = _tokens(text, atoms_only=True)
        t = _index(draw, len(atoms))
        depth = draw(st.sampled_from(NEST_DEPTHS))
        atom = atoms[t].group()
        if kind == "long_sum":  # a + a + ... : a left-nested tree `depth` levels deep
            return _replace(text, atoms[t], " + ".join([atom] * (depth + 1))), (kind, t, depth)
        form = draw(st.sampled_from(sorted(NEST_FORMS)))
        opening, closing = NEST_FORMS[form]
        return _replace(text, atoms[t], opening * depth + atom + closing * depth), (kind, t, form, depth)
    lines = text.split("\n")
    i = draw(st.integers(0, len(lines)))
    length = draw(st.sampled_from([100, 10_000, 100_000]))
    if kind == "long_line":
        new = ["# " + "x" * length]
    elif kind == "long_name":
        new = [f"variable {'v' * length} = 1"]
    elif kind == "long_string":
        new = [f'variable long_text = "{"a" * length}"']
    elif kind == "long_list":  # a flat list: long, not deep
        new = [f"variable long_list = [{', '.join(['1'] * (length // 10))}]"]
    elif kind == "deep_blocks":  # nested `if` blocks
        depth = draw(st.sampled_from(NEST_DEPTHS))
        new = ["procedure deep_blocks():"] + [" " * (d + 1) + "if true:" for d in range(depth)] + [" " * (depth + 1) + "pass"]
        lines[i:i] = new
        return "\n".join(lines), (kind, i, depth)
    else:
        raise AssertionError(kind)
    lines[i:i] = new
    return "\n".join(lines), (kind, i, length)


@st.composite
def rules_mutations(draw, files=RULES_FILES) -> Mutation:
    target = draw(st.sampled_from(files))
    text, ops = ORIGINALS[target], []
    for _ in range(draw(st.integers(1, 3))):
        text, op = _rules_op(draw, text, draw(st.sampled_from(RULE_OPS)))
        ops.append(op)
    return Mutation(target, tuple(ops), _encode(text))


# --- YAML files ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Slot:
    """A place in the original YAML text: a key, or a value (scalar or flow collection)."""
    start: int
    end: int
    kind: str  # "key", "scalar", "flow", "block" (a block collection: `start` is just after its key's colon)
    flow: bool  # inside a flow collection
    indent: int  # column of the key (or item) it belongs to


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for match in re.finditer("\n", text):
        starts.append(match.end())
    return starts


def _quoted_end(text: str, start: int) -> int:
    quote, j = text[start], start + 1
    while j < len(text):
        if quote == '"' and text[j] == "\\":
            j += 2
            continue
        if text[j] == quote:
            if quote == "'" and text[j + 1:j + 2] == "'":
                j += 2
                continue
            return j + 1
        j += 1
    return len(text)


def _bracket_end(text: str, start: int) -> int:
    depth, j = 0, start
    while j < len(text):
        c = text[j]
        if c in "\"'":
            j = _quoted_end(text, j)
            continue
        if c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return len(text)


def _scalar_end(text: str, start: int, flow: bool, indent: int) -> int:
    if text[start] in "\"'":
        return _quoted_end(text, start)
    line_end = text.find("\n", start)
    line_end = len(text) if line_end < 0 else line_end
    if text[start] in "|>":  # a block scalar: the header and every line indented deeper than its key
        end = line_end
        while end < len(text):
            following = text.find("\n", end + 1)
            following = len(text) if following < 0 else following
            line = text[end + 1:following]
            if line.strip() and len(line) - len(line.lstrip(" ")) <= indent:
                break
            end = following
        return end
    piece = text[start:line_end]
    comment = piece.find(" #")
    if comment >= 0:
        piece = piece[:comment]
    if flow:
        piece = re.split(r"[,\]}]", piece, maxsplit=1)[0]
    return start + len(piece.rstrip())


KEY_END = re.compile(r":(?=\s|$)", re.MULTILINE)


def yaml_slots(text: str) -> list[Slot]:
    """Keys and values of a YAML document, as spans of its text."""
    document = YAML(typ="rt").load(text)
    starts = _line_starts(text)
    slots: list[Slot] = []

    def offset(line: int, column: int) -> int:
        return starts[line] + column

    def value(node, line: int, column: int, flow: bool, indent: int, key_end: int | None) -> None:
        start = offset(line, column)
        if isinstance(node, (CommentedMap, CommentedSeq)):
            if node.fa.flow_style():
                slots.append(Slot(start, _bracket_end(text, start), "flow", flow, indent))
            elif key_end is not None:
                colon = text.find(":", key_end)
                slots.append(Slot(colon + 1, colon + 1, "block", flow, indent))
            visit(node)
        elif start < len(text):
            slots.append(Slot(start, _scalar_end(text, start, flow, indent), "scalar", flow, indent))

    def visit(node) -> None:
        flow = bool(node.fa.flow_style())
        if isinstance(node, CommentedMap):
            for key in list(node.keys()):
                key_line, key_column = node.lc.key(key)
                key_start = offset(key_line, key_column)
                if text[key_start] in "\"'":
                    key_end = _quoted_end(text, key_start)
                else:
                    colon = KEY_END.search(text, key_start)
                    key_end = colon.start() if colon else len(text)
                slots.append(Slot(key_start, key_end, "key", flow, key_column))
                value(node[key], *node.lc.value(key), flow, key_column, key_end)
        else:
            for i, item in enumerate(node):
                line, column = node.lc.item(i)
                value(item, line, column, flow, column, None)

    if isinstance(document, (CommentedMap, CommentedSeq)):
        visit(document)
    return slots


SLOTS = {path: yaml_slots(text) for path, text in ORIGINALS.items() if path.endswith(".yaml")}

WRONG_VALUES = [
    "[1, 2]", "[]", "{}", "{a: 1}", "[[]]", '"text"', "''", '"  "', '" "', str(10**100), "-1", "-" + str(10**100), "0",
    "null", "~", "1.5", "-0.0", ".nan", ".inf", "-.inf", "true", "no", "0x1F", "0o17", "1e400", "2001-12-14",
    '"\\0"', '"../con\\0tent"', "9" * 5000, "*undefined_alias", "&anchor value", "|\n  block", '"\\ud800"',
    "!!binary aGVsbG8=", "!!set {a, b}", "!!omap [{a: 1}]", "!!python/name:os.system", "!!python/tuple [1, 2]",
    '!!python/object/apply:os.system ["echo pwned"]', "!custom tagged", "green tree", "a b c", "tree", "green",
    "x" * 300, "../" * 100, "/", ".", "~/x", "*", "a/../../b",
]
UNKNOWN_KEYS = [
    "bogus", "nmae", "Name", "per_players", "startsin", "trait", "abilities2", "x-extra", "_", "a b", "ü", "1", "null",
    "~", "true", "''", '"quoted key"', "<<", "? [complex]", "scenarios", "pieces", "board", "players", "grid",
    "locations", "attributes", "connections", "count", "per_player", "starts_in", "content", "position", "expect",
    "choices", "rules", "seed", "variables", "zones", "column", "row", "node_for_adding", "str", "int", "a[0]",
    "x" * 300,
]
TAGS = ["!!python/object/apply:os.system", "!!python/object/new:os.system", "!!python/name:os.system",
        "!!python/module:os", "!!python/tuple", "!!python/object:argparse.Namespace", "!!str", "!!int", "!!float",
        "!!bool", "!!null", "!!seq", "!!map", "!!binary", "!!set", "!!omap", "!!timestamp", "!custom", "!",
        "!<tag:yaml.org,2002:python/object/apply:os.system>"]
YAML_OPS = ["wrong_type", "unknown_key", "duplicate_key", "rename_key", "tag", "deep_flow", "alias_bomb",
            "merge_key", "delete_value", "block_nesting"]


def _yaml_edit(draw, text: str, slots: list[Slot], kind: str, used: list[tuple[int, int]]):
    """One structural edit at a slot of the original text: (start, end, replacement, description, bomb)."""
    keys = [s for s in slots if s.kind == "key"]
    values = [s for s in slots if s.kind in ("scalar", "flow")]
    pool = keys if kind in ("unknown_key", "duplicate_key", "rename_key", "merge_key", "block_nesting") else values
    if kind == "tag":
        pool = [s for s in slots if s.kind != "key"]
    pool = [s for s in pool if not any(s.start < e and b < max(s.end, s.start + 1) for b, e in used)]
    if not pool:
        return None
    slot = pool[_index(draw, len(pool))]
    where = text.rfind("\n", 0, slot.start) + 1  # the start of the slot's line
    line_end = text.find("\n", slot.start)
    line_end = len(text) if line_end < 0 else line_end
    bomb = None
    if kind == "wrong_type":
        new = draw(st.one_of(st.sampled_from(WRONG_VALUES), printable.map(lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'), printable))
        edit = (slot.start, slot.end, new)
    elif kind == "delete_value":
        edit = (slot.start, slot.end, "")
    elif kind == "tag":
        tag = draw(st.sampled_from(TAGS))
        edit = (slot.start, slot.start, f" {tag} " if slot.kind == "block" else f"{tag} ")
    elif kind == "deep_flow":
        # ruamel's pure-Python scanner is quadratic in the depth of flow collections: about 1.5s at
        # 1000 levels, 3s at most (deeper, it stops with a RecursionError, reported as LX202).
        depth = draw(st.sampled_from([1, 10, 100, 300, 1000]))
        shape = draw(st.sampled_from(["list", "map"]))
        new = "[" * depth + "]" * depth if shape == "list" else "{a: " * depth + "1" + "}" * depth
        edit = (slot.start, slot.end, new)
        kind = (kind, shape, depth)
    elif kind == "alias_bomb":  # a "billion laughs" of moderate size: width ** levels leaves
        levels, width = draw(st.integers(1, 6)), draw(st.integers(1, 10))
        bomb = ["zz_bomb: [&b0 lol, " + ", ".join(f"&b{n} [" + ", ".join([f"*b{n - 1}"] * width) + "]"
                                                   for n in range(1, levels + 1)) + "]"]
        edit = (slot.start, slot.end, f"*b{levels}")
        kind = (kind, levels, width)
    else:  # edits at a key
        key_text = text[slot.start:slot.end]
        if kind == "rename_key":
            new = draw(st.one_of(st.sampled_from(UNKNOWN_KEYS), printable))
            edit = (slot.start, slot.end, new)
        elif slot.flow:  # a key inside a flow mapping: insert `key: value, ` before it
            new_key = key_text if kind == "duplicate_key" else draw(st.sampled_from(UNKNOWN_KEYS))
            if kind == "merge_key":
                new_key, value = "<<", draw(st.sampled_from(["{bogus: 1}", "{}", "*b0", "[{a: 1}]"]))
            elif kind == "block_nesting":
                value = "1"
            else:
                value = draw(st.sampled_from(WRONG_VALUES[:12]))
            edit = (slot.start, slot.start, f"{new_key}: {value}, ")
        else:  # a block key: insert a whole line before its line, at its indentation
            indent = " " * (slot.start - where)
            if kind == "duplicate_key":
                new = text[where:line_end] + "\n"
            elif kind == "merge_key":
                new = indent + "<<: " + draw(st.sampled_from(["{bogus: 1}", "{}", "{name: merged}", "[{a: 1}, {b: 2}]"])) + "\n"
            elif kind == "block_nesting":
                depth = draw(st.sampled_from([2, 50, 500]))
                new = "".join(indent + "  " * d + f"k{d}:\n" for d in range(depth)) + indent + "  " * depth + "leaf\n"
                kind = (kind, depth)
            else:
                new = indent + draw(st.sampled_from(UNKNOWN_KEYS)) + ": " + draw(st.sampled_from(WRONG_VALUES[:12])) + "\n"
            edit = (where, where, new)
    description = (kind if isinstance(kind, tuple) else (kind,)) + ((edit[0], edit[1], edit[2]),)
    return edit, description, bomb


@st.composite
def yaml_mutations(draw, files) -> Mutation:
    target = draw(st.sampled_from(files))
    text, slots = ORIGINALS[target], SLOTS[target]
    edits, ops, prefix, used = [], [], [], []
    for _ in range(draw(st.integers(0, 2))):
        found = _yaml_edit(draw, text, slots, draw(st.sampled_from(YAML_OPS)), used)
        if found is None:
            continue
        (start, end, new), description, bomb = found
        used.append((start, max(end, start + 1)))
        edits.append((start, end, new))
        ops.append(description)
        prefix = bomb or prefix
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    if prefix:
        text = "\n".join(prefix) + "\n" + text
    for _ in range(draw(st.integers(0 if ops else 1, 2))):
        text, op = _lines_op(draw, text, draw(st.sampled_from(GENERIC_OPS)))
        ops.append(op)
    return Mutation(target, tuple(ops), _encode(text))


# --- abilities: rules snippets inside the content YAML --------------------------------------

ABILITIES = [(path, slot) for path in CONTENT_FILES for slot in SLOTS[path]
             if slot.kind == "scalar" and ORIGINALS[path][slot.start] == "|"]


@st.composite
def ability_mutations(draw) -> Mutation:
    """A piece's ability (a `|` block of rules text in the content) mutated like a rules file."""
    target, slot = draw(st.sampled_from(ABILITIES))
    text = ORIGINALS[target]
    body_start = text.index("\n", slot.start) + 1
    lines = text[body_start:slot.end].split("\n")
    indent = min(len(line) - len(line.lstrip(" ")) for line in lines if line.strip())
    snippet, ops = "\n".join(line[indent:] for line in lines), [("ability", slot.start)]
    for _ in range(draw(st.integers(1, 2))):
        snippet, op = _rules_op(draw, snippet, draw(st.sampled_from(RULE_OPS)))
        ops.append(op)
    body = "\n".join(" " * indent + line if line.strip() else line for line in snippet.split("\n"))
    return Mutation(target, tuple(ops), _encode(text[:body_start] + body + text[slot.end:]))


# --- YAML tags that would run code or build objects if a loader honoured them ---------------

def dangerous_payloads(marker: str) -> list[str]:
    """Tagged YAML values that, under an unsafe loader, would create `marker` or build an object."""
    return [
        f'!!python/object/apply:os.system ["touch {marker}"]',
        f'!!python/object/apply:os.system {{args: ["touch {marker}"]}}',
        f'!!python/object/new:os.system ["touch {marker}"]',
        f'!!python/object/apply:subprocess.check_call [["touch", "{marker}"]]',
        f'!!python/object/new:subprocess.Popen [["touch", "{marker}"]]',
        f'!!python/object/apply:builtins.exec ["open(\'{marker}\', \'w\').close()"]',
        f'!!python/object/apply:pathlib.Path.touch [!!python/object/apply:pathlib.Path ["{marker}"]]',
        f'!<tag:yaml.org,2002:python/object/apply:os.system> ["touch {marker}"]',
        "!!python/name:os.system",
        "!!python/module:os",
        "!!python/object:argparse.Namespace {x: 1}",
        "!!python/tuple [1, 2]",
    ]


@st.composite
def tag_placements(draw, marker: str):
    """A YAML file of the ruleset with a dangerous tag somewhere: (target, text, description)."""
    target = draw(st.sampled_from(sorted(SLOTS)))
    text = ORIGINALS[target]
    payload = draw(st.sampled_from(dangerous_payloads(marker)))
    mode = draw(st.sampled_from(["replace_value", "tag_value", "document", "directive"]))
    if mode == "document":
        return target, payload + "\n", (mode, payload)
    if mode == "directive":  # the tag written through a %TAG handle
        short = payload.replace("!!python/", "!p!")
        return target, "%TAG !p! tag:yaml.org,2002:python/\n---\n" + short + "\n", (mode, short)
    candidates = [s for s in SLOTS[target] if s.kind != "key"]
    slot = candidates[_index(draw, len(candidates))]
    if mode == "tag_value" or slot.kind == "block":  # the tag put on the value already there
        tag = payload.partition(" ")[0]
        spaced = f" {tag} " if slot.kind == "block" else f"{tag} "
        return target, text[:slot.start] + spaced + text[slot.start:], ("tag_value", tag, slot.start)
    return target, text[:slot.start] + payload + text[slot.end:], (mode, payload, slot.start)
