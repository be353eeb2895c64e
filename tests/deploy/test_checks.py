"""The checks the test command runs before the tests cover what they should.

mypy is given its packages by name in pyproject.toml; a new top-level
package added to the wheel but not to that list would go unchecked.
"""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_checks_every_package_the_wheel_ships():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    shipped = {pattern.removesuffix("*") for pattern in config["tool"]["setuptools"]["packages"]["find"]["include"]}
    assert set(config["tool"]["mypy"]["files"]) == shipped


def test_the_checks_run_before_the_tests_in_ci():
    command = next(line for line in (ROOT / ".ci" / "run").read_text().splitlines() if "-m pytest" in line)
    assert command.index("ruff check") < command.index("mypy") < command.index("pytest")
