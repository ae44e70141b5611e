"""What compiled rules run against: the game state (components in zones, variables, randomness), the
board graph, the decisions a player is asked, and the runtime (the signals that end a turn or a game,
the counting of steps).

May import: `safety`, `diagnostics`.
"""
