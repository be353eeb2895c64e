"""Live events in the store: kept per player, published on the one channel, resumed after an id; the
tournaments' "in 10 minutes" notices; league zones changed; and the tickets that open a stream once."""

import json
import re

from domain.leagues import LeagueRules
from store.base.clock import now_ms
from store.base.packing import iso_time
from store.leagues import tell_zones
from store.leagues.membership import join_week
from store.live import (
    CATCH_UP,
    KEPT,
    KEPT_MS,
    SOON_MS,
    EventId,
    LiveChannel,
    events_after,
    issue_ticket,
    publish,
    redeem_ticket,
    tell_soon,
)
from store.lua import source
from store.tournaments.tournaments import create_tournament, join_tournament
from tests.support.leagues import game as league_game
from tests.support.leagues import placed

FIRST = EventId(0, 0)
MINUTE = 60_000


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


def test_each_entrant_is_told_once_that_a_tournament_starts_and_ends_soon(store_db):
    at = now_ms()
    soon = create_tournament(store_db, title="Soon", variant="classic", starts_ms=at + 5 * MINUTE,
                             ends_ms=at + 8 * MINUTE, join_required=True, max_entrants=None, max_attempts=1, deals=1,
                             scoring="best", created_by="mia")
    later = create_tournament(store_db, title="Later", variant="classic", starts_ms=at + SOON_MS + 5 * MINUTE,
                              ends_ms=at + 60 * MINUTE, join_required=True, max_entrants=None, max_attempts=1,
                              deals=1, scoring="best", created_by="mia")
    for tournament in (soon, later):
        join_tournament(store_db, tournament, "dot")
        join_tournament(store_db, tournament, "eve")
    assert tell_soon(store_db) == 4
    assert tell_soon(store_db) == 0
    for player in ("dot", "eve"):
        told = [json.loads(event.data) for event in events_after(store_db, player, FIRST)]
        assert [(event["type"], event["tournament_id"]) for event in told] == [
            ("tournament.starting", soon.id), ("tournament.ending", soon.id)]
        assert told[0]["starts_at"] == iso_time(soon.starts_ms)


LEAGUE_RULES = LeagueRules(("Bronze", "Silver", "Gold"), 7, 2)


def test_a_cohorts_players_are_told_when_their_zone_changes(archived_store_db):
    db, week = archived_store_db, "2026-W49"
    for at, (player, score) in enumerate((("ann", 10), ("bea", 20), ("cid", 30))):
        run = league_game(player, week, score, at)
        placed(db, run)
        assert tell_zones(db, LEAGUE_RULES, join_week(db, LEAGUE_RULES, run)) == 0  # first zones: noted only
    run = league_game("dot", week, 40, 3)  # four in the cohort: one goes up, dot now, not cid
    placed(db, run)
    assert tell_zones(db, LEAGUE_RULES, join_week(db, LEAGUE_RULES, run)) == 1
    [told] = events_after(db, "cid", FIRST)
    assert json.loads(told.data) == {"week": week, "cohort": 1, "tier": "Bronze", "type": "league.zone_changed",
                                     "zone": "stays", "was": "up"}
    assert [events_after(db, player, FIRST) for player in ("ann", "bea", "dot")] == [[], [], []]


def test_a_listener_is_told_to_catch_up_when_the_subscription_was_lost(store_db):
    channel = LiveChannel(store_db)
    listener = channel.listen("fay")
    store_db.redis.client_kill_filter(_type="pubsub")  # as a Redis restart drops it
    assert listener.next(timeout=10) is CATCH_UP
    published = publish(store_db, "fay", {"type": "x"})  # heard again once subscribed again
    assert listener.next(timeout=10) == published
    channel.stop()
