"""A game being played: the game loop (`Game`: the pending decision, `choose`, saving, replaying and
cloning), what each player may observe of it, a copy of it as one player may imagine it, and its save
file, written as it goes and resumed (`saves`).

May import: `loading` and everything below it.
"""
