"""The manifest (`game.yaml`): its model, finding a ruleset by name or path, and the folders it names."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from interpreter.content.models import Name
from interpreter.content.yaml_source import position_of
from interpreter.diagnostics.diagnostic import Diagnostic
from interpreter.diagnostics.errors import LudolexError
from interpreter.safety.files import OUTSIDE_HINT, Boundary, resource_path

MANIFEST = "game.yaml"


class AgentEncoding(BaseModel):
    """How learning agents (OpenSpiel, PettingZoo) see the game: `interpreter/learning/encoding.py`."""
    model_config = ConfigDict(extra="forbid")
    actions: int = Field(64, ge=2, le=4096, description=(
        "Action slots: a decision with more options offers them a page at a time, the last slot turning the page"))
    slots: Literal["sorted", "hashed"] = Field("sorted", description=(
        "Which slot an option takes: `sorted`, the options in the order of their labels; `hashed`, the slot "
        "its label hashes to, the same from one decision to the next (give it several times the most options)"))
    listed: dict[Name, Annotated[int, Field(ge=1, le=64)]] = Field({}, description=(
        "Zones whose order matters (`board` for every location of the map), each with how many components "
        "from its top are encoded one by one; every zone is also counted, kind by kind"))
    left_out: list[Name] = Field([], description="Zones the encoding leaves out (by name: `box`, `discard`)")
    variables: list[Name] | None = Field(None, description=(
        "The variables encoded (default: every one; a player is only ever shown what they may see)"))


class Manifest(BaseModel):
    """A ruleset's manifest (`rulesets/<game>/game.yaml`): the game's name, where its content and rules
    are, the score its reports show, the players it seats; for a variant, its base and what it changes."""
    model_config = ConfigDict(extra="forbid")
    name: str = Field(description="The game's name, as commands take it (`ludolex play NAME`)")
    title: str = Field("", description="The game's title, as people read it")
    content: str | list[str] | None = Field(  # content folders, and single content files (a variant's own map)
        None, description="The content: folders of YAML files (`../../cards/mygame`) and single files (a map)")
    rules: list[str] = Field(  # other folders whose *.rules are part of this game (a variant of another game)
        [], description="Other folders whose `.rules` files are part of this game")
    description: str = Field("", description="What the game is, in a sentence")
    score: str | None = Field(  # a function of one player: the score shown in curves and reports
        None, description="A function of one player: the score that curves and reports show")
    table: list[Name] | None = Field(  # the players a game seats when nobody says which, in their order
        None, description="The players a game seats when nobody says which, in their order")
    # A variant (`content/variants.py`): the game it changes, and what it changes.
    base: str | None = Field(None, description="A variant's base game: a game's name, or its folder (from this one)")
    # Each may be left empty (only comments under it), as `ludolex variant new` writes them.
    overrides: dict[Name, dict[Name, object]] | None = Field(
        None, description="A variant's changes to the content: a kind, then each property and its new value")
    add: list[str] | None = Field(
        None, description="A variant's own files (`.rules`, content `.yaml`) added to the base's")
    remove: list[str] | None = Field(None, description="Files of the base left out (by path from here, or by name)")
    encoding: AgentEncoding | None = Field(None, description="How learning agents see the game (docs/agents.md)")

    def content_places(self) -> list[str]:
        if self.content is None:
            return []
        return [self.content] if isinstance(self.content, str) else list(self.content)


def find_ruleset(name_or_path: str) -> Path:
    """A ruleset folder given by path, or by game name among the shipped rulesets."""
    path = Path(name_or_path)
    if (path / MANIFEST).exists():
        return path
    for base in (Path.cwd() / "rulesets", resource_path("rulesets")):
        if (base / name_or_path / MANIFEST).exists():
            return base / name_or_path
    raise LudolexError([Diagnostic("LX001", f"no ruleset `{name_or_path}` (a folder with a {MANIFEST})", None)])


def manifest_paths(directory: Path, entries: list[str], document, manifest_path: Path, key: str, fits, what: str,
                    boundary: Boundary) -> list[Path]:
    """The folders (or files) a manifest names under `key`, each checked to be inside the project, then to exist."""
    found, problems = [], []
    for i, entry in enumerate(entries):
        where = position_of(document, (key,) if isinstance(document.get(key), str) else (key, i), str(manifest_path),
                            value=True)
        try:
            path = (directory / entry).resolve()  # every link on the way followed
            inside = boundary.may_name(path)
            ok = inside and fits(path)
        except (ValueError, OSError, RuntimeError):  # a NUL byte, a name too long, a loop of links...
            inside, ok = True, False
        if not inside:  # said whether or not it exists: the manifest cannot probe the machine
            problems.append(Diagnostic("LX209", f"{what} `{entry}` is outside the project: only the project's own "
                                       "files are read", where, hint=OUTSIDE_HINT))
        elif ok:
            found.append(path)
        else:
            problems.append(Diagnostic("LX206", f"{what} `{entry}` not found", where))
    if problems:
        raise LudolexError(problems)
    return found
