"""What every command that connects to Redis shares: ``--data-dir`` and its settings.

Without ``REDIS_URL`` these commands find the Redis that ``scoundrel up``
runs on a data directory (``settings`` resolves it), so they take
the same ``--data-dir`` as ``up``, with the same default.
"""

import argparse

from settings import (
    DEFAULT_DATA_DIR,
    REDIS_URL_FILE,
    Settings,
    SettingsError,
    running_redis_url,
)


def add_data_dir_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", default=None, metavar="DIR",
                        help=f"find the Redis of the scoundrel up running on DIR when REDIS_URL is not set "
                             f"(default: SCOUNDREL_DATA_DIR, else {DEFAULT_DATA_DIR})")


def settings_for(args: argparse.Namespace) -> Settings:
    """The settings, with ``--data-dir``; a data directory named there must have its ``scoundrel up`` running
    (falling back to the default Redis would reach some other Redis, or none)."""
    settings = Settings.from_env(args.data_dir)
    if args.data_dir and not settings.redis_url_given and running_redis_url(args.data_dir) is None:
        raise SettingsError(f"no scoundrel up is running on {args.data_dir} (no {REDIS_URL_FILE} file there); "
                            f"start one with scoundrel up --data-dir {args.data_dir}, or set REDIS_URL")
    return settings
