"""Reading a game's content files (a folder of YAML files, or single files) into one `Content`."""
from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from interpreter.content.models import Ability, Content, ContentFile
from interpreter.content.schema_errors import schema_diagnostics
from interpreter.content.yaml_source import position_of, read_yaml
from interpreter.diagnostics.diagnostic import Diagnostic, loaded_text
from interpreter.diagnostics.errors import LudolexError
from interpreter.diagnostics.suggestions import did_you_mean
from interpreter.safety.files import Boundary
from interpreter.safety.limits import LIMITS


def load_content(places: Path | list[Path], boundary: Boundary | None = None) -> tuple[Content | None, list[Diagnostic]]:
    """Every *.yaml file of these folders (and these single files), merged, and every problem found.

    A file whose only schema errors are inside some piece kinds is kept without those kinds (named
    in `Content.lost_kinds`), so that the rules can still be checked against the rest; with any
    other problem the content is None. `boundary`: where files may be read from (by default, each
    file's project: see `read_yaml`)."""
    content = Content()
    diagnostics: list[Diagnostic] = []
    whole = True
    for path in content_files(places if isinstance(places, list) else [places]):
        content.files.append(path)
        try:
            document = read_yaml(path, boundary)
        except LudolexError as error:
            diagnostics += error.diagnostics
            whole = False
            continue
        if document is None:
            continue
        try:
            parsed = ContentFile.model_validate(document)
        except ValidationError as error:
            diagnostics += schema_diagnostics(error, document, str(path), ContentFile)
            parsed = _without_broken_kinds(document, error, content.lost_kinds)
            if parsed is None:
                whole = False
                continue
        merge_content(content, parsed, document, str(path), diagnostics)
    _add_owned(content, diagnostics)
    _add_seats(content, diagnostics)
    return (content if whole else None), diagnostics


def _first_at(content: Content, player: str) -> str:
    where = content.positions.get(("players", player))
    return f" (first at {Path(where.file).name}:{where.line})" if where else ""


def _add_owned(content: Content, diagnostics: list[Diagnostic]) -> None:
    """A file's `own: {stone: 4}`: each of its players has 4 of the kind another file declares for
    several players (`per_player: {...}`), as if that file had named them."""
    for kind, number, players, where in content.owned:
        spec = content.pieces.get(kind)
        if spec is None:
            if kind not in content.lost_kinds:
                diagnostics.append(Diagnostic("LX302", f"`own`: no piece kind `{kind}` in the content", where,
                                              hint=did_you_mean(kind, content.pieces)))
            continue
        if not isinstance(spec.per_player, dict):
            diagnostics.append(Diagnostic("LX205", f"`own`: kind `{kind}` is not one each player has their own number "
                                          "of (`per_player: {player: count}`)", where))
            continue
        for player in players:
            if player in spec.per_player:
                diagnostics.append(Diagnostic("LX301", f"`own`: how many `{kind}` player `{player}` has is given "
                                              "twice", where))
        content.pieces[kind] = spec.model_copy(update={"per_player": {**spec.per_player,
                                                                      **{p: number for p in players}}})


def _add_seats(content: Content, diagnostics: list[Diagnostic]) -> None:
    """The extra seats join the players, each playing a player's faction: one faction seated twice."""
    for seat, faction in list(content.seats.items()):
        where = content.positions.get(("seats", seat))
        if seat in content.players:
            diagnostics.append(Diagnostic("LX301", f"seat `{seat}` is a player already", where))
        elif faction not in content.players or faction in content.seats:
            diagnostics.append(Diagnostic("LX302", f"seat `{seat}` plays `{faction}`, which is not a player of the "
                                                   "content", where, hint=did_you_mean(faction, content.players)))
        else:
            content.players.append(seat)
            continue
        del content.seats[seat]


def content_files(places: list[Path]) -> list[Path]:
    """The content files of these folders (their *.yaml, by name) and single files, in order."""
    return [f for place in places for f in (sorted(place.glob("*.yaml")) if place.is_dir() else [place])]


def _without_broken_kinds(document, error: ValidationError, lost_kinds: set[str]) -> ContentFile | None:
    """The file without the piece kinds its errors are in, if every error is in one of them."""
    broken = {e["loc"][1] for e in error.errors() if len(e["loc"]) > 1 and e["loc"][0] == "pieces"}
    if not isinstance(document, dict) or not isinstance(document.get("pieces"), dict) or \
            any(len(e["loc"]) < 2 or e["loc"][0] != "pieces" for e in error.errors()):
        return None
    rest = dict(document, pieces={k: v for k, v in document["pieces"].items() if k not in broken})
    try:
        parsed = ContentFile.model_validate(rest)
    except ValidationError:
        return None
    lost_kinds |= {str(k) for k in broken}
    return parsed


def merge_content(content: Content, parsed: ContentFile, document, file: str, diagnostics: list[Diagnostic]) -> None:
    """Add what one content file (`document`, parsed) declares to `content`."""
    for i, player in enumerate(parsed.players or []):
        where = position_of(document, ("players", i), file)
        if player in content.players:
            diagnostics.append(Diagnostic("LX301", f"player `{player}` is declared twice{_first_at(content, player)}",
                                          where))
            continue
        content.players.append(player)
        content.positions[("players", player)] = where
    for player in parsed.players or []:
        content.excludes.setdefault(player, []).extend(parsed.excludes)
    for kind, number in parsed.own.items():
        if not parsed.players:
            diagnostics.append(Diagnostic("LX204", "`own` gives this file's players their pieces: the file declares "
                                          "no `players`", position_of(document, ("own",), file)))
            break
        content.owned.append((kind, number, list(parsed.players), position_of(document, ("own", kind), file)))
    for seat, faction in parsed.seats.items():
        if seat in content.seats:
            diagnostics.append(Diagnostic("LX301", f"seat `{seat}` is declared twice", position_of(document, ("seats", seat), file)))
        content.seats[seat] = faction
        content.positions[("seats", seat)] = position_of(document, ("seats", seat), file)
    if parsed.board is not None:
        if content.board is not None:
            diagnostics.append(Diagnostic("LX301", "the board is declared twice", position_of(document, ("board",), file)))
        content.board = parsed.board
        content.positions[("board",)] = position_of(document, ("board",), file)
        for name in parsed.board.locations or {}:
            content.positions[("location", name)] = position_of(document, ("board", "locations", name), file)
        for i, _ in enumerate(parsed.board.connections):
            content.positions[("connection", i)] = position_of(document, ("board", "connections", i), file)
        if parsed.board.grid:
            for name in parsed.board.grid.attributes:
                content.positions[("attributes", name)] = position_of(document, ("board", "grid", "attributes", name), file)
    for name, attributes in parsed.locations.items():
        where = position_of(document, ("locations", name), file)
        if name in content.added_locations:
            diagnostics.append(Diagnostic("LX301", f"location `{name}` is declared twice", where))
        content.added_locations[name] = attributes
        content.positions[("added location", name)] = where
    _check_values(parsed, document, file, diagnostics)
    for kind, spec in parsed.pieces.items():
        if kind in content.pieces:
            diagnostics.append(Diagnostic("LX301", f"piece kind `{kind}` is declared twice", position_of(document, ("pieces", kind), file)))
        content.pieces[kind] = spec
        content.positions[("pieces", kind)] = position_of(document, ("pieces", kind), file)
        for key in ("starts_in", "traits", "per_player", "count"):
            content.positions[("pieces", kind, key)] = position_of(document, ("pieces", kind, key), file)
        for name in spec.properties:
            content.positions[("pieces", kind, "properties", name)] = position_of(document, ("pieces", kind, "properties", name), file)
        for name, source in spec.functions.items():
            line, column = _value_place(document["pieces"][kind], "functions", name)
            quoted = _is_quoted(file, line + 1, column)
            content.abilities.append(Ability(kind, name, source, file, line + 1, column + 1 + (1 if quoted else 0),
                                             False, value=True))
        for name, source in spec.abilities.items():
            line, column = _value_place(document["pieces"][kind], "abilities", name)
            # A block scalar (`|`) starts on the line after its key; its text is indented.
            block = "\n" in source.rstrip("\n") or source.endswith("\n")
            if block:
                first_line, indent = _first_text_line(file, line + 2)
                source = source.lstrip("\n")
            else:
                quoted = _is_quoted(file, line + 1, column)
                first_line, indent = line + 1, column + (1 if quoted else 0)
            content.abilities.append(Ability(kind, name, source, file, first_line, indent + 1, block))


def _check_values(parsed: ContentFile, document, file: str, diagnostics: list[Diagnostic]) -> None:
    """The values of properties and attributes a rule may compute with: each number within what a game
    holds (LUDOLEX_LARGEST_NUMBER), and a list's items all numbers or all texts. A rule adding up
    `costs: [0, 1, x]` would otherwise fail in the middle of a game."""
    values = [(("pieces", kind, "properties", name), value)
              for kind, spec in parsed.pieces.items() for name, value in spec.properties.items()]
    board = parsed.board
    if board is not None:
        prefix, places = (("board", "grid", "attributes"), board.grid.attributes) if board.grid else \
            (("board", "locations"), board.locations or {})
        values += [((*prefix, place, name), value)
                   for place, attributes in places.items() for name, value in attributes.items()]
    values += [(("locations", place, name), value)
               for place, attributes in parsed.locations.items() for name, value in attributes.items()]
    for path, value in values:
        items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
        for number, item in items:
            if type(item) is int and abs(item) > LIMITS.largest_number:
                digits = str(item)
                shown = digits if len(digits) <= 20 else digits[:20] + "..."
                diagnostics.append(Diagnostic("LX205", f"`{path[-1]}`: the number {shown} is larger than "
                                              f"{LIMITS.largest_number:,}, the largest a game holds "
                                              "(LUDOLEX_LARGEST_NUMBER)", _place(document, path, number, file)))
        kinds = [_kind_of(item) for _, item in items]
        usual = max(kinds, key=kinds.count) if kinds else None  # the type of most items (of the first, in a tie)
        for (number, item), kind in zip(items, kinds):
            if kind != usual:
                diagnostics.append(Diagnostic("LX205", f"`{path[-1]}` is a list of {usual}s with a {kind} in it "
                                              f"({json.dumps(item)}): a rule that reads its items would fail on it",
                                              _place(document, path, number, file)))


def _kind_of(value) -> str:
    return "number" if type(value) is int else "text" if isinstance(value, str) else "truth value"


def _place(document, path: tuple, number: int | None, file: str):
    return position_of(document, path if number is None else (*path, number), file, value=True)


def _value_place(kind, table: str, name: str) -> tuple[int, int]:
    """Where the value of `name` in a kind's `functions` or `abilities` starts (0-based line, column).
    A key brought in by a YAML merge (`<<: ...`) has no place of its own: the table's key stands for it."""
    try:
        return kind[table].lc.value(name)
    except KeyError:
        return kind.lc.key(table)


def _first_text_line(file: str, line: int) -> tuple[int, int]:
    """The first non-blank line from `line` on, and its indentation (a block scalar's text)."""
    lines = (loaded_text(file) or "").splitlines()
    while line <= len(lines) and not lines[line - 1].strip():
        line += 1
    text = lines[line - 1] if line <= len(lines) else ""
    return line, len(text) - len(text.lstrip())


def _is_quoted(file: str, line: int, column: int) -> bool:
    lines = (loaded_text(file) or "").splitlines()
    return 0 < line <= len(lines) and lines[line - 1][column:column + 1] in ("'", '"')
