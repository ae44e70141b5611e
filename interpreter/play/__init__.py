"""A game being played: the game loop (`Game`: the pending decision, `choose`, saving and replaying)
and what each player may observe of it.

May import: `loading` and everything below it.
"""
