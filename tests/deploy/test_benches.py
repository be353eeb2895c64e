"""Every benchmark in ``bench/`` still runs: each once at a tiny size, as its docstring runs it.

A bench nobody can run is a figure nobody can check, and benches are run
by hand, rarely: without this, a change to the service breaks one unseen
(``rankings.py`` stopped at its first rank lookup once names ignored case).
The figures at these sizes mean nothing; only the exit status is checked.
Each bench starts its own ``scoundrel up`` (``bench/_harness.py``), as it
does at full size. A new bench gets its tiny size here, or this fails.
"""

import ast
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from throwaway.postgres import postgres_bin_dir

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parents[2] / "bench"

TINY = {
    "api.py": ["--requests", "20", "--clients", "2", "--rounds", "1"],
    "archive.py": ["--runs", "100", "--archived", "200", "--requests", "10"],
    "board_memory.py": ["--runs", "40"],
    "cooling.py": ["--runs", "200", "--requests", "10"],
    "engine.py": ["--games", "5", "--searched", "2", "--rounds", "1"],
    "friends_view.py": ["--players", "100", "--follows", "20", "--requests", "10"],
    "games.py": ["--games", "5", "--moves", "30", "--clients", "1"],
    "memory.py": ["--runs", "1000", "--per-player", "1000", "--workers", "1"],
    "pages.py": ["--players", "100", "--requests", "10"],
    "pipeline.py": ["--runs", "20", "--workers", "1", "--quiet-runs", "5"],
    "rankings.py": ["--players", "100", "--requests", "10"],
    "season_rollover.py": ["--players", "200", "--requests", "5"],
    "share.py": ["--players", "3", "--requests", "5"],
    "webhooks.py": ["--runs", "20", "--workers", "1"],
}
NEEDS_POSTGRES = {"archive.py"}


def benches() -> list[str]:
    return sorted(path.name for path in BENCH.glob("*.py") if not path.name.startswith("_"))


def test_every_bench_has_a_tiny_size():
    assert sorted(TINY) == benches()


def test_no_bench_imports_the_tests():
    """A bench runs from a checkout without the test suite's helpers: what both need is in a package of its own."""
    for path in BENCH.glob("*.py"):
        tree = ast.parse(path.read_text())
        imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
        imported += [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module]
        assert not [name for name in imported if name.split(".")[0] == "tests"], path.name


@pytest.mark.parametrize("bench", benches())
def test_the_bench_runs_at_a_tiny_size(bench):
    if bench in NEEDS_POSTGRES and postgres_bin_dir() is None:
        pytest.skip("PostgreSQL is not installed (.ci/run installs Debian's postgresql)")
    # in a session of its own, so that a bench stopped for taking too long takes its stack's processes along
    running = subprocess.Popen([sys.executable, str(BENCH / bench), *TINY.get(bench, [])], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=BENCH.parent, start_new_session=True)
    try:
        stdout, stderr = running.communicate(timeout=240)
    except subprocess.TimeoutExpired:
        os.killpg(running.pid, signal.SIGKILL)
        stdout, stderr = running.communicate()
        pytest.fail(f"{bench} ran past 240 s at its tiny size:\n{stdout[-2000:]}{stderr[-3000:]}")
    assert running.returncode == 0, stdout[-2000:] + stderr[-3000:]
    assert stdout.strip(), "a bench prints its figures"
