"""The webhooks' outboxes in a throwaway store (one Redis, and a one-master Redis Cluster with the
queues on a Redis of their own): a script of any shard records its event once a webhook is
registered (``store.webhooks.mirror_webhooks``), a drain visits every outbox, and an event
recorded while its drain is lost waits for the next one.

The HTTP side (deliveries, signatures, retries) is ``test_webhooks.py``.
"""

import json

import pytest

from store import keys
from store import webhooks as store_webhooks
from store.lua import source
from store.webhooks import SEASON_ENDED, create_webhook, delete_webhook, drain_outbox, emit, outboxes
from tests.support.stores import emptied_database

# What a shard's script that records an event does (``lua/_events.lua``), and nothing else.
RECORD = source("_events") + "\nif events_wanted(KEYS[1]) then record_event(KEYS[2], {event = ARGV[1]}) end\n"


@pytest.fixture
def db(store_urls):
    with emptied_database(store_urls) as database:
        yield database


def record_in_every_shard(db, event: str) -> None:
    """``event`` recorded by a script of each shard, as its own scripts record theirs."""
    for shard in keys.distinct_shards():
        db.redis.eval(RECORD, 2, keys.webhooks_registered(shard), keys.webhook_outbox(shard), event)


def drained(db) -> list[str]:
    """The events a drain takes out of the outboxes (their names), in the order it meets them."""
    seen: list[str] = []
    drain_outbox(db, lambda event, event_id: seen.append(event["event"]) or json.dumps(event), timeout=1)
    return seen


def test_a_script_of_any_shard_records_its_event_once_a_webhook_is_registered_and_a_drain_takes_them_all(db):
    record_in_every_shard(db, "before")
    assert not any(db.redis.llen(outbox) for outbox in outboxes())  # no webhook: nothing kept
    hook, _ = create_webhook(db, "https://example.test/hook", ["before", "test.event"], "mia")
    record_in_every_shard(db, "test.event")
    shards = len(keys.distinct_shards())
    assert sum(db.redis.llen(outbox) for outbox in outboxes()) == shards  # one in each shard's outbox
    assert drained(db) == ["test.event"] * shards
    assert db.webhook_queue.count == shards  # one delivery each, on the queue's Redis
    assert not any(db.redis.llen(outbox) for outbox in outboxes())
    delete_webhook(db, hook.id)
    record_in_every_shard(db, "test.event")
    assert not any(db.redis.llen(outbox) for outbox in outboxes())  # the marks went with the last webhook


def test_an_emitted_event_whose_wake_is_lost_waits_in_the_outbox_for_the_next_drain(db, monkeypatch):
    create_webhook(db, "https://example.test/hook", [SEASON_ENDED], "mia")

    def lost(db):
        raise ConnectionError("the queue's Redis is away")

    monkeypatch.setattr(store_webhooks, "wake", lost)
    with pytest.raises(ConnectionError):
        emit(db, SEASON_ENDED, {"season": "2026-11"})
    assert db.redis.llen(keys.webhook_outbox()) == 1  # recorded before the wake
    assert drained(db) == [SEASON_ENDED] and db.webhook_queue.count == 1


def test_a_drain_stopped_after_queueing_its_batch_queues_it_again_with_the_same_event_ids(db, monkeypatch):
    create_webhook(db, "https://example.test/hook", [SEASON_ENDED], "mia")
    monkeypatch.setattr(store_webhooks, "wake", lambda db: None)
    emit(db, SEASON_ENDED, {"season": "2026-10"})
    real_ltrim = db.redis.ltrim

    def stopped(*args):
        raise ConnectionError("the process died")

    monkeypatch.setattr(db.redis, "ltrim", stopped)
    with pytest.raises(ConnectionError):
        drained(db)
    db.redis.delete(keys.webhook_outbox_lock())  # what its expiry does
    monkeypatch.setattr(db.redis, "ltrim", real_ltrim)
    assert drained(db) == [SEASON_ENDED]
    ids = {job.args[2] for job in db.webhook_queue.get_jobs()}  # ``Delivery.args``: its event id third
    assert db.webhook_queue.count == 2 and len(ids) == 1
