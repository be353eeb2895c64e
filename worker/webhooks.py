"""The webhook jobs: the outbox's events made bodies and queued (``drain_webhooks``), and one
signed delivery attempt (``deliver_webhook``).

A body is made once, when its event leaves the outbox: the run in it as
``GET /v1/runs/<id>`` shows it to anyone (``schemas.runs.RunSchema``, a
sealed daily run's seed and moves hidden while its day is on:
``domain.sealing.shown``), and the same bytes go to every webhook and at
every attempt. Each attempt is signed with its webhook's secret, read when
it is sent. An answer outside 2xx, or none within ``webhook_timeout``
seconds, is a failure: the next attempt follows after the next of
``webhook_retries``' delays, until they run out (``store.webhooks.hooks``).
"""

import hashlib
import hmac
import http.client
import json
import logging
import time
import urllib.error
import urllib.request
from functools import partial

import scoundrel
import webhook_targets
from domain import sealing
from domain.boards import LADDER_GAMES, BoardId, Order, boards_of
from domain.errors import NoSuchRun
from schemas.runs import RunSchema
from store import Database, get_run
from store.base import iso_time, now_ms, packed_ladder_total
from store.boards import ranking
from store.tournaments import seal_revealed
from store.webhooks import (
    RECORD_BEATEN,
    Attempt,
    Delivery,
    drain_outbox,
    drain_starts,
    record_attempt,
    release_due,
    wake_if_waiting,
    webhook_target,
)

from .process import database, settings

SIGNATURE = "X-Scoundrel-Signature"  # sha256=<hex HMAC-SHA256 of the body under the webhook's secret>
EVENT = "X-Scoundrel-Event"
DELIVERY = "X-Scoundrel-Delivery"  # the event's id, as in its body: the same at every attempt
ATTEMPT = "X-Scoundrel-Attempt"
MOST_ERROR = 200  # characters of a failure's reason kept in the deliveries

RUN_SCHEMA = RunSchema()

log = logging.getLogger("worker.webhooks")


def signature(secret: str, body: bytes) -> str:
    """The signature header's value: what a receiver recomputes from the raw body and its secret."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def _holder(board: BoardId, player: str, rank: str) -> dict:
    """A player's first place as a board ranks it: a score, or the ladder's mean."""
    if board.board.order is Order.LATEST:
        return {"player": player, "mean": round(packed_ladder_total(float(rank)) / LADDER_GAMES, 2)}
    return {"player": player, "score": ranking(board).packing.score(float(rank))}


def render(db: Database, event: dict, event_id: str) -> str | None:
    """An outbox event's body (compact JSON), or None when its run is gone."""
    body = {"event": event["event"], "id": event_id, "created_at": iso_time(event["at_ms"]), **event.get("fields", {})}
    if "run_id" in event:
        try:
            run = get_run(db, event["run_id"])
        except NoSuchRun:
            return None
        body["run"] = RUN_SCHEMA.dump(sealing.shown(run, partial(seal_revealed, db)))
        if event["event"] == RECORD_BEATEN:
            board = boards_of(run)[int(event["board"]) - 1]  # the script's index: 1 for the first board
            body |= {"board": {"kind": board.board.kind, "path": board.api},
                     "previous": _holder(board, event["previous"], event["previous_rank"]),
                     "holder": _holder(board, run.player, event["rank"])}
    return json.dumps(body, separators=(",", ":"))


def drain_events(db: Database, timeout: float) -> int:
    """Queue the deliveries of the events in the outbox (``store.webhooks.hooks.drain_outbox``): how many."""
    return drain_outbox(db, lambda event, event_id: render(db, event, event_id), timeout)


def after_verdicts(db: Database) -> None:
    """What a verification job does for the webhooks once its verdicts are written: the events they
    recorded are drained by a job of their own on the webhook queue (``store.webhooks.hooks.wake``), so
    making their bodies never holds up a verification. A failure is logged, never raised into the
    verification: the sweeper drains the events."""
    try:
        wake_if_waiting(db)
    except Exception:
        log.warning("webhook events left in the outbox for the sweeper", exc_info=True)


def sweep_events(db: Database, timeout: float) -> None:
    """The sweeper's share: the retries now due queued, and any events left in the outbox (by a
    process that died before draining it). A failure is logged, for the next sweep to try again."""
    try:
        release_due(db)
        drain_events(db, timeout)
    except Exception:
        log.warning("webhook events left in the outbox for the next sweep", exc_info=True)


def drain_webhooks() -> int:
    """The job draining the outbox, queued with the events a verification job, a void or ``emit`` recorded."""
    db = database()
    drain_starts(db)
    return drain_events(db, settings().webhook_timeout)


class _Unredirected(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer outside 2xx like any other: not followed (a POST followed as a GET
    would deliver nothing)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None




def _reason(failure: Exception) -> str:
    """Why no answer came, in a few words: never the URL."""
    reason = failure.reason if isinstance(failure, urllib.error.URLError) else failure
    if isinstance(reason, TimeoutError):
        return "timeout"
    if isinstance(reason, str):
        return reason[:MOST_ERROR]
    return f"{type(reason).__name__}: {reason}"[:MOST_ERROR]


def post(url: str, secret: str, delivery: Delivery, timeout: float, allowed: tuple = ()) -> Attempt:
    """One attempt: the body POSTed, signed, only to an address a webhook may reach (``webhook_targets``,
    ``allowed`` its SCOUNDREL_WEBHOOK_ALLOW); its status, or why there was none."""
    body = delivery.body.encode()
    try:
        url = webhook_targets.parse(url).text
    except webhook_targets.UnusableUrl as unusable:
        return Attempt(None, f"not delivered: {unusable}"[:MOST_ERROR], 0, now_ms())
    opener = urllib.request.build_opener(_Unredirected, *webhook_targets.guarded_handlers(allowed))
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json", "User-Agent": f"scoundrel-referee/{scoundrel.ENGINE_VERSION}",
        EVENT: delivery.event, DELIVERY: delivery.event_id, ATTEMPT: str(delivery.attempt),
        SIGNATURE: signature(secret, body)})
    at, started = now_ms(), time.monotonic()
    status, error = None, None
    try:
        with opener.open(request, timeout=timeout) as response:
            status = response.status
    except urllib.error.HTTPError as refused:
        status = refused.code
        refused.close()
    except (urllib.error.URLError, OSError, http.client.HTTPException) as failure:
        error = _reason(failure)
    return Attempt(status, error, int((time.monotonic() - started) * 1000), at)


def deliver_webhook(hook_id: str, event: str, event_id: str, body: str, attempt: int) -> str:
    """One delivery attempt of an event to a webhook; a failure schedules the next, while retries
    remain. 'delivered', 'retrying', 'failed', or 'gone' for a webhook deleted meanwhile."""
    db, config = database(), settings()
    target = webhook_target(db, hook_id)
    if target is None:
        return "gone"
    delivery = Delivery(hook_id, event, event_id, body, attempt)
    result = post(*target, delivery, config.webhook_timeout, config.webhook_allow)
    delays = config.webhook_retries
    retry_in = None if result.delivered or attempt > len(delays) else delays[attempt - 1]
    record_attempt(db, delivery, result, retry_in, config.webhook_timeout)
    context = {"webhook_id": hook_id, "event": event, "event_id": event_id, "attempt": attempt,
               "status": result.status, "error": result.error, "duration_ms": result.duration_ms}
    if result.delivered:
        log.info("webhook delivered", extra=context)
        return "delivered"
    if retry_in is not None:
        log.warning("webhook delivery failed; retrying", extra={**context, "retry_in": retry_in})
        return "retrying"
    log.warning("webhook delivery failed for good", extra=context)
    return "failed"
