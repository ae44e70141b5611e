"""Who answers decisions: the agent protocol, random bots, a person at the terminal, and the
rule-of-thumb bots a ruleset describes in YAML, and the search bot that needs no description.

May import: `play` and everything below it.
"""
