"""Failures that are not the client's fault, answered without internals.

Redis being unreachable is a 503 with ``Retry-After`` (the client should try
again), never a 500 and never a hang: the Redis clients time out first. Any
other unexpected exception is a 500 in the same JSON shape as every error,
with the request id to quote and nothing of the exception itself (the log
has the traceback under that id).
"""

import logging

from flask import Flask, g, jsonify
from werkzeug.exceptions import InternalServerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

RETRY_AFTER_SECONDS = 5

log = logging.getLogger(__name__)


def _storage_unavailable(error):
    log.warning("redis unavailable: %s", error)
    response = jsonify(
        code=503, status="Service Unavailable", message="Storage is unavailable; try again shortly."
    )
    response.status_code = 503
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _internal_error(error):
    log.error("unhandled exception", exc_info=getattr(error, "original_exception", None) or error,
              extra={"request_id": g.get("request_id", "")})
    response = jsonify(code=500, status="Internal Server Error",
                       message=f"Something went wrong on our side (request {g.get('request_id', '')}).")
    response.status_code = 500
    return response


def init_app(app: Flask) -> None:
    app.register_error_handler(InternalServerError, _internal_error)
    app.register_error_handler(RedisConnectionError, _storage_unavailable)
    app.register_error_handler(RedisTimeoutError, _storage_unavailable)
