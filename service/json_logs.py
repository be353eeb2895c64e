"""Structured logs: one JSON object per line, on stderr, for the API and the workers.

Log aggregators parse a line without guessing at its format, and a run is
followed from the request that submitted it to the job that verified it by
its ``request_id``. Fields given as ``extra={...}`` become keys of the object.
"""

import json
import logging
import sys
from datetime import datetime, timezone

# The attributes every LogRecord has; anything else on a record came from ``extra``.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, tz=timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update((name, value) for name, value in vars(record).items() if name not in _STANDARD)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


def configure(level: str = "INFO") -> None:
    """Send every log record of this process to stderr as JSON lines (idempotent)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    # RQ adds a coloured handler of its own unless its logger already has one.
    for name in ("rq.worker", "rq.job", "rq.queue", "rq.scheduler"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.propagate = False
        logger.setLevel(logging.WARNING)
