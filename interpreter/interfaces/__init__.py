"""What a person runs: the command line, the terminal display of a game, and the pytest plugin
that collects scenario files.

May import: anything.
"""
