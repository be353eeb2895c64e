"""Issue 11: the archive's schema comes from Alembic's migrations, and processes may start together.

The migrations build exactly the tables ``store.archive.tables`` describes
(Alembic's own comparison finds no difference), a second upgrade changes
nothing, and several processes upgrading one new archive at once all
succeed: the API and the workers each upgrade when they start.
"""

import sqlite3
import subprocess
import sys
import threading

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from store.archive import Archive
from store.archive.tables import metadata

UPGRADE = "import sys; from store.archive import Archive; Archive(sys.argv[1]).upgrade()"


def test_the_migrations_build_the_described_tables(archive_url):
    archive = Archive(archive_url)
    try:
        archive.upgrade()
        archive.upgrade()
        with archive.engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), metadata) == []
            assert connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalars().all() == ["0002"]
    finally:
        archive.dispose()


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


def test_processes_upgrading_at_once_all_succeed(tmp_path, archive_url):
    archive_url = fresh_archive_url(archive_url, tmp_path)
    processes = [subprocess.Popen([sys.executable, "-c", UPGRADE, archive_url], stderr=subprocess.PIPE, text=True)
                 for _ in range(4)]
    for process in processes:
        _, errors = process.communicate(timeout=120)
        assert process.returncode == 0, errors
    archive = Archive(archive_url)
    try:
        assert list(archive.run_ids()) == []
    finally:
        archive.dispose()


def test_a_new_sqlite_archive_opened_while_another_process_holds_it_waits_for_it(tmp_path):
    """A new file is switched to write-ahead logging by whoever opens it first; SQLite refuses that
    switch at once while another connection holds a lock, rather than waiting for it."""
    path = tmp_path / "archive.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")  # another process's write, in the file's first journal mode
    holder.execute("CREATE TABLE elsewhere (x)")
    released = threading.Timer(0.5, holder.execute, ["COMMIT"])
    released.start()
    archive = Archive(f"sqlite:///{path}")
    try:
        archive.upgrade()
        with archive.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert list(archive.run_ids()) == []
    finally:
        released.join()
        holder.close()
        archive.dispose()
