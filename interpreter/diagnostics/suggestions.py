""""Did you mean ...?": the closest known name to a misspelt one, within a budget of comparisons per run."""
from __future__ import annotations

import difflib

# --- suggestions -----------------------------------------------------------------------------

# Each suggestion compares a name with every candidate (difflib, about 50 microseconds each for
# similar names): a file full of unknown names would take minutes. A run (`new_run`, called as a
# ruleset starts loading) may spend this many comparisons; the suggestions after that are left out.
COMPARISONS_PER_RUN = 20_000
_comparisons_left = COMPARISONS_PER_RUN


def new_run() -> None:
    """Give the suggestions of a new run (the loading of a ruleset) their whole budget."""
    global _comparisons_left
    _comparisons_left = COMPARISONS_PER_RUN


def did_you_mean(name: str, candidates) -> str | None:
    """`did you mean `x`?` for the candidate most like `name` (difflib's ratio of at least 0.6), or None.

    `candidates`: any collection of names, or a function returning one (so that a caller need
    not build a large set when no suggestion will be made).
    """
    global _comparisons_left
    if _comparisons_left <= 0:
        return None
    if callable(candidates):
        candidates = candidates()
    candidates = [c for c in candidates if isinstance(c, str)]
    _comparisons_left -= len(candidates) // 100 + 1  # even the length test below costs a little
    # ratio = 2 * matches / (len(a) + len(b)) and matches <= the shorter length: a candidate
    # whose length is too far from the name's can never reach 0.6, so it is not compared.
    name = str(name)
    size = len(name)
    close_in_size = [c for c in candidates if 10 * min(size, len(c)) >= 3 * (size + len(c))]
    if len(close_in_size) > _comparisons_left:
        _comparisons_left = 0
        return None
    _comparisons_left -= len(close_in_size)
    close = difflib.get_close_matches(name, close_in_size, n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None
