"""Every benchmark in ``bench/`` still runs: each once at a tiny size, as its docstring runs it.

A bench nobody can run is a figure nobody can check, and benches are run
by hand, rarely: without this, a change to the service breaks one unseen
(``rankings.py`` stopped at its first rank lookup once names ignored case).
The figures at these sizes mean nothing; only the exit status is checked.
A new bench gets its tiny size here, or this fails.

At a tiny size, starting the service costs more than the bench: a bench
listed in ``SERVICES`` is handed an empty stack (``tests.support.stack``)
with the workers and settings it asks the harness for
(``SCOUNDREL_BENCH_SERVICE``, which refuses any other), so benches asking
for the same share one. A service with an archive of the bench's own
(``log.py``'s tree) is a ``scoundrel up`` the bench starts
(``bench/_harness.py``), as every bench does at full size, so that path is
run too. ``archive.py``'s PostgreSQL (beside a Redis of the bench's own:
no API) starts on a copy of the cluster the session's processes share,
rather than run ``initdb``.

At a tiny size, importing the service (the store's SQLAlchemy and
redis-py) is most of a bench's CPU, so each bench runs in a process
forked from this one, which has imported it already: the script run as
``__main__`` with its arguments and ``bench/`` first on its path, as
Python runs a script, in a session of its own, its output and exit status
its own.
"""

import ast
import functools
import json
import os
import runpy
import shutil
import sys
from pathlib import Path

import pytest

from bench._harness import GIVEN_SERVICE, POSTGRES_TEMPLATE
from tests.support.commands import ForkedTimeout, run_forked
from tests.support.stack import StackPool
from throwaway.postgres import cluster_template, postgres_bin_dir

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parents[2] / "bench"

TINY = {
    "api.py": ["--requests", "20", "--clients", "2", "--rounds", "1"],
    "archive.py": ["--runs", "100", "--archived", "200", "--requests", "10"],
    "board_memory.py": ["--runs", "40"],
    "cooling.py": ["--runs", "200", "--requests", "10"],
    "csharp_engine.py": ["--games", "5", "--searched", "2", "--rounds", "1", "--seeds", "100"],
    "desk.py": ["--runs", "60", "--players", "3", "--requests", "5"],
    "clairvoyance.py": ["--fair", "1", "--games", "1", "--readers", "1", "--reading-games", "1",
                        "--solver-positions", "100", "--processes", "1"],
    "engine.py": ["--games", "5", "--searched", "2", "--rounds", "1"],
    "friends_view.py": ["--players", "100", "--follows", "20", "--requests", "10"],
    "games.py": ["--games", "5", "--moves", "30", "--clients", "1"],
    "leagues.py": ["--players", "300", "--sample", "10"],
    "live.py": ["--streams", "20", "--runs", "5", "--requests", "20", "--gap", "0"],
    "log.py": ["--runs", "20", "--players", "2", "--leaves", "300", "--requests", "10"],
    "memory.py": ["--runs", "10", "--per-player", "10", "--batch", "10", "--workers", "1"],
    "moderation.py": ["--runs", "30", "--others", "5"],
    "pages.py": ["--players", "100", "--requests", "10"],
    "par.py": ["--hard", "3", "--avoiding", "1", "--seconds", "0.1", "--cpu", "--progress"],
    "par_waits.py": ["--searches", "3", "--runs", "5", "--quiet-runs", "3", "--workers", "1"],
    "pipeline.py": ["--runs", "20", "--workers", "1", "--quiet-runs", "5"],
    "rankings.py": ["--players", "100", "--requests", "10"],
    "run_cost.py": ["--runs", "20", "--players", "2", "--workers", "1", "--rounds", "1"],
    "schedules.py": ["--occurrences", "50", "--processes", "2"],
    "season_rollover.py": ["--players", "200", "--requests", "5"],
    "share.py": ["--players", "3", "--requests", "5"],
    "tournaments.py": ["--entrants", "100", "--requests", "10"],
    "webhooks.py": ["--runs", "20", "--workers", "1"],
}
NEEDS_POSTGRES = {"archive.py"}
NEEDS_MONO = {"csharp_engine.py"}
UNLIMITED = {"SCOUNDREL_RATE_LIMIT_TOKEN": "", "SCOUNDREL_RATE_LIMIT_ADDRESS": ""}
# The service each bench asks ``Service`` for at its tiny size: (workers, env).
SERVICES = {
    "api.py": (0, {**UNLIMITED, "SCOUNDREL_API_WORKERS": "2"}),
    "archive.py": (0, {}),  # its SQLite half's (its PostgreSQL half has a Redis of its own)
    "board_memory.py": (1, UNLIMITED),
    "cooling.py": (0, {}),
    "desk.py": (0, UNLIMITED),
    "friends_view.py": (0, {}),
    "games.py": (1, {**UNLIMITED, "SCOUNDREL_API_WORKERS": "2"}),
    "live.py": (1, {**UNLIMITED, "SCOUNDREL_API_WORKERS": "2"}),
    "memory.py": (1, UNLIMITED),
    "moderation.py": (0, {}),
    "pages.py": (0, {}),
    "par_waits.py": (1, {**UNLIMITED, "SCOUNDREL_RATE_LIMIT_PAR": "", "SCOUNDREL_PAR_SECONDS": "10"}),
    "pipeline.py": (1, UNLIMITED),
    "rankings.py": (0, {}),
    "run_cost.py": (1, UNLIMITED),
    "season_rollover.py": (0, {}),
    "share.py": (1, UNLIMITED),
    "tournaments.py": (0, {}),
    "webhooks.py": (1, UNLIMITED),
}


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


# Benches whose service is still at work when they end (par searches: of their dealt deals, or asked for): their
# stack is killed, not given back to the pool, whose stack's worker would search on for no one (board_memory.py's:
# 2.4 s of CPU while the pool waits to empty it, par_waits.py's: 1.5 s while it is kept), nor stopped, which lets
# the worker end its search (par_waits.py's: 10 s, cut to 3, over a second of CPU); so each goes last among those
# sharing its service.
LEAVE_WORK = {"board_memory.py", "par_waits.py"}


def sharing_a_service_in_turn() -> list[str]:
    """The benches, those asking for the same service one after another (the pool keeps a few stacks)."""
    return sorted(benches(), key=lambda bench: (repr(SERVICES.get(bench)), bench in LEAVE_WORK, bench))


@pytest.fixture(scope="module")
def bench_stacks(tmp_path_factory):
    """The benches' stacks: one kept at a time, as the benches sharing one run in turn, and none
    left to the other modules, whose settings differ."""
    pool = StackPool(tmp_path_factory.mktemp("bench-stacks"), keep=1)
    yield pool
    pool.close()


@pytest.fixture
def service(request, bench_stacks):
    """The environment that hands the bench its service: an empty stack, if listed."""
    if request.param not in SERVICES:
        yield {}
        return
    workers, env = SERVICES[request.param]
    stack = bench_stacks.take(workers=workers, env=env)
    try:
        yield {GIVEN_SERVICE: json.dumps({
            "base": stack.base, "redis_url": stack.redis.url, "data_dir": str(stack.root),
            "archive_url": stack.archive_url, "log": str(stack.root / "api.log"),
            "logs": [str(log) for log in sorted(stack.root.glob("*.log"))], "workers": workers, "env": env})}
    finally:
        if request.param in LEAVE_WORK:
            stack.kill()
        else:
            bench_stacks.give_back(stack)


def postgres_template(request, tmp_path_factory) -> Path:
    """The PostgreSQL cluster the session's processes share (``cluster_template``: ``initdb`` once a session,
    as for ``tests/archive``'s servers), for a bench's server to start on a copy of."""
    session = tmp_path_factory.getbasetemp()
    if hasattr(request.config, "workerinput"):  # a pytest-xdist worker's is in the session's
        session = session.parent
    return cluster_template(session)


@pytest.mark.parametrize(("bench", "service"), [(bench, bench) for bench in sharing_a_service_in_turn()],
                         indirect=["service"], ids=sharing_a_service_in_turn())
def test_the_bench_runs_at_a_tiny_size(bench, service, tmp_path, request, tmp_path_factory):
    if bench in NEEDS_POSTGRES:
        if postgres_bin_dir() is None:
            pytest.skip("PostgreSQL is not installed (.ci/run installs Debian's postgresql)")
        service = {**service, POSTGRES_TEMPLATE: str(postgres_template(request, tmp_path_factory))}
    if bench in NEEDS_MONO and (shutil.which("mcs") is None or shutil.which("mono") is None):
        pytest.skip("Mono is not installed (.ci/run installs Debian's mono-devel)")
    try:
        ran = run_forked(functools.partial(run_script, BENCH / bench, TINY.get(bench, [])), service, tmp_path,
                         timeout=240)
    except ForkedTimeout as late:
        pytest.fail(f"{bench} at its tiny size {late}")
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-3000:]
    assert ran.stdout.strip(), "a bench prints its figures"


def run_script(script: Path, args: list[str]) -> None:
    """``python script args``, as Python runs a script: ``__main__``, its folder first on the path, from the
    repository's root."""
    os.chdir(script.parent.parent)
    sys.argv = [str(script), *args]
    sys.path.insert(0, str(script.parent))
    runpy.run_path(str(script), run_name="__main__")
