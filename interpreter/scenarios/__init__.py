"""Scenario tests written as data: their files, running one (arrange a position, make the choices,
check the outcome), and checking a scenario file against its ruleset.

May import: `play` and everything below it.
"""


class ScenarioFailure(AssertionError):
    """A scenario that does not play as it says: what differs, in plain words."""
