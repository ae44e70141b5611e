"""Walking a syntax tree: the rules' declarations, statements and expressions are dataclasses."""
from __future__ import annotations

from dataclasses import fields, is_dataclass


def nodes(root):
    """Every node of a syntax tree (dataclasses, in lists and tuples), without recursion."""
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, (list, tuple)):
            stack.extend(node)
        elif is_dataclass(node) and not isinstance(node, type):
            yield node
            stack.extend(getattr(node, f.name) for f in fields(node) if f.name != "pos")
