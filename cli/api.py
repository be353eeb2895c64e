"""``scoundrel api``: the HTTP API under gunicorn, a production WSGI server."""

from settings import Settings


def _freeze_startup_objects(worker) -> None:
    """Leave the app's start-up objects out of every later garbage collection.

    A full collection walks every object the process holds, and the loaded
    app is most of them: frozen, they no longer make a request that happens
    to trigger one several milliseconds slower (the rankings benchmark's p99).
    """
    import gc

    gc.freeze()


def gunicorn_options(host: str, port: int) -> dict:
    """Server settings: the SCOUNDREL_API_* variables, documented in the README."""
    settings = Settings.from_env()
    return {
        "bind": f"{host}:{port}",
        "workers": settings.api_workers,
        "threads": settings.api_threads,
        "worker_class": "gthread",
        "timeout": 30,
        "graceful_timeout": 5,
        "accesslog": settings.access_log or None,
        "proc_name": "scoundrel-api",
        "post_worker_init": _freeze_startup_objects,
        "control_socket_disable": True,  # gunicorn 27: one shared socket path would clash between instances
        "logconfig_dict": _json_logging(settings.log_level),
    }


def _json_logging(level: str) -> dict:
    """gunicorn's own logs and the app's as JSON lines on stderr (``service.json_logs``)."""
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "service.json_logs.JsonFormatter"}},
        "handlers": {"json": handler},
        "root": {"handlers": ["json"], "level": level.upper()},
        "loggers": {
            "gunicorn.error": {"handlers": ["json"], "level": "INFO", "propagate": False},
            "gunicorn.access": {"handlers": ["json"], "level": "INFO", "propagate": False},
        },
    }


def run(args) -> int:
    from gunicorn.app.base import BaseApplication  # imported here: other commands don't need it

    from store.archive import Archive

    # The archive's schema, once, before gunicorn starts its workers (the workers do the same).
    Archive(Settings.from_env().resolved_archive_url()).upgrade()

    class Gunicorn(BaseApplication):
        """gunicorn with its options given here instead of on its own command line."""

        def load_config(self):
            for name, value in gunicorn_options(args.host, args.port).items():
                self.cfg.set(name, value)

        def load(self):
            from service.app import create_app

            return create_app()

    Gunicorn().run()
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("api", help="run the HTTP API (gunicorn)",
                                   description="Run the HTTP API under gunicorn. Redis: REDIS_URL.")
    settings = Settings.from_env()
    parser.add_argument("--host", default=settings.host)
    parser.add_argument("--port", type=int, default=settings.port)
    parser.set_defaults(func=run)
