"""The archive: finished runs and cold boards that left Redis, in SQL (SQLite by default, PostgreSQL in production).

``Archive`` is the one connection to it and offers named queries, written
as SQLAlchemy Core expressions over ``tables``; Alembic's migrations
(``migrations/``, shipped with the package) build and change its schema,
applied by ``upgrade`` when a process starts. Writing is idempotent on the
run id (an upsert), so moving a run out of Redis can be repeated after a
crash without duplicating it (``store.operations.retention``). A cold board is
written whole, replacing what the archive held of it (``store.boards.cooling``).
"""

import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from .tables import archived_board_places, archived_runs

__all__ = ["Archive", "ArchivedRun", "BoardPlace", "head_revision"]

# Any constant shared by every process of the service: the PostgreSQL advisory lock held while migrating.
_MIGRATION_LOCK = 0x5C0D_4E1

IDS_BATCH = 10_000  # run ids per query when walking the whole archive

# The queries, built once: a statement built per call costs more than SQLite takes to answer it.
_LOAD = (sa.select(archived_runs.c.run, archived_runs.c.audit, archived_runs.c.archived_ms)
         .where(archived_runs.c.run_id.in_(sa.bindparam("run_ids", expanding=True))))
_PLAYER_NEWEST = (sa.select(archived_runs.c.submitted_ms, archived_runs.c.run_id)
                  .where(archived_runs.c.player == sa.bindparam("player"))
                  .order_by(archived_runs.c.submitted_ms.desc(), archived_runs.c.run_id.desc())
                  .limit(sa.bindparam("count")))
_PLAYER_RUNS = sa.select(archived_runs.c.run).where(archived_runs.c.player == sa.bindparam("player"))
_places = archived_board_places.c
_ON_BOARD = sa.and_(_places.kind == sa.bindparam("kind"), _places.board == sa.bindparam("board"))
_BOARD_PLACES = (sa.select(_places.player, _places.rank_key, _places.run_id).where(_ON_BOARD)
                 .order_by(_places.rank_key.desc(), _places.player.desc()))  # as Redis' ZREVRANGE
_IN_BOARDS = sa.and_(_places.kind == sa.bindparam("kind"), _places.board.in_(sa.bindparam("boards", expanding=True)))
_BOARDS_PLACES = (sa.select(_places.board, _places.player, _places.rank_key, _places.run_id).where(_IN_BOARDS)
                  .order_by(_places.board, _places.rank_key.desc(), _places.player.desc()))
_BOARD_PAGE = _BOARD_PLACES.offset(sa.bindparam("offset")).limit(sa.bindparam("limit"))
_PLACES_OF = _BOARD_PLACES.where(_places.player.in_(sa.bindparam("players", expanding=True)))
_BOARD_BEFORE = (sa.select(sa.func.count()).select_from(archived_board_places)  # ranked before a place
                 .where(_ON_BOARD, sa.or_(_places.rank_key > sa.bindparam("rank_key"),
                                          sa.and_(_places.rank_key == sa.bindparam("rank_key"),
                                                  _places.player > sa.bindparam("player")))))
_BOARD_TOTAL = sa.select(sa.func.count()).select_from(archived_board_places).where(_ON_BOARD)
_BOARD_ABOVE = (sa.select(sa.func.count()).select_from(archived_board_places)
                .where(_ON_BOARD, _places.rank_key >= sa.bindparam("least")))
_BOARDS_HELD = (sa.select(_places.board).distinct()
                .where(_places.kind == sa.bindparam("kind"),
                       _places.board.in_(sa.bindparam("boards", expanding=True))))
_PLAYER_COUNT = (sa.select(sa.func.count()).select_from(archived_runs)
                 .where(archived_runs.c.player == sa.bindparam("player")))


SQLITE_TIMEOUT = 30.0  # seconds a SQLite connection waits for another process's lock
WAL_RETRY = 0.05  # seconds between tries of switching a locked new file to write-ahead logging


def head_revision() -> str:
    """The newest migration's revision: each migration's revision is the number its file's name starts
    with, one after another (``tests/archive/test_layouts_and_migrations.py`` checks it against Alembic's reading)."""
    versions = resources.files(__package__).joinpath("migrations", "versions")
    return max(entry.name.split("_", 1)[0] for entry in versions.iterdir() if entry.name.endswith(".py"))


@dataclass(frozen=True)
class ArchivedRun:
    """A run as the archive keeps it: its stored fields and its audit log as the API shows it."""

    fields: dict[str, str]
    audit: list[dict]
    archived_ms: int = 0  # when it was written (``write``'s ``archived_ms``)

    @property
    def run_id(self) -> str:
        return self.fields["id"]


@dataclass(frozen=True)
class BoardPlace:
    """A place on a board as the archive keeps it: its player, packed rank key and run id."""

    player: str
    rank_key: int
    run_id: str


class Archive:
    """The archive database: one engine (a connection pool) per process."""

    def __init__(self, url: str):
        options: dict = {}
        if url.startswith("sqlite"):
            # wait for a writer (another process archiving) rather than fail at once
            options["connect_args"] = {"timeout": SQLITE_TIMEOUT}
        self.engine = sa.create_engine(url, **options)
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_wal)
            sa.event.listen(self.engine, "connect", _sqlite_secure_delete)

    def upgrade(self) -> None:
        """Bring the schema to the newest migration; safe while other processes do the same.

        The migrations run in one transaction that first takes a lock (SQLite:
        ``BEGIN IMMEDIATE``; PostgreSQL: an advisory lock), so a second process
        waits and then finds nothing left to do.
        """
        database = self.engine.url.database
        if self.engine.dialect.name == "sqlite" and database and database != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(database)), exist_ok=True)
        if self.revision() == head_revision():
            return  # what every start but the first finds: Alembic (a fifth of a second of CPU) not needed
        with self.engine.connect() as connection:
            if self.engine.dialect.name == "sqlite":
                connection.exec_driver_sql("BEGIN IMMEDIATE")
            elif self.engine.dialect.name == "postgresql":
                connection.execute(sa.select(sa.func.pg_advisory_xact_lock(_MIGRATION_LOCK)))
            # imported here: Alembic (and its templates') import costs a tenth of a second that the
            # commands which only read the archive need not pay
            from alembic import command
            from alembic.config import Config

            config = Config()
            config.set_main_option("script_location", str(resources.files(__package__).joinpath("migrations")))
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
            connection.commit()

    def revision(self) -> str | None:
        """The migration the schema is at (Alembic's ``alembic_version``), or None before the first."""
        with self.engine.connect() as connection:
            try:
                return connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
            except sa.exc.DBAPIError:  # no such table yet
                return None

    def write(self, runs: list[ArchivedRun], archived_ms: int) -> None:
        """Insert or replace ``runs``, committed when this returns: idempotent on the run id."""
        if not runs:
            return
        rows = [{
            "run_id": run.run_id, "player": run.fields["player"], "variant": run.fields["variant"],
            "status": run.fields["status"], "submitted_ms": int(run.fields["submitted_ms"]),
            "archived_ms": archived_ms, "run": run.fields, "audit": run.audit,
        } for run in runs]
        insert = (postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert)(archived_runs)
        replace = insert.on_conflict_do_update(
            index_elements=[archived_runs.c.run_id],
            set_={column: insert.excluded[column] for column in
                  ("player", "variant", "status", "submitted_ms", "archived_ms", "run", "audit")},
        )
        with self.engine.begin() as connection:
            connection.execute(replace, rows)

    def load(self, run_ids: list[str]) -> dict[str, ArchivedRun]:
        """The archived runs among ``run_ids``, by id."""
        if not run_ids:
            return {}
        with self.engine.connect() as connection:
            return {row.run["id"]: ArchivedRun(row.run, row.audit, row.archived_ms)
                    for row in connection.execute(_LOAD, {"run_ids": list(run_ids)})}

    def player_newest(self, player: str, count: int) -> list[tuple[int, str]]:
        """``(submitted ms, run id)`` of the player's ``count`` newest archived runs, newest first."""
        with self.engine.connect() as connection:
            return [(row.submitted_ms, row.run_id)
                    for row in connection.execute(_PLAYER_NEWEST, {"player": player, "count": count})]

    def player_count(self, player: str) -> int:
        """How many of the player's runs are archived."""
        with self.engine.connect() as connection:
            return connection.execute(_PLAYER_COUNT, {"player": player}).scalar_one()

    def player_runs(self, player: str) -> list[dict[str, str]]:
        """The stored fields of every archived run of the player (a recompute of their places reads them)."""
        with self.engine.connect() as connection:
            return [row.run for row in connection.execute(_PLAYER_RUNS, {"player": player})]

    def board_places(self, kind: str, board: str) -> list[BoardPlace]:
        """Every archived place of one board (its kind, its key parts joined by ':'), best first."""
        with self.engine.connect() as connection:
            return [BoardPlace(*row) for row in connection.execute(_BOARD_PLACES, {"kind": kind, "board": board})]

    def boards_places(self, kind: str, boards: list[str]) -> dict[str, list[BoardPlace]]:
        """Every archived place of each of ``boards`` (of ``kind``) the archive holds places of, best first,
        by board: ``board_places`` for a batch of boards in one query."""
        if not boards:
            return {}
        found: dict[str, list[BoardPlace]] = {}
        with self.engine.connect() as connection:
            for board, *place in connection.execute(_BOARDS_PLACES, {"kind": kind, "boards": boards}):
                found.setdefault(board, []).append(BoardPlace(*place))
        return found

    def board_page(self, kind: str, board: str, offset: int, limit: int) -> tuple[int, list[BoardPlace]]:
        """``(total, places)``: the board's archived places from rank ``offset + 1``, best first."""
        named = {"kind": kind, "board": board}
        with self.engine.connect() as connection:
            total = connection.execute(_BOARD_TOTAL, named).scalar_one()
            if not total or offset >= total:
                return total, []
            return total, [BoardPlace(*row) for row in
                           connection.execute(_BOARD_PAGE, {**named, "offset": offset, "limit": limit})]

    def board_places_of(self, kind: str, board: str, players: list[str]) -> list[BoardPlace]:
        """The archived places of ``players`` on one board, best first (by its primary key: no scan)."""
        if not players:
            return []
        with self.engine.connect() as connection:
            return [BoardPlace(*row) for row in
                    connection.execute(_PLACES_OF, {"kind": kind, "board": board, "players": players})]

    def board_count_before(self, kind: str, board: str, place: BoardPlace) -> int:
        """How many of the board's archived places rank before ``place`` (its 0-based index, as Redis'
        ZREVRANK gives it): a count over the board's index, never a read of its rows."""
        with self.engine.connect() as connection:
            return connection.execute(_BOARD_BEFORE, {"kind": kind, "board": board, "rank_key": place.rank_key,
                                                      "player": place.player}).scalar_one()

    def board_count_from(self, kind: str, board: str, least: int) -> int:
        """How many of the board's archived places have a rank key of ``least`` or more."""
        with self.engine.connect() as connection:
            return connection.execute(_BOARD_ABOVE, {"kind": kind, "board": board, "least": least}).scalar_one()

    def boards_held(self, kind: str, boards: list[str]) -> set[str]:
        """Those of ``boards`` (of ``kind``) the archive holds places of."""
        if not boards:
            return set()
        with self.engine.connect() as connection:
            return set(connection.execute(_BOARDS_HELD, {"kind": kind, "boards": boards}).scalars())

    def write_boards(self, kind: str, boards: dict[str, list[BoardPlace]], archived_ms: int) -> None:
        """Replace what the archive holds of each board of ``kind`` with its places, committed when
        this returns: idempotent, a second write of the same places changes nothing."""
        if not boards:
            return
        rows = [{"kind": kind, "board": board, "player": place.player, "rank_key": place.rank_key,
                 "run_id": place.run_id, "archived_ms": archived_ms}
                for board, places in boards.items() for place in places]
        with self.engine.begin() as connection:
            connection.execute(sa.delete(archived_board_places).where(
                _places.kind == kind, _places.board.in_(list(boards))))
            if rows:
                connection.execute(sa.insert(archived_board_places), rows)

    def delete_boards(self, kind: str, boards: list[str]) -> None:
        """Forget the places of ``boards`` (of ``kind``): back in Redis, which holds them now."""
        if boards:
            with self.engine.begin() as connection:
                connection.execute(sa.delete(archived_board_places).where(
                    _places.kind == kind, _places.board.in_(boards)))

    def board_names(self, kind: str) -> Iterator[list[str]]:
        """Every board of ``kind`` the archive holds places of, in batches, in name order."""
        last = ""
        with self.engine.connect() as connection:
            while True:
                batch = list(connection.execute(
                    sa.select(_places.board).distinct().where(_places.kind == kind, _places.board > last)
                    .order_by(_places.board).limit(IDS_BATCH)).scalars())
                if not batch:
                    return
                yield batch
                last = batch[-1]

    def delete(self, run_ids: list[str]) -> None:
        """Forget ``run_ids`` (runs back in Redis, which holds them now)."""
        if run_ids:
            with self.engine.begin() as connection:
                connection.execute(sa.delete(archived_runs).where(archived_runs.c.run_id.in_(run_ids)))

    def delete_older(self, run_ids: list[str], before_ms: int) -> None:
        """Forget the rows of ``run_ids`` written before ``before_ms`` (runs Redis holds, left by a crash)."""
        if run_ids:
            with self.engine.begin() as connection:
                connection.execute(sa.delete(archived_runs).where(archived_runs.c.run_id.in_(run_ids),
                                                                  archived_runs.c.archived_ms < before_ms))

    def delete_row(self, run: ArchivedRun) -> bool:
        """Forget ``run`` if its row is still the one that was read (not archived anew since)."""
        with self.engine.begin() as connection:
            deleted = connection.execute(sa.delete(archived_runs).where(
                archived_runs.c.run_id == run.run_id, archived_runs.c.archived_ms == run.archived_ms))
        return deleted.rowcount == 1

    def erase_places(self, player: str, pseudonym: str, kept: set[tuple[str, str]]) -> None:
        """Forget the player's archived places but those on the ``kept`` boards (kind, board), which pass to
        ``pseudonym`` with no run."""
        with self.engine.begin() as connection:
            held = connection.execute(sa.select(_places.kind, _places.board).where(_places.player == player))
            for kind, board in [(place.kind, place.board) for place in held if (place.kind, place.board) in kept]:
                connection.execute(sa.update(archived_board_places).where(
                    _places.kind == kind, _places.board == board, _places.player == player)
                    .values(player=pseudonym, run_id=""))
            connection.execute(sa.delete(archived_board_places).where(_places.player == player))

    def rename_player(self, player: str, new: str) -> None:
        """Give the player's archived runs and board places to ``new`` (a forced rename): the runs' stored
        fields too, ``IDS_BATCH`` runs a transaction."""
        while True:
            with self.engine.begin() as connection:
                held = connection.execute(sa.select(archived_runs.c.run_id, archived_runs.c.run).where(
                    archived_runs.c.player == player).limit(IDS_BATCH)).all()
                for run_id, stored in held:
                    connection.execute(sa.update(archived_runs).where(archived_runs.c.run_id == run_id)
                                       .values(player=new, run={**stored, "player": new}))
            if not held:
                break
        with self.engine.begin() as connection:
            connection.execute(sa.update(archived_board_places).where(_places.player == player).values(player=new))

    def erase_runs(self, player: str, most: int) -> int:
        """Forget up to ``most`` of the player's archived runs: how many (0 once none is left)."""
        with self.engine.begin() as connection:
            run_ids = list(connection.execute(sa.select(archived_runs.c.run_id).where(
                archived_runs.c.player == player).limit(most)).scalars())
            if run_ids:
                connection.execute(sa.delete(archived_runs).where(archived_runs.c.run_id.in_(run_ids)))
        return len(run_ids)

    def settle_erasure(self) -> bool:
        """Bring what an erasure deleted out of the files, SQLite's: whether it is out.

        A row deleted is zeroed where it lay in the database's pages
        (``_sqlite_secure_delete``), but written through the write-ahead log,
        whose older frames still hold it and whose new ones are not yet in
        the database file: a checkpoint copies them in and empties the log.
        It waits (the busy timeout) for readers of an older snapshot, and is
        False if one still holds it then (the next checkpoint empties it).
        PostgreSQL keeps a deleted row until ``VACUUM`` (docs/integrators.md):
        nothing to do here.
        """
        if self.engine.dialect.name != "sqlite":
            return True
        with self.engine.connect() as connection:
            busy, _, _ = connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").one()
        return busy == 0

    def run_ids(self) -> Iterator[list[str]]:
        """Every archived run id, in batches, in id order."""
        last = ""
        with self.engine.connect() as connection:
            while True:
                batch = list(connection.execute(
                    sa.select(archived_runs.c.run_id).where(archived_runs.c.run_id > last)
                    .order_by(archived_runs.c.run_id).limit(IDS_BATCH)).scalars())
                if not batch:
                    return
                yield batch
                last = batch[-1]

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite_secure_delete(connection, record) -> None:
    """What is deleted is overwritten with zeros, in its page and in pages freed: an erased player's runs
    are not left to be read in the file's free space (``Archive.settle_erasure``). Deleting costs the
    writes of the zeros: an erasure's and retention's, a few pages a run."""
    cursor = connection.cursor()
    try:
        cursor.execute("PRAGMA secure_delete=ON")
    finally:
        cursor.close()


def _sqlite_wal(connection, record) -> None:
    """Readers (the API) and the archiver's writes go on side by side: write-ahead logging.

    Switching a file to it needs the file unlocked, and SQLite answers
    "database is locked" at once there, without its busy timeout: so a
    process opening a new archive while another holds it (the API and a
    worker starting together, each upgrading it) tries again for as long
    as that timeout. A file once switched stays so: then it is instant.
    """
    deadline = time.monotonic() + SQLITE_TIMEOUT
    cursor = connection.cursor()
    try:
        while True:
            try:
                cursor.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(WAL_RETRY)
    finally:
        cursor.close()
