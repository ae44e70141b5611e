"""Derived values (the values of the rules' cached functions), each kept until something it read changes.

What a function reads is found once in its generated code (`language.reads`): which variables
and properties, and which zones, each named by a parameter (`pieces(site)`), a fixed name, or a
per-player zone of a parameter (`supply(p)`). A function that reads zones it finds otherwise
(every location, a component's zone) reads "any zone".

A change the state reports precisely (a move, a variable or a property set) forgets the values
that read what it changed; any other change forgets every value. Values that draw at random, or
read what no change reports, are forgotten at every change, as all values used to be.
"""
from __future__ import annotations


class Readers:
    """Of one ruleset: what each cached function (by number) reads. A function is entered the first
    time a game keeps one of its values, before that value is kept."""

    def __init__(self):
        self.zones: dict[int, tuple | None] = {}  # number -> its zones as (prefix, parameter) pairs; None: any zone
        self.of_variable: dict[str, list[int]] = {}
        self.of_property: dict[str, list[int]] = {}
        self.volatile: set[int] = set()  # forgotten at every change

    def enter(self, number: int, reads) -> None:
        """Function `number`, whose code reads `reads` (a `language.reads.Reads`)."""
        self.zones[number] = reads.zones
        if reads.volatile:
            self.volatile.add(number)
            return
        for name in reads.variables:
            self.of_variable.setdefault(name, []).append(number)
        for name in reads.properties:
            self.of_property.setdefault(name, []).append(number)


class Memo:
    """One game's derived values, by function and arguments, with the zones each read."""

    def __init__(self):
        self.tables: dict[int, dict] = {}  # function number -> {arguments: value}
        self.by_zone: dict = {}  # zone -> {(function number, arguments)} of the values that read it
        self.any_zone: list[int] = []  # the functions with a table here that read any zone
        self.volatile: list[int] = []  # those with a table here that are volatile
        self.readers: Readers | None = None  # the ruleset's, once a value is kept

    def remember(self, rt, number: int, readers, key, compute, args: tuple):
        """`compute(rt, *args)`, kept under `key`. `readers()` gives the ruleset's `Readers`, with
        function `number` entered."""
        table = self.tables.get(number)
        if table is None:
            table = self._table(number, readers)
        value = compute(rt, *args)
        try:
            table[key] = value
        except TypeError:  # an unhashable argument (a list): not kept
            return value
        zones = self.readers.zones[number]
        if zones:
            entry, by_zone = (number, key), self.by_zone
            for prefix, parameter in zones:
                if parameter is None:
                    zone = prefix
                elif not prefix:
                    zone = args[parameter]
                elif isinstance(args[parameter], str):
                    zone = prefix + args[parameter]
                else:  # not a player: that zone was not read (reading it would have failed)
                    continue
                if zone in by_zone:
                    by_zone[zone].add(entry)
                else:
                    by_zone[zone] = {entry}
        return value

    def _table(self, number: int, readers) -> dict:
        if self.readers is None or number not in self.readers.zones:
            self.readers = readers()
        table = self.tables[number] = {}
        if number in self.readers.volatile:
            self.volatile.append(number)
        elif self.readers.zones[number] is None:
            self.any_zone.append(number)
        return table

    def forget_zones(self, *zones: str) -> None:
        tables = self.tables
        for zone in zones:
            for number, key in self.by_zone.pop(zone, ()):
                table = tables.get(number)
                if table:
                    table.pop(key, None)
        self._forget(self.any_zone)
        self.any_zone = []

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
        self.tables.clear()
        self.by_zone.clear()
        self.any_zone = []
        self.volatile = []
