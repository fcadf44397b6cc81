"""The house's floors: no two apps import each other, no import sits inside a function to reach
another app, no view is imported by another app, and no circle of files."""

import ast
from collections import defaultdict
from pathlib import Path

import pytest

APPS = Path(__file__).resolve().parents[2] / "apps"


def _modules() -> dict[str, Path]:
    return {
        ".".join(path.relative_to(APPS.parent).with_suffix("").parts): path
        for path in APPS.rglob("*.py")
        if "migrations" not in path.parts
    }


MODULES = _modules()


def _is_ready(path: Path, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """An app's AppConfig.ready, where Django has an app import what needs the registry loaded
    (models) and register itself with a lower floor: the one place an import belongs in a
    function."""
    return path.name == "apps.py" and function.name == "ready"


def _imports(path: Path) -> list[tuple[str, bool]]:
    """The apps.* modules a file imports, each with whether the import sits inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inside = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _is_ready(path, node)
        for inner in ast.walk(node)
        if isinstance(inner, (ast.Import, ast.ImportFrom))
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            if name.startswith("apps."):
                found.append((name, id(node) in inside))
    return found


def _app(module: str) -> str:
    return module.split(".")[1]


def _resolve(name: str) -> str | None:
    """The module file a dotted import name lands in (a name imported from a module is that
    module)."""
    while name and name not in MODULES:
        if f"{name}.__init__" in MODULES:
            return f"{name}.__init__"
        name = name.rpartition(".")[0]
    return name or None


IMPORTS = {module: _imports(path) for module, path in MODULES.items()}


def test_no_two_apps_import_each_other():
    uses = defaultdict(set)
    for module, names in IMPORTS.items():
        for name, _ in names:
            if _app(name) != _app(module):
                uses[_app(module)].add(_app(name))
    pairs = sorted({tuple(sorted((a, b))) for a in uses for b in uses[a] if a in uses.get(b, ())})
    assert pairs == []


def test_no_import_inside_a_function():
    inside = sorted(
        f"{module} -> {name}"
        for module, names in IMPORTS.items()
        for name, in_function in names
        if in_function
    )
    assert inside == []


def test_no_view_is_imported_by_another_app():
    views = sorted(
        f"{module} -> {name}"
        for module, names in IMPORTS.items()
        for name, _ in names
        if _app(name) != _app(module) and ".views" in name
    )
    assert views == []


def test_no_circle_of_files():
    graph = defaultdict(set)
    for module, names in IMPORTS.items():
        for name, _ in names:
            target = _resolve(name)
            if target and target != module and not target.endswith("__init__"):
                graph[module].add(target)
    circles = []
    state: dict[str, int] = {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circles.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    assert circles == [], pytest.fail("\n".join(" -> ".join(c) for c in circles))
