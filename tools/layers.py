"""Check that the engine's packages import only downwards, and that no modules import each other in a circle.

    python tools/layers.py        # prints every wrong import and circle; exit 1 if there is one

The layers of `interpreter/`, lowest first. A module may import its own package and the packages of
lower layers; packages of one layer are independent of each other. Every import counts, those
inside functions too: a circle put off until run time is still a circle.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import networkx as nx

PACKAGE = "interpreter"
LAYERS = [
    {"diagnostics"},
    {"safety"},
    {"engine", "content", "reports"},
    {"language"},
    {"loading"},
    {"play"},
    {"backends"},
    {"agents", "learning"},
    {"scenarios", "simulation"},
    {"validation"},
    {"lsp"},
    {"interfaces"},
]
LEVEL = {package: level for level, packages in enumerate(LAYERS) for package in packages}
TOP = len(LAYERS)  # `interpreter/__init__.py` (the public API) and `__main__.py` stand above every layer


def module_names(root: Path) -> dict[str, Path]:
    """Every module of the package under `root` (the folder that holds `interpreter/`), by dotted name."""
    modules = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of the package that module `name` imports, anywhere in its code."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        found |= {target for target in targets if target in modules and target != name}
    return found


def level_of(module: str) -> tuple[str, int]:
    parts = module.split(".")
    if len(parts) == 1 or parts[1] == "__main__":
        return PACKAGE, TOP
    return parts[1], LEVEL.get(parts[1], -1)


def problems(root: Path) -> list[str]:
    modules = module_names(root)
    graph = nx.DiGraph()
    found = []
    for name, path in modules.items():
        package, level = level_of(name)
        if level < 0:
            found.append(f"{name}: the package `{package}` is in no layer of tools/layers.py")
        for target in sorted(imports_of(name, path, modules)):
            graph.add_edge(name, target)
            target_package, target_level = level_of(target)
            if target_package == package:
                continue
            if target_level > level:
                found.append(f"{name} imports {target}: `{package}` is below `{target_package}`")
            elif target_level == level:
                found.append(f"{name} imports {target}: `{package}` and `{target_package}` are independent")
    for group in sorted(sorted(g) for g in nx.strongly_connected_components(graph) if len(g) > 1):
        cycle = [edge[0] for edge in nx.find_cycle(graph.subgraph(group), source=group[0])]  # one circle of the group
        more = len(group) - len(cycle)
        found.append("import circle: " + " -> ".join(cycle + cycle[:1])
                     + (f" (and {more} more module(s) in circles with them)" if more else ""))
    return found


def main() -> int:
    found = problems(Path(__file__).resolve().parent.parent)
    for problem in found:
        print(problem)
    print(f"{len(found)} problem(s)" if found else "the layers hold: no import upwards, none between siblings, no circle")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
