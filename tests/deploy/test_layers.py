"""The packages that stand on the standard library stay so: the log's format (``log_lines``) imports no
library, the domain only the one that reads a cron expression, and ``settings`` only the two that read
what it reads (the engine's own test says it of the engine: ``tests/engine/test_purity.py``).

Which package of the project may import which is import-linter's contract (``[tool.importlinter]`` in
pyproject.toml, run by ``lint-imports`` in the test command); what it cannot say is "no library but
these", so that is said here, read from the source (every import, inside functions too).
"""

import ast
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STDLIB = set(sys.stdlib_module_names)
PROJECT = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["root_packages"])

# The libraries each package may import beyond the standard library and the project.
LIBRARIES: dict[str, set[str]] = {
    "domain": {"cronsim"},  # a schedule's occurrences: cron read by a maintained library, no I/O
    "log_lines": set(),
    "settings": {"platformdirs", "limits"},  # limits: the rate limits' own parser
}


def imported(package: str) -> set[tuple[str, str]]:
    """``(module file, top-level name)`` of every absolute import in ``package``."""
    found = set()
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            found |= {(str(path.relative_to(ROOT)), name.split(".")[0]) for name in names}
    return found


@pytest.mark.parametrize("package", sorted(LIBRARIES))
def test_a_package_on_the_standard_library_imports_no_other_library(package):
    wrong = sorted((module, name) for module, name in imported(package)
                   if name not in STDLIB | PROJECT | LIBRARIES[package])
    assert not wrong, wrong


def test_the_imports_are_read_from_the_source():
    """The check above is not passing on nothing read: the domain imports the standard library."""
    assert any(name in STDLIB for _, name in imported("domain"))
