"""Errors answered in one place: what the service refused by its rules, and failures that are not the client's fault.

Each refusal (``domain.errors``: what the store or the dealer refused) has its answer in ``ANSWERS``: its HTTP
status, and what its JSON adds to the sentence the error carries (a 422's
field errors, a 409's ``game_id`` or ``moves``) from the error's data. It
answers in the one error shape, so a view just lets it propagate.

Redis (or the archive, for a run that lives there) being unreachable is a
503 with ``Retry-After`` (the client should try again), never a 500 and
never a hang: the Redis clients time out first. Redis answering but
refusing writes (full, read-only, a failed save: ``store.base.errors.refuses_writes``)
is the same 503: nothing of the request was written. So is Redis failing
over behind Sentinel (the master lost and no replica promoted yet: a
connection error; the old master demoted: read-only), and a new run its
replicas did not acknowledge in time (``store.base.errors.NotReplicated``, with
``SCOUNDREL_WAIT_REPLICAS``). Any other unexpected
exception is a 500 in the same JSON shape as every error, with the request
id to quote and nothing of the exception itself (the log has the traceback
under that id).
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

import flask_smorest
from flask import Flask, current_app, g, jsonify
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError
from sqlalchemy.exc import OperationalError as ArchiveUnavailable
from werkzeug.exceptions import HTTPException, InternalServerError

from domain.errors import (
    AccountBusy,
    AlreadyResolved,
    AlreadyVoid,
    DealTaken,
    DeliveryNotKept,
    FlagDismissed,
    FollowingFull,
    GameInPlay,
    GameMoved,
    GameOver,
    IdempotencyConflict,
    MovesRefused,
    NameNotAllowed,
    NameResting,
    NameTaken,
    NoSuchDelivery,
    NoSuchDispute,
    NoSuchFlag,
    NoSuchGame,
    NoSuchReport,
    NoSuchRun,
    NoSuchWebhook,
    NotInError,
    NotSanctioned,
    NotVoid,
    PlayerBanned,
    Refusal,
    ReportClosed,
    ReportOpen,
    ReportsLimited,
    RunPending,
    SealedDailyStarted,
    SealedDayOver,
)
from domain.rewards import AlreadyClaimed, NoSuchReward
from domain.schedules import NoSuchSchedule
from domain.tournaments import NoSuchTournament, TournamentRefusal
from store.base import NotReplicated, first_line, iso_time, refuses_writes

RETRY_AFTER_SECONDS = 5
UNAVAILABLE = "Storage is unavailable; try again shortly."
REFUSING_WRITES = "Storage is not taking writes just now; nothing was changed. Try again shortly."

# RFC 9112: a transfer coding the server does not read is a 501. ``chunked`` alone is the one read here;
# ``gzip, chunked`` would be de-chunked and its gzip ignored (``service.security`` refuses it, and
# ``service.server_refusals`` leaves its body unread).
TRANSFER_CODING_REFUSED = "The request's Transfer-Encoding is not one this service reads (chunked alone)."

log = logging.getLogger(__name__)


def reads_transfer_encoding(value: str) -> bool:
    """Whether the service reads a body sent with ``Transfer-Encoding: value``: ``chunked``, and nothing else."""
    return [coding.strip(" \t").lower() for coding in value.split(",")] == ["chunked"]


def _no_details(error: Any) -> dict[str, Any]:
    """A refusal whose JSON is its message alone."""
    return {}


@dataclass(frozen=True)
class Answer:
    """How the API answers one kind of refusal: its status, and the keys its JSON adds to the message
    (``errors``: field errors; ``extra``: keys of its own), read from the error's data."""

    status: int
    details: Callable[[Any], dict[str, Any]] = _no_details


def _moves_refused(refused: MovesRefused) -> dict[str, Any]:
    error = refused.error
    return {"errors": {"moves": {error["move_index"]: [error["message"]]}}, "extra": {"error": error}}


ANSWERS: dict[type[Exception], Answer] = {
    NoSuchRun: Answer(404),
    NoSuchDispute: Answer(404),
    NoSuchGame: Answer(404),
    NoSuchFlag: Answer(404),
    NoSuchWebhook: Answer(404),
    NoSuchDelivery: Answer(404),
    DeliveryNotKept: Answer(409, lambda refused: {"extra": {"reason": refused.reason}}),
    GameMoved: Answer(409, lambda moved: {"extra": {"moves": moved.count}}),
    GameOver: Answer(409),
    SealedDailyStarted: Answer(409, lambda started: {"extra": {"game_id": started.game_id}}),
    SealedDayOver: Answer(409, lambda over: {"extra": {"reason": over.reason, "ruling": over.ruling}}),
    GameInPlay: Answer(409, lambda in_play: {"extra": {"game_id": in_play.game_id}}),
    NoSuchTournament: Answer(404),
    TournamentRefusal: Answer(409, lambda refused: {"extra": {
        "reason": refused.reason, **({"game_id": refused.game_id} if refused.game_id else {})}}),
    DealTaken: Answer(409),
    NoSuchSchedule: Answer(404),
    NoSuchReward: Answer(404),
    AlreadyClaimed: Answer(409, lambda claimed: {"extra": {"reason": claimed.reason}}),
    NameResting: Answer(409, lambda resting: {"extra": {"reason": "name_resting",
                                                        "available_at": iso_time(resting.until_ms)}}),
    NameTaken: Answer(409),
    NameNotAllowed: Answer(422, lambda refused: {"errors": {"name": [refused.message]},
                                                 "extra": {"reason": refused.reason}}),
    PlayerBanned: Answer(403, lambda banned: {"extra": {"reason": banned.reason,
                                                        "until": iso_time(banned.until_ms)}}),
    NotSanctioned: Answer(409),
    NoSuchReport: Answer(404),
    ReportOpen: Answer(409, lambda open_: {"extra": {"report_id": open_.report_id}}),
    ReportClosed: Answer(409),
    ReportsLimited: Answer(429, lambda limited: {"extra": {"retry_at": iso_time(limited.retry_ms)}}),
    AccountBusy: Answer(409),
    RunPending: Answer(409),
    NotVoid: Answer(409),
    NotInError: Answer(409),
    AlreadyResolved: Answer(409),
    AlreadyVoid: Answer(409),
    FlagDismissed: Answer(409),
    FollowingFull: Answer(409, lambda full: {"extra": {"most": full.most}}),
    IdempotencyConflict: Answer(422, lambda _: {"errors": {"Idempotency-Key": ["Already used for a different "
                                                                                "submission."]}}),
    MovesRefused: Answer(422, _moves_refused),
}

# flask-smorest's abort, typed (the library ships no types): it raises the
# HTTPException that answers the request and never returns.
abort: Callable[..., NoReturn] = flask_smorest.abort


def _refused(error: Refusal | MovesRefused):
    """The refusal as flask-smorest answers an ``abort``: the same JSON shape as every error."""
    answer = next(ANSWERS[kind] for kind in type(error).__mro__ if kind in ANSWERS)
    try:
        abort(answer.status, message=str(error), **answer.details(error))
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
    app.register_error_handler(Refusal, _refused)
    app.register_error_handler(MovesRefused, _refused)
    app.register_error_handler(InternalServerError, _internal_error)
    app.register_error_handler(RedisConnectionError, _storage_unavailable)
    app.register_error_handler(RedisTimeoutError, _storage_unavailable)
    app.register_error_handler(ResponseError, _redis_refused)
    app.register_error_handler(NotReplicated, _storage_unavailable)
    app.register_error_handler(ArchiveUnavailable, _storage_unavailable)
