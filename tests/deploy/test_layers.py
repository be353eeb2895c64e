"""The packages import only downward: ``scoundrel`` (the engine) ← ``domain`` ← ``store`` ←
``service``, ``worker``, ``cli``; ``settings`` and ``log_lines`` stand on the standard library.

Read from the source (every import, inside functions too), so a tie that would
pull a layer's neighbours in fails here rather than waiting to be noticed.
"""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STDLIB = set(sys.stdlib_module_names)
PROJECT = {"scoundrel", "domain", "schemas", "store", "service", "worker", "cli", "settings", "log_lines",
           "verification"}

# What each package may import of the project and beyond (None: any library).
ALLOWED: dict[str, tuple[set[str], set[str] | None]] = {
    "scoundrel": (set(), set()),
    "domain": ({"scoundrel"}, set()),
    "log_lines": (set(), set()),
    "settings": (set(), {"platformdirs", "limits"}),  # limits: the rate limits' own parser
    "store": ({"scoundrel", "domain", "settings"}, None),
    "worker": ({"scoundrel", "domain", "schemas", "store", "settings", "log_lines", "verification"}, None),
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


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_a_package_imports_only_the_layers_below_it(package):
    project, libraries = ALLOWED[package]
    wrong = sorted(
        (module, name) for module, name in imported(package)
        if name != package and name not in STDLIB
        and not (name in project if name in PROJECT else libraries is None or name in libraries)
    )
    assert not wrong, wrong
