"""What untrusted rules and content may cost: every limit a setting with a default.

Rules, content, scenario, bot and manifest files may come from strangers (a pull request
validated in CI). Whatever they say, reading, checking, compiling and playing them ends, in
bounded memory, with a clear error at a file, line and column. Each limit below can be
changed for one run with the environment variable `LUDOLEX_<NAME>` (for example
`LUDOLEX_STEPS_PER_DECISION=50000000`); docs/limits.md says what each one bounds.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, fields

from interpreter.diagnostics.errors import RuleRuntimeError


@dataclass
class Limits:
    file_bytes: int = 1_000_000  # one rules, content, scenario, bot or manifest file
    ruleset_bytes: int = 2_000_000  # all the files one ruleset reads, together (`SourceBytes`)
    yaml_depth: int = 64  # collections inside collections, in one YAML document
    yaml_values: int = 1_000_000  # values of one YAML document, counting every repeat of an alias
    components: int = 100_000  # pieces, cards and tokens of one game, all kinds together
    compiled_characters: int = 20_000_000  # Python source the compiler writes for one ruleset
    steps_per_decision: int = 5_000_000  # loop turns, calls and rule runs between two decisions
    steps_per_game: int = 200_000_000  # the same over a whole game
    decisions_per_game: int = 1_000_000
    seconds_per_decision: float = 20.0  # wall clock, a backstop for work inside one expression
    settle_rounds: int = 1_000  # passes of the continuous (`always`) rules before they must be stable
    largest_number: int = 10**15  # the largest number (in absolute value) content or a rule may hold
    longest_list: int = 1_000_000  # items of a list (or characters of a text) a rule may hold

    @classmethod
    def from_environment(cls, environ=os.environ) -> "Limits":
        values = {}
        for f in fields(cls):
            text = environ.get(f"LUDOLEX_{f.name.upper()}")
            if text is None:
                continue
            try:
                value = float(text) if f.type == "float" else int(text)
            except ValueError:
                raise SystemExit(f"LUDOLEX_{f.name.upper()}={text!r}: not a number") from None
            if value <= 0:
                raise SystemExit(f"LUDOLEX_{f.name.upper()}={text!r}: must be more than 0")
            values[f.name] = value
        return cls(**values)


LIMITS = Limits.from_environment()


class SourceBytes:
    """The bytes of source one ruleset has read (manifest, rules, content, scenarios, bots, a variant's
    base's files), each file counted once, at the size it had when last read: the same files read
    again (the language server reads them at every edit) add nothing."""

    def __init__(self):
        self.by_file: dict[str, int] = {}
        self.total = 0

    def count(self, file, size: int) -> bool:
        """Count `size` bytes read from `file` (resolved); whether the ruleset is still within
        `LIMITS.ruleset_bytes`."""
        key = str(file)
        self.total += size - self.by_file.get(key, 0)
        self.by_file[key] = size
        return self.total <= LIMITS.ruleset_bytes


class LimitExceeded(RuleRuntimeError):
    """A game stopped because a rule ran past a limit (recorded as stopped by the limit)."""
