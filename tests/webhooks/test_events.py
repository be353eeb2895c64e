"""One table names every event (``domain.events``): the store's scripts get the names they record
from their wrappers, the docs list the table, and a ``record.beaten`` event names its board by the
board's name, so it reads right however the registry of boards changed before it was sent."""

import json
import re
from pathlib import Path

import pytest

import domain.boards
from domain.boards import BOARDS, OPEN_BOARD, SEED_BOARD, Board, BoardId, Order
from domain.events import ENVELOPE, EVENTS, RECORD_BEATEN, RUN_VERIFIED
from store.base import keys
from store.queue.queues import webhook_queue
from store.runs.accepting import Submission, accept_runs
from store.runs.records import load_runs
from store.runs.verdicts import record_verdicts
from store.webhooks.hooks import create_webhook, emit
from tests.support.games import games_by_score
from verification import judge
from worker.webhooks import drain_events

ROOT = Path(__file__).parents[2]
LUA = ROOT / "store" / "lua"
TIMEOUT = 5.0

EXTRA_BOARD = Board("extra", lambda run: True, ("variant",), Order.BEST, api="/v1/extra/{variant}",
                    page="/extra/{variant}", title="Extra", proves="every run, for a test")


def test_no_lua_script_spells_an_event_name():
    spelt = [(script.name, name) for script in sorted(LUA.glob("*.lua")) for name in EVENTS
             if name in script.read_text()]
    assert spelt == []


def test_the_docs_list_the_events_as_the_table_does():
    """The docs' table of events: each event's name, when it is sent, and its body's fields."""
    text = (ROOT / "docs" / "webhooks.md").read_text()
    rows = re.findall(r"^\| `([a-z_]+\.[a-z_]+)` \| (.+) \| (.+) \|$", text, re.MULTILINE)
    assert rows == [(event.name, event.tells, ", ".join(f"`{field}`" for field in event.payload))
                    for event in EVENTS.values()]


def test_emit_takes_only_an_event_of_the_table(store_db):
    with pytest.raises(ValueError, match="unknown event 'season.started'"):
        emit(store_db, "season.started", {})


def verified(db, player: str, game: dict) -> str:
    [(run, _)] = accept_runs(db, player, [Submission(game["seed"], game["variant"], game["moves"])])
    [pending] = load_runs(db, [run.id])
    assert record_verdicts(db, [(pending, judge(pending))]) == [True]
    return run.id


def outbox(db) -> list[dict]:
    return [json.loads(text) for text in db.redis.lrange(keys.webhook_outbox(), 0, -1)]


def delivered(db) -> list[dict]:
    """The outbox drained (as the drain job does): the bodies of the deliveries it queued."""
    queue = webhook_queue(db)
    queue.empty()
    drain_events(db, TIMEOUT)
    return [json.loads(job.args[3]) for job in queue.get_jobs()]


@pytest.fixture
def db(archived_store_db):
    """Two players on one seed, the second beating the first, while a webhook takes their events."""
    create_webhook(archived_store_db, "https://studio.example/events", [RUN_VERIFIED, RECORD_BEATEN], "mia")
    worse, better = games_by_score("events-seed", 2)
    verified(archived_store_db, "ada", worse)
    verified(archived_store_db, "bob", better)
    return archived_store_db


def test_a_record_beaten_names_its_board_and_reads_right_after_the_registry_changes(db, monkeypatch):
    recorded = [event for event in outbox(db) if event["event"] == RECORD_BEATEN]
    assert sorted(event["board"] for event in recorded) == ["open:classic", "seed:classic:events-seed"]
    # the registry reordered and extended (a kind counting every run, first) before the events are sent
    monkeypatch.setattr(domain.boards, "BOARDS", [EXTRA_BOARD, *reversed(BOARDS)])

    bodies = delivered(db)
    assert sorted(body["event"] for body in bodies) == [RECORD_BEATEN, RECORD_BEATEN, RUN_VERIFIED, RUN_VERIFIED]
    boards = {body["board"]["kind"]: body for body in bodies if body["event"] == RECORD_BEATEN}
    assert {kind: body["board"]["path"] for kind, body in boards.items()} == {
        "open": "/v1/leaderboards/classic", "seed": "/v1/seeds/events-seed/leaderboard?variant=classic"}
    for body in boards.values():
        assert body["run"]["player"] == body["holder"]["player"] == "bob"
        assert body["previous"]["player"] == "ada" and body["previous"]["score"] < body["holder"]["score"]
    for body in bodies:  # each body is the envelope and its event's payload, as the table says
        assert list(body) == [*ENVELOPE, *EVENTS[body["event"]].payload]


def test_a_record_beaten_waiting_in_the_form_before_names_is_read_by_its_place_among_the_runs_boards(db):
    """An event recorded before boards were named holds the board's place among its run's boards (1 for
    the first), in the registry's order, which has not changed since."""
    named = next(event for event in outbox(db) if event.get("board") == "seed:classic:events-seed")
    db.redis.delete(keys.webhook_outbox())
    db.redis.rpush(keys.webhook_outbox(), json.dumps({**named, "board": 2}))
    [run] = load_runs(db, [named["run_id"]])
    assert [board.name for board in domain.boards.boards_of(run)] == [
        BoardId(OPEN_BOARD, ("classic",)).name, BoardId(SEED_BOARD, ("classic", "events-seed")).name]

    [body] = delivered(db)
    assert body["board"] == {"kind": "seed", "path": "/v1/seeds/events-seed/leaderboard?variant=classic"}
    assert body["holder"]["player"] == "bob" and body["previous"]["player"] == "ada"
