"""Choosing scenarios by words, as pytest's `-k` chooses tests: `ludolex test root -k 'battle and not ambush'`.

A word matches a scenario when it is part of one of its keywords (its name, its file's name, its
game's, its rule IDs), in any case; `and`, `or`, `not` and brackets combine them.
"""
from __future__ import annotations

import re
from typing import Callable, Iterable

_TOKEN = re.compile(r"\(|\)|[^\s()]+")


def keyword_matcher(expression: str) -> Callable[[Iterable[str]], bool]:
    """`matches(keywords)`: whether a scenario with these keywords is chosen by `expression`; a
    ValueError that says what is wrong with the expression."""
    tokens = _TOKEN.findall(expression)
    position = 0

    def peek() -> str | None:
        return tokens[position] if position < len(tokens) else None

    def take() -> str:
        nonlocal position
        position += 1
        return tokens[position - 1]

    def either():  # a or b or ...
        tests = [both()]
        while peek() == "or":
            take()
            tests.append(both())
        return lambda words: any(test(words) for test in tests)

    def both():  # a and b and ...
        tests = [single()]
        while peek() == "and":
            take()
            tests.append(single())
        return lambda words: all(test(words) for test in tests)

    def single():  # not a, (a), a word
        token = peek()
        if token is None or token in ("and", "or", ")"):
            raise ValueError(f"`{expression}`: a word expected " + (f"before `{token}`" if token else "at the end"))
        take()
        if token == "not":
            inner = single()
            return lambda words: not inner(words)
        if token == "(":
            inner = either()
            if peek() != ")":
                raise ValueError(f"`{expression}`: a `(` is never closed")
            take()
            return inner
        word = token.lower()
        return lambda words: any(word in keyword.lower() for keyword in words)

    test = either()
    if peek() is not None:
        raise ValueError(f"`{expression}`: `{peek()}` is not expected there (join words with and, or, not)")
    return test
