"""Failures that are not the client's fault, answered without internals.

Redis being unreachable is a 503 with ``Retry-After`` (the client should try
again), never a 500 and never a hang: the Redis clients time out first.
"""

import logging

from flask import Flask, jsonify
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


def init_app(app: Flask) -> None:
    app.register_error_handler(RedisConnectionError, _storage_unavailable)
    app.register_error_handler(RedisTimeoutError, _storage_unavailable)
