"""Where each location of a board is drawn, in a box of 100 by 100 (the page scales it).

In order of preference: the map's own coordinates (`x` and `y` of every location, as its content
gives them), a grid's columns and rows, and else a layout of the graph: each group of connected
locations on a circle of its own, in the order a walk along its connections meets them (a ring of
regions is drawn as a ring), the groups side by side, every ring as wide as the widest.
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


def _circles(board: Board) -> dict[str, tuple[float, float]]:
    import networkx as nx

    points, left = {}, 0.0
    undirected = board.graph.to_undirected(as_view=True)
    groups = sorted(nx.connected_components(undirected), key=lambda group: min(map(board.index.get, group)))
    widest = max((len(group) for group in groups), default=1) / 4
    for group in groups:
        start = min(group, key=board.index.get)
        order = list(nx.dfs_preorder_nodes(undirected, start))  # a ring comes out in its order round
        radius = max(1.0, widest if len(order) > 2 else len(order) / 4)  # every ring as wide: a small one has room
        for i, name in enumerate(order):
            angle = 2 * math.pi * i / len(order) - math.pi / 2
            points[name] = (left + radius + radius * math.cos(angle), radius + radius * math.sin(angle))
        left += 2 * radius + max(1.5, widest)
    return points


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
