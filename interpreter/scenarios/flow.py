"""Where a scenario starts and stops: `position.start`, a procedure of the rules run instead of
`play:`, and `until`, the point where the game stops for the expectations to be checked."""
from __future__ import annotations

import inspect
import re

from interpreter.loading.ruleset import Ruleset
from interpreter.scenarios import ScenarioFailure
from interpreter.scenarios.files import StartSpec


def pause_point(until: str) -> tuple:
    """`end of turn`, `end of phase NAME`, `event NAME`, as the runtime names the point (Runtime.pause_at)."""
    words = until.split()
    return ("event", words[1]) if words[0] == "event" else ("end", words[-1])


def parse_call(text: str) -> tuple[str, list[str]] | None:
    """`name(a, f(b))`: the name as written and the source of each value; None if it is no call."""
    call = re.fullmatch(r"\s*([\w.]+)\s*\((.*)\)\s*", text, re.S)
    return (call.group(1), split_arguments(call.group(2))) if call else None


def starting_call(ruleset: Ruleset, start: StartSpec):
    """`position.start`: the procedure call the game starts with instead of `play:`, as a function of the runtime."""
    call = parse_call(start.call)
    program = ruleset.program
    name = program.symbols.outside_name(call[0]) if call else None
    if name not in program.procedures:
        known = ", ".join(sorted(n for n in program.procedures if not n.startswith("_"))[:10])
        raise ScenarioFailure(f"position: `start` calls `{start.call}`, which is not a procedure of the rules "
                              f"(write `name(values)`; procedures: {known}...)")
    sources = call[1]
    wanted = program.symbols.procedures[name]
    if len(sources) != wanted:
        raise ScenarioFailure(f"position: `start`: `{name}` takes {wanted} value(s), not {len(sources)}")
    values = []
    for source in sources:
        value, problems = program.compile_value(source)
        if problems:
            raise ScenarioFailure(f"position: `start: {start.call}`: " + "; ".join(p.message for p in problems))
        values.append(value)

    def run(rt):
        arguments = [value(rt, {"you": start.by}) for value in values]
        called = program.procedures[name](rt, start.by, *arguments)
        if inspect.isgenerator(called):
            yield from called

    return run


def split_arguments(text: str) -> list[str]:
    """The values of a call, `a, f(b, c), "d,e"`: split at the commas outside brackets and quotes."""
    parts, depth, quoted, current = [], 0, False, ""
    for character in text:
        if character == '"' and not current.endswith("\\"):
            quoted = not quoted
        elif not quoted and character in "([{":
            depth += 1
        elif not quoted and character in ")]}":
            depth -= 1
        elif not quoted and depth == 0 and character == ",":
            parts.append(current.strip())
            current = ""
            continue
        current += character
    return parts + [current.strip()] if current.strip() or parts else parts
