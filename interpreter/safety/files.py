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
from dataclasses import dataclass, field, replace
from pathlib import Path

from interpreter.diagnostics.diagnostic import Diagnostic, Position, remember_text
from interpreter.diagnostics.errors import LudolexError
from interpreter.safety.limits import LIMITS, SourceBytes

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
    """What a ruleset's files may be read from (resolved): the game's own folder, the folders and
    files its manifest names (`including`, each checked first to be inside the game's project), and
    the games shipped with ludolex (public, so that a variant may name a shipped game's rules or
    content). Never a `.git` folder. A path is inside when it is still inside once every link on
    it is followed.

    `project` bounds what a manifest may name (`may_name`); it is never read as a whole."""

    project: Path
    roots: tuple[Path, ...]
    source_bytes: SourceBytes = field(default_factory=SourceBytes, compare=False, repr=False)  # shared by `including`'s copies

    @classmethod
    def of_ruleset(cls, folder: Path) -> "Boundary":
        project = project_root(folder)
        game = Path(os.path.abspath(folder)).resolve()
        shipped = tuple(resource_path(part).resolve() for part in ("rulesets", "cards"))
        own = (game,) if _inside(game, project) else ()  # a game folder that is a link out of its project: nothing
        return cls(project, own + shipped)

    def including(self, *paths: Path) -> "Boundary":
        """This boundary and `paths` (resolved folders or files the manifest names, inside the project)."""
        return replace(self, roots=tuple(dict.fromkeys(self.roots + paths)))

    def contains(self, path: Path) -> bool:
        """Whether `path` (resolved) may be read: one of the roots, or inside one."""
        return any(_inside(path, root) for root in self.roots)

    def may_name(self, path: Path) -> bool:
        """Whether a manifest may name `path` (resolved): inside the project, or a shipped game's."""
        return _inside(path, self.project) or self.contains(path)


def _inside(path: Path, root: Path) -> bool:
    """Whether `path` is `root` or below it, and not in a `.git` folder below it."""
    if path != root and root not in path.parents:
        return False
    return ".git" not in path.relative_to(root).parts


def project_root(folder: Path) -> Path:
    """The project of a ruleset folder: the nearest folder at or above it that holds `.git`; with
    none, the folder above `rulesets/` when the game is laid out as `<project>/rulesets/<game>`
    (beside `<project>/cards/<game>`, which is also the layout of the wheel, under `interpreter/`);
    else the game's folder itself. Never the file system's root, the home folder or a folder
    above it: a game downloaded to `~/Downloads/game` is its own project, not the home folder.

    Found from the path as written, before links are followed, so that a ruleset folder that
    is itself a link out of the project is outside it."""
    absolute = Path(os.path.abspath(folder))
    for candidate in (absolute, *absolute.parents):
        if (candidate / ".git").exists() and not _too_wide(candidate.resolve()):
            return candidate.resolve()
    layout = absolute.parent.parent
    if absolute.parent.name == "rulesets" and not _too_wide(layout.resolve()):
        return layout.resolve()
    return absolute.resolve()


def _too_wide(folder: Path) -> bool:
    """The file system's root, the home folder, or a folder above it: never a game's project."""
    try:
        home = Path.home().resolve()
    except (RuntimeError, KeyError, OSError):  # no home folder known
        home = None
    return folder == Path(folder.anchor) or home is not None and (folder == home or folder in home.parents)


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
        raise refuse("LX209", f"`{path.name}` leads outside the game: only its own files are read",
                      hint=OUTSIDE_HINT)
    data = _UNSAVED.get(real)
    if data is not None:
        return _within_size(data, path, refuse, real, boundary)
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
    return _within_size(data, path, refuse, real, boundary)


def _within_size(data: bytes, path: Path, refuse, real: Path, boundary: Boundary) -> bytes:
    if len(data) > LIMITS.file_bytes:
        raise refuse("LX211", f"`{path.name}` is larger than {LIMITS.file_bytes:,} bytes (LUDOLEX_FILE_BYTES)",
                      hint="split it into smaller files, or raise the limit (docs/limits.md)")
    if not boundary.source_bytes.count(real, len(data)):
        raise refuse("LX211", f"`{path.name}` makes the game's files larger than {LIMITS.ruleset_bytes:,} bytes "
                              "together (LUDOLEX_RULESET_BYTES)",
                      hint="a game this large is slow to check: raise the limit for a game you trust (docs/limits.md)")
    return data


OUTSIDE_HINT = ("a game reads only its own folder and the content and rules folders its manifest names "
                "inside its project (the nearest folder above it that holds `.git`, or without one the "
                "folder above `rulesets/`), never `.git`: see docs/limits.md")


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
