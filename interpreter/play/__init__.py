"""A game being played: the game loop (`Game`: the pending decision, `choose`, saving, replaying and
cloning), what each player may observe of it, and a copy of it as one player may imagine it.

May import: `loading` and everything below it.
"""
