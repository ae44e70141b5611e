"""Where each location of a board is drawn, in a box of 100 by 100 (the page scales it).

In order of preference: the map's own coordinates (`x` and `y` of every location, as its content
gives them), a grid's columns and rows, and else a layout of the graph: each group of connected
locations on a circle of its own, in the order a walk along its connections meets them (a ring of
regions is drawn as a ring), the groups side by side.
"""
from __future__ import annotations

import math

from interpreter.engine.board import Board

MARGIN = 8.0


def _scaled(points: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """The points moved and scaled, keeping their proportions, to fill the box inside its margins."""
    xs = [x for x, _ in points.values()]
    ys = [y for _, y in points.values()]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    scale = (100 - 2 * MARGIN) / span
    return {name: (round(MARGIN + (x - min(xs)) * scale, 2), round(MARGIN + (y - min(ys)) * scale, 2))
            for name, (x, y) in points.items()}


def _walk(board: Board, start: str, group: set[str]) -> list[str]:
    """The locations of `group` in the order a depth-first walk from `start` meets them."""
    order, seen, stack = [], set(), [start]
    neighbours = {n: [] for n in group}
    for a, b in board.graph.edges():
        if a in group and b in group:
            neighbours[a].append(b)
            neighbours[b].append(a)
    while stack:
        here = stack.pop()
        if here in seen:
            continue
        seen.add(here)
        order.append(here)
        stack.extend(sorted(set(neighbours[here]) - seen, key=board.index.get, reverse=True))
    return order


def _circles(board: Board) -> dict[str, tuple[float, float]]:
    points, left, placed = {}, 0.0, set()
    for start in board.locations:
        if start in placed:
            continue
        group = _walk(board, start, _connected(board, start))
        placed.update(group)
        radius = max(1.0, len(group) / 4)
        for i, name in enumerate(group):
            angle = 2 * math.pi * i / len(group) - math.pi / 2
            points[name] = (left + radius + radius * math.cos(angle), radius + radius * math.sin(angle))
        left += 2 * radius + 1.5
    return points


def _connected(board: Board, start: str) -> set[str]:
    found, stack = {start}, [start]
    while stack:
        here = stack.pop()
        for other in list(board.graph.successors(here)) + list(board.graph.predecessors(here)):
            if other not in found:
                found.add(other)
                stack.append(other)
    return found


def positions(board: Board) -> tuple[str, dict[str, tuple[float, float]]]:
    """The board's shape ("map", "grid" or "graph") and the place of each location in the box."""
    nodes = board.graph.nodes
    if not board.locations:
        return "none", {}
    if all(isinstance(nodes[n].get("x"), (int, float)) and isinstance(nodes[n].get("y"), (int, float))
           for n in board.locations):
        return "map", _scaled({n: (float(nodes[n]["x"]), float(nodes[n]["y"])) for n in board.locations})
    if all("column" in nodes[n] and "row" in nodes[n] for n in board.locations):
        return "grid", _scaled({n: (float(nodes[n]["column"]), float(nodes[n]["row"])) for n in board.locations})
    return "graph", _scaled(_circles(board))
