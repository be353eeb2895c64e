"""The engine's front door: every ``scoundrel.…`` name the docs use resolves after a bare ``import scoundrel``."""

import functools
import importlib
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTED = re.compile(r"`scoundrel\.([A-Za-z_][\w.]*[\w])(?![\w./+])")  # not a log's name (scoundrel.example/log)


def documented_names() -> set[str]:
    names = set()
    for page in [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]:
        names |= set(DOCUMENTED.findall(page.read_text(encoding="utf-8")))
    return names


def _of_the_engine(name: str) -> bool:
    return name == "scoundrel" or name.startswith("scoundrel.")


@contextmanager
def bare_import() -> Iterator[ModuleType]:
    """``import scoundrel`` as a fresh interpreter does it: none of its submodules loaded before, as a test
    run has long loaded ``scoundrel.par`` and the rest, which hides a gap. The engine's modules of this
    process are put back after, so the rest of the run keeps the objects it holds."""
    loaded = {name: module for name, module in sys.modules.items() if _of_the_engine(name)}
    for name in loaded:
        del sys.modules[name]
    try:
        yield importlib.import_module("scoundrel")
    finally:
        for name in [name for name in sys.modules if _of_the_engine(name)]:
            del sys.modules[name]
        sys.modules.update(loaded)


def test_the_docs_name_the_submodules():
    assert {"par", "strategies.outlook"} <= documented_names()


def test_a_bare_import_has_loaded_none_of_the_submodules_the_docs_name():
    """What makes the next test's look a fresh interpreter's: the submodules are not there before it."""
    with bare_import() as scoundrel:
        assert "scoundrel.par" not in sys.modules and "par" not in vars(scoundrel)


def test_every_name_the_docs_use_resolves_after_a_bare_import():
    with bare_import() as scoundrel:
        for name in sorted(documented_names()):
            functools.reduce(getattr, name.split("."), scoundrel)


def test_an_unknown_name_is_still_an_attribute_error():
    with bare_import() as scoundrel, pytest.raises(AttributeError,
                                                   match="^module 'scoundrel' has no attribute 'nothing'$"):
        scoundrel.nothing  # noqa: B018
