"""What a generated function reads of the state, found once in its code (for engine.memo).

The code is read as Python syntax, against a short list of what is understood: a variable read
by name (`rt.state.variables['x']`), a property by name (`c.props.get('x', ...)`), a zone looked
up (`Z[a0]`, `Z.get(a0)`, a builtin such as `pieces(rt, a0)`) by a name made of a parameter, a
fixed text, or both (a player's zone: `'supply/' + a0`), which component a value is (its id, kind,
owner), the board, the players and the kinds' fixed values (which never change), the builtins and
the other generated functions. A zone looked up otherwise (every location of a list), or where a
component lies or how it faces, makes the function read any zone.
Anything else (a die, a card's own function, a part of the state read another way) makes it
volatile: its values are forgotten at every change.

A zone is written (prefix, parameter): the zone `prefix + args[parameter]`, or `prefix` itself when
the parameter is None, counting parameters after `rt`.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from interpreter.engine.state import Component
from interpreter.language import builtins

FIXED = ("board", "players")  # what `rt.NAME` gives that never changes during a game
PLACEMENT = ("zone", "face_down")  # of a component: changed by a move (of any zone, then)
IDENTITY = ("id", "kind", "owner")  # of a component: which it is, changed only by dealing hidden ones again
# Any other attribute of a component (its properties read other than by name, who knows it) is volatile.
UNREPORTED = frozenset(Component.__slots__) - set(PLACEMENT) - set(IDENTITY)
SAFE_MODULES = (builtins.__name__, "itertools")  # functions the code calls that read the state through zones only


@dataclass(frozen=True)
class Reads:
    variables: frozenset = frozenset()
    properties: frozenset = frozenset()
    zones: frozenset | None = frozenset()  # (prefix, parameter) pairs; None: any zone
    identities: bool = False  # which component a value is (its id, kind or owner)
    volatile: bool = False  # chance, or what no change reports: valid until the next change only


@dataclass
class _Own:
    """What one function's code reads itself, and the generated functions it calls."""
    variables: set = field(default_factory=set)
    properties: set = field(default_factory=set)
    zones: set | None = field(default_factory=set)
    identities: bool = False
    volatile: bool = False
    calls: list = field(default_factory=list)  # (the name whose code gives a callee's reads, its arguments' zones)


class CodeReads:
    """The reads of the generated functions of one namespace, worked out on demand and kept."""

    def __init__(self, namespace: dict, sources: dict[str, str], read_as: dict[str, str]):
        self.namespace, self.sources, self.read_as = namespace, sources, read_as
        self._own: dict[str, _Own] = {}
        self._zones: dict[str, frozenset | None] = {}
        self._reads: dict[str, Reads] = {}

    def reads(self, name: str) -> Reads:
        """What generated function `name` reads, with every function it calls."""
        if name not in self._reads:
            variables, properties, identities, volatile = set(), set(), False, False
            seen, waiting = {name}, [name]
            while waiting:
                own = self.own(waiting.pop())
                variables |= own.variables
                properties |= own.properties
                identities |= own.identities
                volatile |= own.volatile
                for callee, _ in own.calls:
                    if callee not in seen:
                        seen.add(callee)
                        waiting.append(callee)
            try:
                zones = self.zones(name, set())
            except RecursionError:  # calls nested deeper than Python goes: read as reading any zone
                zones = None
            self._reads[name] = Reads(frozenset(variables), frozenset(properties), zones, identities, volatile)
        return self._reads[name]

    def zones(self, name: str, calling: set) -> frozenset | None:
        """The zones `name` reads, those of its callees included; None: any zone. `calling`: the
        functions whose zones are being worked out (a function that calls itself reads any zone)."""
        if name not in self._zones:
            own = self.own(name)
            self._zones[name] = (None if own.zones is None or name in calling
                                 else self._with_callees(own, calling | {name}))
        return self._zones[name]

    def _with_callees(self, own: _Own, calling: set) -> frozenset | None:
        found = set(own.zones)
        for callee, arguments in own.calls:
            inner = self.zones(callee, calling)
            if inner is None:
                return None
            for prefix, parameter in inner:
                if parameter is None:
                    argument = ("", None)
                else:
                    argument = arguments[parameter] if parameter < len(arguments) else None
                if argument is None:  # a zone named by an argument the code does not name plainly
                    return None
                found.add((prefix + argument[0], argument[1]))
        return frozenset(found)

    def own(self, name: str) -> _Own:
        if name not in self._own:
            self._own[name] = self._read(ast.parse(self.sources[name]))
        return self._own[name]

    def _read(self, tree) -> _Own:
        own, namespace = _Own(), self.namespace
        definition = next(node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef))
        names = [argument.arg for argument in definition.args.args]
        params = {name: number for number, name in enumerate(names[1:] if names[:1] == ["rt"] else names)}

        def zone(node):
            """The zone named by the code `node` as (prefix, parameter), or None."""
            if isinstance(node, ast.Name) and node.id in params:
                return "", params[node.id]
            if isinstance(node, ast.Name) and isinstance(namespace.get(node.id), str):
                return namespace[node.id], None
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                return node.value, None
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
                left, right = zone(node.left), zone(node.right)
                return _joined(left[0], right) if left and left[1] is None else None
            return None

        def looked_up(node) -> None:
            found = zone(node)
            if found is None:
                own.zones = None
            elif own.zones is not None:
                own.zones.add(found)

        understood: set[int] = set()  # nodes read as a part of a pattern recognised above them
        for node in ast.walk(tree):
            if isinstance(node, ast.Subscript) and _dotted(node.value) == "rt.state.variables" and _text(node.slice):
                own.variables.add(node.slice.value)
                understood |= _chain(node.value)
            elif isinstance(node, ast.Subscript) and _dotted(node.value) in ("Z", "rt.state.zones"):
                looked_up(node.slice)
                understood |= _chain(node.value)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
                receiver = node.func.value
                if _dotted(receiver) in ("Z", "rt.state.zones") and node.args:
                    looked_up(node.args[0])
                    understood |= _chain(receiver)
                elif (isinstance(receiver, ast.Attribute) and receiver.attr == "props" and node.args
                      and _text(node.args[0])):
                    own.properties.add(node.args[0].value)
                    understood.add(id(receiver))
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and callable(namespace.get(node.func.id))):
                arguments = node.args[1:] if node.args and _dotted(node.args[0]) == "rt" else node.args
                if node.keywords or any(isinstance(argument, ast.Starred) for argument in arguments):
                    arguments = [None] * len(arguments)  # not matched to parameters: their zones unknown
                function = namespace[node.func.id]
                callee = self._generated(function)
                if callee is not None:
                    own.calls.append((callee, [argument and zone(argument) for argument in arguments]))
                    understood.add(id(node.func))
                elif any(function is f for f in builtins.READS_ZONE) and arguments:
                    looked_up(arguments[0])
                    understood.add(id(node.func))
            elif isinstance(node, ast.Assign) and _dotted(node.value) == "rt.state.zones":  # `Z = rt.state.zones`
                understood |= _chain(node.value) | {id(target) for target in node.targets}
            elif isinstance(node, ast.Attribute) and _dotted(node) == "rt.program.kind_properties":
                understood |= _chain(node)
        for node in ast.walk(tree):
            if id(node) in understood:
                continue
            if isinstance(node, ast.Attribute):
                own.identities |= node.attr in IDENTITY
                if node.attr in PLACEMENT:
                    own.zones = None
                own.volatile |= node.attr in UNREPORTED or (_dotted(node.value) == "rt" and node.attr not in FIXED)
            elif isinstance(node, ast.Name) and node.id == "Z":
                own.zones = None  # the zones used otherwise than by looking one up
            elif isinstance(node, ast.Name) and callable(namespace.get(node.id)):
                function = namespace[node.id]
                callee = self._generated(function)
                if callee is not None:  # a function passed on, not called here
                    own.calls.append((callee, []))
                    own.zones = None
                    continue
                own.volatile |= (any(function is f for f in builtins.DRAWING)
                                 or getattr(function, "__module__", None) not in SAFE_MODULES)
                if not any(function is f for f in builtins.READS_NO_ZONE):
                    own.zones = None
        return own

    def _generated(self, function) -> str | None:
        """The name whose code gives the reads of `function`, if it is a generated function."""
        name = getattr(function, "__name__", None)
        return self.read_as[name] if name in self.read_as and self.namespace.get(name) is function else None


def _joined(prefix: str, zone: tuple | None) -> tuple | None:
    """The zone `prefix + zone`, for a zone (prefix, parameter) read from the code; None if unknown."""
    return None if zone is None else (prefix + zone[0], zone[1])


def _dotted(node) -> str | None:
    """`rt.state.zones` for the code `rt.state.zones`; None for anything but names and attributes."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    return None


def _chain(node) -> set[int]:
    """The nodes of `a.b.c`: the whole and each part."""
    found = set()
    while isinstance(node, ast.Attribute):
        found.add(id(node))
        node = node.value
    found.add(id(node))
    return found


def _text(node) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)
