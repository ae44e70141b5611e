"""Many games between bots: the runner of one game (`runner.py`, with who sits where and which bot
plays each seat), the count of the options each player chose (`usage.py`), the backends that run
many (local processes, Ray), the SQLite database the records go to, and its named runs (`runs.py`).

May import: `agents`, `play` and everything below them.
"""
