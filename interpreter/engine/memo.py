"""Derived values (the values of the rules' cached functions), each kept until something it read changes.

What a function reads is found once in its generated code (`language.reads`): which variables
and properties, and which zones, each named by a parameter (`pieces(site)`), a fixed name, or a
per-player zone of a parameter (`supply(p)`). A function that finds the zones it reads otherwise
(every location, a component's zone) reads "any zone". The function keeps each value in its
table here and notes it under the zones it read (language.codegen writes that code).

A change the state reports precisely (a move, a variable or a property set) forgets the values
that read what it changed; any other change forgets every value but those of the functions that
read nothing of the state (not even which component a value is: a redeal of hidden components
changes that). Values that draw at random, or read what no change reports, are forgotten at
every change, as all values used to be.
"""
from __future__ import annotations


class Readers:
    """Of one ruleset: what each cached function (by number) reads. A function is entered the first
    time any game asks one of its values (language.codegen)."""

    def __init__(self):
        self.of_variable: dict[str, list[int]] = {}
        self.of_property: dict[str, list[int]] = {}
        self.group: dict[int, str | None] = {}  # number -> the list of a `Memo` that holds it, if any

    def enter(self, number: int, reads) -> None:
        """Function `number`, whose code reads `reads` (a `language.reads.Reads`)."""
        if reads.volatile:
            self.group[number] = "volatile"
        elif reads.zones is None or len(reads.zones) > 1:  # kept by zone only when it reads one: see codegen
            self.group[number] = "any_zone"
        elif not (reads.zones or reads.variables or reads.properties or reads.identities):
            self.group[number] = "fixed"
        else:
            self.group[number] = None
        for name in reads.variables:
            self.of_variable.setdefault(name, []).append(number)
        for name in reads.properties:
            self.of_property.setdefault(name, []).append(number)


class Memo:
    """One game's derived values, by function and arguments, with the zones each read."""

    def __init__(self):
        self.tables: dict[int, dict] = {}  # function number -> {arguments: value}, or {argument: {the others: value}}
        self.by_zone: dict = {}  # zone -> [(function number, argument)]: the parts of tables that read it (may repeat)
        # The functions with a table here (each function adds its number as it makes its table) that
        # are volatile, that read any zone, and that read nothing of the state:
        self.volatile: list[int] = []
        self.any_zone: list[int] = []
        self.fixed: list[int] = []
        self.readers: Readers | None = None  # the ruleset's, once a value is kept

    def forget_zones(self, *zones: str) -> None:
        tables, by_zone = self.tables, self.by_zone
        if by_zone:
            for zone in zones:
                for number, key in by_zone.pop(zone, ()):
                    table = tables.get(number)
                    if table:
                        table.pop(key, None)
        if self.any_zone:
            for number in self.any_zone:
                tables.pop(number, None)
            self.any_zone = []
        if self.volatile:
            self._forget(())

    def forget_variable(self, name: str) -> None:
        if self.readers is not None:
            self._forget(self.readers.of_variable.get(name, ()))

    def forget_property(self, name: str) -> None:
        if self.readers is not None:
            self._forget(self.readers.of_property.get(name, ()))

    def forget_volatile(self) -> None:
        self._forget(())

    def _forget(self, numbers) -> None:
        """Forget the values of these functions, and those of the volatile ones."""
        tables = self.tables
        for number in numbers:
            tables.pop(number, None)
        if self.volatile:
            for number in self.volatile:
                tables.pop(number, None)
            self.volatile = []

    def forget_all(self) -> None:
        """Forget every value but those of the functions that read nothing of the state."""
        tables = self.tables
        self.tables = {number: tables[number] for number in self.fixed} if self.fixed else {}
        if self.by_zone:
            self.by_zone = {}
        if self.volatile or self.any_zone:
            self.volatile, self.any_zone = [], []
