"""Which files may be read, and reading them: the project's own files, and those shipped with ludolex.

Rules, content, scenario, bot and manifest files may come from strangers (a pull request checked
in CI). They are read by one function, `read_source`, which reads only regular files inside the
ruleset's project (`Boundary`), each at most `LIMITS.file_bytes`, and keeps each text so that
diagnostics quote lines from it and never open a file themselves.
"""
from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from interpreter.diagnostics.diagnostic import Diagnostic, Position, remember_text
from interpreter.diagnostics.errors import LudolexError
from interpreter.safety.limits import LIMITS

PACKAGE = Path(__file__).resolve().parent.parent  # interpreter/


def resource_path(*parts: str) -> Path:
    """Where the shipped files are: `grammar/`, `rulesets/` and `cards/`: packaged in the wheel under interpreter/, or at the repo root."""
    packaged = PACKAGE.joinpath(*parts)
    if packaged.exists():
        return packaged
    return PACKAGE.parent.joinpath(*parts)


# --- which files may be read ----------------------------------------------------------------

@dataclass(frozen=True)
class Boundary:
    """The folders a ruleset's files may be read from (resolved): its project, and the games
    shipped with ludolex (public, so that a variant may name a shipped game's rules or content).
    A path is inside when it is still inside once every link on it is followed."""

    roots: tuple[Path, ...]

    @classmethod
    def of_ruleset(cls, folder: Path) -> "Boundary":
        shipped = tuple(resource_path(part).resolve() for part in ("rulesets", "cards"))
        return cls((project_root(folder),) + shipped)

    def contains(self, path: Path) -> bool:
        """Whether `path` (resolved) is one of the roots or inside one."""
        return any(path == root or root in path.parents for root in self.roots)


def project_root(folder: Path) -> Path:
    """The project of a ruleset folder: the nearest folder at or above it that holds `.git`; with
    none, the folder that holds the ruleset's parent (the layout `<project>/rulesets/<game>`
    beside `<project>/cards/<game>`, which is also that of the wheel, under `interpreter/`).

    Found from the path as written, before links are followed, so that a ruleset folder that
    is itself a link out of the project is outside it."""
    absolute = Path(os.path.abspath(folder))
    for candidate in (absolute, *absolute.parents):
        if (candidate / ".git").exists():
            return candidate.resolve()
    return absolute.parent.parent.resolve()


def read_source(path: Path, boundary: Boundary | None = None) -> str:
    """The text of one file of a ruleset: the one way ludolex reads rules, content, manifest,
    scenario and bot files. Its newlines are `\\n`; it is kept for diagnostics to quote.

    A LudolexError (at line 1, column 1 of `path`) if the file leads outside the project
    (LX209), is not a regular file (LX210), is larger than `LIMITS.file_bytes` (LX211) or is
    not UTF-8 (LX201). No message shows what the file holds.
    """
    data = read_source_bytes(path, boundary)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        remember_text(str(path), _universal_newlines(data.decode("utf-8", errors="replace")))
        raise LudolexError([not_utf8(path, error)]) from None
    text = _universal_newlines(text)
    remember_text(str(path), text)
    return text


_UNSAVED: dict[Path, bytes] = {}  # an editor's texts not yet saved, by resolved path (`editing`)


@contextmanager
def editing(texts: dict[Path, str]):
    """While inside, `read_source` reads these texts in place of the files on disk: the language
    server checks what the designer sees in the editor, saved or not. The same checks apply."""
    _UNSAVED.clear()
    _UNSAVED.update({Path(path).resolve(): text.encode("utf-8") for path, text in texts.items()})
    try:
        yield
    finally:
        _UNSAVED.clear()


def read_source_bytes(path: Path, boundary: Boundary | None = None) -> bytes:
    """The bytes of one file of a ruleset, read as `read_source` says (without decoding them)."""
    boundary = boundary or Boundary.of_ruleset(path.parent)
    start = Position(str(path), 1, 1)

    def refuse(code: str, message: str, hint: str | None = None) -> LudolexError:
        return LudolexError([Diagnostic(code, message, start, hint=hint)])

    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError, ValueError):  # no such file, a link to nothing or in a loop, a NUL byte
        raise refuse("LX210", f"`{path.name}` cannot be read: no such file, or a link that leads nowhere") from None
    if not boundary.contains(real):
        raise refuse("LX209", f"`{path.name}` leads outside the project: only the project's own files are read",
                      hint=OUTSIDE_HINT)
    data = _UNSAVED.get(real)
    if data is not None:
        return _within_size(data, path, refuse)
    try:
        if not stat.S_ISREG(os.stat(real).st_mode):  # before opening: opening a device may act on it
            raise refuse("LX210", f"`{path.name}` is not a regular file (a folder, a FIFO, a device...): it is not read")
        flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
        with os.fdopen(os.open(real, flags), "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):  # changed since: refuse it all the same
                raise refuse("LX210", f"`{path.name}` is not a regular file: it is not read")
            data = file.read(LIMITS.file_bytes + 1)
    except OSError as error:
        raise refuse("LX210", f"`{path.name}` cannot be read: {error.strerror or error}") from None
    return _within_size(data, path, refuse)


def _within_size(data: bytes, path: Path, refuse) -> bytes:
    if len(data) > LIMITS.file_bytes:
        raise refuse("LX211", f"`{path.name}` is larger than {LIMITS.file_bytes:,} bytes (LUDOLEX_FILE_BYTES)",
                      hint="split it into smaller files, or raise the limit (docs/limits.md)")
    return data


OUTSIDE_HINT = ("the project is the nearest folder above the ruleset that holds `.git` "
                "(without one, the folder above `rulesets/`): see docs/limits.md")


def _universal_newlines(text: str) -> str:
    """`\\r\\n` and `\\r` as `\\n`, as Python's text files read them."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def not_utf8(path: Path, error: UnicodeDecodeError) -> Diagnostic:
    """LX201 at the first byte that is not UTF-8."""
    before = error.object[: error.start]
    line = before.count(b"\n") + 1
    column = len(before) - (before.rfind(b"\n") + 1) + 1
    return Diagnostic("LX201", f"this file is not UTF-8 text: byte 0x{error.object[error.start]:02x} here ({error.reason})",
                      Position(str(path), line, column), hint="save the file as UTF-8")
