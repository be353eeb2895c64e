"""Webhooks: endpoints moderators register, told of events by signed POSTs.

An event is recorded in the outbox (``keys.webhook_outbox``) in the step
that makes it true (``domain.events`` names every event): a verdict's
``run.verified`` and ``record.beaten`` by ``record_verdicts``, a void's
``run.voided`` by ``resolve_dispute`` (their scripts, ``lua/_events.lua``,
given the names by their wrappers), any other by ``emit``. Draining the
outbox (``drain_outbox``: a job of its own on the webhook queue, which
the verification job, the void and ``emit`` queue, and the workers'
sweeper) makes each event one delivery job per webhook that takes it, on
the webhook queue. The outbox is data and the queue may be on a Redis of
its own (``db.queue_redis``), so nothing is in one MULTI with both; each
step is written before the step that forgets what it needs:

- ``emit`` records the event, then queues a drain job: a wake lost between
  the two leaves the event in the outbox, which the sweeper drains.
- A drain queues a batch's delivery jobs, then takes the batch out of its
  outbox: a drain stopped between the two leaves the batch there, queued
  again by the next drain (the same event ids: receivers tell a repeat).
- A delivery job posts the event's body, signed with its webhook's secret;
  a failed attempt schedules the next in RQ's scheduled registry of the
  webhook queue, then the attempt is recorded (``record_attempt``): a job
  stopped between the two has its retry, with the attempt unrecorded.

``release_due`` queues the retries whose time has come: the workers'
sweeper calls it (RQ's own scheduler is a process forked from the worker,
which the workers do not run). So an event is delivered at least once,
until its retries run out.

A webhook's secret is shown once, when it is registered, and kept only
here: no view of a webhook, no delivery record, no job and no log line
holds it.
"""

import hashlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from domain.errors import DeliveryNotKept, NoSuchDelivery, NoSuchWebhook
from domain.events import PLAYER_ERASED, named
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.listing import indexed_page
from store.queue.queues import (
    any_delivery_due,
    deliveries_queued,
    enqueue_deliveries,
    enqueue_drain,
    release_due_deliveries,
    schedule_delivery,
    scheduled_deliveries,
)
from store.webhooks import scripts

DELIVERIES_KEPT = 50  # delivery attempts kept per webhook, newest first
BODY_KEPT = 32_768  # bytes: an attempt keeps its body up to this size, to be sent again (``resend``)
BODY_NEVER_KEPT = frozenset((PLAYER_ERASED,))  # events whose bodies are not kept: an erasure's names whom it erased
DRAIN_BATCH = 100  # outbox events queued per MULTI of the queue's Redis
LOCK_MS = 30_000  # a drain's or a release's lock expires: a process dying with it holds nothing for long
SECRET_PREFIX = "whsec_"
ATTEMPTS_COUNTED = "webhook_attempts"  # the metrics' counters of attempts: ``<this>:delivered``, ``<this>:failed``
JOB_SLACK = 10  # seconds a delivery job may run beyond its attempt's timeout before RQ ends it


@dataclass(frozen=True)
class Webhook:
    """A registered endpoint: where to post, the events it takes, who registered it and when."""

    id: str
    url: str
    events: tuple[str, ...]
    moderator: str
    created_ms: int


def _webhook(fields: dict[str, str]) -> Webhook:
    return Webhook(fields["id"], fields["url"], tuple(fields["events"].split(",")), fields["moderator"],
                   int(fields["created_ms"]))


def create_webhook(db: Database, url: str, events: list[str], moderator: str) -> tuple[Webhook, str]:
    """Register ``url`` for ``events`` (names of ``domain.events.EVENTS``): the webhook and its signing secret."""
    hook = Webhook(secrets.token_hex(8), url, tuple(dict.fromkeys(events)), moderator, now_ms())
    secret = SECRET_PREFIX + secrets.token_urlsafe(32)
    with db.redis.pipeline(transaction=True) as pipe:
        pipe.hset(keys.webhook(hook.id), mapping={
            "id": hook.id, "url": hook.url, "events": ",".join(hook.events), "moderator": moderator,
            "created_ms": hook.created_ms, "secret": secret})
        pipe.zadd(keys.webhooks(), {hook.id: hook.created_ms})
        pipe.execute()
    return hook, secret


def get_webhook(db: Database, hook_id: str) -> Webhook:
    """A webhook. Raises ``NoSuchWebhook``."""
    fields = db.redis.hgetall(keys.webhook(hook_id))
    if not fields:
        raise NoSuchWebhook(hook_id)
    return _webhook(fields)


def webhook_page(db: Database, offset: int, limit: int) -> tuple[int, list[Webhook]]:
    """``(total, webhooks)``: a page of the webhooks, oldest first."""
    total, found = indexed_page(db, keys.webhooks(), keys.webhook, offset, limit)
    return total, [_webhook(fields) for fields in found]


def delete_webhook(db: Database, hook_id: str) -> None:
    """Forget a webhook and its deliveries; its deliveries still queued are dropped. Raises ``NoSuchWebhook``."""
    with db.redis.pipeline(transaction=True) as pipe:
        pipe.delete(keys.webhook(hook_id))
        pipe.delete(keys.webhook_deliveries(hook_id))
        pipe.zrem(keys.webhooks(), hook_id)
        deleted, *_ = pipe.execute()
    if not deleted:
        raise NoSuchWebhook(hook_id)


def webhook_target(db: Database, hook_id: str) -> tuple[str, str] | None:
    """``(url, secret)`` of a webhook, for its delivery job alone; None once it is deleted."""
    url, secret = db.redis.hmget(keys.webhook(hook_id), "url", "secret")
    return (url, secret) if url and secret else None


def _kept_attempts(db: Database, hook_id: str) -> list[dict]:
    """The webhook's kept attempts as stored (with their bodies), newest first. Raises ``NoSuchWebhook``."""
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.exists(keys.webhook(hook_id))
        pipe.lrange(keys.webhook_deliveries(hook_id), 0, DELIVERIES_KEPT - 1)
        exists, attempts = pipe.execute()
    if not exists:
        raise NoSuchWebhook(hook_id)
    return [json.loads(attempt) for attempt in attempts]


def deliveries(db: Database, hook_id: str) -> list[dict]:
    """The webhook's latest delivery attempts, newest first, each saying whether it can be sent again
    (``resendable``: its body was kept). Raises ``NoSuchWebhook``."""
    return [{**{name: value for name, value in attempt.items() if name != "body"}, "resendable": "body" in attempt}
            for attempt in _kept_attempts(db, hook_id)]


# Delivering

@dataclass(frozen=True)
class Delivery:
    """One event on its way to one webhook: its job's arguments, the same body at every attempt."""

    hook_id: str
    event: str
    event_id: str
    body: str
    attempt: int = 1

    def args(self) -> tuple:
        return self.hook_id, self.event, self.event_id, self.body, self.attempt

    @property
    def description(self) -> str:
        """Its job's description, as RQ lists it (RQ's own would spell out the whole body)."""
        return f"{self.event} {self.event_id} to webhook {self.hook_id}, attempt {self.attempt}"


@dataclass(frozen=True)
class Attempt:
    """How one attempt went: the HTTP status (None without an answer) or what went wrong, and how long it took."""

    status: int | None
    error: str | None
    duration_ms: int
    at_ms: int

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def _job_timeout(timeout: float) -> int:
    """Seconds a delivery job may run: its attempt's ``timeout`` and some slack, after which RQ ends it."""
    return int(timeout) + JOB_SLACK


def record_attempt(db: Database, delivery: Delivery, attempt: Attempt, retry_in: float | None,
                   timeout: float) -> None:
    """Given ``retry_in`` (seconds), schedule the next attempt then; then keep ``attempt`` in the
    webhook's deliveries (unless it was deleted meanwhile) and count it."""
    retry_ms = None if retry_in is None else attempt.at_ms + int(retry_in * 1000)
    entry = {"event": delivery.event, "event_id": delivery.event_id, "attempt": delivery.attempt,
             "status": attempt.status, "error": attempt.error, "duration_ms": attempt.duration_ms,
             "delivered": attempt.delivered, "at_ms": attempt.at_ms, "retry_at_ms": retry_ms,
             **({"body": delivery.body} if _keeps_body(delivery) else {})}
    if retry_in is not None:
        retry = Delivery(delivery.hook_id, delivery.event, delivery.event_id, delivery.body, delivery.attempt + 1)
        schedule_delivery(db, retry.args(), retry.description, _job_timeout(timeout), retry_in)
    scripts.record_delivery(db.redis, hook_id=delivery.hook_id, attempt=json.dumps(entry), kept=DELIVERIES_KEPT,
                            counter=f"{ATTEMPTS_COUNTED}:{'delivered' if attempt.delivered else 'failed'}")


def _keeps_body(delivery: Delivery) -> bool:
    """Whether an attempt of ``delivery`` keeps its body to be sent again: not over ``BODY_KEPT``, and not of
    an event in ``BODY_NEVER_KEPT``."""
    return delivery.event not in BODY_NEVER_KEPT and len(delivery.body.encode()) <= BODY_KEPT


def forget_bodies_naming(db: Database, player: str) -> None:
    """Drop the kept bodies that name ``player`` from every webhook's attempts (an erasure: a body kept to be
    sent again would outlive it); the attempts stay, no longer resendable. Each list is rewritten in a
    transaction watching it, so an attempt recorded meanwhile is neither lost nor left naming the player."""
    named_as = {json.dumps(player), json.dumps(player, ensure_ascii=False)}  # as a JSON body spells it

    def names_player(attempt: dict) -> bool:
        return any(name in attempt.get("body", "") for name in named_as)

    def scrub(key: str) -> Callable:
        def rewrite(pipe) -> None:
            attempts = [json.loads(attempt) for attempt in pipe.lrange(key, 0, -1)]
            if not any(names_player(attempt) for attempt in attempts):
                return
            pipe.multi()
            pipe.delete(key)
            pipe.rpush(key, *[json.dumps({field: value for field, value in attempt.items() if field != "body"}
                                         if names_player(attempt) else attempt) for attempt in attempts])
        return rewrite

    for hook_id in db.redis.zrange(keys.webhooks(), 0, -1):
        key = keys.webhook_deliveries(hook_id)
        db.redis.transaction(scrub(key), key)


def resend(db: Database, hook_id: str, event_id: str, timeout: float) -> Delivery:
    """Send event ``event_id`` to the webhook again, as a first attempt with its retries to come: its body
    as kept by its latest attempt (the same bytes, signed alike), queued as a drain queues a delivery. The
    delivery queued; ``NoSuchWebhook``, ``NoSuchDelivery`` (none kept of that event), or ``DeliveryNotKept``
    (its body was not kept: over ``BODY_KEPT``, of an event in ``BODY_NEVER_KEPT``, or naming a player since
    erased)."""
    kept = [attempt for attempt in _kept_attempts(db, hook_id) if attempt["event_id"] == event_id]
    if not kept:
        raise NoSuchDelivery(hook_id, event_id)
    if "body" not in kept[0]:
        raise DeliveryNotKept()
    delivery = Delivery(hook_id, kept[0]["event"], event_id, kept[0]["body"])
    enqueue_deliveries(db, [(delivery.args(), delivery.description)], _job_timeout(timeout))
    return delivery


@dataclass(frozen=True)
class Backlog:
    """What waits to be delivered: events not yet drained, jobs queued, retries not yet due."""

    outbox: int
    queued: int
    retries: int


def backlog(db: Database) -> Backlog:
    """The webhooks' backlog now (``/metrics``)."""
    return Backlog(_waiting(db), deliveries_queued(db), scheduled_deliveries(db))


def release_due(db: Database) -> int:
    """Queue the delivery retries whose time has come (RQ's scheduled registry of the webhook
    queue), as RQ's scheduler would: how many. One process at a time."""
    if not any_delivery_due(db):
        return 0
    if not db.redis.set(keys.webhook_release_lock(), "1", nx=True, px=LOCK_MS):
        return 0
    try:
        return release_due_deliveries(db)
    finally:
        db.redis.delete(keys.webhook_release_lock())


# Events

def _takers(db: Database) -> dict[str, list[str]]:
    """Each event's webhooks: event name → the ids of the webhooks that take it."""
    hook_ids = db.redis.zrange(keys.webhooks(), 0, -1)
    with db.redis.pipeline(transaction=False) as pipe:
        for hook_id in hook_ids:
            pipe.hget(keys.webhook(hook_id), "events")
        taken = pipe.execute()
    takers: dict[str, list[str]] = {}
    for hook_id, events in zip(hook_ids, taken, strict=True):
        for event in (events or "").split(","):
            takers.setdefault(event, []).append(hook_id)
    return takers


def event_id(recorded: str) -> str:
    """An event's id, from the event as the outbox holds it (an ``emit``'s id is in it): the same
    however often it is drained, so receivers can tell a repeat."""
    event = json.loads(recorded)
    return event.get("id") or hashlib.sha256(recorded.encode()).hexdigest()[:24]


Render = Callable[[dict, str], str | None]  # an outbox event and its id → the body to post, or None: none


def drain_outbox(db: Database, render: Render, timeout: float) -> int:
    """Queue a delivery of each event in the outbox to each webhook that takes it: how many.

    ``render`` makes an event's body (``worker.webhooks``): the same bytes go
    to every webhook and at every attempt. One process drains at a time and
    drains until the outbox is empty; another finding it busy leaves it
    that one (the sweeper drains what is left behind).
    """
    if not _waiting(db):
        return 0
    if not db.redis.set(keys.webhook_outbox_lock(), "1", nx=True, px=LOCK_MS):
        return 0
    queued = 0
    try:
        queued = _drain(db, keys.webhook_outbox(), render, timeout)
    finally:
        db.redis.delete(keys.webhook_outbox_lock())
    return queued


def _waiting(db: Database) -> int:
    """How many events the outbox holds."""
    return int(db.redis.llen(keys.webhook_outbox()))


def _drain(db: Database, outbox: str, render: Render, timeout: float) -> int:
    """Queue the deliveries of the events in one outbox until it is empty: how many."""
    queued = 0
    while recorded := db.redis.lrange(outbox, 0, DRAIN_BATCH - 1):
            takers = _takers(db)
            batch = []
            for text in recorded:
                event = json.loads(text)
                if not takers.get(event["event"]):
                    continue
                identity = event_id(text)
                body = render(event, identity)
                if body is not None:
                    batch += [Delivery(hook_id, event["event"], identity, body) for hook_id in takers[event["event"]]]
            enqueue_deliveries(db, [(delivery.args(), delivery.description) for delivery in batch],
                               _job_timeout(timeout))
            db.redis.ltrim(outbox, len(recorded), -1)  # after: a drain stopped before it queues the batch again
            queued += len(batch)
    return queued


def wake(db: Database) -> None:
    """Queue a job draining the outbox on the webhook queue, behind any verification: the events
    are delivered without waiting for the sweeper, and making their bodies holds up no verdict."""
    enqueue_drain(db)


def wake_if_waiting(db: Database) -> bool:
    """``wake`` if the outbox holds events (one Redis call when it holds none) and no drain job is
    queued that will take them (``drain_starts``): whether it did."""
    if not _waiting(db):
        return False
    if not db.redis.set(keys.webhook_drain_queued(), "1", nx=True, px=LOCK_MS):
        return False
    wake(db)
    return True


def drain_starts(db: Database) -> None:
    """A drain job starting: events recorded from now on need a job of their own (``wake_if_waiting``)."""
    db.redis.delete(keys.webhook_drain_queued())


def emit(db: Database, event: str, fields: dict, run_id: str | None = None) -> str | None:
    """Tell the webhooks that take ``event`` (a name of ``domain.events.EVENTS``, else ``ValueError``):
    its id, or None (nothing recorded) while no webhook is registered.

    Its body is ``{"event", "id", "created_at", **fields}``, with ``run``
    (the run ``run_id`` names, as ``GET /v1/runs/<id>`` shows it) if given.
    The event is recorded, then a job is queued to drain it (a wake lost
    between the two leaves it to the sweeper's drain).
    """
    named(event)
    if not db.redis.exists(keys.webhooks()):
        return None
    identity = secrets.token_hex(12)
    recorded = {"event": event, "id": identity, "at_ms": now_ms(), "fields": fields,
                **({"run_id": run_id} if run_id else {})}
    db.redis.rpush(keys.webhook_outbox(), json.dumps(recorded))
    wake(db)
    return identity
