"""The package's shape: one import name, data flowing one way (ingest → index → verifier → cli), no cycles."""
from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import zipfile
from collections import defaultdict
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE_DIRS = ("ingest", "index", "verifier", "commands")

# What each part may import (besides itself and the standard library / third parties). Order is the
# data flow: a part never imports one that comes after it.
ALLOWED = {
    "kgcheck.ingest": set(),
    "kgcheck.index": {"kgcheck.ingest"},
    "kgcheck.verifier.model": set(),
    "kgcheck.verifier.errors": set(),
    "kgcheck.verifier.control": {"kgcheck.verifier.errors"},  # deadlines and progress, checked by pipelines
    "kgcheck.verifier.values": {"kgcheck.index"},
    "kgcheck.verifier.formats": {"kgcheck.index", "kgcheck.verifier.model", "kgcheck.verifier.errors",
                                 "kgcheck.verifier.values"},
    "kgcheck.verifier.claims": {"kgcheck.index", "kgcheck.verifier.model", "kgcheck.verifier.errors",
                                "kgcheck.verifier.values", "kgcheck.verifier.formats"},
    "kgcheck.verifier.llm": {"kgcheck.index", "kgcheck.verifier.model", "kgcheck.verifier.errors"},
    "kgcheck.verifier.text": {"kgcheck.index", "kgcheck.verifier.model", "kgcheck.verifier.errors",
                              "kgcheck.verifier.values", "kgcheck.verifier.formats", "kgcheck.verifier.claims",
                              "kgcheck.verifier.llm", "kgcheck.verifier.control"},
    "kgcheck.verifier.faithfulness": {"kgcheck.index", "kgcheck.verifier.errors"},
    "kgcheck.verifier.serve": {"kgcheck.index", "kgcheck.verifier"},
    "kgcheck.commands": {"kgcheck"},
    "kgcheck.cli": {"kgcheck"},
}


def module_name(path: Path) -> str:
    rel = path.relative_to(REPO).with_suffix("")
    parts = ["kgcheck", *rel.parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_modules() -> dict[str, Path]:
    found = {"kgcheck": REPO / "__init__.py", "kgcheck.cli": REPO / "cli.py"}
    for top in PACKAGE_DIRS:
        for path in (REPO / top).rglob("*.py"):
            found[module_name(path)] = path
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """Every kgcheck module `name` imports, at module level or inside a function."""
    is_package = path.name == "__init__.py"
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        for target in targets:
            if target.split(".")[0] in ("ingest", "index", "verifier", "cli", "commands"):
                out.add("TOP-LEVEL:" + target)
            elif target.startswith("kgcheck"):
                while target not in known and "." in target:
                    target = target.rsplit(".", 1)[0]
                out.add(target)
    out.discard(name)
    return out


def import_graph() -> dict[str, set[str]]:
    modules = package_modules()
    return {name: imports_of(name, path, set(modules)) for name, path in modules.items()}


def part_of(module: str) -> str:
    for part in sorted(ALLOWED, key=len, reverse=True):
        if module == part or module.startswith(part + "."):
            return part
    return module


def test_no_module_imports_a_top_level_name_other_than_kgcheck():
    bad = {m: sorted(t for t in targets if t.startswith("TOP-LEVEL:")) for m, targets in import_graph().items()}
    assert {m: t for m, t in bad.items() if t} == {}


def test_data_flows_one_way():
    upward = []
    for module, targets in import_graph().items():
        if module == "kgcheck":
            continue  # the lazy public API names the parts it re-exports
        part = part_of(module)
        for target in targets:
            tpart = part_of(target)
            if tpart == part or target == "kgcheck":
                continue
            if not any(tpart == a or tpart.startswith(a + ".") for a in ALLOWED[part]):
                upward.append(f"{module} -> {target}")
    assert upward == []


def test_no_import_cycles():
    graph = import_graph()
    graph.pop("kgcheck", None)
    # Tarjan's strongly connected components: any component of more than one module is a cycle.
    index, low, stack, on_stack, cycles, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for v in list(graph):
        if v not in index:
            visit(v)
    assert cycles == []


def test_the_layering_check_sees_an_upward_import(tmp_path):
    """The walker itself: a relative import that climbs from index/ into verifier/ is caught."""
    fake = REPO / "index" / "store.py"
    found = imports_of("kgcheck.index.store", fake, set(package_modules()))
    assert "kgcheck.ingest.writer" in found
    snippet = tmp_path / "x.py"
    snippet.write_text("from ..verifier.claims import check\nimport index.text\n")
    got = imports_of("kgcheck.index.x", snippet, set(package_modules()))
    assert "kgcheck.verifier.claims.check" in got and "TOP-LEVEL:index.text" in got


@pytest.mark.slow
def test_wheel_installs_only_the_kgcheck_name(tmp_path):
    """Build the wheel, install it with no dependencies into a fresh venv, list its top-level names."""
    # Build from a copy of the tracked files: a build in the checkout writes kgcheck.egg-info and build/
    # there, and a stale egg-info beside the tests would shadow the installed metadata (entry points).
    source = tmp_path / "src"
    files = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, check=True, capture_output=True).stdout
    for name in filter(None, files.decode().split("\0")):
        if (REPO / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, source / name)
    wheel_dir = tmp_path / "wheel"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(wheel_dir), str(source)], check=True)
    wheel = next(wheel_dir.glob("kgcheck-*.whl"))
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert {t for t in tops if not t.endswith((".dist-info", ".data"))} == {"kgcheck"}
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    before = set(os.listdir(site))
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(site)
    added = set(os.listdir(site)) - before
    assert {a for a in added if not a.endswith(".dist-info")} == {"kgcheck"}
    out = subprocess.run([str(py), "-c", "import kgcheck, kgcheck.verifier.values as v; print(v.parse_date('1952').year)"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "1952"
