"""``scoundrel api``: the HTTP API under gunicorn, a production WSGI server."""

import argparse
import os
import sys

import log_lines
from settings import Settings

from .connecting import add_data_dir_option, settings_for
from .quick_exit import exit_now


def _freeze_startup_objects(worker) -> None:
    """Leave the app's start-up objects out of every later garbage collection.

    A full collection walks every object the process holds, and the loaded
    app is most of them: frozen, they no longer make a request that happens
    to trigger one several milliseconds slower (the rankings benchmark's p99).
    """
    import gc

    gc.freeze()


def port_number(text: str) -> int:
    """A TCP port, 1-65535 (argparse type)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1-65535, not {port}")
    return port


def gunicorn_options(bind: str, settings: Settings) -> dict:
    """Server settings: the SCOUNDREL_API_* variables, documented in docs/configuration.md."""
    return {
        "bind": bind,
        "workers": settings.api_workers,
        # gevent: a connection waiting on its client holds no thread (service.server_refusals says why)
        "worker_class": "service.server_refusals.JsonRefusalsWorker",
        "worker_connections": settings.api_connections,
        "timeout": 30,
        # An idle connection kept longer than a load balancer's or a client's own idle timeout
        # (commonly 60 s): a server that closes first races the next request sent on it, which
        # then fails with no answer. It is also how long a request's line and headers may take to come.
        "keepalive": 75,
        "graceful_timeout": 5,
        "proc_name": "scoundrel-api",
        "post_worker_init": _freeze_startup_objects,
        "control_socket_disable": True,  # gunicorn 27: one shared socket path would clash between instances
        "logconfig_dict": _logging(settings.log_level, settings.log_format, settings.access_log),
    }


def _logging(level: str, log_format: str, access_log: str) -> dict:
    """gunicorn's own logs and the app's on stderr, as ``log_lines`` formats them.

    The app logs each request once (``service.requests``); gunicorn's access
    log, the same requests again, is written only when SCOUNDREL_ACCESS_LOG
    names where to ("-": stderr). gunicorn ignores its ``accesslog`` option
    once it is given a logging configuration, so it is a handler here.
    """
    handlers: dict = {"stderr": {"class": "logging.StreamHandler", "formatter": "lines", "stream": "ext://sys.stderr"}}
    access: dict = {"handlers": [], "level": "WARNING", "propagate": False}  # gunicorn logs access at INFO: none
    if access_log:
        handlers["access"] = (handlers["stderr"] if access_log == "-"
                              else {"class": "logging.FileHandler", "formatter": "lines", "filename": access_log})
        access = {"handlers": ["access"], "level": "INFO", "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"lines": {"()": log_lines.line_formatter, "kind": log_format}},
        "handlers": handlers,
        "root": {"handlers": ["stderr"], "level": level.upper()},
        "loggers": {
            "gunicorn.error": {"handlers": ["stderr"], "level": level.upper(), "propagate": False},
            "gunicorn.access": access,
            **{name: {"level": "WARNING"} for name in log_lines.QUIET},
        },
    }


def run(args) -> int:
    # imported here: other commands don't need them
    from gunicorn.app.base import BaseApplication
    from redis.exceptions import RedisError

    from store import Database
    from store.base import mark_service
    from store.runs import make_whole
    from worker.registry import JOBS

    settings = settings_for(args, default_redis=True)
    if settings.api_threads:
        print("scoundrel api: SCOUNDREL_API_THREADS has no effect: each API process serves up to "
              f"SCOUNDREL_API_CONNECTIONS ({settings.api_connections}) connections, one greenlet each",
              file=sys.stderr)
    db = Database.from_settings(settings, JOBS)
    try:
        # The archive's schema, once, before gunicorn starts its workers (the workers do the same).
        db.archive.upgrade()
        # The service's mark on its Redis, for the operator commands. A Redis down now is no reason
        # not to start (the API answers 503 until it is back); the workers set the mark when they reach it.
        mark_service(db)
        make_whole(db)  # once: a submission asks the archive until it is
    except RedisError:
        pass
    finally:
        db.close()
    # ``scoundrel up`` binds the port itself (so it knows the API answering there is its own)
    # and hands the listening socket down as --fd.
    bind = f"fd://{args.fd}" if args.fd is not None else f"{args.host}:{args.port}"

    class Gunicorn(BaseApplication):
        """gunicorn with its options given here instead of on its own command line."""

        def load_config(self):
            for name, value in gunicorn_options(bind, settings).items():
                self.cfg.set(name, value)

        def load(self):
            from service.app import create_app

            return create_app(settings)

    master = os.getpid()
    try:
        Gunicorn().run()
    except SystemExit as stopped:
        if os.getpid() != master:  # a worker gunicorn forked: it leaves the way gunicorn has it leave
            raise
        exit_now(stopped.code if isinstance(stopped.code, int) else 1)
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("api", help="run the HTTP API (gunicorn)",
                                   description="Run the HTTP API under gunicorn. "
                                               "Redis: REDIS_URL, else the one scoundrel up runs.")
    settings = Settings.from_env()
    parser.add_argument("--host", default=settings.host,
                        help="address to listen on (default: %(default)s, from SCOUNDREL_HOST)")
    parser.add_argument("--port", type=port_number, default=settings.port,
                        help="port to listen on (default: %(default)s, from SCOUNDREL_PORT)")
    parser.add_argument("--fd", type=int, help=argparse.SUPPRESS)
    add_data_dir_option(parser)
    parser.set_defaults(func=run)
