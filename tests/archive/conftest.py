"""The archive's tests run twice: against SQLite, and against a real PostgreSQL started for them.

Each backend gets a stack of its own (Redis, the API, one worker) whose
archive is that database; retention is run by hand (``scoundrel archive
--older-than 0``: every finished run is old enough), except where a test
starts a stack whose workers archive on their own.
"""

import subprocess

import pytest

from tests.audit.conftest import cli
from tests.support.postgres import PostgresServer, postgres_bin_dir
from tests.support.stack import Stack

BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    postgres_bin_dir() is None, reason="PostgreSQL is not installed (.ci/run installs Debian's postgresql)"))]


@pytest.fixture(scope="module", params=BACKENDS)
def archive_url(request, tmp_path_factory):
    """The archive's URL: a SQLite file, or a PostgreSQL server of the module's own on a free port."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('archive')}/archive.sqlite3"
        return
    server = PostgresServer().start()
    yield server.url
    server.stop()


@pytest.fixture(scope="module")
def stack(tmp_path_factory, archive_url):
    running = Stack(tmp_path_factory.mktemp("stack"), env={"SCOUNDREL_ARCHIVE_URL": archive_url}).start()
    yield running
    running.stop()


def archive_now(stack) -> subprocess.CompletedProcess:
    """``scoundrel archive --older-than 0``: every finished run without a board place moves."""
    done = cli(stack, "archive", "--older-than", "0")
    assert done.returncode == 0, done.stderr
    return done


def snapshot(stack, run_id: str) -> dict:
    """Everything a client reads of a run: the run, its replay, its audit log, its viewer page."""
    return {
        "run": stack.get(f"/v1/runs/{run_id}").json(),
        "replay": stack.get(f"/v1/runs/{run_id}/replay").json(),
        "audit": stack.get(f"/v1/runs/{run_id}/audit-log").json(),
        "viewer": stack.get(f"/runs/{run_id}").status_code,
    }


@pytest.fixture(scope="module")
def moderator(stack) -> str:
    """A moderator's token, made as an operator would: ``scoundrel moderator add``."""
    added = cli(stack, "moderator", "add", "mia")
    assert added.returncode == 0, added.stderr
    return added.stdout.strip().splitlines()[-1]
