"""A rule that fails while it runs, said in the words of the rules language.

The checker cannot know every value before a game (a parameter may hold `none`, a function's value
may be a number where a player is read). When such a value reaches the engine, Python raises an
error about its own types (`KeyError: None`, `unsupported operand type(s) for +: 'NoneType' and
'int'`); a designer should read what went wrong in the game's words instead: `none where a zone, a
location or a player is needed`.
"""
from __future__ import annotations

import re

from interpreter.engine.state import Component

# Python's names of the types a rule's values have, in the words of the language.
VALUES = {"NoneType": "none", "int": "a number", "bool": "true or false", "str": "a text (a name)",
          "list": "a list", "tuple": "a list", "Component": "a component", "NumberRange": "a list"}
ATTRIBUTES = {"props": "properties"}  # a component's, as the engine names them
OPERATORS = {"//": "/", "%": "mod", "unary -": "-"}  # how generated code writes the language's operators


def in_plain_words(error: BaseException) -> str:
    """What went wrong, for a rule error's message."""
    text = str(error)
    if isinstance(error, KeyError) and error.args:
        key = error.args[0]
        if key is None:
            return "none where a zone, a location or a player is needed"
        return f"{_shown(key)} is not a zone, a location or a player of this game"
    if isinstance(error, RecursionError):
        return "functions or procedures call each other too deeply (one calls itself without end?)"
    for pattern, words in _PATTERNS:
        found = re.search(pattern, text)
        if found:
            return words(*found.groups())
    return f"a value of the wrong kind ({text})" if text else "a value of the wrong kind"


def _value(python_type: str) -> str:
    return VALUES.get(python_type, "a value")


def _attribute(name: str) -> str:
    return ATTRIBUTES.get(name, f"`{name}`")


def _operator(operator: str) -> str:
    return OPERATORS.get(operator, operator)


def _operands(operator: str, left: str, right: str) -> str:
    """`None + 1`: none where a number is needed (a property or attribute the value does not have reads as none)."""
    wanted = "a list" if operator == "+" and "list" in (left, right) else "a number"
    operation = f"`{_operator(operator)}` of {_value(left)} and {_value(right)}"
    if "NoneType" in (left, right):
        return f"none where {wanted} is needed ({operation}; a property or attribute a value does not have is none)"
    return f"{operation}: `{_operator(operator)}` needs {'two lists' if wanted == 'a list' else 'numbers'}"


def _listed(shown: str) -> str:
    """A value as Python shows it in `... is not in list`, in the language's words."""
    return "none" if shown == "None" else "a component" if shown.startswith("<") else shown


def _shown(value) -> str:
    if isinstance(value, Component):
        return f"component {value.id}"
    if isinstance(value, str) and "/" in value:  # a player's zone, as the state names it: `reserve/a1`
        zone, _, player = value.partition("/")
        return f"`{zone[:40]}({player[:40]})`"
    if isinstance(value, str):
        return f"`{value[:40]}`"
    return _value(type(value).__name__)


_PATTERNS = [  # (what Python says, as a regular expression; what to say, from its groups)
    (r"unsupported operand type\(s\) for (.+?): '(\w+)' and '(\w+)'", _operands),
    (r"bad operand type for (unary -): '(\w+)'", lambda op, value: f"`-` needs a number, not {_value(value)}"),
    (r"'(.+?)' not supported between instances of '(\w+)' and '(\w+)'",
     lambda op, left, right: f"`{op}` compares numbers, not {_value(left)} and {_value(right)}"),
    (r"can only concatenate str \(not \"(\w+)\"\) to str",
     lambda value: f"{_value(value)} where a player is needed (to name a player's zone or variable)"),
    (r"can only concatenate list \(not \"(\w+)\"\) to list",
     lambda value: f"`+` joins two lists, not a list and {_value(value)}"),
    (r"'(\w+)' object is not iterable", lambda value: f"{_value(value)} where a list is needed"),
    (r"object of type '(\w+)' has no len\(\)", lambda value: f"{_value(value)} where a list or a zone is needed"),
    (r"'(\w+)' object cannot be interpreted as an integer", lambda value: f"{_value(value)} where a number is needed"),
    (r"'(\w+)' object has no attribute '(\w+)'",
     lambda value, attribute: f"{_value(value)} where a component is needed (to read its {_attribute(attribute)})"),
    (r"unhashable type: '(\w+)'",
     lambda value: f"{_value(value)} where a single value is needed (a zone, a location, a player)"),
    (r"'(\w+)' object is not subscriptable", lambda value: f"{_value(value)} where a list is needed"),
    (r"(?:list )?indices must be integers or slices, not (\w+)", lambda value: f"{_value(value)} where a number is needed"),
    (r"^(.+?) is not in list$", lambda value: f"{_listed(value)} is not a player of this game"),  # `next(x)`
]
