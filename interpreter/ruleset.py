"""Loading a game: its manifest, content and rules files, checked and compiled into a Ruleset."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from . import board as boards
from .content import Content, load_content, schema_diagnostics
from .diagnostics import Diagnostic, LudolexError, Position, did_you_mean, new_run
from .language import declarations as d
from .language.expressions import Literal, Negate
from .language.parser import parse, parse_recovering, reserved_words
from .language.scope import Scope, Symbols
from .language.statements import Deciding, run_body
from .language.codegen import CodeGen, CodeTooLarge
from .limits import LIMITS
from .language.expressions import quantified_code
from .program import Program, make_procedure, make_trigger
from .resources import resource_path
from .state import BOX, Component, State, player_zone
from .yaml_source import OUTSIDE_HINT, Boundary, position_of, read_source, read_source_bytes, read_yaml, value_position

MANIFEST = "game.yaml"


class Manifest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    title: str = ""
    content: str | list[str]  # content folders, and single content files (a variant's own map)
    rules: list[str] = []  # other folders whose *.rules are part of this game (a variant of another game)
    description: str = ""
    score: str | None = None  # a function of one player: the score shown in curves and reports

    def content_places(self) -> list[str]:
        return [self.content] if isinstance(self.content, str) else list(self.content)


@dataclass
class Ruleset:
    name: str
    directory: Path
    manifest: Manifest
    content: Content
    board: boards.Board
    program: Program
    rule_files: list[Path]
    warnings: list[Diagnostic]
    policies: dict = field(default_factory=dict)  # rule-of-thumb bots loaded so far, by name

    def initial_state(self, seed: int) -> State:
        state = State(seed=seed)
        state.rng.seed(seed)
        for zone in self.zone_names():
            state.zones[zone] = []
        for kind, spec in self.content.pieces.items():
            per_player_zone = self.program.zones[spec.starts_in][0]
            for owner, number in spec.owned(self.content.players).items():
                zone = player_zone(spec.starts_in, owner) if per_player_zone and owner else spec.starts_in
                for n in range(1, number + 1):
                    state.add(Component(f"{owner}-{kind}-{n}" if owner else f"{kind}-{n}", kind, owner, zone))
        return state

    def zone_names(self) -> list[str]:
        names = [BOX] + list(self.board.locations)
        for zone, (per_player, _) in self.program.zones.items():
            if zone == BOX:
                continue
            names += [player_zone(zone, p) for p in self.content.players] if per_player else [zone]
        return names

    def content_hash(self) -> str:
        """The version of the ruleset: a hash of its manifest, rules files and content files."""
        import hashlib

        digest = hashlib.sha256()
        boundary = Boundary.of_ruleset(self.directory)
        for path in [self.directory / MANIFEST] + sorted(self.rule_files) + sorted(self.content.files):
            digest.update(path.name.encode() + b"\0" + read_source_bytes(path, boundary) + b"\0")
        return digest.hexdigest()[:16]

    def component_totals(self) -> dict[tuple, int]:
        totals = {}
        for kind, spec in self.content.pieces.items():
            for owner, number in spec.owned(self.content.players).items():
                if number:
                    totals[(owner, kind)] = number
        return totals


def find_ruleset(name_or_path: str) -> Path:
    """A ruleset folder given by path, or by game name among the shipped rulesets."""
    path = Path(name_or_path)
    if (path / MANIFEST).exists():
        return path
    for base in (Path.cwd() / "rulesets", resource_path("rulesets")):
        if (base / name_or_path / MANIFEST).exists():
            return base / name_or_path
    raise LudolexError([Diagnostic("LX001", f"no ruleset `{name_or_path}` (a folder with a {MANIFEST})", None)])


def _manifest_paths(directory: Path, entries: list[str], document, manifest_path: Path, key: str, fits, what: str,
                    boundary: Boundary) -> list[Path]:
    """The folders (or files) a manifest names under `key`, each checked to be inside the project, then to exist."""
    found, problems = [], []
    for i, entry in enumerate(entries):
        where = position_of(document, (key,) if isinstance(document.get(key), str) else (key, i), str(manifest_path),
                            value=True)
        try:
            path = (directory / entry).resolve()  # every link on the way followed
            inside = boundary.contains(path)
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


def load_ruleset(name_or_path: str | Path) -> Ruleset:
    new_run()
    directory = find_ruleset(str(name_or_path))
    boundary = Boundary.of_ruleset(directory)
    manifest_path = directory / MANIFEST
    document = read_yaml(manifest_path, boundary)
    try:
        manifest = Manifest.model_validate(document)
    except ValidationError as error:
        raise LudolexError(schema_diagnostics(error, document, str(manifest_path), Manifest)) from None
    places = _manifest_paths(directory, manifest.content_places(), document, manifest_path, "content",
                             lambda p: p.is_dir() or p.suffix == ".yaml" and p.is_file(), "content folder or file", boundary)
    rule_dirs = _manifest_paths(directory, manifest.rules, document, manifest_path, "rules", Path.is_dir, "rules folder",
                                boundary)

    diagnostics: list[Diagnostic] = []
    try:
        content = load_content(places, boundary)
    except LudolexError as error:
        content = None
        diagnostics += error.diagnostics
    rule_files = [f for folder in rule_dirs + [directory] for f in sorted(folder.glob("*.rules"))]
    declarations, lost_names = [], set()
    for path in rule_files:
        try:
            found, syntax_errors, lost = parse_recovering(read_source(path, boundary), str(path))
        except LudolexError as error:  # not UTF-8, outside the project, not a regular file, too large
            diagnostics += error.diagnostics
            lost_names.add("*")  # a whole file unread: its names are unknown, say nothing of them
            continue
        declarations += found
        diagnostics += syntax_errors
        lost_names |= lost
    if content is None:  # names cannot be checked without the content that declares them
        raise LudolexError(_in_file_order(diagnostics))
    board = _build_board(content, diagnostics, str(manifest_path))
    abilities = []
    for ability in content.abilities:
        try:
            body = parse(ability.source, ability.file, start="snippet", line_offset=ability.line - 1,
                         column_offset=ability.column - 1, block=ability.block)
            abilities.append((ability, body))
        except LudolexError as error:
            diagnostics += error.diagnostics
    meaning: list[Diagnostic] = []
    first_rules = Position(str(rule_files[0]), 1, 1) if rule_files else Position(str(manifest_path), 1, 1)
    program = compile_program(content, board, declarations, abilities, meaning, first_rules)
    if manifest.score and program.symbols.functions.get(manifest.score) != 1:
        meaning.append(Diagnostic("LX315", f"`score: {manifest.score}` in the manifest must name a function of one player",
                                  value_position(document, "score", str(manifest_path))))
    if manifest.score:  # the manifest's score function is used by reports, not by the rules
        meaning = [d for d in meaning if not (d.code == "LX325" and f"`{manifest.score}`" in d.message)]
    diagnostics += [d for d in meaning if not _about_lost_names(d, lost_names)]
    if any(d.severity == "error" for d in diagnostics):  # "never used" is noise beside real errors
        diagnostics = [d for d in diagnostics if d.code != "LX325"]
    if any(d.severity == "error" for d in diagnostics):
        raise LudolexError(_in_file_order(diagnostics))
    return Ruleset(manifest.name, directory, manifest, content, board, program, rule_files, _in_file_order(diagnostics))


def _in_file_order(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    unique = {(d.code, d.message, d.sort_key()): d for d in diagnostics}
    return sorted(unique.values(), key=Diagnostic.sort_key)


CONSEQUENCES = {"LX302", "LX303", "LX312", "LX313", "LX314", "LX315", "LX319", "LX320", "LX322", "LX325"}


def _about_lost_names(diagnostic: Diagnostic, lost_names: set[str]) -> bool:
    """A complaint caused by a declaration dropped for a syntax error (reported already)."""
    if "*" in lost_names:
        return diagnostic.code in CONSEQUENCES
    if diagnostic.code == "LX320":
        return "play" in lost_names
    return diagnostic.code in ("LX302", "LX303", "LX312", "LX313", "LX319", "LX315") and any(
        f"`{name}`" in diagnostic.message or f"`{name}(" in diagnostic.message for name in lost_names
    )


def _build_board(content: Content, diagnostics: list[Diagnostic], file: str) -> boards.Board:
    spec = content.board
    if spec is None:
        where = Position(str(content.files[0]), 1, 1) if content.files else Position(file, 1, 1)
        diagnostics.append(Diagnostic("LX207", "the content declares no `board`", where))
        return boards.Board(boards.grid_graph(1, 1, []))
    if spec.grid:
        board = boards.Board(boards.grid_graph(spec.grid.columns, spec.grid.rows, spec.grid.connections, spec.grid.attributes))
        for name in spec.grid.attributes:
            if name not in board.index:
                diagnostics.append(Diagnostic("LX302", f"attributes for `{name}`, which is not a square of the grid",
                                              content.positions.get(("attributes", name)), hint=did_you_mean(name, board.locations)))
        return board
    locations = spec.locations or {}
    for i, link in enumerate(spec.connections):
        for end in (link.from_, link.to):
            if end not in locations:
                diagnostics.append(Diagnostic("LX302", f"connection to `{end}`, which is not a location of the board",
                                              content.positions.get(("connection", i)), hint=did_you_mean(end, locations)))
    links = [c.model_dump(by_alias=True) for c in spec.connections if c.from_ in locations and c.to in locations]
    return boards.Board(boards.explicit_graph(locations, links))


def compile_program(content: Content, board: boards.Board, declarations: list, abilities: list,
                    diagnostics: list[Diagnostic], start: Position | None = None) -> Program:
    symbols = _collect_symbols(content, board, declarations, abilities, diagnostics)
    program = Program(
        players=list(content.players),
        kind_order=list(content.pieces),
        kinds_with_trait={t: frozenset(k for k, s in content.pieces.items() if t in s.traits) for t in symbols.traits},
        zones={z.name: (z.per_player, z.visibility) for z in declarations if isinstance(z, d.ZoneDecl)},
        kind_properties={kind: dict(spec.properties) for kind, spec in content.pieces.items()},
    )
    program.zones.setdefault(BOX, (False, "public"))
    program.symbols = symbols
    codegen = program.codegen = CodeGen()
    scope = Scope(symbols, diagnostics, codegen=codegen)
    deciding = _deciding(declarations, abilities)

    modifiers: dict[str, list] = {}
    for decl in declarations:
        if isinstance(decl, d.ModifyDecl):
            if decl.name not in symbols.functions:
                scope.error("LX319", f"`modify {decl.name}`: no function `{decl.name}` to modify", decl.pos,
                            hint=did_you_mean(decl.name, symbols.functions))
            elif len(decl.params) != symbols.functions[decl.name]:
                scope.error("LX307", f"`{decl.name}` takes {symbols.functions[decl.name]} parameter(s)", decl.pos)
            else:
                modifiers.setdefault(decl.name, []).append(decl)
    for decl in declarations:
        if isinstance(decl, d.FunctionDecl):
            parts = [(decl.params, decl.body)] + [(m.params, m.amount) for m in modifiers.get(decl.name, [])]
            if not any(quantified_code(expr) for _, expr in parts):
                symbols.inlinable[decl.name] = parts
    where = start
    try:
        for number, decl in enumerate(declarations):
            where = decl.pos
            if isinstance(decl, d.VariableDecl):
                program.variables.append((decl.name, decl.per_player, decl.value.compile(scope), decl.pos))
            elif isinstance(decl, d.FunctionDecl):
                try:
                    program.functions[decl.name] = _function(number, decl, modifiers.get(decl.name, []), scope)
                    program.function_positions[decl.name] = decl.pos
                except (RecursionError, MemoryError):  # Python refuses code this deep
                    scope.error("LX105", f"function `{decl.name}` is nested too deeply once compiled: split it", decl.pos)
            elif isinstance(decl, d.ProcedureDecl):
                body, generator = decl.body.compile(scope.with_locals(*decl.params), deciding, catch_return=True)
                wanted = deciding.procedures[decl.name]
                program.procedures[decl.name] = make_procedure(decl.params, run_body(body, generator) if wanted else body, decl.pos)
            elif isinstance(decl, d.WhenDecl):
                inner = scope.with_locals(*decl.params)
                condition = decl.condition.compile(inner) if decl.condition else None
                body, generator = decl.body.compile(inner, deciding)
                program.triggers.setdefault(decl.event, []).append(make_trigger(decl.params, condition, body, generator, decl.pos))
            elif isinstance(decl, d.AlwaysDecl):
                body, generator = decl.body.compile(scope, deciding)
                if generator:
                    scope.error("LX316", f"continuous rule `{decl.name}` cannot ask for a decision", decl.pos)
                program.always.append(body)
            elif isinstance(decl, (d.SetupDecl, d.PlayDecl)):
                body = run_body(*decl.body.compile(scope, deciding))
                setattr(program, "setup" if isinstance(decl, d.SetupDecl) else "play", body)
        for ability, body in abilities:
            where = Position(ability.file, ability.line, ability.column)
            compiled, generator = body.compile(Scope(symbols, diagnostics, has_self=True, codegen=codegen), deciding)
            wanted = deciding.abilities.get(ability.name, False)
            program.abilities[(ability.kind, ability.name)] = run_body(compiled, generator) if wanted else compiled
    except CodeTooLarge:
        scope.error("LX106", f"the rules compile to more than {LIMITS.compiled_characters:,} characters of Python "
                    "(LUDOLEX_COMPILED_CHARACTERS): make them smaller", where)
        return program
    for decl in declarations:
        if isinstance(decl, (d.FunctionDecl, d.ProcedureDecl)) and decl.name not in symbols.used:
            what = "function" if isinstance(decl, d.FunctionDecl) else "procedure"
            scope.warn("LX325", f"{what} `{decl.name}` is never used", decl.pos)
    if program.play is None:
        diagnostics.append(Diagnostic("LX320", "the rules have no `play:` block (the game's flow)", start))
    return program


def _function(number: int, decl: d.FunctionDecl, modifiers: list[d.ModifyDecl], scope: Scope):
    """`fn_NAME(rt, a0, a1...)`: the base expression plus every modifier, cached if it loops."""
    params = [f"a{i}" for i in range(len(decl.params))]
    pure = replace(scope, pure=True)
    parts = []
    for names, expr in [(decl.params, decl.body)] + [(m.params, m.amount) for m in modifiers]:
        parts.append(expr.code(pure.with_locals(*names), dict(zip(names, params))))
    compute = scope.codegen.define(f"compute_{decl.name}", params, " + ".join(f"({p})" for p in parts))
    if any(quantified_code(e) for e in [decl.body] + [m.amount for m in modifiers]):
        return scope.codegen.cached(f"fn_{decl.name}", number, params, f"compute_{decl.name}")
    scope.codegen.namespace[f"fn_{decl.name}"] = compute
    return compute


def _constant(decl: d.PropertyDecl, diagnostics: list[Diagnostic]):
    if isinstance(decl.value, Negate) and isinstance(decl.value.operand, Literal) and isinstance(decl.value.operand.value, int):
        return -decl.value.operand.value
    if not isinstance(decl.value, Literal):
        message = "a property's default must be a plain value (a number, text, true/false or none)"
        diagnostics.append(Diagnostic("LX321", message, decl.pos))
        return None
    return decl.value.value


def _collect_symbols(content: Content, board: boards.Board, declarations: list, abilities: list,
                     diagnostics: list[Diagnostic]) -> Symbols:
    symbols = Symbols(
        kinds=list(content.pieces),
        traits={t for spec in content.pieces.values() for t in spec.traits},
        players=list(content.players),
        connections=set(board.connection_types),
        locations=set(board.locations),
        kind_properties={name for spec in content.pieces.values() for name in spec.properties},
        location_attributes={name for _, data in board.graph.nodes(data=True) for name in data},
        abilities={a.name for a, _ in abilities},
        zones={BOX: False},
        trait_members={t: frozenset(k for k, s in content.pieces.items() if t in s.traits)
                       for spec in content.pieces.values() for t in spec.traits},
    )
    seen: dict[str, Position | None] = {}

    def declare(name: str, pos: Position, table: dict, value) -> None:
        if name in reserved_words():
            diagnostics.append(Diagnostic("LX329", f"`{name}` is a reserved word of the language: choose another name", pos))
        if name == BOX:
            diagnostics.append(Diagnostic("LX301", f"`{BOX}` is given by the language (the zone of pieces out of play)", pos))
            return
        if name in seen or symbols.kind_of(name) not in (None, "location"):
            first = f" (first at line {seen[name].line})" if seen.get(name) and seen[name].file == pos.file else ""
            diagnostics.append(Diagnostic("LX301", f"`{name}` is declared twice{first}", pos))
            return  # the first declaration stands
        seen[name] = pos
        table[name] = value

    for decl in declarations:
        for param in getattr(decl, "params", None) or []:
            if param in reserved_words():
                diagnostics.append(Diagnostic("LX329", f"`{param}` is a reserved word of the language: choose another name", decl.pos))
        params = getattr(decl, "params", None) or []
        if len(set(params)) != len(params):
            diagnostics.append(Diagnostic("LX301", "a parameter is named twice", decl.pos))

    for decl in declarations:
        if isinstance(decl, d.ZoneDecl):
            declare(decl.name, decl.pos, symbols.zones, decl.per_player)
        elif isinstance(decl, d.VariableDecl):
            declare(decl.name, decl.pos, symbols.variables, decl.per_player)
        elif isinstance(decl, d.FunctionDecl):
            declare(decl.name, decl.pos, symbols.functions, len(decl.params))
        elif isinstance(decl, d.ProcedureDecl):
            declare(decl.name, decl.pos, symbols.procedures, len(decl.params))
        elif isinstance(decl, d.PropertyDecl):
            if decl.name in symbols.properties or decl.name in symbols.kind_properties:
                diagnostics.append(Diagnostic("LX301", f"property `{decl.name}` is declared twice", decl.pos,
                                              hint="pieces' `properties:` in the content declare it already"
                                              if decl.name in symbols.kind_properties else None))
            symbols.properties[decl.name] = _constant(decl, diagnostics)
        elif isinstance(decl, (d.SetupDecl, d.PlayDecl)):
            block = "setup" if isinstance(decl, d.SetupDecl) else "play"
            if block in seen:
                diagnostics.append(Diagnostic("LX301", f"`{block}:` is declared twice", decl.pos))
            seen[block] = decl.pos
        elif isinstance(decl, d.WhenDecl):
            symbols.handled.add(decl.event)
            if decl.event[0] == "event":
                symbols.events[decl.event[1]] = len(decl.params)
    _content_clashes(content, board, symbols, diagnostics)
    total = 0
    for kind, spec in content.pieces.items():
        total += sum(spec.owned(content.players).values())
        if total > LIMITS.components >= total - sum(spec.owned(content.players).values()):
            diagnostics.append(Diagnostic("LX205", f"with `{kind}`, the game has more than {LIMITS.components:,} components "
                                          "(LUDOLEX_COMPONENTS)", content.positions.get(("pieces", kind))))
        for owner in spec.per_player if isinstance(spec.per_player, dict) else ():
            if owner not in content.players:
                diagnostics.append(Diagnostic("LX302", f"pieces `{kind}` are given to `{owner}`, who is not a player",
                                              content.positions.get(("pieces", kind, "per_player")),
                                              hint=did_you_mean(owner, content.players)))
        if spec.count is not None and symbols.zones.get(spec.starts_in):
            diagnostics.append(Diagnostic("LX322", f"shared pieces `{kind}` (a `count`, no owner) cannot start in "
                                          f"`{spec.starts_in}`, which belongs to each player",
                                          content.positions.get(("pieces", kind, "starts_in"))))
        if spec.starts_in not in symbols.zones:
            diagnostics.append(Diagnostic("LX322", f"pieces `{kind}` start in `{spec.starts_in}`, which no `zone` declares",
                                          content.positions.get(("pieces", kind, "starts_in")),
                                          hint=did_you_mean(spec.starts_in, symbols.zones)))
    return symbols


def _content_clashes(content: Content, board: boards.Board, symbols: Symbols, diagnostics: list[Diagnostic]) -> None:
    """Kinds, players, traits, connection types and locations share one space of names."""
    named: dict[str, str] = {}
    groups = [("kind of piece", symbols.kinds, lambda n: content.positions.get(("pieces", n))),
              ("player", symbols.players, lambda n: content.positions.get(("players", n))),
              ("trait", sorted(symbols.traits), lambda n: None),
              ("connection type", sorted(symbols.connections), lambda n: content.positions.get(("board",))),
              ("location", board.locations, lambda n: content.positions.get(("location", n), content.positions.get(("board",))))]
    for what, names, where in groups:
        for name in names:
            if name in named and named[name] != what:
                diagnostics.append(Diagnostic("LX301", f"`{name}` names both a {named[name]} and a {what}", where(name)))
            named.setdefault(name, what)
    for name in board.locations:
        if name in symbols.zones:
            diagnostics.append(Diagnostic("LX301", f"location `{name}` has the name of a zone",
                                          content.positions.get(("location", name), content.positions.get(("board",)))))


def _deciding(declarations: list, abilities: list) -> Deciding:
    """Which procedures, abilities and events can stop for a decision: those that decide themselves
    (a `choose`, a `turn`...), then, through the calls, everything that reaches one of them."""
    bodies: dict[tuple, list] = {}  # ("procedures", name) / ("abilities", name) / ("events", key) -> bodies
    for x in declarations:
        if isinstance(x, d.ProcedureDecl):
            bodies.setdefault(("procedures", x.name), []).append(x.body)
        elif isinstance(x, d.WhenDecl):
            bodies.setdefault(("events", x.event), []).append(x.body)
    for ability, body in abilities:
        bodies.setdefault(("abilities", ability.name), []).append(body)
    callers: dict[tuple, list] = {}
    found = []
    for node, blocks in bodies.items():
        calls: set = set()
        recorder = Deciding(*(_Recorder(table, calls) for table in ("procedures", "abilities", "events")))
        if any([body.decides(recorder) for body in blocks]):  # a list: every body's calls are recorded
            found.append(node)
        for called in calls:
            callers.setdefault(called, []).append(node)
    deciding = Deciding(procedures={x.name: False for x in declarations if isinstance(x, d.ProcedureDecl)})
    while found:
        table, name = node = found.pop()
        if getattr(deciding, table).get(name):
            continue
        getattr(deciding, table)[name] = True
        found += callers.get(node, [])
    return deciding


class _Recorder(dict):
    """A table of `Deciding` that answers "no" to every question and notes what was asked."""

    def __init__(self, table: str, asked: set):
        super().__init__()
        self.table, self.asked = table, asked

    def get(self, key, default=None):
        self.asked.add((self.table, key))
        return False
