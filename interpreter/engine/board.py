"""The board: a networkx graph of locations joined by typed, directed connections.

Grids are generated from a short description. Queries (neighbours by connection type, a step in a
direction, a straight line) are answered from tables built once, because simulations ask them often.
"""
from __future__ import annotations

from string import ascii_lowercase
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # networkx is imported where a board is built, not by commands that never build one
    import networkx as nx

GRID_STEPS = {
    "orthogonal": {"n": (0, -1), "s": (0, 1), "e": (1, 0), "w": (-1, 0)},
    "diagonal": {"ne": (1, -1), "nw": (-1, -1), "se": (1, 1), "sw": (-1, 1)},
}


class Board:
    def __init__(self, graph: nx.MultiDiGraph):
        self.graph = graph
        self.locations: list[str] = list(graph.nodes)
        self.attributes: dict[str, dict] = dict(graph.nodes(data=True))  # location -> its attributes in the content
        self.index = {name: i for i, name in enumerate(self.locations)}
        self.connection_types = sorted({t for _, _, t in graph.edges(keys=True)})
        self._steps: dict[tuple, str] = {}
        self._directions: dict[tuple, str] = {}
        for a, b, kind, data in graph.edges(keys=True, data=True):
            direction = data.get("direction")
            if direction:
                self._steps[(a, direction, kind)] = b
                self._directions.setdefault((a, b), direction)
        self._adjacent: dict[tuple, list[str]] = {}

    def adjacent(self, location: str, via: tuple[str, ...]) -> list[str]:
        key = (location, via)
        found = self._adjacent.get(key)
        if found is None:
            if location is None:
                return []
            found = sorted(
                {b for _, b, kind in self.graph.out_edges(location, keys=True) if kind in via}, key=self.index.get
            )
            self._adjacent[key] = found
        return found

    def region(self, start: str, within: list[str], via: tuple[str, ...]) -> list[str]:
        """The locations of `within` reachable from `start` through connections of `via`, staying
        inside `within` all the way (start included if it is in `within`), in board order."""
        allowed = set(within)
        if start not in allowed:
            return []
        reached, waiting = {start}, [start]
        while waiting:
            for neighbour in self.adjacent(waiting.pop(), via):
                if neighbour in allowed and neighbour not in reached:
                    reached.add(neighbour)
                    waiting.append(neighbour)
        return sorted(reached, key=self.index.get)

    def step(self, location: str, direction: str, via: tuple[str, ...]) -> str | None:
        for kind in via:
            target = self._steps.get((location, direction, kind))
            if target is not None:
                return target
        return None

    def direction(self, origin: str, target: str) -> str | None:
        return self._directions.get((origin, target))

    def ray(self, location: str, via: tuple[str, ...], length: int) -> list[str]:
        """Locations up to `length` steps away in a straight line, along each direction of `via`."""
        length = min(length, len(self.index))  # a longer line only goes round a cycle again
        key = (location, via, length)
        found = self._adjacent.get(key)
        if found is None:
            if location is None:
                return []
            reached = set()
            for _, first, kind, data in self.graph.out_edges(location, keys=True, data=True):
                if kind not in via or not data.get("direction"):
                    continue
                current, steps = first, 1
                while current is not None and steps <= length and current != location:
                    reached.add(current)
                    current = self._steps.get((current, data["direction"], kind))
                    steps += 1
            found = sorted(reached, key=self.index.get)
            self._adjacent[key] = found
        return found

    def neighbourhoods(self, via: tuple[str, ...], length: int | None = None) -> "Neighbourhoods":
        """`adjacent(location, via)` (or, with `length`, `ray(location, via, length)`) of every
        location, worked out now, as a table generated code reads with `table[location]`."""
        table = Neighbourhoods(self, via, length)
        for location in self.locations:
            table[location] = table.__missing__(location)
        return table


class Neighbourhoods(dict):
    """Location -> its neighbours, for one kind of connection (see `Board.neighbourhoods`); what is not
    a location (none) is asked of the board, which answers or says why not."""

    def __init__(self, board: Board, via: tuple[str, ...], length: int | None):
        super().__init__()
        self.board, self.via, self.length = board, via, length

    def __missing__(self, location):
        if self.length is None:
            return self.board.adjacent(location, self.via)
        return self.board.ray(location, self.via, self.length)


def grid_graph(columns: int, rows: int, connections: list[str], attributes: dict | None = None) -> nx.MultiDiGraph:
    """Locations named a1, b1, ... (column letter, row number), row by row.

    `connections` picks edge types: orthogonal, diagonal, and wrap (the orthogonal connections
    that leave one edge of the board and come back at the opposite edge).
    """
    import networkx as nx

    graph = nx.MultiDiGraph()
    name = {(x, y): f"{ascii_lowercase[x]}{y + 1}" for y in range(rows) for x in range(columns)}
    for y in range(rows):
        for x in range(columns):
            graph.add_node(name[(x, y)])
            graph.nodes[name[(x, y)]].update({**(attributes or {}).get(name[(x, y)], {}), "column": x, "row": y})
    for kind in connections:
        steps = GRID_STEPS["orthogonal" if kind == "wrap" else kind]
        for (x, y), origin in name.items():
            for direction, (dx, dy) in steps.items():
                nx_, ny = x + dx, y + dy
                inside = 0 <= nx_ < columns and 0 <= ny < rows
                if kind == "wrap":
                    if inside:
                        continue
                    nx_, ny = nx_ % columns, ny % rows
                elif not inside:
                    continue
                graph.add_edge(origin, name[(nx_, ny)], key=kind, direction=direction)
    return graph


def explicit_graph(locations: dict[str, dict], connections: list[dict]) -> nx.MultiDiGraph:
    """A hand-drawn map: named locations with attributes, and connections listed pair by pair."""
    import networkx as nx

    graph = nx.MultiDiGraph()
    for name, attributes in locations.items():
        graph.add_node(name)
        graph.nodes[name].update(attributes)
    for link in connections:
        graph.add_edge(link["from"], link["to"], key=link["type"], **({"direction": link["direction"]} if link.get("direction") else {}))
        if not link.get("one_way"):
            graph.add_edge(link["to"], link["from"], key=link["type"], **({"direction": link["back"]} if link.get("back") else {}))
    return graph
