"""Every game an environment for learning agents: the encoding of a game as tensors and action slots
(`encoding`), an episode played slot by slot (`episode`), and the OpenSpiel game and PettingZoo
environments built on them. Needs the `agents` extra (numpy, OpenSpiel, PettingZoo); nothing else
imports this package.

May import: `play` and everything below it.
"""
