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
    # the JS client's src (clients.js.src, which /play imports) is shipped as data: no Python to check
    python = {name for name in shipped if any((ROOT / name.replace(".", "/")).glob("*.py"))}
    assert python == shipped - {"clients.js.src"}
    assert set(config["tool"]["mypy"]["files"]) == python


def test_the_checks_run_before_the_tests_in_ci():
    command = next(line for line in (ROOT / ".ci" / "run").read_text().splitlines() if "-m pytest" in line)
    assert command.index("ruff check") < command.index("mypy") < command.index("pytest")
