"""The estimate engine stays pure Python and NumPy: nothing under apps/estimates imports Django."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ROOT / "apps" / "estimates"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_no_engine_module_imports_django():
    modules = sorted(ENGINE.rglob("*.py"))
    assert modules
    for path in modules:
        top_level = {name.split(".")[0] for name in imported_modules(path)}
        assert top_level <= {
            "apps",
            "collections",
            "dataclasses",
            "datetime",
            "decimal",
            "enum",
            "functools",
            "math",
            "numpy",
            "types",
            "typing",
        }, path


def test_importing_the_engine_loads_no_django_module():
    script = (
        "import sys, apps.estimates, apps.estimates.engine\n"
        "loaded = [m for m in sys.modules if m == 'django' or m.startswith('django.')]\n"
        "assert not loaded, loaded\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert completed.returncode == 0, completed.stderr
