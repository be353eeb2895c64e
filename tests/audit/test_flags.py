"""Flags for moderators against the real service: games played over HTTP at a bot's speed, a bot's
rhythm and a person's pace, and players starting the sealed daily from one address.

The stack judges timing against limits scaled down for a test (a "human" median above 150 ms, six
timed moves at least), so a person's pace takes seconds, not minutes; the worker and the API are
the real processes. Its API believes one proxy (``SCOUNDREL_TRUSTED_PROXIES=1``), so two players
sending one ``X-Forwarded-For`` come from one address, as the rate limiter sees them.
"""

import json
import time
from datetime import UTC, datetime

import pytest
import redis
from rq.exceptions import NoSuchJobError
from rq.job import Job

from service.start_flags import address_hash
from store.base import keys
from store.base.clock import now_ms
from store.moderation.flags import forget_address_at
from store.queue.pending import jobs_of
from store.queue.queues import enqueue_verification
from store.runs.accepting import Dealt
from tests.support.games import play_dealt
from tests.support.in_process import stack_of
from tests.support.service_http import TEST_LIMITS

from .conftest import bearer

pytestmark = pytest.mark.slow  # seconds of waiting on the service's clock: started first, not last

FAST_MS = 150  # far above a loaded machine's request time, far below PERSON's median pause
MIN_MOVES = 6
ADDRESS = "203.0.113.9"  # TEST-NET-3: two players behind one address
OTHER_ADDRESS = "198.51.100.4"
PERSON = [0.14, 0.42, 0.18, 0.64, 0.24, 0.16, 0.52, 0.2]  # pauses (s): median 0.22, spread 0.32




@pytest.fixture(scope="module")
def stack(request):
    """With the rate limits on (``TEST_LIMITS``), as a served API has them: their counters, named by address, are
    the one place the address may be kept as it came."""
    yield from stack_of(request, env={**TEST_LIMITS, "SCOUNDREL_TRUSTED_PROXIES": "1", "SCOUNDREL_FLAG_FAST_MS":
                                      str(FAST_MS), "SCOUNDREL_FLAG_MIN_MOVES": str(MIN_MOVES)})


def flags(stack, moderator: str, **query) -> dict:
    response = stack.get("/v1/flags", params=query, headers=bearer(moderator))
    assert response.status_code == 200, response.text
    return response.json()


def wait_flags(stack, moderator: str, count: int, **query) -> list[dict]:
    """The flags ``query`` lists once there are ``count`` of them (the worker raises them just after the verdict)."""
    return stack.until(lambda: (found := flags(stack, moderator, **query)["entries"]) and len(found) >= count and found,
                       f"{count} flags for {query}")


def wait_job_done(stack, db, job_id: str) -> None:
    """Wait until the job ``job_id`` has run (a job that ran is not kept); fail if it failed."""
    def done() -> bool:
        try:
            status = Job.fetch(job_id, connection=db.queue_redis).get_status()
        except NoSuchJobError:
            return True
        assert status != "failed", "the job failed"
        return status == "finished"

    stack.until(done, f"job {job_id}")


def wait_timing_judged(stack, run_id: str) -> None:
    """Wait until the job that verified the run has ended: its last step judges the move timing."""
    db = stack.database()
    try:
        [job_id] = jobs_of(db, [run_id])
        wait_job_done(stack, db, job_id or "")  # none once its verdict is written
    finally:
        db.close()


def verify_again(stack, run_id: str) -> None:
    """Queue the run's verification job once more, as RQ may run a job twice, and wait until it has run."""
    db = stack.database()
    try:
        wait_job_done(stack, db, enqueue_verification(db, [run_id]).id)
    finally:
        db.close()


@pytest.fixture(scope="module")
def bot_game(stack):
    """A game played as fast as HTTP goes: median gap a few ms."""
    return play_dealt(stack, [0.0] * (MIN_MOVES + 2))[0]


def test_a_game_at_machine_speed_is_flagged_fast_moves_once_with_its_replay(stack, moderator, bot_game):
    run_id = bot_game["run_id"]
    [fast] = [flag for flag in wait_flags(stack, moderator, 1, run_id=run_id) if flag["reason"] == "fast_moves"]
    assert fast["run_id"] == run_id and fast["replay"] == f"/runs/{run_id}"
    assert fast["status"] == "open" and fast["dismissed"] is None
    assert fast["players"] == [bot_game["player"]]
    assert fast["detail"]["median_ms"] < FAST_MS and fast["detail"]["limit_ms"] == FAST_MS
    assert fast["detail"]["timed_moves"] == len(bot_game["moves"]) - 1 >= MIN_MOVES
    assert stack.get(fast["replay"]).status_code == 200
    listed = flags(stack, moderator, reason="fast_moves", limit=100)
    assert [flag["id"] for flag in listed["entries"] if flag["run_id"] == run_id] == [fast["id"]]

    before = flags(stack, moderator, run_id=run_id)
    verify_again(stack, run_id)
    assert flags(stack, moderator, run_id=run_id) == before  # raised once, however often the job runs

    run = stack.get(f"/v1/runs/{run_id}").json()
    assert run["status"] == "verified" and run["forfeit"]  # a flag never changes a verdict


class PacedClock:
    """The clock a dealt game's moves are timed by (``store.games.dealt``'s ``now_ms``) while a test plays one
    here: the real time when it was made, then exactly the pauses slept since. A bot's gaps so read as the
    pauses it took, as they would over a real network, not plus what a loaded machine adds to each request
    in this process (tens of milliseconds at a load of 10, enough to spread a steady rhythm past its limit);
    and the clock never runs ahead of the real one, which times the rest."""

    def __init__(self) -> None:
        self.ms = now_ms()

    def now_ms(self) -> int:
        return self.ms

    def pause(self, seconds: float) -> None:
        time.sleep(seconds)
        self.ms += round(seconds * 1000)


@pytest.fixture
def paced(monkeypatch) -> PacedClock:
    clock = PacedClock()
    monkeypatch.setattr("store.games.dealt.now_ms", clock.now_ms)
    return clock


def test_a_bot_that_waits_between_moves_is_flagged_steady_rhythm_not_fast_moves(stack, moderator, paced):
    game = play_dealt(stack, [0.4] * (MIN_MOVES + 1), paced.pause)[0]
    [steady] = wait_flags(stack, moderator, 1, run_id=game["run_id"])
    assert steady["reason"] == "steady_rhythm" and steady["run_id"] == game["run_id"]
    assert steady["detail"]["median_ms"] >= 400 and steady["detail"]["spread"] < steady["detail"]["limit"] == 0.1


def test_a_person_pace_and_a_game_too_short_to_judge_are_not_flagged(stack, moderator, paced):
    person = play_dealt(stack, PERSON, paced.pause)[0]
    short = play_dealt(stack, [0.0] * (MIN_MOVES - 2))[0]
    for game in (person, short):
        wait_timing_judged(stack, game["run_id"])
    assert flags(stack, moderator, run_id=person["run_id"]) == {"total": 0, "entries": []}
    assert flags(stack, moderator, run_id=short["run_id"]) == {"total": 0, "entries": []}


def start_sealed(stack, address: str | None) -> tuple[str, dict]:
    name, token = stack.register()
    headers = {**bearer(token), **({"X-Forwarded-For": address} if address else {})}
    response = stack.post("/v1/games", json={"challenge": "daily"}, headers=headers)
    assert response.status_code == 201, response.text
    return name, response.json()


@pytest.fixture(scope="module")
def shared(stack, moderator):
    """Two players start the sealed daily from ADDRESS, one from another, one straight from 127.0.0.1."""
    first, game = start_sealed(stack, ADDRESS)
    alone, _ = start_sealed(stack, OTHER_ADDRESS)
    second, other_game = start_sealed(stack, ADDRESS)
    start_sealed(stack, None)
    [flag] = wait_flags(stack, moderator, 1, reason="shared_address")
    return {"flag": flag, "players": [first, second], "alone": alone, "games": [game, other_game]}


def test_two_players_starting_the_sealed_daily_from_one_address_are_flagged(stack, moderator, shared):
    flag, day = shared["flag"], datetime.now(UTC).date().isoformat()
    assert flag["players"] == shared["players"] and "run_id" not in flag and "replay" not in flag
    assert flag["detail"] == {"date": day, "runs": [
        {"player": player, "run_id": run_id, "replay": f"/runs/{run_id}"}
        for player, run_id in zip(shared["players"], [Dealt(game["id"]).run_id for game in shared["games"]],
                                  strict=True)]}
    assert flags(stack, moderator, reason="shared_address")["total"] == 1  # the other two are alone
    # a third player from that address joins the same flag
    third, _ = start_sealed(stack, ADDRESS)
    stack.until(lambda: flags(stack, moderator, reason="shared_address")["entries"][0]["players"] == [
        *shared["players"], third], "the third player added to the flag")
    assert flags(stack, moderator, reason="shared_address")["total"] == 1


def _values(raw, key: bytes) -> list:
    """What ``key`` holds, whatever its type."""
    kind = raw.type(key)
    if kind == b"hash":
        return [*raw.hgetall(key).items()]
    if kind == b"zset":
        return raw.zrange(key, 0, -1)
    if kind == b"set":
        return list(raw.smembers(key))
    if kind == b"list":
        return raw.lrange(key, 0, -1)
    if kind == b"stream":
        return raw.xrange(key)
    return [raw.get(key)]


def test_the_address_is_kept_only_as_a_keyed_hash_and_forgotten_a_week_after_the_day(stack, shared, redis_client):
    day = shared["flag"]["detail"]["date"]
    secret = redis_client.get(keys.address_secret())
    key = keys.flag_address(day, address_hash(secret, ADDRESS))
    assert redis_client.hget(key, shared["players"][0]) is not None
    assert redis_client.expiretime(key) == forget_address_at(day)
    assert forget_address_at(day) - datetime.now(UTC).timestamp() > 7 * 86400  # the rest of the day, then a week
    raw = redis.Redis.from_url(stack.redis.url)  # the data and the queues: every key
    try:
        for found in raw.scan_iter(count=1000):
            if keys.rate_limit_prefix().encode() in found:
                continue  # the rate limiter's own counters, named by address for their window (at most a minute)
            assert ADDRESS.encode() not in found + repr(_values(raw, found)).encode(), found
    finally:
        raw.close()
    for log in stack.root.glob("*.log"):  # but the API's request log, whose lines name their client
        assert not [line for line in log.read_text().splitlines()
                    if ADDRESS in line and json.loads(line)["logger"] != "service.requests"]


def test_a_moderator_dismisses_a_flag_and_the_run_audit_log_says_so(stack, moderator, bot_game):
    run_id = bot_game["run_id"]
    [fast] = [flag for flag in wait_flags(stack, moderator, 1, run_id=run_id) if flag["reason"] == "fast_moves"]
    response = stack.post(f"/v1/flags/{fast['id']}/dismiss", json={"note": "A fast reader."},
                          headers=bearer(moderator))
    assert response.status_code == 200, response.text
    dismissed = response.json()
    assert dismissed["status"] == "dismissed" and dismissed["dismissed"]["moderator"] == "mia"
    assert dismissed["dismissed"]["note"] == "A fast reader." and dismissed["dismissed"]["at"]
    log = stack.get(f"/v1/runs/{run_id}/audit-log", headers=bearer(moderator)).json()["entries"]
    [entry] = [entry for entry in log if entry["event"] == "flag_dismissed"]
    assert entry["actor"] == {"kind": "moderator", "name": "mia"}
    assert entry["detail"] == {"flag": fast["id"], "reason": "fast_moves"}
    assert entry["before"] == entry["after"]  # the verdict is untouched
    public = stack.get(f"/v1/runs/{run_id}/audit-log").json()["entries"]
    assert "flag_dismissed" not in [entry["event"] for entry in public]  # nor what was seen, to its player

    assert fast["id"] not in [flag["id"] for flag in flags(stack, moderator, status="open", limit=100)["entries"]]
    dismissed_only = flags(stack, moderator, status="dismissed", run_id=run_id)["entries"]
    assert [flag["id"] for flag in dismissed_only] == [fast["id"]]
    assert dismissed in flags(stack, moderator, run_id=run_id)["entries"]  # still listed, with its status
    again = stack.post(f"/v1/flags/{fast['id']}/dismiss", json={}, headers=bearer(moderator))
    assert again.status_code == 409 and again.json()["message"] == "This flag is dismissed already."


def test_a_flag_about_players_is_dismissed_too(stack, moderator, shared):
    response = stack.post(f"/v1/flags/{shared['flag']['id']}/dismiss", json={}, headers=bearer(moderator))
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "dismissed" and response.json()["dismissed"]["note"] == ""


def test_flags_are_for_moderators_only_and_bad_input_is_named(stack, moderator):
    _, token = stack.register()
    assert stack.get("/v1/flags", headers=bearer(token)).status_code == 403
    assert stack.get("/v1/flags").status_code == 401
    assert stack.post("/v1/flags/0000000000000000/dismiss", json={}, headers=bearer(token)).status_code == 403
    missing = stack.post("/v1/flags/0000000000000000/dismiss", json={}, headers=bearer(moderator))
    assert missing.status_code == 404 and missing.json()["message"] == "No flag '0000000000000000'."
    wrong = stack.get("/v1/flags", params={"reason": "slow", "limit": 0}, headers=bearer(moderator))
    assert wrong.status_code == 422 and set(wrong.json()["errors"]) == {"reason", "limit"}
    long_note = stack.post("/v1/flags/0000000000000000/dismiss", json={"note": "x" * 1001, "why": 1},
                           headers=bearer(moderator))
    assert long_note.status_code == 422 and set(long_note.json()["errors"]) == {"note", "why"}


def test_the_flags_are_in_the_openapi_document(stack):
    paths = stack.get("/v1/openapi.json").json()["paths"]
    listing, dismiss = paths["/v1/flags"]["get"], paths["/v1/flags/{flag_id}/dismiss"]["post"]
    [reason] = [parameter for parameter in listing["parameters"] if parameter["name"] == "reason"]
    assert reason["schema"]["enum"] == ["fast_moves", "steady_rhythm", "shared_address", "clairvoyant"]
    assert {"200", "401", "403"} <= set(listing["responses"])
    assert {"200", "401", "403", "404", "409", "422"} <= set(dismiss["responses"])
