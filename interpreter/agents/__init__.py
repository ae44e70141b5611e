"""Who answers decisions: the agent protocol, random bots, a person at the terminal, and the
rule-of-thumb bots a ruleset describes in YAML. A search bot belongs here too.

May import: `play` and everything below it.
"""
