"""A pytest plugin, loaded first (``-p tests.support.kept_bytecode`` in ``pyproject.toml``'s addopts):
what a test process compiles is kept in ``__pycache__`` even where ``PYTHONDONTWRITEBYTECODE`` is set, as on
the CI machines.

pytest rewrites the assertions of the test modules and of every package that ships a pytest plugin
(hypothesis' and schemathesis' whole packages among them) as it imports them, and keeps the result
only where Python may write bytecode. Without it, each test process (xdist's controller and its three
workers) rewrote and compiled them all again: 1.3 s of CPU a process of its 4.8 s before the first
test. Loaded by ``-p``, this runs before pytest imports the plugins of installed packages. The
checkout's own modules, which the processes the tests start import, are compiled by
``tests/conftest.py``'s ``pytest_sessionstart``.
"""

import sys

sys.dont_write_bytecode = False
