"""What simulated games say: statistics (intervals, tests), the summary (win rates, lengths,
scores), the comparison of two versions of a game, and plots.

May import: `diagnostics` (and nothing that plays a game: reports read records).
"""
