"""Live events in the store: kept per player, published on the one channel, resumed after an id; and the
tickets that open a stream once."""

import re

from store.live import KEPT, KEPT_MS, EventId, LiveChannel, events_after, issue_ticket, publish, redeem_ticket
from store.lua import source

FIRST = EventId(0, 0)


def test_an_event_published_is_kept_and_read_after_an_id(store_db):
    first = publish(store_db, "ann", {"type": "reward.granted", "reward_id": "r1"})
    second = publish(store_db, "ann", {"type": "reward.granted", "reward_id": "r2"})
    assert second.id > first.id
    assert [event.data for event in events_after(store_db, "ann", FIRST)] == [first.data, second.data]
    assert [event.id for event in events_after(store_db, "ann", first.id)] == [second.id]
    assert events_after(store_db, "bea", FIRST) == []


def test_an_event_names_its_type(store_db):
    for event in ({}, {"type": ""}, {"type": 3}):
        try:
            publish(store_db, "ann", event)
        except ValueError:
            continue
        raise AssertionError(f"{event} published")


def test_the_stream_keeps_the_latest_hundred_or_so(store_db):
    for number in range(3 * KEPT):
        publish(store_db, "cid", {"type": "test", "number": number})
    kept = events_after(store_db, "cid", FIRST)
    assert KEPT <= len(kept) < 3 * KEPT
    assert kept[-1].data == '{"type":"test","number":299}'


def test_the_script_keeps_what_the_python_reads():
    script = source("_live")
    assert re.search(r"LIVE_KEPT, LIVE_KEPT_MS = (\d+), (\d+)", script).groups() == (str(KEPT), str(KEPT_MS))


def test_a_listener_hears_its_players_events_only(store_db):
    channel = LiveChannel(store_db)
    ann, bea = channel.listen("ann"), channel.listen("bea")
    published = publish(store_db, "ann", {"type": "reward.granted"})
    assert ann.next(timeout=10) == published
    publish(store_db, "bea", {"type": "x"})
    assert bea.next(timeout=10).data == '{"type":"x"}'
    assert ann.events.empty()
    channel.close(ann)
    channel.close(bea)
    assert channel.open_streams() == 0
    channel.stop()


def test_a_ticket_opens_once(store_db):
    ticket = issue_ticket(store_db, "ann")
    assert redeem_ticket(store_db, ticket) == "ann"
    assert redeem_ticket(store_db, ticket) is None
    assert redeem_ticket(store_db, "evt_made-up") is None
    assert not any("evt_" in key or ticket[4:] in key for key in store_db.redis.keys("*"))
