"""What the checker knows while it compiles: the game's global names and the local variables in view."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from interpreter.diagnostics.diagnostic import Diagnostic, Position
from interpreter.engine.state import player_zone
from interpreter.language.grammar import reserved_words


@dataclass
class Symbols:
    """Every global name of a ruleset, by what it names."""

    kinds: list[str] = field(default_factory=list)
    traits: set[str] = field(default_factory=set)
    players: list[str] = field(default_factory=list)
    connections: set[str] = field(default_factory=set)
    locations: set[str] = field(default_factory=set)  # the board's locations, usable by name (`top(c2)`)
    zones: dict[str, bool] = field(default_factory=dict)  # name -> per player
    unordered: list[str] = field(default_factory=list)  # the zones declared `unordered` (bags), in declaration order
    variables: dict[str, bool] = field(default_factory=dict)  # name -> per player
    variable_types: dict[str, str] = field(default_factory=dict)  # name -> the type of the value it starts with
    options: dict[str, list] = field(default_factory=dict)  # option -> its values, the default first
    properties: dict[str, object] = field(default_factory=dict)  # name -> default value
    functions: dict[str, int] = field(default_factory=dict)  # name -> number of parameters
    procedures: dict[str, int] = field(default_factory=dict)
    abilities: set[str] = field(default_factory=set)
    card_values: set[str] = field(default_factory=set)  # the names of the content's `functions` (`test NAME of c`)
    events: dict[str, int] = field(default_factory=dict)  # custom event -> number of parameters
    declared_events: dict[str, int] = field(default_factory=dict)  # `event NAME(params)` -> number of parameters
    declared_abilities: set[str] = field(default_factory=set)  # `ability NAME`: performed, whether a kind has it or not
    trait_members: dict[str, frozenset] = field(default_factory=dict)  # trait -> kinds that have it
    kind_properties: set[str] = field(default_factory=set)  # fixed values declared on piece kinds
    kind_property_types: dict[str, str] = field(default_factory=dict)  # such a value -> its type, where every kind agrees
    properties_of_kind: dict[str, frozenset] = field(default_factory=dict)  # kind -> the names of its fixed values
    location_attributes: set[str] = field(default_factory=set)  # attributes of the board's locations
    used: set[str] = field(default_factory=set)  # functions and procedures something calls
    handled: set[tuple] = field(default_factory=set)  # events some `when` rule listens to
    seats: dict[str, str] = field(default_factory=dict)  # an extra seat -> the faction whose file it plays a copy of
    phases: set[str] = field(default_factory=set)  # the names of the turn's phases (filled as `play:` compiles)
    inlinable: dict[str, list] = field(default_factory=dict)  # function -> [(params, expr)] without loops
    function_parts: dict[str, list] = field(default_factory=dict)  # function -> [(params, expr)]: body, modifiers, overrides
    results: dict[str, str] = field(default_factory=dict)  # function -> the type of its value (`expressions.function_result`)
    needs: dict[tuple, dict] = field(default_factory=dict)  # what each parameter must hold (`parameters.find_needs`)
    inline_costs: dict[str, int] = field(default_factory=dict)  # function -> expression nodes its inlining writes
    # decision name -> {the names its options bind: the names in view wherever it is asked so}
    decisions: dict[str, dict[tuple, frozenset]] = field(default_factory=dict)
    score: str | None = None  # the function the manifest names as the game's score
    backs: bool = False  # some kind has a `back`: its components may lie face down, their identity hidden

    def note_decision(self, name: str, binds: tuple, in_view: frozenset = frozenset()) -> None:
        """A `choose` asks decision `name`, its options binding `binds`, with the rule's names `in_view`
        (which a bot's value of it may read: those in view at every `choose` that asks it so)."""
        forms = self.decisions.setdefault(name, {})
        in_view = frozenset(in_view) - set(binds)
        forms[binds] = forms[binds] & in_view if binds in forms else in_view

    def unordered_zones(self) -> tuple[str, ...]:
        """The state's names of the unordered zones (`bag/red`, `bag/blue` for a per-player one), in
        declaration order, then player order: a fixed order, for the seeded generator."""
        return tuple(name for zone in self.unordered
                     for name in ([player_zone(zone, p) for p in self.players] if self.zones.get(zone) else [zone]))

    def trait_kinds(self, trait: str) -> frozenset:
        return self.trait_members.get(trait, frozenset())

    def kind_of(self, name: str) -> str | None:
        for what, table in (
            ("kind", self.kinds), ("trait", self.traits), ("player", self.players),
            ("connection", self.connections), ("location", self.locations), ("zone", self.zones), ("variable", self.variables),
            ("function", self.functions), ("procedure", self.procedures),
        ):
            if name in table:
                return what
        return None

    def factions_declaring(self, name: str) -> list[str]:
        """The factions whose file declares `name` as its own (`red` for `red.stash`), sorted; an extra
        seat's copy of a faction's file is that faction's."""
        return sorted({n.split(".")[0] for n in self.all_names()
                       if "." in n and n.split(".", 1)[1] == name and n.split(".")[0] not in self.seats})

    def outside_name(self, name: str, seat: str | None = None) -> str:
        """A name written outside the rules (a scenario, a bot): a name the rules do not declare, but
        exactly one faction's file does, means that one (`stash` for `red.stash`). For an extra `seat`
        (a bot playing it), a name of its faction's file means the seat's own copy of it."""
        if "." not in name and name not in self.all_names():
            owners = self.factions_declaring(name)
            name = f"{owners[0]}.{name}" if len(owners) == 1 else name
        faction, _, local = name.partition(".")
        if seat is not None and local and self.seats.get(seat) == faction and f"{seat}.{local}" in self.all_names():
            return f"{seat}.{local}"
        return name

    def local_to_a_faction(self, name: str) -> str | None:
        """For a name declared in a faction's file, but written unqualified elsewhere: how to write it."""
        owners = self.factions_declaring(name)
        return f"`{name}` is local to the file of faction {' and '.join(owners)}: write `{owners[0]}.{name}`" if owners else None

    def all_names(self) -> set[str]:
        names = set(self.kinds) | self.traits | set(self.players) | self.connections | self.locations
        return names | set(self.zones) | set(self.variables) | set(self.functions) | set(self.procedures)


@dataclass
class Scope:
    symbols: Symbols
    diagnostics: list[Diagnostic]
    locals: frozenset[str] = frozenset()
    has_self: bool = False  # inside a piece's ability
    in_always: bool = False
    pure: bool = False  # inside a function: the value may depend only on the parameters and the state
    codegen: object = None  # the CodeGen shared by the whole ruleset
    inlining: tuple[str, ...] = ()  # functions being inlined here (no function is inlined into itself)
    replacing: str | None = None  # inside `instead of P`: P
    outside: bool = False  # an expression of a scenario or a bot: see `Symbols.outside_name`
    seat: str | None = None  # outside: the extra seat the expression is valued for (a bot playing it)
    local_types: dict = field(default_factory=dict)  # a local name -> the type known of its values (a quantifier's)

    def error(self, code: str, message: str, position: Position, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, position, hint=hint))

    def check_name(self, name: str, position: Position) -> None:
        if name in reserved_words():
            self.error("LX329", f"`{name}` is a reserved word of the language: choose another name", position)

    def warn(self, code: str, message: str, position: Position, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, position, severity="warning", hint=hint))

    def with_locals(self, *names: str, types: dict | None = None) -> "Scope":
        """The scope with these names bound, of the types `types` gives (the others: unknown)."""
        known = {name: kind for name, kind in self.local_types.items() if name not in names} | (types or {})
        return replace(self, locals=self.locals | set(names), local_types=known)

    def names_in_view(self) -> frozenset[str]:
        """The rule's own names here: its parameters, `let`s and bound names, and `self` in an ability."""
        return (self.locals | {"self"}) if self.has_self else self.locals

    def visible_names(self) -> set[str]:
        return set(self.locals) | self.symbols.all_names() | {"you", "players", "locations"}
