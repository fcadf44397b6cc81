"""The house's floors: no two apps import each other, no import of our own code sits inside a
function (but for each app's AppConfig.ready importing its wiring module), no view is imported by
another app, and no circle of files."""

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


def _absolute(module: str, node: ast.ImportFrom) -> str:
    """The dotted name a relative import (`from . import wiring`) stands for, so that it counts
    like the same import written in full."""
    package = module.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def _imports(module: str, path: Path) -> list[tuple[str, str | None]]:
    """The apps.* modules a file imports, each with the function the import sits in (None at
    module level): one entry per name, `from m import a` giving m and m.a."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    function_of = {
        id(inner): function.name
        for function in ast.walk(tree)
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
        for inner in ast.walk(function)
        if isinstance(inner, (ast.Import, ast.ImportFrom))
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, node) if node.level else node.module
            names = [source] + [f"{source}.{alias.name}" for alias in node.names]
        else:
            continue
        found += [(name, function_of.get(id(node))) for name in names if name.startswith("apps.")]
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


IMPORTS = {module: _imports(module, path) for module, path in MODULES.items()}


def test_no_two_apps_import_each_other():
    uses = defaultdict(set)
    for module, names in IMPORTS.items():
        for name, _ in names:
            if _app(name) != _app(module):
                uses[_app(module)].add(_app(name))
    pairs = sorted({tuple(sorted((a, b))) for a in uses for b in uses[a] if a in uses.get(b, ())})
    assert pairs == []


def _wires_its_own_app(module: str, name: str, function: str) -> bool:
    """An app's AppConfig.ready importing its own wiring module (apps.<app>.wiring), where the
    app connects its receivers and registers with lower floors: Django has that import wait
    until every app's models are loaded, so it is the one import of our own code that belongs
    in a function. The wiring module itself imports at module level, where this test reads it."""
    app = _app(module)
    wiring = f"apps.{app}.wiring"
    return (
        module == f"apps.{app}.apps"
        and function == "ready"
        and (name in (f"apps.{app}", wiring) or name.startswith(f"{wiring}."))
    )


def test_no_import_inside_a_function():
    """No import of our own code sits inside a function, whichever app it reaches (the one
    exception: _wires_its_own_app). An import inside a function hides an edge between floors
    or a circle until the function runs. Third-party libraries a rare path needs (pyarrow for
    a parquet file) may still be imported where they are used: they are not ours to layer."""
    inside = sorted(
        f"{module} ({function}) -> {name}"
        for module, names in IMPORTS.items()
        for name, function in names
        if function is not None and not _wires_its_own_app(module, name, function)
    )
    assert inside == []


def test_no_module_is_imported_by_its_name():
    """importlib.import_module, __import__ and Django's import_string would import a module
    named in a string, out of this test's sight."""
    calls = sorted(
        f"{module}:{node.lineno}"
        for module, path in MODULES.items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and getattr(node.func, "attr", getattr(node.func, "id", None))
        in ("import_module", "__import__", "import_string")
    )
    assert calls == []


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
