"""Webhooks over the real stack: moderators register endpoints, the workers POST signed events to
a receiver in this process, retry a failure with backoff (short delays here), and record each attempt."""

import hashlib
import hmac
import json
import secrets
import time

import pytest

from domain.daily_seed import today
from tests.support.games import accept_dealt, games_by_score, legal_games, moderator_token
from tests.support.in_process import stack_of
from tests.support.stores import REFUSED_PORT

pytestmark = pytest.mark.slow  # seconds of waiting on the service's clock: started first, not last

RETRIES = "0.2,0.2"  # seconds: three tries, the second and third due at once (RQ schedules by the second)


@pytest.fixture(scope="module")
def stack(request):
    yield from stack_of(request, env={"SCOUNDREL_WEBHOOK_RETRIES": RETRIES, "SCOUNDREL_SWEEP_INTERVAL": "0.2",
                                      "SCOUNDREL_WEBHOOK_TIMEOUT": "2"})



@pytest.fixture(scope="module")
def moderator(stack) -> dict:
    return {"Authorization": f"Bearer {moderator_token(stack)}"}


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def register(stack, moderator: dict, url: str, events: list[str]) -> dict:
    response = stack.post("/v1/webhooks", json={"url": url, "events": events}, headers=moderator)
    assert response.status_code == 201, response.text
    assert response.headers["Location"].endswith(f"/v1/webhooks/{response.json()['id']}")
    return response.json()


def signed(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def verified(stack, token: str, game: dict) -> dict:
    response = stack.submit(token, game)
    assert response.status_code == 202, response.text
    run = stack.wait_final(response.json()["id"])
    assert run["status"] == "verified", run
    return run


def test_a_delivery_refused_once_is_retried_signed_alike_and_both_attempts_are_listed(stack, receiver, moderator):
    hook = register(stack, moderator, receiver.url("/retried"), ["run.verified"])
    assert hook["secret"].startswith("whsec_") and hook["events"] == ["run.verified"]
    receiver.plans["/retried"] = [500]
    _, token = stack.register()
    run = verified(stack, token, legal_games(1)[0])

    (first_headers, first), (second_headers, second) = receiver.wait("/retried", 2, stack)
    assert first == second  # the same bytes at every attempt, so the same signature
    for headers, attempt in ((first_headers, 1), (second_headers, 2)):
        assert headers["X-Scoundrel-Signature"] == signed(hook["secret"], first)
        assert headers["X-Scoundrel-Event"] == "run.verified"
        assert headers["X-Scoundrel-Attempt"] == str(attempt)
        assert headers["Content-Type"] == "application/json"
    event = json.loads(first)
    assert first_headers["X-Scoundrel-Delivery"] == second_headers["X-Scoundrel-Delivery"] == event["id"]
    assert event["event"] == "run.verified" and event["created_at"].endswith("Z")
    assert event["run"] == stack.get(f"/v1/runs/{run['id']}").json()

    deadline = time.monotonic() + 5
    while len(attempts := stack.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=moderator).json()
              ["deliveries"]) < 2:
        assert time.monotonic() < deadline, attempts
        time.sleep(0.05)
    latest, earliest = attempts
    assert (earliest["attempt"], earliest["status"], earliest["delivered"]) == (1, 500, False)
    assert earliest["retry_at"] is not None and earliest["error"] is None
    assert (latest["attempt"], latest["status"], latest["delivered"], latest["retry_at"]) == (2, 200, True, None)
    for attempt in attempts:
        assert attempt["event"] == "run.verified" and attempt["event_id"] == event["id"]
        assert isinstance(attempt["duration_ms"], int) and attempt["duration_ms"] >= 0
        assert attempt["at"].endswith("Z")


def test_an_endpoint_that_never_answers_2xx_gets_every_try_then_is_given_up(stack, receiver, moderator):
    hook = register(stack, moderator, receiver.url("/down"), ["run.verified"])
    receiver.plans["/down"] = [503] * 10
    _, token = stack.register()
    verified(stack, token, legal_games(2)[1])
    tries = len(RETRIES.split(",")) + 1
    receiver.wait("/down", tries, stack)
    time.sleep(1.5)  # a retry past the last would be due by now
    assert len(receiver.received["/down"]) == tries
    attempts = stack.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=moderator).json()["deliveries"]
    assert [attempt["attempt"] for attempt in attempts] == list(range(tries, 0, -1))
    assert attempts[0]["retry_at"] is None and not any(attempt["delivered"] for attempt in attempts)


def test_a_refused_connection_is_an_error_recorded_and_retried(stack, moderator):
    url = f"http://127.0.0.1:{REFUSED_PORT}/gone"
    hook = register(stack, moderator, url, ["run.verified"])
    _, token = stack.register()
    verified(stack, token, legal_games(3)[2])
    def tried_twice() -> list[dict] | None:
        attempts = stack.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=moderator).json()["deliveries"]
        return attempts if len(attempts) >= 2 else None

    attempts = stack.until(tried_twice, "a second try of a refused delivery")
    assert all(attempt["status"] is None and "refused" in attempt["error"].lower() for attempt in attempts)
    assert url not in json.dumps(attempts)
    assert stack.http.delete(stack.url(f"/v1/webhooks/{hook['id']}"), headers=moderator).status_code == 204


def test_each_webhook_gets_the_events_it_takes_and_a_void_is_run_voided(stack, receiver, moderator):
    voids = register(stack, moderator, receiver.url("/voids"), ["run.voided"])
    _, token = stack.register()
    run = verified(stack, token, legal_games(4)[3])
    dispute = stack.post(f"/v1/runs/{run['id']}/disputes", json={"reason": "odd"}, headers=bearer(token)).json()
    resolved = stack.post(f"/v1/disputes/{dispute['id']}/resolve", json={"decision": "void", "note": "bot"},
                          headers=moderator)
    assert resolved.status_code == 200, resolved.text
    [(headers, body)] = receiver.wait("/voids", 1, stack)
    event = json.loads(body)
    assert event["event"] == "run.voided" and event["run"]["id"] == run["id"] and event["run"]["status"] == "void"
    assert headers["X-Scoundrel-Signature"] == signed(voids["secret"], body)
    time.sleep(0.5)
    assert [event["event"] for event in receiver.events("/voids")] == ["run.voided"]  # no run.verified


def test_a_player_taking_first_place_from_another_is_record_beaten(stack, receiver, moderator):
    register(stack, moderator, receiver.url("/records"), ["record.beaten"])
    seed = f"records-{secrets.token_hex(4)}"
    worse, better = games_by_score(seed, 2)
    first_name, first = stack.register()
    verified(stack, first, worse)
    second_name, second = stack.register()
    run = verified(stack, second, better)
    deadline = time.monotonic() + 10
    while not (beaten := [event for event in receiver.events("/records") if event["board"]["kind"] == "seed"]):
        assert time.monotonic() < deadline, receiver.events("/records")
        time.sleep(0.05)
    [event] = beaten
    assert event["board"]["path"] == f"/v1/seeds/{seed}/leaderboard?variant=classic"
    assert event["previous"] == {"player": first_name, "score": scoundrel_score(worse)}
    assert event["holder"] == {"player": second_name, "score": run["score"]}
    assert event["run"]["id"] == run["id"]
    board = stack.get(event["board"]["path"]).json()
    assert board["entries"][0]["player"] == second_name


def scoundrel_score(game: dict) -> int:
    import scoundrel

    return scoundrel.replay(game["seed"], game["moves"], game["variant"]).score


def test_a_sealed_daily_runs_event_hides_its_seed_and_moves_while_its_day_is_on(stack, receiver, moderator):
    register(stack, moderator, receiver.url("/sealed"), ["run.verified"])
    name, _ = stack.register()
    run = accept_dealt(stack, name, legal_games(5)[4], challenge="daily", date=today().isoformat())
    [(_, body)] = receiver.wait("/sealed", 1, stack)
    shown = json.loads(body)["run"]
    assert shown["id"] == run["id"] and shown["challenge"] == "daily"
    assert shown["seed"] is None and shown["moves"] is None
    assert legal_games(5)[4]["seed"].encode() not in body
    assert shown == stack.get(f"/v1/runs/{run['id']}").json()


def test_any_code_can_emit_an_event_to_the_webhooks_that_take_it(stack, receiver, moderator):
    from store.webhooks.hooks import emit

    seasons = register(stack, moderator, receiver.url("/seasons"), ["season.ended"])
    db = stack.database()
    try:
        event_id = emit(db, "season.ended", {"season": {"id": "s1", "name": "Autumn"}})
        with pytest.raises(ValueError):
            emit(db, "season.started", {})
    finally:
        db.close()
    [(headers, body)] = receiver.wait("/seasons", 1, stack)
    event = json.loads(body)
    assert event["event"] == "season.ended" and event["id"] == event_id == headers["X-Scoundrel-Delivery"]
    assert event["season"] == {"id": "s1", "name": "Autumn"}
    assert headers["X-Scoundrel-Signature"] == signed(seasons["secret"], body)


def test_the_secret_is_shown_once_and_never_read_back_or_logged(stack, receiver, moderator):
    hook = register(stack, moderator, "https://studio.example/events", ["run.verified"])
    shown = stack.get(f"/v1/webhooks/{hook['id']}", headers=moderator)
    assert shown.status_code == 200
    assert shown.json() == {key: hook[key] for key in ("id", "url", "events", "moderator", "created_at")}
    assert shown.json()["url"] == "https://studio.example/events"
    listed = stack.get("/v1/webhooks?limit=100", headers=moderator).json()
    assert listed["total"] == len(listed["webhooks"]) >= 1
    assert hook["id"] in [entry["id"] for entry in listed["webhooks"]]
    everything = shown.text + json.dumps(listed) + stack.get(f"/v1/webhooks/{hook['id']}/deliveries",
                                                             headers=moderator).text
    logs = "".join(log.read_text(errors="replace") for log in stack.root.glob("*.log"))
    assert hook["secret"] not in everything and hook["secret"] not in logs
    assert stack.http.delete(stack.url(f"/v1/webhooks/{hook['id']}"), headers=moderator).status_code == 204
    assert stack.get(f"/v1/webhooks/{hook['id']}", headers=moderator).status_code == 404
    assert stack.http.delete(stack.url(f"/v1/webhooks/{hook['id']}"), headers=moderator).status_code == 404


ENDPOINTS = [("POST", "/v1/webhooks"), ("GET", "/v1/webhooks"), ("GET", "/v1/webhooks/{id}"),
             ("DELETE", "/v1/webhooks/{id}"), ("GET", "/v1/webhooks/{id}/deliveries")]


@pytest.fixture(scope="module")
def guarded(stack, receiver, moderator) -> dict:
    return register(stack, moderator, receiver.url("/auth"), ["season.ended"])


@pytest.mark.parametrize("method,path", ENDPOINTS)
def test_only_moderators_reach_webhooks(stack, receiver, moderator, guarded, method, path):
    hook = guarded
    url = stack.url(path.format(id=hook["id"]))
    body = {"url": receiver.url("/auth"), "events": ["run.verified"]}
    _, token = stack.register()
    anonymous = stack.http.request(method, url, json=body, timeout=10)
    assert anonymous.status_code == 401 and anonymous.headers["WWW-Authenticate"].startswith("Bearer")
    player = stack.http.request(method, url, json=body, headers=bearer(token), timeout=10)
    assert player.status_code == 403 and "moderator" in player.json()["message"]
    assert hook["secret"] not in anonymous.text + player.text
    assert stack.get(f"/v1/webhooks/{hook['id']}", headers=moderator).status_code == 200  # still there


@pytest.mark.parametrize("body,field", [
    ({"url": "ftp://studio.example/x", "events": ["run.verified"]}, "url"),
    ({"url": "not a url", "events": ["run.verified"]}, "url"),
    ({"url": "https://", "events": ["run.verified"]}, "url"),
    ({"events": ["run.verified"]}, "url"),
    ({"url": "https://studio.example/x", "events": ["run.won"]}, "events"),
    ({"url": "https://studio.example/x", "events": []}, "events"),
    ({"url": "https://studio.example/x"}, "events"),
    ({"url": "https://studio.example/x", "events": ["run.verified"], "secret": "mine"}, "secret"),
])
def test_a_malformed_webhook_is_a_422_naming_the_field(stack, moderator, body, field):
    response = stack.post("/v1/webhooks", json=body, headers=moderator)
    assert response.status_code == 422, response.text
    assert list(response.json()["errors"]) == [field]


def test_an_unknown_webhook_is_a_404(stack, moderator):
    for path in ("/v1/webhooks/nope", "/v1/webhooks/nope/deliveries"):
        response = stack.get(path, headers=moderator)
        assert response.status_code == 404 and response.json()["message"] == "No webhook 'nope'."


def test_an_event_left_in_the_outbox_by_a_process_that_died_is_delivered_by_the_sweeper(stack, receiver, moderator):
    """As if a worker died between recording a verdict (its event in the outbox, the same script)
    and queueing its deliveries: no job drains it, the workers' sweeper does."""
    from store.base import keys

    register(stack, moderator, receiver.url("/orphan"), ["run.verified"])
    _, token = stack.register()
    run = verified(stack, token, legal_games(6)[5])
    receiver.wait("/orphan", 1, stack)
    db = stack.database()
    try:
        left = {"run_id": run["id"], "event": "run.verified", "at_ms": "1796128760765"}
        db.redis.rpush(keys.webhook_outbox(), json.dumps(left))
    finally:
        db.close()
    _, again = receiver.wait("/orphan", 2, stack)
    event = json.loads(again[1])
    assert event["run"]["id"] == run["id"] and event["created_at"] == "2026-12-01T12:39:20.765Z"


def test_the_close_of_a_season_is_season_ended_once(stack, receiver, moderator):
    from domain.seasons import parse_season
    from store.boards.seasons import close_season

    register(stack, moderator, receiver.url("/season-ends"), ["season.ended"])
    season = parse_season("2026-10")
    db = stack.database()
    try:
        assert close_season(db, season) and not close_season(db, season)  # closed once, told once
    finally:
        db.close()
    [(_, body)] = receiver.wait("/season-ends", 1, stack)
    assert json.loads(body)["season"] == {"id": "2026-10", "starts_at": "2026-10-01T00:00:00.000Z",
                                          "ends_at": "2026-11-01T00:00:00.000Z"}
    time.sleep(0.5)
    assert len(receiver.received["/season-ends"]) == 1


def test_the_attempts_and_the_backlog_are_in_the_metrics(stack):
    text = stack.get("/metrics").text
    counted = {result: float(line.rsplit(" ", 1)[1]) for line in text.splitlines() for result in ("delivered", "failed")
               if line.startswith(f'scoundrel_webhook_attempts_total{{result="{result}"}}')}
    assert counted["delivered"] >= 1 and counted["failed"] >= 1  # the modules' deliveries so far
    for gauge in ("scoundrel_webhook_outbox", "scoundrel_webhook_queue_depth", "scoundrel_webhook_retries_waiting"):
        assert f"\n{gauge} " in text
