"""``/v1/players/<name>/events`` in process: who may open a stream, the ticket that opens it once, and a
verdict and a lost place heard on it (the real processes: ``test_live_served``)."""

import json

import pytest

from store.live import EventId, events_after
from tests.support.games import games_by_score


@pytest.fixture(scope="module", autouse=True)
def channel_stopped(stack):
    """The app's live channel stopped after the module's tests, before its Redis goes."""
    yield
    channel = stack.app.extensions.get("live_channel")
    if channel is not None:
        channel.stop()


class Stream:
    """A stream read straight off the app (Flask's test client, unbuffered), one message at a time."""

    def __init__(self, stack, path: str, headers: dict | None = None):
        self.response = stack.app.test_client().get(path, headers=headers or {}, buffered=False)
        self.status = self.response.status_code
        self.chunks = iter(self.response.response)

    def next_event(self) -> tuple[str, dict]:
        """The next event's id and data, past the opening and heartbeats."""
        while True:
            chunk = next(self.chunks)
            text = chunk.decode() if isinstance(chunk, bytes) else chunk
            if text.startswith("id: "):
                id_line, data_line = text.strip().split("\n")
                return id_line.removeprefix("id: "), json.loads(data_line.removeprefix("data: "))

    def close(self):
        self.response.close()


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_a_ticket_opens_the_stream_once(stack):
    name, token = stack.register()
    answer = stack.post(f"/v1/players/{name}/events/ticket", headers=bearer(token))
    assert answer.status_code == 201
    ticket = answer.json()["ticket"]
    assert answer.json()["expires_in"] == 60
    opened = Stream(stack, f"/v1/players/{name}/events?ticket={ticket}")
    assert opened.status == 200
    assert opened.response.mimetype == "text/event-stream"
    assert next(opened.chunks).startswith(b"retry: ")
    opened.close()
    again = stack.get(f"/v1/players/{name}/events?ticket={ticket}")
    assert again.status_code == 401
    assert ticket not in again.text


def test_a_ticket_opens_its_own_players_stream_only(stack):
    name, token = stack.register()
    other, _ = stack.register()
    ticket = stack.post(f"/v1/players/{name}/events/ticket", headers=bearer(token)).json()["ticket"]
    assert stack.get(f"/v1/players/{other}/events?ticket={ticket}").status_code == 403


def test_a_stream_takes_its_players_token(stack):
    name, token = stack.register()
    other, other_token = stack.register()
    assert stack.get(f"/v1/players/{name}/events").status_code == 401
    assert stack.get(f"/v1/players/{name}/events", headers=bearer(other_token)).status_code == 403
    assert stack.post(f"/v1/players/{name}/events/ticket", headers=bearer(other_token)).status_code == 403
    assert stack.post(f"/v1/players/{name}/events/ticket").status_code == 401


@pytest.mark.parametrize("sent", ["latest", "12", "1-2-3", "-1-0"])
def test_a_last_event_id_is_an_event_id(stack, sent):
    name, token = stack.register()
    answer = stack.get(f"/v1/players/{name}/events", headers={**bearer(token), "Last-Event-ID": sent})
    assert answer.status_code == 422
    assert "Last-Event-ID" in answer.json()["errors"]
    query = stack.get(f"/v1/players/{name}/events?last_event_id={sent}", headers=bearer(token))
    assert "last_event_id" in query.json()["errors"]


def test_a_stream_hears_its_verdict_and_the_place_it_lost(stack):
    low, high = games_by_score("live-passing", 2)
    bob, bob_token = stack.register()
    ann, ann_token = stack.register()
    bobs = Stream(stack, f"/v1/players/{bob}/events", bearer(bob_token))
    next(bobs.chunks)  # open: listening from here
    bob_run = stack.submit(bob_token, low).json()["id"]
    stack.wait_final(bob_run)
    event_id, verdict = bobs.next_event()
    assert verdict == {"type": "run.verified", "run_id": bob_run, "status": "verified"}
    ann_run = stack.submit(ann_token, high).json()["id"]
    stack.wait_final(ann_run)
    _, lost = bobs.next_event()
    assert lost["type"] == "place.lost" and lost["run_id"] == ann_run and lost["by"] == ann
    assert lost["place"] == 2 and lost["board"]["path"].startswith("/v1/")
    bobs.close()
    anns = [json.loads(event.data) for event in events_after(stack.database(), ann, EventId(0, 0))]
    assert anns == [{"type": "run.verified", "run_id": ann_run, "status": "verified"}]
    resumed = Stream(stack, f"/v1/players/{bob}/events", {**bearer(bob_token), "Last-Event-ID": event_id})
    _, again = resumed.next_event()
    assert again["type"] == "place.lost" and again["run_id"] == ann_run
    resumed.close()


def test_a_stream_hears_a_rejection(stack):
    [game] = games_by_score("live-rejected", 1)
    name, token = stack.register()
    stream = Stream(stack, f"/v1/players/{name}/events", bearer(token))
    next(stream.chunks)
    run_id = stack.submit(token, {**game, "moves": game["moves"][:-1]}).json()["id"]
    assert stack.wait_final(run_id)["status"] == "rejected"
    assert stream.next_event()[1] == {"type": "run.rejected", "run_id": run_id, "status": "rejected"}
    stream.close()


def test_a_place_lost_is_told_to_the_player_passed_only_when_passed(stack):
    lowest, low, high, higher, highest = games_by_score("live-passed-once", 5)
    bob, bob_token = stack.register()
    ann, ann_token = stack.register()
    cid, cid_token = stack.register()

    def verified(token, game):
        run_id = stack.submit(token, game).json()["id"]
        assert stack.wait_final(run_id)["status"] == "verified"
        return run_id

    def lost(player):
        return [json.loads(event.data) for event in events_after(stack.database(), player, EventId(0, 0))
                if json.loads(event.data)["type"] == "place.lost"]

    verified(bob_token, high)
    verified(ann_token, low)  # below bob: passes no one
    verified(cid_token, lowest)  # last: passes no one
    assert lost(bob) == lost(ann) == lost(cid) == []
    passing = verified(ann_token, higher)  # passes bob, not cid (still below both)
    told = lost(bob)  # on each board ann passed bob on: the seed's own (second of three) and the open one
    assert told and {event["run_id"] for event in told} == {passing}
    assert 2 in {event["place"] for event in told}
    verified(ann_token, highest)  # a better place still, but bob was passed already
    assert lost(bob) == told
    assert lost(cid) == [] and lost(ann) == []
