"""A ruleset as the language server sees it: its files, their diagnostics and the index of its
names, from the texts open in the editor (saved or not) and the files on disk."""
from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from interpreter.content.load import content_files
from interpreter.content.manifest import MANIFEST
from interpreter.content.yaml_source import read_yaml
from interpreter.diagnostics.diagnostic import Diagnostic, Position
from interpreter.diagnostics.errors import LudolexError
from interpreter.language.declarations import FactionDecl
from interpreter.language.scope import Symbols
from interpreter.loading.stages import RulesCompiled
from interpreter.lsp.checking import RulesChecked, Step, check_rules, later_steps, run_step
from interpreter.lsp.names import DECISION, NameIndex, Occurrence, known_factions, outside_names, rules_occurrences, \
    snippet_occurrences, yaml_occurrences, yaml_scalars
from interpreter.safety.files import Boundary, editing, read_source
from interpreter.validation.validate import ruleset_folders


class Project:
    def __init__(self, folder: Path):
        self.folder = folder.resolve()
        self.boundary = Boundary.of_ruleset(self.folder)
        self.rules: RulesChecked | None = None  # the last check's first step
        self.steps: list[Step] = []  # and the steps after it, one per scenario and bot file
        self.found: dict[Path, list[Diagnostic]] = {}  # what each step of the last check found so far
        self.index = NameIndex([])
        self.kinds_of_names: dict[str, str] = {}  # game name -> what it names ("zone", "procedure"...)
        self._files: list[Path] | None = None
        self._scalars: dict[Path, tuple[str, list]] = {}  # YAML file -> (its text, its `yaml_scalars`)

    @property
    def stages(self) -> RulesCompiled | None:
        return self.rules.stages if self.rules else None

    @property
    def symbols(self) -> Symbols | None:
        """The checker's table of names, with what compiling added (the decisions) when it could compile."""
        if self.stages is None:
            return None
        program = self.stages.program
        return program.symbols if program is not None and program.symbols is not None else self.stages.symbols

    def files(self) -> list[Path]:
        """Every file of the ruleset (manifest, rules, content, scenarios, bots), as the last check found them."""
        if self._files is None:
            self._files = self._find_files()
        return self._files

    def _find_files(self) -> list[Path]:
        files = [self.folder / MANIFEST, *sorted(self.folder.glob("*.rules"))]
        stages = self.stages
        if stages:
            files += list(stages.rule_files) + content_files(list(stages.content_places))
        for folder in ("tests", "bots"):
            files += sorted((self.folder / folder).glob("*.yaml"))
        return list(dict.fromkeys(self.local_path(f) for f in files))

    def owns(self, path: Path) -> bool:
        return path in self.files()

    def local_path(self, file: Path | str) -> Path:
        """A file of the ruleset as the editor knows it: its links followed while they stay in the
        project; a link that leads out is known as the link, so that its target is never named."""
        absolute = Path(os.path.abspath(file))
        try:
            real = absolute.resolve()
        except (OSError, RuntimeError, ValueError):  # a link in a loop
            return absolute
        return real if self.boundary.contains(real) else absolute

    def check_rules(self, unsaved: dict[Path, str]) -> dict[Path, list[Diagnostic]]:
        """The first step of a check as `ludolex validate` checks (reading `unsaved` texts in place of
        their files): the rules. Their diagnostics by file, for every file of the ruleset except the
        scenario and bot files, whose own steps (`run_step`) come next."""
        with editing(unsaved):
            self.rules = check_rules(self.folder)
            self.steps = later_steps(self.folder, self.rules)
        self.found = {}
        if self.stages is not None:  # the folders the manifest names, besides the game's own
            self.boundary = self.stages.boundary
        self._files = None  # a file may have come or gone
        later = {self.local_path(step.file) for step in self.steps}
        return {f: found for f, found in self.diagnostics().items() if f not in later}

    def run_step(self, step: Step, unsaved: dict[Path, str]) -> list[Diagnostic]:
        """One scenario or bot file checked; what it found, in its file and (rarely) others."""
        with editing(unsaved):
            self.found[step.file] = run_step(step, self.rules)
        return self.found[step.file]

    def diagnostics(self) -> dict[Path, list[Diagnostic]]:
        """What the last check found so far, by file (every file of the ruleset, most with none)."""
        found = list(self.rules.diagnostics) if self.rules else []
        for step in self.steps:
            found += self.found.get(step.file, [])
        by_file: dict[Path, list[Diagnostic]] = {f: [] for f in self.files()}
        for diagnostic in sorted(found, key=Diagnostic.sort_key):
            position = diagnostic.position or Position(str(self.folder / MANIFEST), 1, 1)
            by_file.setdefault(self.local_path(position.file), []).append(diagnostic)
        return by_file

    def reindex(self, unsaved: dict[Path, str]) -> None:
        """Where each game name is declared and used, from the last check's stages."""
        if self.stages is None:
            return
        self.kinds_of_names = names_by_kind(self.stages, self.symbols)
        known = set(self.kinds_of_names)
        outside, factions = outside_names(known), known_factions(known)

        def meaning(name: str) -> str | None:
            return name if name in known else None

        occurrences: list[Occurrence] = []
        with editing(unsaved):
            for path in self.stages.rule_files:
                text = self._text(path)
                if text is not None:
                    occurrences += rules_occurrences(text, path.resolve(), known)
            ability_lines: dict[Path, set[int]] = {}
            for ability, _ in self.stages.abilities:
                file = Path(ability.file).resolve()
                occurrences += snippet_occurrences(ability.source, file, ability.line, ability.column, ability.block,
                                                   ability.value, meaning, factions)
                lines = ability.source.rstrip("\n").count("\n") + 1
                ability_lines.setdefault(file, set()).update(range(ability.line - 1, ability.line - 1 + lines))
            for path in self.files():
                scalars = self._yaml_scalars(path) if path.suffix == ".yaml" else None
                if scalars is None:
                    continue
                expressions = path.parent.name in ("tests", "bots") and path.parent.parent == self.folder
                occurrences += yaml_occurrences(scalars, path, known, outside if expressions else None,
                                                ability_lines.get(path, set()))
        self.index = NameIndex(_declared_by_content(occurrences, self._content_files()))

    def _content_files(self) -> set[Path]:
        return {f.resolve() for f in content_files(list(self.stages.content_places))} if self.stages else set()

    def _text(self, path: Path) -> str | None:
        try:
            return read_source(path, self.boundary)
        except LudolexError:
            return None

    def _yaml_scalars(self, path: Path) -> list | None:
        """The file's `yaml_scalars`, read again only when its text changed."""
        text = self._text(path)
        if text is None:
            return None
        kept = self._scalars.get(path)
        if kept is None or kept[0] != text:
            try:
                kept = (text, yaml_scalars(read_yaml(path, self.boundary), text))
            except LudolexError:
                return None
            self._scalars[path] = kept
        return kept[1]


def _declared_by_content(occurrences: list[Occurrence], content_files: set[Path]) -> list[Occurrence]:
    """The occurrences, with the content's own names (those no rule declares) declared where a
    content file first writes them."""
    declared = {o.name for o in occurrences if o.declares}
    first: dict[str, int] = {}
    for i, o in enumerate(occurrences):
        if o.name not in declared and o.name not in first and o.file in content_files:
            first[o.name] = i
    return [replace(o, declares=True) if first.get(o.name) == i else o for i, o in enumerate(occurrences)]


def names_by_kind(stages: RulesCompiled, symbols: Symbols | None) -> dict[str, str]:
    """Every name of the game, and what it names, in the words of the language's reference."""
    names: dict[str, str] = {}
    if symbols is not None:
        tables = [("option", symbols.options), ("property", symbols.properties), ("property", symbols.kind_properties),
                  ("attribute of locations", symbols.location_attributes), ("event", symbols.events),
                  ("ability", symbols.abilities), ("card function", symbols.card_values)]
        for what, table in tables:
            names.update({name: what for name in table})
        names.update({DECISION + name: "decision" for name in symbols.decisions})
        for name in symbols.all_names():
            names[name] = symbols.kind_of(name) or "name"
    for declaration in stages.declarations:
        name = getattr(declaration, "name", None)
        if isinstance(name, str) and not isinstance(declaration, FactionDecl):
            names.setdefault(name, type(declaration).__name__.removesuffix("Decl").lower())
    return names


def discover(root: Path) -> list[Path]:
    """The ruleset folders of a workspace: at or under `root`, or under its `rulesets/`."""
    return ruleset_folders(root) + ruleset_folders(root / "rulesets")
