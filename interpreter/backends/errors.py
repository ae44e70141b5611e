"""What every compiled backend says of a construct it does not compile yet."""
from __future__ import annotations


class NotCompiled(Exception):
    """A construct this backend does not compile yet, with its place: the game runs on the Python backend."""

    def __init__(self, what: str, pos, backend: str = "this backend"):
        where = f" (at {pos.file}:{pos.line}:{pos.column})" if pos is not None else ""
        super().__init__(f"{backend} does not compile {what} yet{where}")
        self.what, self.pos = what, pos
