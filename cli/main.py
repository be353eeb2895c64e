"""``scoundrel``: the entry point that gathers every subcommand.

Adding a command is one module with ``register(subparsers)`` (it adds its
subparser and sets ``func(args) -> int``) and one line in ``COMMANDS``.
Every run imports every command module, so a module imports its heavy
dependencies (Flask, RQ, the service) inside ``func``, not at the top:
``scoundrel deal`` should not wait for a web framework to load.

A command that fails for a reason outside the program (Redis unreachable,
the archive unreachable, a setting that makes no sense, a file it cannot write) ends here with one
line naming the cause and status 1, not a traceback: ``failure_message``
knows those errors, once for every command.
"""

import argparse
import os
import sys

from . import (
    api,
    archive,
    check,
    conformance,
    deal,
    erase,
    log,
    migrate,
    moderator,
    move_off_cluster,
    player,
    replay,
    reverify,
    server_key,
    up,
    verify,
    worker,
)

COMMANDS = (deal, verify, replay, conformance, api, worker, up, moderator, server_key, check, migrate,
            move_off_cluster, reverify, archive, erase, log, player)


def version() -> str:
    """``scoundrel 1.0.0 (ruleset scoundrel-1, deal deal-v1, engine 1.0.0)``: the release, and what it verifies with."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    import scoundrel

    try:
        release = installed("scoundrel-referee")
    except PackageNotFoundError:  # run from a checkout that was never installed
        release = "(not installed)"
    return (f"scoundrel {release} (ruleset {scoundrel.RULESET}, deal {scoundrel.DEAL_VERSION}, "
            f"engine {scoundrel.ENGINE_VERSION})")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scoundrel",
        description="Scoundrel Referee: deal, verify and replay games of the ruleset scoundrel-1.",
    )
    parser.add_argument("--version", action="version", version=version(),
                        help="print the release and the ruleset, deal and engine it verifies with, then exit")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", required=True, dest="command")
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def failure_message(error: BaseException, args: argparse.Namespace | None) -> str | None:
    """One line for an error from outside the program; None for anything else (a bug: keep its traceback)."""
    from settings import Settings, SettingsError

    if isinstance(error, SettingsError):
        return str(error)
    redis = sys.modules.get("redis")  # only a command that loaded redis can fail with its errors
    if redis is not None and isinstance(error, redis.exceptions.ConnectionError | redis.exceptions.TimeoutError):
        settings = Settings.from_env(getattr(args, "data_dir", None))
        return (f"cannot reach Redis ({settings.data_redis_source}): {error} "
                f"Start it (scoundrel up), or point REDIS_URL, SCOUNDREL_SENTINELS or --data-dir at a running one.")
    if redis is not None:
        from store.base import refuses_writes

        if refuses_writes(error):
            settings = Settings.from_env(getattr(args, "data_dir", None))
            return (f"Redis ({settings.data_redis_source}) refuses writes: {str(error).splitlines()[0]} "
                    f"Nothing was changed; free its memory (maxmemory), or point REDIS_URL at a primary.")
    sqlalchemy = sys.modules.get("sqlalchemy")  # likewise: only a command that opened the archive
    if sqlalchemy is not None and isinstance(error, sqlalchemy.exc.OperationalError):
        url = sqlalchemy.make_url(Settings.from_env(getattr(args, "data_dir", None)).resolved_archive_url())
        cause = str(error.orig or error).strip().splitlines()[0]
        return (f"cannot reach the archive ({url.render_as_string(hide_password=True)}): {cause}. "
                f"Start it, or point SCOUNDREL_ARCHIVE_URL at a running one.")
    if isinstance(error, OSError) and error.strerror:
        return f"{error.filename}: {error.strerror}" if error.filename else error.strerror
    return None


def main(argv: list[str] | None = None) -> int:
    args = None
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`scoundrel verify big.jsonl | head`): stop quietly,
        # and keep Python from complaining again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as error:
        message = failure_message(error, args)
        if message is None:
            raise
        command = f"scoundrel {args.command}" if args else "scoundrel"
        print(f"{command}: {message}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
