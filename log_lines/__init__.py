"""Logs on stderr: one JSON object per line, or a short readable line in a terminal.

Every long-running process writes its log this way: the API under gunicorn
(``cli.api``) and the workers (``worker.runner``), so this package is apart
from both and imports only the standard library.

Log aggregators parse a JSON line without guessing at its format, and a run
is followed from the request that submitted it to the job that verified it
by its ``request_id``. A person watching ``scoundrel up`` in a terminal reads
``14:03:07 INFO  service.requests  request  method=POST path=/v1/runs
status=202 …`` instead. SCOUNDREL_LOG_FORMAT picks: ``json``, ``text``, or
``auto`` (text when stderr is a terminal). Fields given as ``extra={...}``
become keys of the object, or ``key=value`` pairs of the line.
"""

import json
import logging
import sys
from datetime import UTC, datetime

# Loggers of libraries that say at INFO what no operator needs each time a process starts, kept to warnings:
# Alembic names each of its plugins as it sets it up (its migrations, which do matter, are on another logger).
QUIET = ("alembic.runtime.plugins",)

# The attributes every LogRecord has; anything else on a record came from ``extra``.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}


def _fields(record: logging.LogRecord) -> dict:
    return {name: value for name, value in vars(record).items() if name not in _STANDARD}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(_fields(record))
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


class TextFormatter(logging.Formatter):
    """``HH:MM:SS LEVEL logger  message  key=value …`` in local time, empty fields left out;
    a request reads ``POST /v1/runs 202 3.1 ms`` first."""

    def format(self, record: logging.LogRecord) -> str:
        clock = datetime.fromtimestamp(record.created).strftime("%H:%M:%S")
        fields = {name: value for name, value in _fields(record).items() if value not in (None, "")}
        message = record.getMessage()
        if {"method", "path", "status", "duration_ms"} <= fields.keys():
            message = (f"{fields.pop('method')} {fields.pop('path')} {fields.pop('status')} "
                       f"{fields.pop('duration_ms')} ms")
        pairs = " ".join(f"{name}={value}" for name, value in fields.items())
        line = f"{clock} {record.levelname:<7} {record.name}  {message}" + (f"  {pairs}" if pairs else "")
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


def line_formatter(kind: str = "auto") -> logging.Formatter:
    """The formatter SCOUNDREL_LOG_FORMAT asks for (``kind``); ``auto`` looks at stderr."""
    text = kind == "text" or (kind == "auto" and sys.stderr.isatty())
    return TextFormatter() if text else JsonFormatter()


def configure(level: str = "INFO", kind: str = "auto") -> None:
    """Send every log record of this process to stderr, formatted as ``kind`` asks (idempotent)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(line_formatter(kind))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    # RQ adds a coloured handler of its own unless its logger already has one.
    for name in ("rq.worker", "rq.job", "rq.queue", "rq.scheduler"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.propagate = False
        logger.setLevel(logging.WARNING)
    for name in QUIET:
        logging.getLogger(name).setLevel(logging.WARNING)
