"""The engine and the domain stay pure: no I/O, and the engine the standard library only, so every
client language's port and every caller judge with the same rules (what the domain may import
besides: ``tests/deploy/test_layers.py``)."""

import ast
import sys
from pathlib import Path

import pytest

import domain
import scoundrel

ENGINE = Path(scoundrel.__file__).parent
PURE = {"scoundrel": ENGINE, "domain": Path(domain.__file__).parent}
IO_MODULES = {"io", "os", "sys", "socket", "subprocess", "pathlib", "shutil", "tempfile", "logging", "urllib", "http"}
IO_CALLS = {"open", "print", "input"}


def _imports(source: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_the_engine_imports_nothing_but_the_standard_library():
    for source in ENGINE.glob("*.py"):
        imported = _imports(source)
        assert imported <= set(sys.stdlib_module_names), (source.name, imported - set(sys.stdlib_module_names))


@pytest.mark.parametrize("package", sorted(PURE))
def test_a_pure_package_imports_no_io(package):
    for source in PURE[package].glob("*.py"):
        imported = _imports(source)
        assert not imported & IO_MODULES, (source.name, imported & IO_MODULES)


@pytest.mark.parametrize("package", sorted(PURE))
def test_a_pure_package_calls_no_io_builtins(package):
    for source in PURE[package].glob("*.py"):
        calls = {node.func.id for node in ast.walk(ast.parse(source.read_text()))
                 if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
        assert not calls & IO_CALLS, (source.name, calls & IO_CALLS)
