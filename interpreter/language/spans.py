"""Where `anytime ... during` actions are offered without a `window` written for them: at every step
of a turn.

A phase's steps are the statements of its block and of the `when` rules of the events its block
announces (`phase morning: emit morning()`, then each faction's `when morning()`, its steps one
statement each, as a rulebook numbers them). A step's window goes at the start and the end of each
phase, and between two statements of those rules; never inside a statement, so that no action is
interrupted. A loop of actions that offers the `anytime` actions between them says so
with `window`, which offers these too.
"""
from __future__ import annotations

from interpreter.language import declarations as d
from interpreter.language import statements as s
from interpreter.language.tree import nodes


def add_step_windows(declarations: list) -> None:
    """Put a step's window at each step of every phase, if some `anytime` action has a span."""
    if not any(isinstance(decl, d.AnytimeDecl) and decl.span for decl in declarations):
        return
    phase_events = set()
    for decl in declarations:
        if isinstance(decl, d.PlayDecl):
            for phase in [node for node in nodes(decl.body) if isinstance(node, s.Phase)]:
                body = phase.body.statements
                phase_events |= {("event", x.event) for x in body if isinstance(x, s.Emit)}
                phase.body = s.Block([s.Window(phase.pos, steps=True), *body, s.Window(phase.pos, steps=True)])
    for decl in declarations:
        if isinstance(decl, d.WhenDecl) and decl.event in phase_events:
            decl.body = s.Block(_between(decl.body.statements))


def _between(statements: list) -> list:
    """The statements, with a step's window between each two, but after a `let`: the value it names
    belongs to the statements after it."""
    spaced = []
    for statement in statements:
        if spaced and not isinstance(spaced[-1], s.Let):
            spaced.append(s.Window(statement.pos, steps=True))
        spaced.append(statement)
    return spaced
