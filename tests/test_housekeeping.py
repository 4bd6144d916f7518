"""Dependencies match the imports, one `normalise`, no private names taken from another module."""
from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

from test_layout import package_modules

REPO = Path(__file__).resolve().parents[1]


def _dist_key(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _top_imports(paths) -> set[str]:
    found = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                found |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names) - {"kgcheck"}


def test_every_runtime_dependency_is_imported_by_the_package():
    """An unused requirement (pyahocorasick was one) or a bench/test-only one (psutil) fails here."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    declared = {_dist_key(re.split(r"[<>=!~\[; ]", d, maxsplit=1)[0]) for d in project["dependencies"]}
    by_import = importlib.metadata.packages_distributions()
    used = {_dist_key(dist) for name in _top_imports(package_modules().values()) for dist in by_import.get(name, ())}
    assert declared - used == set(), "declared but never imported by kgcheck"
    assert "psutil" in str(project["optional-dependencies"]["bench"])
    assert "psutil" not in _top_imports(package_modules().values())


def test_one_function_is_called_normalise():
    defined = [f"{name}" for name, path in package_modules().items()
               for node in ast.walk(ast.parse(path.read_text()))
               if isinstance(node, ast.FunctionDef) and node.name in ("normalise", "normalize")]
    assert defined == ["kgcheck.index.text"]


def test_no_module_imports_a_private_name_from_another():
    """`from kgcheck.x import _name` means x's internals leak: make a public interface instead."""
    modules = package_modules()
    bad = []
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    private = alias.name.startswith("_") and not alias.name.startswith("__")
                    base = node.module or ""
                    is_module = f"{name.rsplit('.', 1)[0]}.{alias.name}" in modules or alias.name == "_fastrows"
                    if private and not is_module:  # a private submodule (the C extension) is a module, not a name
                        bad.append(f"{name}: from {'.' * node.level}{base} import {alias.name}")
    assert bad == []
