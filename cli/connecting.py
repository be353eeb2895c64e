"""What every command that connects to Redis shares: ``--data-dir`` and its settings.

Without ``REDIS_URL`` these commands find the Redis that ``scoundrel up``
runs on a data directory (``settings`` resolves it), so they take
the same ``--data-dir`` as ``up``, with the same default; with no ``up``
running there they refuse in one line.

The operator commands (``check``, ``moderator``, ``reverify``, ``archive``,
``migrate``, ``move-off-cluster``) connect through ``connect``: it names the
Redis on stderr, and refuses one that holds none of the service's data
(``store.base.service_mark``) unless ``--any-redis`` says to go on, since a
wrong Redis answers as an empty, consistent store and takes writes the
service never sees. ``move-off-cluster`` fills a Redis holding nothing yet,
and makes its own checks of what it holds.
"""

import argparse
import os
import sys
from typing import TYPE_CHECKING

from settings import (
    DEFAULT_DATA_DIR,
    REDIS_URL_FILE,
    Settings,
    SettingsError,
    running_redis_url,
)

if TYPE_CHECKING:  # imported when used: redis and rq are heavy for the commands that need neither
    from store import Database


def add_data_dir_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", default=None, metavar="DIR",
                        help=f"find the Redis of the scoundrel up running on DIR when REDIS_URL is not set "
                             f"(default: SCOUNDREL_DATA_DIR, else {DEFAULT_DATA_DIR})")


def add_operator_options(parser: argparse.ArgumentParser) -> None:
    """``--data-dir`` and ``--any-redis``: the options of a command that goes through ``connect``."""
    add_data_dir_option(parser)
    parser.add_argument("--any-redis", action="store_true",
                        help="use the Redis found even if it holds no Scoundrel Referee data (no API or worker "
                             "has started on it)")


def settings_for(args: argparse.Namespace, *, default_redis: bool = False) -> Settings:
    """The settings, with ``--data-dir``. Without REDIS_URL (or the sentinels) the Redis is the one
    ``scoundrel up`` runs on the data directory (``--data-dir``, SCOUNDREL_DATA_DIR or the default one),
    and no ``up`` running there is a refusal: falling back to a Redis on the default port would reach
    some other Redis, or none, and the person would read about a URL they never gave. ``default_redis``
    (``scoundrel api`` and ``scoundrel worker``): with no data directory named, the default Redis, as
    docs/configuration.md says."""
    settings = Settings.from_env(args.data_dir)
    if settings.redis_url_given or settings.sentinels or running_redis_url(settings.data_dir) is not None:
        return settings
    named = args.data_dir or os.environ.get("SCOUNDREL_DATA_DIR")
    if default_redis and not named:
        return settings
    start = f"scoundrel up --data-dir {settings.data_dir}" if named else "scoundrel up"
    raise SettingsError(f"no scoundrel up is running on {settings.data_dir} (no {REDIS_URL_FILE} file there); "
                        f"start one with {start}, or set REDIS_URL")


def connect(args: argparse.Namespace, *, timeout: float | None = None, upgrade_archive: bool = False,
            to_fill: bool = False) -> "Database":
    """The operator command's ``Database``, once its Redis is known to be the service's.

    Says which Redis on stderr (one line, its password hidden); raises
    ``SettingsError`` for a Redis without the service's mark, unless
    ``--any-redis`` or ``to_fill`` (a command that fills a new Redis).
    ``upgrade_archive`` brings the archive's schema up to date first, so an
    unreachable archive is reported as such.
    """
    settings = settings_for(args)  # first: no up running is refused before the store is imported (0.5 s of CPU)
    from store import Database
    from store.base import holds_service_data
    from worker.registry import JOBS

    db = Database.from_settings(settings, JOBS, timeout=timeout)
    if upgrade_archive:
        db.archive.upgrade()
    where = settings.data_redis
    if not holds_service_data(db):
        if not (to_fill or args.any_redis):
            db.close()
            raise SettingsError(f"the Redis at {where} holds no Scoundrel Referee data (no API or worker has "
                                f"started on it): point REDIS_URL or --data-dir at the service's Redis, "
                                f"or pass --any-redis to use this one")
        where += ", holding no Scoundrel Referee data yet"
    print(f"scoundrel {args.command}: Redis {where}", file=sys.stderr)
    return db
