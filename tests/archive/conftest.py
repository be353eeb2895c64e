"""The archive's tests run twice: against SQLite, and against a real PostgreSQL started for them.

Each backend gets a stack (Redis, the API, one worker) whose archive is on
it: on SQLite the usual one, on PostgreSQL one of its own. Retention is run
by hand (``scoundrel archive --older-than 0``: every finished run is old
enough), except where a test starts a stack whose workers archive on their own.
"""

import multiprocessing
import os
import subprocess
import sys
import time
from multiprocessing.process import BaseProcess

import pytest
import sqlalchemy as sa

from cli.main import main
from tests.audit.conftest import cli
from tests.support.in_process import stack_of
from throwaway.postgres import PostgresServer, cluster_template, postgres_bin_dir

# PostgreSQL is a server of its own (``postgresql_archive_url``): its tests are marked ``stack``, as every
# test that starts processes is (``tests/conftest.py``).
BACKENDS = ["sqlite", pytest.param("postgresql", marks=(pytest.mark.stack, pytest.mark.skipif(
    postgres_bin_dir() is None, reason="PostgreSQL is not installed (.ci/run installs Debian's postgresql)")))]


@pytest.fixture(scope="session")
def sqlite_archive_url(tmp_path_factory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('archive')}/archive.sqlite3"


@pytest.fixture(scope="session")
def postgresql_archive_url(request, tmp_path_factory):
    """A PostgreSQL server of the test process's own on a free port, started once a process, on a copy of
    the cluster the session's processes share (``cluster_template``: ``initdb`` once a session)."""
    session = tmp_path_factory.getbasetemp()
    if hasattr(request.config, "workerinput"):  # a pytest-xdist worker's is in the session's
        session = session.parent
    server = PostgresServer(template=cluster_template(session)).start()
    yield server.url
    server.stop()


@pytest.fixture(scope="module", params=BACKENDS)
def archive_url(request) -> str:
    """An archive's URL for the module's tests to open themselves: a SQLite file, or a database on a
    PostgreSQL server (there the one the module's stack archives to, emptied by the module before, see
    ``stack``; on SQLite the stack's archive is its own file)."""
    return request.getfixturevalue(f"{request.param}_archive_url")


@pytest.fixture(scope="module")
def stack(request, archive_url):
    """On SQLite the usual stack, whose archive is a SQLite file already (so none is started for it); on
    PostgreSQL one whose archive is a database on that server."""
    yield from stack_of(request, env={} if archive_url.startswith("sqlite") else {"SCOUNDREL_ARCHIVE_URL": archive_url})


def archive_now(stack) -> subprocess.CompletedProcess:
    """``scoundrel archive --older-than 0``: every finished run without a board place moves."""
    done = cli(stack, "archive", "--older-than", "0")
    assert done.returncode == 0, done.stderr
    return done


def submitted_final(stack, token: str, games: list[dict]) -> list[dict]:
    """``submit_final`` of each of ``games`` in turn, a few milliseconds apart (distinct submission times), then
    waited for together: the in-process stack's worker makes one pass for them all, not one a game."""
    run_ids = []
    for number, game in enumerate(games):
        if number:
            time.sleep(0.005)
        response = stack.submit(token, game)
        assert response.status_code == 202, response.text
        run_ids.append(response.json()["id"])
    return [stack.wait_final(run_id) for run_id in run_ids]


def snapshot(stack, run_id: str) -> dict:
    """Everything a client reads of a run: the run, its replay, its audit log, its viewer page."""
    return {
        "run": stack.get(f"/v1/runs/{run_id}").json(),
        "replay": stack.get(f"/v1/runs/{run_id}/replay").json(),
        "audit": stack.get(f"/v1/runs/{run_id}/audit-log").json(),
        "viewer": stack.get(f"/runs/{run_id}").status_code,
    }


def fresh_archive_url(archive_url: str, tmp_path) -> str:
    """A new, empty archive next to ``archive_url``: another SQLite file, or another PostgreSQL database."""
    if archive_url.startswith("sqlite"):
        return f"sqlite:///{tmp_path}/fresh/archive.sqlite3"
    database = "fresh_" + "".join(c for c in tmp_path.name.lower() if c.isalnum())
    server = sa.create_engine(archive_url, isolation_level="AUTOCOMMIT")
    with server.connect() as connection:
        connection.execute(sa.text(f"CREATE DATABASE {database}"))
    server.dispose()
    return sa.make_url(archive_url).set(database=database).render_as_string(hide_password=False)


def forked_command(env: dict, *args: str, terminal: int | None = None) -> BaseProcess:
    """``scoundrel ARGS`` in a process of its own, started and not waited for (a test kills it, races it or
    reads its terminal; ``tests.support.commands.run_forked`` waits): ``env`` its whole environment;
    ``terminal`` a terminal's file descriptor, its stdin, stdout and stderr (else this process's, whose
    captured stderr shows a failure's traceback). Forked from this process, which has imported the
    service: started anew, the command spent most of a second of CPU importing it."""
    process = multiprocessing.get_context("fork").Process(target=_command, args=(env, args, terminal))
    process.start()
    return process


def _command(env: dict, args: tuple[str, ...], terminal: int | None) -> None:
    os.environ.clear()
    os.environ.update(env)
    if terminal is not None:
        for fd in (0, 1, 2):
            os.dup2(terminal, fd)
        sys.stdin, sys.stdout, sys.stderr = (open(fd, mode, closefd=False) for fd, mode in enumerate("rww"))
    sys.exit(main(list(args)))
