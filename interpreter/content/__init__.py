"""A game's YAML: reading it (with line and column of every value), the models of content files
(players, board, pieces and their abilities) and of the manifest, a variant's changes to its base
(`variants.py`), and pydantic's errors told as diagnostics.

May import: `safety`, `diagnostics`.
"""
