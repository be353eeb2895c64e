"""The checks the test command runs before the tests cover what they should.

mypy and import-linter are given their packages by name in pyproject.toml; a
new top-level package added to the wheel but not to those lists would go
unchecked.
"""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_checks_every_package_the_wheel_ships():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    shipped = {pattern.removesuffix("*") for pattern in config["tool"]["setuptools"]["packages"]["find"]["include"]}
    # the JS client's src (clients.js.src, which /play imports) is shipped as data: no Python to check
    python = {name for name in shipped if any((ROOT / name.replace(".", "/")).glob("*.py"))}
    assert python == shipped - {"clients.js.src"}
    assert set(config["tool"]["mypy"]["files"]) == python


def test_import_linter_reads_every_package_mypy_checks():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert set(config["tool"]["importlinter"]["root_packages"]) == set(config["tool"]["mypy"]["files"])


def _test_command(path: Path) -> str:
    """The line of ``path`` that runs the tests, from the venv's creation to pytest's run (the JS client's tests
    among them: ``tests/clients/test_js_client.py``)."""
    line = next(line for line in path.read_text().splitlines() if "-m pytest" in line)
    return line[line.index("python3 -m venv"):line.index("-m pytest") + len("-m pytest")]


def test_the_checks_run_before_the_tests_in_ci():
    command = _test_command(ROOT / ".ci" / "run")
    assert command.index("ruff check") < command.index("mypy") < command.index("lint-imports") < command.index("pytest")


def test_ci_runs_the_readmes_test_command():
    assert _test_command(ROOT / ".ci" / "run") == _test_command(ROOT / "README.md")
