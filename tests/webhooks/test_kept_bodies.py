"""What a webhook's kept attempts hold of a player once they are erased: a body kept to be sent again
(``store.webhooks.hooks.resend``) names whom the event is about, so an erasure drops the bodies naming the
player erased, and the ``player.erased`` event's own body, which names them, is never kept."""

import json

import pytest

from domain.errors import DeliveryNotKept
from domain.events import PLAYER_ERASED, RUN_VERIFIED
from store.base import keys
from store.webhooks.hooks import (
    Attempt,
    Delivery,
    create_webhook,
    deliveries,
    forget_bodies_naming,
    record_attempt,
    resend,
)


def attempted(db, hook_id: str, event: str, event_id: str, body: dict) -> None:
    record_attempt(db, Delivery(hook_id, event, event_id, json.dumps(body)), Attempt(200, None, 5, 1_000), None, 10)


def test_an_erasure_drops_the_bodies_naming_the_player_and_keeps_the_others(store_db):
    hook, _ = create_webhook(store_db, "http://127.0.0.1:9/hook", [RUN_VERIFIED, PLAYER_ERASED], "mia")
    attempted(store_db, hook.id, RUN_VERIFIED, "e1", {"event": RUN_VERIFIED, "player": "quinn", "score": 3})
    attempted(store_db, hook.id, RUN_VERIFIED, "e2", {"event": RUN_VERIFIED, "player": "ruth", "score": 4})

    forget_bodies_naming(store_db, "quinn")
    attempted(store_db, hook.id, PLAYER_ERASED, "e3", {"event": PLAYER_ERASED, "player": "quinn"})

    assert [(attempt["event_id"], attempt["resendable"]) for attempt in deliveries(store_db, hook.id)] == [
        ("e3", False), ("e2", True), ("e1", False)]
    assert b"quinn" not in b"".join(store_db.raw.lrange(keys.webhook_deliveries(hook.id), 0, -1))
    with pytest.raises(DeliveryNotKept):
        resend(store_db, hook.id, "e1", 10)
