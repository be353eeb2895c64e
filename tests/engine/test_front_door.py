"""The engine's front door: every ``scoundrel.…`` name the docs use resolves after a bare ``import scoundrel``."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTED = re.compile(r"`scoundrel\.([A-Za-z_][\w.]*[\w])(?![\w./+])")  # not a log's name (scoundrel.example/log)


def documented_names() -> set[str]:
    names = set()
    for page in [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]:
        names |= set(DOCUMENTED.findall(page.read_text(encoding="utf-8")))
    return names


def test_the_docs_name_the_submodules():
    assert {"par", "strategies.outlook"} <= documented_names()


def test_every_name_the_docs_use_resolves_after_a_bare_import():
    """In a fresh interpreter: a test run has imported ``scoundrel.par`` long before, which hides the gap."""
    resolve = (
        "import functools, sys, scoundrel\n"
        "for name in sys.argv[1:]:\n"
        "    functools.reduce(getattr, name.split('.'), scoundrel)\n"
    )
    result = subprocess.run([sys.executable, "-c", resolve, *sorted(documented_names())],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_an_unknown_name_is_still_an_attribute_error():
    result = subprocess.run([sys.executable, "-c", "import scoundrel; scoundrel.nothing"],
                            capture_output=True, text=True, timeout=60)
    assert "AttributeError: module 'scoundrel' has no attribute 'nothing'" in result.stderr
