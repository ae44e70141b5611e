"""What simulated games say: statistics (intervals, tests), the summary (win rates, lengths,
scores), seats and bots, the options chosen, the games that did not end, the overview in plain
words, the whole report (terminal and HTML page; its games read one at a time: `run_tally.py`), the
comparison of two versions of a game (paired by seed: `paired.py`), and plots.

May import: `diagnostics` (and nothing that plays a game: reports read records).
"""
