"""Every diagnostic ludolex reports: its code, its severity, and what it means.

LX0xx: the command and its paths. LX1xx: syntax of rules files. LX2xx: files, YAML and its schema.
LX3xx: meaning (names, types, structure). LX4xx: notes about the content. A warning does not fail
`validate` unless --strict; a note never does.
"""
from __future__ import annotations

CODES: dict[str, tuple[str, str]] = {
    "LX001": ("error", "no ruleset at this path or with this name"),
    "LX101": ("error", "unexpected token: the rules text does not follow the grammar here"),
    "LX102": ("error", "indentation matches no enclosing block"),
    "LX103": ("error", "a character that the rules language does not use"),
    "LX104": ("error", "a literal the language cannot read (a number too long, a bad escape in a text)"),
    "LX105": ("error", "an expression or block nested too deeply"),
    "LX106": ("error", "the rules compile to more code than the limit allows (LUDOLEX_COMPILED_CHARACTERS)"),
    "LX201": ("error", "the file is not UTF-8 text"),
    "LX202": ("error", "the file is not valid YAML"),
    "LX203": ("error", "unknown key"),
    "LX204": ("error", "missing field"),
    "LX205": ("error", "a value of the wrong type or out of range"),
    "LX206": ("error", "the manifest names a content folder or file, a rules folder, or a file a variant adds or removes, that does not exist"),
    "LX207": ("error", "the content declares no board"),
    "LX208": ("error", "a key appears twice in the same YAML mapping"),
    "LX209": ("error", "a file or folder outside the project: a link, or a path in the manifest, that leads out of it"),
    "LX210": ("error", "not a regular file (a folder, a FIFO, a device, a link to nothing): it is not read"),
    "LX211": ("error", "past a limit of docs/limits.md: a file too large, a ruleset's files too large together, YAML nested too deeply or with too many values"),
    "LX212": ("error", "a variant whose base is itself, or a variant of it"),
    "LX301": ("error", "a name (or `play:`, `setup:`) is declared twice"),
    "LX302": ("error", "unknown name"),
    "LX303": ("error", "unknown function"),
    "LX304": ("error", "`self` outside a piece's ability"),
    "LX305": ("error", "a per-player zone or variable used without its player, or a shared one with a player"),
    "LX306": ("error", "a procedure called inside an expression"),
    "LX307": ("error", "wrong number of arguments"),
    "LX308": ("error", "unknown attribute"),
    "LX309": ("error", "`is` needs a kind of piece or a trait"),
    "LX310": ("error", "this quantifier takes no `: value` part"),
    "LX311": ("error", "`set` needs a variable, a player's variable or a property"),
    "LX312": ("error", "an event that no `when` rule handles"),
    "LX313": ("error", "unknown procedure"),
    "LX314": ("error", "no kind of piece has this ability"),
    "LX315": ("error", "`ranked by` needs a function of one player"),
    "LX316": ("error", "a decision where none may be asked (`at once`, a continuous rule)"),
    "LX317": ("error", "`repeat:` without a count that never asks a decision never ends"),
    "LX318": ("error", "a function uses `you`"),
    "LX319": ("error", "`modify`, `override` or `instead of` names nothing it can change"),
    "LX320": ("error", "the rules have no `play:` block"),
    "LX321": ("error", "a property's default is not a plain value"),
    "LX322": ("error", "pieces start in a zone that no `zone` declares, or shared pieces in a player's zone"),
    "LX323": ("error", "a value of the wrong type"),
    "LX324": ("warning", "a statement that can never run"),
    "LX325": ("warning", "a procedure or function that nothing uses"),
    "LX326": ("error", "a decision that can never have an option"),
    "LX327": ("error", "a scenario names a location, zone, player or kind the game does not have"),
    "LX328": ("error", "a scenario's position needs more components than the game has"),
    "LX329": ("error", "a reserved word of the language used as a name"),
    "LX330": ("error", "a private variable that is not per player"),
    "LX331": ("error", "`proceed` outside an `instead of` rule"),
    "LX332": ("error", "an option whose values or default are not plain values, or a name or value of an option the rules do not declare"),
    "LX333": ("error", "`simultaneously for each p` whose block does not start with `choose ... by p`"),
    "LX334": ("warning", "a property named like an attribute every component has (`id`, `kind`, `owner`, `zone`, `location`)"),
    "LX335": ("warning", "a `because` that can record nothing: the manifest names no `score`, or the statement makes nobody score"),
    "LX336": ("error", "`none` written where a value is needed: an argument read as a zone, a list, a number or a player, a `repeat` count, an index past the end of a list written out"),
    "LX337": ("error", "a `choose` that nobody can decide: it has no `by`, and no player acts where it is asked (outside any `turn` or `as`)"),
    "LX338": ("error", "an `end turn` that runs outside any `turn`: in `setup:` or `play:`, or a procedure, rule or ability they run there"),
    "LX339": ("error", "two `override` rules of one function, in different files, that may both hold with the same precedence"),
    "LX401": ("note", "values the content marks as provisional: stand-ins for what the rulebook does not give"),
    "LX402": ("note", "a `with faction` block left out: the game has no file of that faction (a variant without it)"),
}


def severity(code: str) -> str:
    return CODES[code][0]
