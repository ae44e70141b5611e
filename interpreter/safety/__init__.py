"""Bounds on what untrusted files may cost: the limits (sizes, steps, seconds), the watchdog that enforces
the seconds, and the one function that reads a ruleset's files (only the project's own).

May import: `diagnostics`.
"""
