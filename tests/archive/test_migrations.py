"""The archive's schema comes from Alembic's migrations, and processes may start together.

The migrations build exactly the tables ``store.archive.tables`` describes
(Alembic's own comparison finds no difference), a second upgrade changes
nothing, and several processes upgrading one new archive at once all
succeed: the API and the workers each upgrade when they start.
"""

import sqlite3
import threading
from importlib import resources
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from store.archive import Archive, ArchivedRun, head_revision
from store.archive.tables import metadata
from store.runs import move_codes
from store.runs.records import run_from_stored
from tests.support.games import games_by_score

from .conftest import fresh_archive_url


def test_the_migrations_build_the_described_tables(archive_url):
    archive = Archive(archive_url)
    try:
        archive.upgrade()
        archive.upgrade()
        with archive.engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), metadata) == []
            assert connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalars().all() == ["0005"]
    finally:
        archive.dispose()


def test_the_head_read_from_the_file_names_is_alembics():
    """``upgrade`` skips Alembic when the schema is at ``head_revision``, read from the migrations' file
    names: each file's revision is its name's number, in one line from the first, as Alembic reads them."""
    scripts = ScriptDirectory(str(resources.files("store.archive").joinpath("migrations")))
    assert scripts.get_heads() == [head_revision()]
    for script in scripts.walk_revisions():
        assert Path(script.path).name.split("_", 1)[0] == script.revision


def test_an_archive_at_an_older_migration_is_upgraded_to_the_head(tmp_path):
    archive = Archive(f"sqlite:///{tmp_path}/old.sqlite3")
    try:
        _upgrade_to(archive, "0002")
        assert archive.revision() == "0002"
        archive.upgrade()
        assert archive.revision() == head_revision()
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


def _upgrade_to(archive: Archive, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(resources.files("store.archive").joinpath("migrations")))
    with archive.engine.connect() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
        connection.commit()


def test_archived_runs_with_their_moves_spelt_out_get_them_as_codes(tmp_path, archive_url):
    """An archive whose rows keep a run's moves as one string (as an older release archived them) is
    rewritten in place when it is upgraded: the archive's reader knows one shape, as Redis's does."""
    (tmp_path / "fresh").mkdir()
    archive = Archive(fresh_archive_url(archive_url, tmp_path))
    try:
        _upgrade_to(archive, "0001")
        game = games_by_score("archived-moves", 1)[0]
        spelt = {"id": "0123456789abcdef", "player": "ann", "seed": game["seed"], "variant": "classic",
                 "moves": " ".join(game["moves"]), "status": "verified", "submitted_ms": "1"}
        empty = {**spelt, "id": "fedcba9876543210", "moves": ""}
        archive.write([ArchivedRun(spelt, []), ArchivedRun(empty, [])], 2)
        archive.upgrade()
        found = archive.load([spelt["id"], empty["id"]])
        assert found[spelt["id"]].fields == {**{k: v for k, v in spelt.items() if k != "moves"},
                                             "codes": move_codes.encode(game["moves"])}
        assert "moves" not in found[empty["id"]].fields and "codes" not in found[empty["id"]].fields
        assert list(run_from_stored(spelt["id"], found[spelt["id"]].fields).moves) == game["moves"]
    finally:
        archive.dispose()
