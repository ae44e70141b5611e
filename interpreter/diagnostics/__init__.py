"""What can go wrong in a ruleset, and how it is told: the codes (LX...), the `Diagnostic` with its
file, line and column, the errors that carry diagnostics, "did you mean" suggestions, and the output
formats of `validate` (text, JSON, GitHub annotations, SARIF).

The lowest layer: it imports nothing else of the engine.
"""
