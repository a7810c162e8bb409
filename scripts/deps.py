"""The import graph of ``acp_editor``: modules, cycles and the layers they belong to.

Every import counts, wherever it stands: at the top, under ``if TYPE_CHECKING:`` or inside a
function (a cycle hidden in a function is still a cycle in the design). Run it from the
repository root::

    python scripts/deps.py            # counts, cycles, imports pointing up, long functions
    python scripts/deps.py --edges    # every edge too

``tests/unit/test_architecture.py`` runs the same checks, so a new cycle or an upward import
fails the test suite.
"""

from __future__ import annotations

import argparse
import ast
import itertools
import sys
from collections.abc import Iterator
from pathlib import Path

PACKAGE = "acp_editor"
ROOT = Path(__file__).resolve().parent.parent

LAYERS: list[tuple[str, ...]] = [
    # 0: no knowledge of agents or editors beyond the wire's vocabulary.
    (
        "errors",
        "log",
        "procs",
        "reaper",
        "jsonio",
        "protocol",
        "text",
        "storage",
        "__init__",
    ),
    # 1: the pure session state.
    ("session",),
    # 2: what the sidecar does for the agent (files, terminals, permission rules), and review.
    ("services", "review"),
    # 3: the ACP link (we are the client).
    ("agent",),
    # 4: the front ends: the LSP link and the demo's terminal view; the editor-context MCP server,
    # which reads the editor's buffers; the scripted demo agent (a process of its own).
    ("editor", "context", "demo", "demo_agent", "presets", "registry"),
    # 5: entry points.
    ("cli", "__main__"),
]
"""Imports may point to the same layer or below, never above."""


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imported(tree: ast.AST, name: str, is_package: bool) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            yield base
            for alias in node.names:
                yield f"{base}.{alias.name}"


def graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports (a name of a module's attribute counts as the
    module itself)."""
    mods = modules()
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for target in _imported(tree, name, path.name == "__init__.py"):
            while target and target not in mods:
                target = target.rpartition(".")[0]
            if target and target != name and target != PACKAGE:
                edges[name].add(target)
    return edges


def strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm: the groups of modules that reach each other (a cycle each)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = itertools.count()

    def visit(node: str) -> None:
        index[node] = low[node] = next(counter)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def simple_cycles(edges: dict[str, set[str]], limit: int = 10_000) -> int:
    """How many distinct elementary cycles there are (counted up to ``limit``)."""
    count = 0
    nodes = sorted(edges)
    for start_at, start in enumerate(nodes):
        allowed = set(nodes[start_at:])
        path = [start]
        seen = {start}
        todo = [iter(sorted(edges[start] & allowed))]
        while todo:
            for nxt in todo[-1]:
                if nxt == start:
                    count += 1
                    if count >= limit:
                        return count
                elif nxt not in seen:
                    path.append(nxt)
                    seen.add(nxt)
                    todo.append(iter(sorted(edges[nxt] & allowed)))
                    break
            else:
                todo.pop()
                seen.discard(path.pop())
    return count


def layer_of(module: str) -> int:
    top = module.removeprefix(PACKAGE).lstrip(".").split(".")[0] or "__init__"
    for number, names in enumerate(LAYERS):
        if top in names:
            return number
    raise KeyError(f"{module} is in no layer: add its package to LAYERS in scripts/deps.py")


def upward(edges: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Imports that point to a higher layer than their own."""
    return sorted(
        (src, dst) for src, dsts in edges.items() for dst in dsts if layer_of(dst) > layer_of(src)
    )


LONGEST_FUNCTION = 60
"""Lines a function may take, its docstring and nested functions included."""


def long_functions(limit: int = LONGEST_FUNCTION) -> list[tuple[str, int]]:
    """``module:function`` and length of every function longer than ``limit`` lines."""
    found = []
    for name, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                length = (node.end_lineno or node.lineno) - start + 1
                if length > limit:
                    found.append((f"{name}:{node.name}", length))
    return sorted(found, key=lambda item: -item[1])


def per_folder(edges: dict[str, set[str]]) -> dict[str, int]:
    """Modules per folder (package), ``__init__`` not counted: how big each room is."""
    counts: dict[str, int] = {}
    for module, path in modules().items():
        if module in edges and path.name != "__init__.py":
            folder = path.parent.relative_to(ROOT).as_posix()
            counts[folder] = counts.get(folder, 0) + 1
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edges", action="store_true", help="print every import edge")
    args = parser.parse_args(argv)
    edges = graph()
    groups = strongly_connected(edges)
    ups = upward(edges)
    print(f"modules: {len(edges)}, imports between them: {sum(map(len, edges.values()))}")
    print(
        f"import cycles: {simple_cycles(edges)} elementary, in {len(groups)} groups "
        f"of {sum(map(len, groups))} modules"
    )
    for group in groups:
        print("  cycle group:", ", ".join(group))
    print(f"imports pointing up a layer: {len(ups)}")
    for src, dst in ups:
        print(f"  {src} -> {dst}")
    folders = per_folder(edges)  # before issue 26: acp_editor/editor held 35
    widest = max(folders, key=lambda f: folders[f])
    print(f"folders: {len(folders)}, the largest {widest} with {folders[widest]} modules")
    print("  " + ", ".join(f"{f} {n}" for f, n in sorted(folders.items())))
    longs = long_functions()
    print(f"functions over {LONGEST_FUNCTION} lines: {len(longs)}")
    for where, length in longs:
        print(f"  {where}: {length} lines")
    if args.edges:
        for src in sorted(edges):
            for dst in sorted(edges[src]):
                print(f"{src} -> {dst}")
    return 1 if groups or ups or longs else 0


if __name__ == "__main__":
    sys.exit(main())
