"""Text to AST: the Lark LALR parser and one transformer method per grammar rule."""
from __future__ import annotations

import ast as python_ast
import difflib
import math
import os
import re
import sys
from functools import lru_cache
from pathlib import Path

import lark
from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import DedentError, Indenter

from interpreter.diagnostics.diagnostic import Diagnostic, Position
from interpreter.diagnostics.errors import LudolexError
from interpreter.language import declarations as d
from interpreter.language import expressions as e
from interpreter.language import statements as s
from interpreter.language.grammar import grammar_text, reserved_words
from interpreter.safety.limits import LIMITS


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8
    text = ""  # the text being parsed (set by `parse`)
    last_newline = None  # the newline token being handled (where a bad dedent is)

    def handle_NL(self, token):
        self.last_newline = token
        yield from super().handle_NL(token)

    def process(self, stream):
        return super().process(self._whole_words(stream))

    def _whole_words(self, stream):
        """A keyword is a whole word. Where only keywords fit, the contextual lexer would read
        `orthogonal` as `or` + `thogonal`: give the parser the whole name instead, which it rejects."""
        text, skip_to = self.text, -1
        for token in stream:
            if token.start_pos is not None and token.start_pos < skip_to:
                continue
            end = token.end_pos
            if token.type != "NAME" and token.value.isidentifier() and end is not None and end < len(text) and (
                    text[end].isalnum() or text[end] == "_"):
                word = re.match(r"\w+", text[token.start_pos:]).group(0)
                skip_to = token.start_pos + len(word)
                yield Token.new_borrow_pos("NAME", word, token)
                continue
            yield token


@lru_cache(maxsize=1)
def parser() -> Lark:
    return Lark(grammar_text(), parser="lalr", lexer="contextual", postlex=_Indenter(), start=["start", "snippet"],
                propagate_positions=True, maybe_placeholders=True, cache=_private_cache())


def _private_cache() -> str | bool:
    """Where Lark may keep the parser it builds (a pickle, loaded at the next start): in a folder
    only this user can write, never a shared one such as the temp folder; or nowhere."""
    if not hasattr(os, "getuid"):
        return False
    folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ludolex"
    file = folder / f"grammar-lark{lark.__version__}-py{sys.version_info[0]}{sys.version_info[1]}.pickle"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        for path in (folder, file) if file.exists() else (folder,):
            info = path.lstat()
            if info.st_uid != os.getuid() or info.st_mode & 0o022 or not (path.is_dir() or path.is_file()):
                return False
    except (OSError, RuntimeError):  # no home, a read-only disk...
        return False
    return str(file)


def parse_tree(text: str, start: str = "start"):
    """The Lark tree of `text` (raises Lark's errors)."""
    lark = parser()
    lark.parser.lexer_conf.postlex.text = text  # for the whole-word check of keywords
    return lark.parse(text, start=start)


HINT_CHARACTERS = 250_000  # the most characters parsed again, in one ruleset, to find the keyword an error misses


class HintBudget:
    """How many more characters may be parsed again for hints, in one ruleset: files of many long
    declarations, each with a syntax error, must not take minutes to report them."""

    def __init__(self, characters: int = HINT_CHARACTERS):
        self.characters = characters


def parse(text: str, file: str, start: str = "start", line_offset: int = 0, column_offset: int = 0,
          block: bool = False, budget: HintBudget | None = None):
    """Parse rules text; errors name `file` and the line and column, shifted by the offsets."""
    if not text.endswith("\n"):
        text += "\n"
    try:
        tree = parse_tree(text, start)
    except (UnexpectedInput, DedentError) as error:
        diagnostic = _syntax_diagnostic(error, file, text, start, budget or HintBudget())
        diagnostic.position = diagnostic.position.shifted(line_offset, column_offset, block) if diagnostic.position else None
        raise LudolexError([diagnostic]) from None
    too_deep = _too_deep(tree, file, line_offset)
    if too_deep:
        raise LudolexError([too_deep])
    try:
        return _ToAst(file, line_offset, column_offset, block).transform(tree)
    except VisitError as error:
        if isinstance(error.orig_exc, BadLiteral):
            raise LudolexError([Diagnostic("LX104", error.orig_exc.message, error.orig_exc.position)]) from None
        raise


DECLARATION_WORDS = ("faction", "with faction", "event", "ability", "public", "private", "hidden", "option", "zone", "variable", "property", "function", "modify", "override", "procedure",
                     "instead of", "anytime", "cannot place", "cannot move", "cannot remove", "when", "always", "setup", "play")
DECLARATION = re.compile(rf"^({'|'.join(DECLARATION_WORDS)})\b\s*(\w*)")


def parse_recovering(text: str, file: str, budget: HintBudget | None = None):
    """Parse a whole rules file, reporting every syntax error it can find, in one pass.

    Each top-level declaration (a line starting at column 1, with the indented lines after it)
    is parsed on its own, so an error loses only its own declaration. Returns (declarations,
    diagnostics, the names the lost declarations declared): those names must not then be
    reported as unknown.
    """
    lines = text.split("\n")
    declarations, diagnostics, lost_names, budget = [], [], set(), budget or HintBudget()
    for start, end, chunk in declaration_chunks(lines):
        try:
            declarations += parse(chunk, file, line_offset=start, budget=budget)
        except LudolexError as error:
            diagnostic = error.diagnostics[0]
            opened = _unclosed_bracket(lines, start, end)
            if opened and diagnostic.code == "LX101" and "end of file" in diagnostic.message:
                diagnostic = Diagnostic("LX101", f"`{opened[2]}` is never closed", Position(file, opened[0], opened[1]))
            diagnostics.append(diagnostic)
            match = DECLARATION.match(_declaration_word_corrected(lines[start]))
            if match:
                lost_names.add(match.group(2) or match.group(1))
    return declarations, diagnostics, lost_names


def declaration_chunks(lines: list[str]):
    """(first line, line after the last, text) of each top-level declaration of a rules file's
    lines: a line starting at column 1 and the indented lines after it (the lines before the
    first declaration make a chunk of their own). Chunks of only blank lines and comments are left out."""
    starts = [n for n, line in enumerate(lines) if line[:1] not in ("", " ", "\t", "#")] or [0]
    if starts[0] != 0:
        starts.insert(0, 0)
    for start, end in zip(starts, starts[1:] + [len(lines)]):
        chunk = "\n".join(lines[start:end])
        if chunk.strip():
            yield start, end, chunk


def _declaration_word_corrected(line: str) -> str:
    """The line with a misspelt first word (`plays:`, `funtion f(x) = ...`) replaced by the declaration
    keyword it resembles, so that the names its lost declaration gave are known (and not reported missing)."""
    word = re.match(r"\w*", line).group()
    if DECLARATION.match(line) or not word:
        return line
    close = difflib.get_close_matches(word, DECLARATION_WORDS, n=1, cutoff=0.6)
    return close[0] + line[len(word):] if close else line


def _unclosed_bracket(lines: list[str], start: int, end: int) -> tuple[int, int, str] | None:
    """The last bracket left open in lines[start:end] (line numbers in the result are 1-based)."""
    stack = []
    for number in range(start, end):
        text = lines[number].split("#", 1)[0]
        for column, char in enumerate(text, 1):
            if char in "([":
                stack.append((number + 1, column, char))
            elif char in ")]" and stack:
                stack.pop()
    return stack[-1] if stack else None


TOKEN_WORDS = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of the indented block", "NAME": "a name",
    "INT": "a number", "ESCAPED_STRING": "a quoted text", "$END": "end of file", "QUANTIFIER": "count/sum/any/all/select/first/max/min",
    "RANK_ORDER": "`most` or `fewest`", "VISIBILITY": "public/private/hidden", "TIES_SHARE": "`ties share`",
    "ANY_OF": "`any of`", "CANNOT_PLACE": "`place`", "CANNOT_REMOVE": "`remove`", "CANNOT_FROM": "`from`",
    "IGNORING_LIMITS": "`ignoring limits`",
}


def _describe(terminal: str) -> str:
    if terminal in TOKEN_WORDS:
        return TOKEN_WORDS[terminal]
    for definition in parser().terminals:
        if definition.name == terminal and definition.pattern.type == "str":
            return f"`{definition.pattern.value}`"
    return terminal.lower()


def _syntax_diagnostic(error, file: str, text: str, start: str, budget: HintBudget) -> Diagnostic:
    if isinstance(error, DedentError):
        newline = parser().parser.lexer_conf.postlex.last_newline
        line = newline.end_line if newline is not None else 1
        indent = len(newline.value) - newline.value.rfind("\n") - 1 if newline is not None else 0
        return Diagnostic("LX102", "this line's indentation matches no enclosing block", Position(file, line, indent + 1),
                          hint="indent it exactly like the lines of the block it belongs to")
    line, column = getattr(error, "line", 1) or 1, getattr(error, "column", 1) or 1
    if isinstance(error, UnexpectedCharacters):
        char = text[error.pos_in_stream] if error.pos_in_stream < len(text) else "?"
        return Diagnostic("LX103", f"unexpected character `{char}`", Position(file, line, column))
    terminals = {t for t in getattr(error, "expected", set()) if not t.startswith("__")}
    if isinstance(error, UnexpectedToken) and error.token.type != "$END":
        token = error.token
        if token.type == "_INDENT":
            odd = _oddly_indented_line_before(text, token.end_line, token.end_column - 1)
            if odd is not None:
                number, width = odd
                return Diagnostic("LX101", f"this line is indented {width} spaces, the line after it {token.end_column - 1}",
                                  Position(file, number, width + 1),
                                  hint=f"indent it like the other lines of its block ({token.end_column - 1} spaces)")
            return Diagnostic("LX101", "unexpected indentation: this line is indented more than the one before",
                              Position(file, token.end_line, token.end_column),
                              hint="only a line ending with `:` opens an indented block")
        found = _describe(token.type) if token.type.startswith("_") else f"`{token.value}`"
        if token.type == "_NL":
            line, column = token.line, max(1, token.column)
        width = len(token.value) if token.type not in ("_NL", "_INDENT", "_DEDENT") else 1
        before = text[text.rfind("\n", 0, error.pos_in_stream) + 1:error.pos_in_stream]
        keywords = sorted(_describe(t).strip("`") for t in terminals if _describe(t).strip("`").isalpha())
        misspelt = token.type == "NAME" and len(token.value) >= 3
        close = difflib.get_close_matches(token.value, keywords, n=1, cutoff=0.6) if misspelt else []
        trip = TRIPS.get(before.strip())
        missing = ([] if close or trip or token.type.startswith("_") else
                   _missing_keywords(text, error.pos_in_stream, keywords, start, budget))
        hint = None
        if close:
            hint = f"did you mean `{close[0]}`?"
        elif trip:
            hint = trip
        elif len(missing) == 1:
            hint = f"is `{missing[0]}` missing before {found}?"
        elif token.value == "=" and text[max(0, error.pos_in_stream - 1)] == "=":
            hint = "to compare, write a single `=`"
        elif token.value == "if" and before.rstrip().endswith("else"):
            hint = "write `elif`"
        elif {"IN", "BY", "RANK_ORDER"} & terminals and re.search(r"\bsorted\s*\(", before):
            hint = "`sorted` names each item, then the keys to order by: `sorted(x in LIST by most KEY, fewest KEY)`"
        elif (statement := _misspelt_statement(before)) is not None:
            hint = f"did you mean `{statement}`?"
        return Diagnostic("LX101", f"unexpected {found}; expected {_expected(terminals, close or missing)}",
                          Position(file, line, column, width), hint=hint)
    return Diagnostic("LX101", f"unexpected end of file; expected {_expected(terminals, [])}", Position(file, line, column))


# Keywords a designer reaches for in their everyday sense, with what the language means by them.
TRIPS = {
    "draw": "`draw` ends the game in a draw; to draw a card, write `move top(deck) to hand(you)`",
}
STATEMENT_WORDS = ("move", "set", "let", "choose", "turn", "repeat", "shuffle", "flip", "emit", "perform", "score",
                   "for", "while", "if", "pass", "window", "refuse")
VALUE_STARTS = {"NAME", "INT", "ESCAPED_STRING", "TRUE", "FALSE", "NONE", "QUANTIFIER", "SORTED", "TEST", "LSQB",
                "MINUS", "NOT", "LPAR"}
OPERATORS = {"PLUS", "MINUS", "STAR", "SLASH", "MOD", "EQUAL", "LESSTHAN", "MORETHAN", "AND", "OR", "TIMES"}
MOST_SHOWN = 5


def _oddly_indented_line_before(text: str, line: int, indent: int) -> tuple[int, int] | None:
    """When a line is "indented more than the one before" but it is the one before that is off (7
    spaces among lines of 8, say): that line's number and indentation."""
    lines = text.split("\n")
    written = [n for n, x in enumerate(lines) if x.strip() and not x.lstrip().startswith("#")]
    before = max((n for n in written if n < line - 1), default=None)
    if before is None or lines[before].rstrip().endswith(":"):
        return None
    unit = math.gcd(*(len(lines[n]) - len(lines[n].lstrip(" ")) for n in written if n != before))
    if not unit or indent % unit:
        return None
    width = len(lines[before]) - len(lines[before].lstrip(" "))
    return (before + 1, width) if width % unit and 0 < indent - width < unit else None


def _missing_keywords(text: str, at: int, keywords: list[str], start: str, budget: HintBudget) -> list[str]:
    """The expected keywords that, written at `at`, let the line parse on past where it stopped;
    none tried if that would go past the ruleset's budget of characters parsed again."""
    cost = sum(len(text) + len(keyword) + 1 for keyword in keywords)
    if cost > budget.characters:
        return []
    budget.characters -= cost
    line_end = text.find("\n", at)
    line_end = len(text) if line_end < 0 else line_end
    fitting = []
    for keyword in keywords:
        try:
            parse_tree(f"{text[:at]}{keyword} {text[at:]}", start)
            fitting.append(keyword)
        except UnexpectedInput as error:
            if getattr(error, "pos_in_stream", 0) > line_end + len(keyword) + 1:
                fitting.append(keyword)
        except DedentError:
            pass
    return fitting


def _misspelt_statement(before: str) -> str | None:
    """A statement keyword like the first word of a line that Lark took for a procedure's name."""
    words = before.split()
    if len(words) != 1 or not words[0].isidentifier() or words[0] in reserved_words():
        return None
    close = difflib.get_close_matches(words[0], [w for w in STATEMENT_WORDS if w in reserved_words()], n=1, cutoff=0.75)
    return close[0] if close else None


def _expected(terminals: set[str], likeliest: list[str]) -> str:
    """What the parser would have taken, in words: a handful at most, the likeliest first (a keyword
    like the word found, then the end of the line or a `:`, other keywords, a value, an operator).
    `because`, which may follow any statement, is named only when it is the likeliest."""
    if "because" not in likeliest:
        terminals = terminals - {"BECAUSE"}
    value = {"NAME", "INT"} <= terminals
    operators = len(terminals & OPERATORS) >= 3
    folded = {"_NL", "COLON"} | (VALUE_STARTS if value else set()) | (OPERATORS if operators else set())
    words = sorted(_describe(t) for t in terminals - folded)
    keywords = [w for w in words if w.strip("`").isalpha() and w.strip("`") not in likeliest]
    groups = ([f"`{word}`" for word in likeliest] + [_describe(t) for t in ("_NL", "COLON") if t in terminals]
              + keywords + [w for w in words if not w.startswith("`")]
              + ["a value"] * value + ["an operator"] * operators
              + [w for w in words if w.startswith("`") and not w.strip("`").isalpha()])
    if len(groups) > MOST_SHOWN:
        return ", ".join(groups[:MOST_SHOWN]) + ", ..."
    return ", ".join(groups[:-1]) + " or " + groups[-1] if len(groups) > 1 else (groups[0] if groups else "something else")


class _AnyOf:
    """`by any of PLAYERS` of a `choose`, while the parser builds it."""

    def __init__(self, players):
        self.players = players


class BadLiteral(Exception):
    def __init__(self, position: Position, message: str):
        super().__init__(message)
        self.position, self.message = position, message


MAX_DEPTH = 100


def _too_deep(tree, file: str, line_offset: int) -> Diagnostic | None:
    """A tree nested more than MAX_DEPTH levels (checked without recursion)."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            line = getattr(node.meta, "line", 1) if hasattr(node, "meta") and not node.meta.empty else 1
            return Diagnostic("LX105", f"nested more than {MAX_DEPTH} levels deep: split it into smaller functions or procedures",
                              Position(file, line + line_offset, 1))
        stack.extend((child, depth + 1) for child in getattr(node, "children", ()) if hasattr(child, "children"))
    return None


@v_args(meta=True)
class _ToAst(Transformer):
    def __init__(self, file: str, line_offset: int, column_offset: int, block: bool):
        super().__init__()
        self.file, self.line_offset, self.column_offset, self.block = file, line_offset, column_offset, block

    def _pos(self, meta) -> Position:
        if getattr(meta, "empty", True):
            return Position(self.file, 1 + self.line_offset, 1)
        width = meta.end_column - meta.column if meta.end_line == meta.line else 1
        return Position(self.file, meta.line, meta.column, max(1, width)).shifted(self.line_offset, self.column_offset, self.block)

    # declarations
    def start(self, meta, items):
        return [i for i in items if i is not None]

    def snippet(self, meta, items):
        return s.Block([i for i in items if i is not None])

    def faction_decl(self, meta, c):
        return d.FactionDecl(self._pos(meta), str(c[0]))

    def with_faction_decl(self, meta, c):
        return d.WithFactionDecl(self._pos(meta), str(c[0]), [x for x in c[1:] if x is not None])

    def shown_decl(self, meta, c):
        return d.ShownDecl(self._pos(meta), c[1], str(c[2]), str(c[0]))

    def event_decl(self, meta, c):
        return d.EventDecl(self._pos(meta), str(c[0]), c[1] or [])

    def ability_decl(self, meta, c):
        return d.AbilityDecl(self._pos(meta), str(c[0]))

    def dotted_name(self, meta, c):
        return f"{c[0]}.{c[1]}" if c[1] is not None else str(c[0])

    def option_decl(self, meta, c):
        return d.OptionDecl(self._pos(meta), str(c[0]), e.ListOf(self._pos(meta), c[1]), c[2])

    def zone_decl(self, meta, c):
        return d.ZoneDecl(self._pos(meta), str(c[0]), c[1] is not None, c[2] or "public", c[3] is not None,
                          c[4] is not None, c[5] == "down")

    def unordered(self, meta, c):
        return True

    def common(self, meta, c):
        return True

    def per_player(self, meta, c):
        return True

    def visibility(self, meta, c):
        return str(c[0])

    def variable_decl(self, meta, c):
        return d.VariableDecl(self._pos(meta), str(c[0]), c[1] is not None, c[3], c[2] or "public")

    def property_decl(self, meta, c):
        return d.PropertyDecl(self._pos(meta), str(c[0]), c[1])

    def function_decl(self, meta, c):
        return d.FunctionDecl(self._pos(meta), str(c[0]), c[1] or [], c[2])

    def modify_decl(self, meta, c):
        return d.ModifyDecl(self._pos(meta), str(c[0]), c[1] or [], c[2])

    def procedure_decl(self, meta, c):
        return d.ProcedureDecl(self._pos(meta), str(c[0]), c[1] or [], c[2])

    def instead_decl(self, meta, c):
        name, params, condition, label, body = c
        return d.InsteadDecl(self._pos(meta), str(name), params or [], condition, str(label) if label else None, body)

    def anytime_decl(self, meta, c):
        name, span, condition, body = c
        return d.AnytimeDecl(self._pos(meta), str(name), condition, body, span=span)

    def during(self, meta, c):
        return str(c[0])

    def cannot_place(self, meta, c):
        _, piece, site, condition = c
        return d.CannotDecl(self._pos(meta), "place", [str(piece), str(site)], condition)

    def cannot_move(self, meta, c):
        piece, _, origin, target, condition = c
        return d.CannotDecl(self._pos(meta), "move", [str(piece), str(origin), str(target)], condition)

    def cannot_remove(self, meta, c):
        _, piece, _, site, condition = c
        return d.CannotDecl(self._pos(meta), "remove", [str(piece), str(site)], condition)

    def override_decl(self, meta, c):
        name, params, value, condition, precedence = c
        return d.OverrideDecl(self._pos(meta), str(name), params or [], condition, value, precedence or 0)

    def when_decl(self, meta, c):
        (kind, name, params), condition, label, precedence, body = c
        return d.WhenDecl(self._pos(meta), (kind, name), params, condition, body, str(label) if label else None,
                          precedence=precedence or 0)

    def precedence(self, meta, c):
        return int(c[0])

    def custom_event(self, meta, c):
        return ("event", str(c[0]), c[1] or [])

    def start_event(self, meta, c):
        return ("start", str(c[0]), [])

    def end_event(self, meta, c):
        return ("end", str(c[0]), [])

    def always_decl(self, meta, c):
        return d.AlwaysDecl(self._pos(meta), str(c[0]), c[1])

    def setup_decl(self, meta, c):
        return d.SetupDecl(self._pos(meta), c[0])

    def play_decl(self, meta, c):
        return d.PlayDecl(self._pos(meta), c[0])

    def params(self, meta, c):
        return [str(t) for t in c]

    def suite(self, meta, c):
        return s.Block([i for i in c if i is not None])

    # statements
    def let_stmt(self, meta, c):
        return s.Let(self._pos(meta), str(c[0]), c[1])

    def set_stmt(self, meta, c):
        return s.Set(self._pos(meta), c[0], c[1])

    def move_stmt(self, meta, c):
        return s.Move(self._pos(meta), c[0], c[1], c[2] is not None, c[3], guarded=c[4] is None)

    def facing(self, meta, c):
        return str(c[0])  # "up" or "down"

    def flip_stmt(self, meta, c):
        return s.Flip(self._pos(meta), c[0], c[1])

    def is_facing(self, meta, c):
        return e.IsFacing(self._pos(meta), c[0], c[1])

    def at_bottom(self, meta, c):
        return True

    def emit_stmt(self, meta, c):
        return s.Emit(self._pos(meta), str(c[0]), c[1] or [], c[2])

    def call_stmt(self, meta, c):  # `name(...)`, or `faction.name(...)` for a name local to a faction's file
        return s.CallProcedure(self._pos(meta), c[0], c[1] or [])

    def perform_stmt(self, meta, c):
        return s.Perform(self._pos(meta), str(c[0]), c[1])

    def end_turn_stmt(self, meta, c):
        return s.Signalling(self._pos(meta), "end turn")

    def return_stmt(self, meta, c):
        return s.Signalling(self._pos(meta), "return")

    def win_stmt(self, meta, c):
        return s.Signalling(self._pos(meta), "win", c[0], c[1])

    def lose_stmt(self, meta, c):
        return s.Signalling(self._pos(meta), "lose", c[0], c[1])

    def draw_stmt(self, meta, c):
        return s.Signalling(self._pos(meta), "draw", None, c[0])

    def ending(self, meta, c):
        return c[0]

    def rank_stmt(self, meta, c):  # the rankings, then `ties share` (a token) or None
        return s.Rank(self._pos(meta), [k for k in c if isinstance(k, tuple)], ties_share=c[-1] is not None)

    def ranking(self, meta, c):
        return (str(c[0]), str(c[1]))

    def shuffle_stmt(self, meta, c):
        return s.Shuffle(self._pos(meta), c[0])

    def reveal_stmt(self, meta, c):
        return s.Reveal(self._pos(meta), c[0], c[1])

    def pass_stmt(self, meta, c):
        return s.Pass(self._pos(meta))

    def proceed_stmt(self, meta, c):
        return s.Proceed(self._pos(meta))

    def refuse_stmt(self, meta, c):
        return s.Refuse(self._pos(meta), c[0])

    def window_stmt(self, meta, c):
        return s.Window(self._pos(meta))

    def if_stmt(self, meta, c):
        test, body, *rest = c
        otherwise = rest.pop() if rest and (rest[-1] is None or isinstance(rest[-1], s.Block)) else None
        return s.If(self._pos(meta), [(test, body)] + list(rest), otherwise)

    def elif_clause(self, meta, c):
        return (c[0], c[1])

    def else_clause(self, meta, c):
        return c[0]

    def while_stmt(self, meta, c):
        return s.While(self._pos(meta), c[0], c[1])

    def for_stmt(self, meta, c):
        return s.ForEach(self._pos(meta), str(c[0]), c[1], c[2], c[3])

    def repeat_stmt(self, meta, c):
        return s.Repeat(self._pos(meta), c[0], c[1])

    def choose_stmt(self, meta, c):
        bindings, where, name, by, optional, otherwise = c
        group = isinstance(by, _AnyOf)
        return s.Choose(self._pos(meta), bindings, where, str(name), by.players if group else by, optional is not None,
                        otherwise, group)

    def by_any_of(self, meta, c):
        return _AnyOf(c[1])

    def bindings(self, meta, c):
        return list(c)

    def binding(self, meta, c):
        return (str(c[0]), c[1])

    def or_pass(self, meta, c):
        return True

    def otherwise(self, meta, c):
        return c[0]

    def at_once_stmt(self, meta, c):
        return s.AtOnce(self._pos(meta), c[0])

    def as_stmt(self, meta, c):
        return s.As(self._pos(meta), c[0], c[1])

    def turn_stmt(self, meta, c):
        return s.Turn(self._pos(meta), c[0], c[1])

    def phase_stmt(self, meta, c):
        return s.Phase(self._pos(meta), str(c[0]), c[1])

    def simultaneously_stmt(self, meta, c):
        return s.Simultaneously(self._pos(meta), str(c[0]), c[1], c[2])

    def because_stmt(self, meta, c):  # `STATEMENT because REASON`
        return s.Because(self._pos(meta), c[1], s.Block([c[0]]), line=True)

    def because_block(self, meta, c):  # `because REASON:` and a block
        return s.Because(self._pos(meta), c[0], c[1])

    # expressions
    def conditional(self, meta, c):
        return e.Conditional(self._pos(meta), *c)

    def or_(self, meta, c):
        return e.Binary(self._pos(meta), "or", c[0], c[1])

    def and_(self, meta, c):
        return e.Binary(self._pos(meta), "and", c[0], c[1])

    def not_(self, meta, c):
        return e.Not(self._pos(meta), c[0])

    def compare(self, meta, c):
        return e.Binary(self._pos(meta), str(c[1]), c[0], c[2])

    def compare_op(self, meta, c):
        return str(c[0])

    def is_(self, meta, c):
        return e.Is(self._pos(meta), c[0], str(c[1]))

    def is_not(self, meta, c):
        return e.Is(self._pos(meta), c[0], str(c[1]), negated=True)

    def member(self, meta, c):
        return e.Binary(self._pos(meta), "in", c[0], c[1])

    def not_member(self, meta, c):
        return e.Binary(self._pos(meta), "not in", c[0], c[1])

    def add(self, meta, c):
        return e.Binary(self._pos(meta), "+", c[0], c[1])

    def sub(self, meta, c):
        return e.Binary(self._pos(meta), "-", c[0], c[1])

    def mul(self, meta, c):
        return e.Binary(self._pos(meta), "*", c[0], c[1])

    def div(self, meta, c):
        return e.Binary(self._pos(meta), "/", c[0], c[1])

    def mod(self, meta, c):
        return e.Binary(self._pos(meta), "mod", c[0], c[1])

    def neg(self, meta, c):
        return e.Negate(self._pos(meta), c[0])

    def attr(self, meta, c):
        return e.Attribute(self._pos(meta), c[0], str(c[1]))

    def card_value(self, meta, c):
        return e.CardValue(self._pos(meta), str(c[0]), c[1])

    def qualified_call(self, meta, c):  # `faction.name(...)`: a function or zone local to a faction's file
        owner = c[0].name if isinstance(c[0], e.Name) else "(...)"
        return e.Call(self._pos(meta), f"{owner}.{c[1]}", c[2] or [])

    def name(self, meta, c):
        return e.Name(self._pos(meta), str(c[0]))

    def int(self, meta, c):
        if len(c[0]) > 18 or int(c[0]) > LIMITS.largest_number:
            shown = c[0] if len(c[0]) <= 18 else f"{c[0][:12]}..."
            raise BadLiteral(self._pos(meta), f"the number `{shown}` is larger than {LIMITS.largest_number:,}, "
                                              "the largest a game holds (LUDOLEX_LARGEST_NUMBER)")
        return e.Literal(self._pos(meta), int(c[0]))

    def string(self, meta, c):
        try:
            return e.Literal(self._pos(meta), python_ast.literal_eval(str(c[0])))
        except (SyntaxError, ValueError) as error:
            raise BadLiteral(self._pos(meta), f"this text has an escape the language cannot read ({error.msg if hasattr(error, 'msg') else error})")

    def none(self, meta, c):
        return e.Literal(self._pos(meta), None)

    def true(self, meta, c):
        return e.Literal(self._pos(meta), True)

    def false(self, meta, c):
        return e.Literal(self._pos(meta), False)

    def call(self, meta, c):
        return e.Call(self._pos(meta), str(c[0]), c[1] or [])

    def list(self, meta, c):
        return e.ListOf(self._pos(meta), c[0] or [])

    def quantifier(self, meta, c):
        quantifier, variable, source, where, while_, value = c
        return e.Quantifier(self._pos(meta), str(quantifier), str(variable), source, where, while_, value)

    def where(self, meta, c):
        return c[0]

    def while_(self, meta, c):
        return c[0]

    def yield_(self, meta, c):
        return c[0]

    def sorted_by(self, meta, c):
        variable, source, *keys = c
        return e.SortedBy(self._pos(meta), str(variable), source, [o for o, _ in keys], [k for _, k in keys])

    def sort_key(self, meta, c):
        return (str(c[0]), c[1])

    def args(self, meta, c):
        return list(c)
