"""Errors answered in one place: what the store refused, and failures that are not the client's fault.

Each store error (``store.errors``) has its HTTP status in ``STORE_ERROR_STATUS``
and answers in the one error shape with the sentence it carries (and, for a
422, its field errors), so a view just lets it propagate.

Redis (or the archive, for a run that lives there) being unreachable is a
503 with ``Retry-After`` (the client should try again), never a 500 and
never a hang: the Redis clients time out first. Redis answering but
refusing writes (full, read-only, a failed save: ``store.errors.refuses_writes``)
is the same 503: nothing of the request was written. Any other unexpected
exception is a 500 in the same JSON shape as every error, with the request
id to quote and nothing of the exception itself (the log has the traceback
under that id).
"""

import logging
from collections.abc import Callable
from typing import NoReturn

import flask_smorest
from flask import Flask, current_app, g, jsonify
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError
from sqlalchemy.exc import OperationalError as ArchiveUnavailable
from werkzeug.exceptions import HTTPException, InternalServerError

from store.errors import (
    AlreadyResolved,
    DealTaken,
    FlagDismissed,
    GameInPlay,
    GameMoved,
    GameOver,
    IdempotencyConflict,
    NameTaken,
    NoSuchDispute,
    NoSuchFlag,
    NoSuchGame,
    NoSuchRun,
    NotInError,
    NotVoid,
    RunPending,
    SealedDailyStarted,
    SealedDayOver,
    StoreError,
    first_line,
    refuses_writes,
)

RETRY_AFTER_SECONDS = 5
UNAVAILABLE = "Storage is unavailable; try again shortly."
REFUSING_WRITES = "Storage is not taking writes just now; nothing was changed. Try again shortly."

log = logging.getLogger(__name__)

STORE_ERROR_STATUS: dict[type[StoreError], int] = {
    NoSuchRun: 404,
    NoSuchDispute: 404,
    NoSuchGame: 404,
    NoSuchFlag: 404,
    GameMoved: 409,
    GameOver: 409,
    SealedDailyStarted: 409,
    SealedDayOver: 409,
    GameInPlay: 409,
    DealTaken: 409,
    NameTaken: 409,
    RunPending: 409,
    NotVoid: 409,
    NotInError: 409,
    AlreadyResolved: 409,
    FlagDismissed: 409,
    IdempotencyConflict: 422,
}

# flask-smorest's abort, typed (the library ships no types): it raises the
# HTTPException that answers the request and never returns.
abort: Callable[..., NoReturn] = flask_smorest.abort


def _store_refused(error: StoreError):
    """The store error as flask-smorest answers an ``abort``: the same JSON shape as every error."""
    status = next(STORE_ERROR_STATUS[kind] for kind in type(error).__mro__ if kind in STORE_ERROR_STATUS)
    try:
        abort(status, message=error.message, **({"errors": error.fields} if error.fields else {}),
              **({"extra": error.extra} if error.extra else {}))
    except HTTPException as refusal:
        return current_app.handle_http_exception(refusal)


def _storage_unavailable(error, message: str = UNAVAILABLE):
    log.warning("storage unavailable: %s", first_line(error))
    response = jsonify(code=503, status="Service Unavailable", message=message)
    response.status_code = 503
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _redis_refused(error: ResponseError):
    """Redis answered with an error: a 503 if it refuses writes, else a bug (500)."""
    if refuses_writes(error):
        return _storage_unavailable(error, REFUSING_WRITES)
    return _internal_error(error)


def _internal_error(error):
    log.error("unhandled exception", exc_info=getattr(error, "original_exception", None) or error,
              extra={"request_id": g.get("request_id", "")})
    response = jsonify(code=500, status="Internal Server Error",
                       message=f"Something went wrong on our side (request {g.get('request_id', '')}).")
    response.status_code = 500
    return response


def init_app(app: Flask) -> None:
    app.register_error_handler(StoreError, _store_refused)
    app.register_error_handler(InternalServerError, _internal_error)
    app.register_error_handler(RedisConnectionError, _storage_unavailable)
    app.register_error_handler(RedisTimeoutError, _storage_unavailable)
    app.register_error_handler(ResponseError, _redis_refused)
    app.register_error_handler(ArchiveUnavailable, _storage_unavailable)
