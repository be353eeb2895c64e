"""Issue 48, rewards: a tournament's reward table granted into its entrants' inboxes once its standings are
final, each band its reward, a claim once, the webhooks signed; a void after it settles again, a claimed
reward flagged and never taken back. The service in this process, the workers' steps run on demand."""

import hashlib
import hmac
import json
from datetime import UTC, datetime, timedelta

import pytest

from domain.leagues import LeagueRules
from store.base import keys
from store.competitions import settle_revised, settle_tournament
from store.tournaments.tournaments import load_tournament
from tests.support.games import moderator_token
from tests.support.in_process import stack_of

pytestmark = pytest.mark.slow  # seconds of waiting on the service's clock: started first, not last

ENTRANTS = 5
NO_LEAGUES = LeagueRules(("Bronze",), 30, 5)  # no league week here to settle again
RUNS_FOR = 3  # seconds from now the tournament ends: the entrants' games are begun at once (see ``ended``)
TABLE = [{"from_rank": 1, "payload": {"coins": 100}},
         {"from_rank": 2, "to_rank": 3, "payload": {"coins": 50}},
         {"top_percent": 100, "payload": {"badge": "took part"}}]
EVENTS = ["reward.granted", "reward.claimed"]


@pytest.fixture(scope="module")
def stack(request):
    yield from stack_of(request)


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def signed(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


@pytest.fixture(scope="module")
def ended(stack, receiver):
    """A tournament with ``TABLE`` whose ``ENTRANTS`` each played a game, ended and told: its standings, the
    entrants' tokens, the moderator's header and the webhook's secret. Each entrant's game is begun before the
    tournament ends (a machine too slow to begin them in ``RUNS_FOR`` seconds gets another tournament, twice as
    long), then forfeited; the tournament is told by the worker's pass, as the service tells it."""
    moderator = bearer(moderator_token(stack, "mia"))
    hook = stack.post("/v1/webhooks", json={"url": receiver.url("/rewards"), "events": EVENTS}, headers=moderator)
    assert hook.status_code == 201, hook.text
    runs_for = RUNS_FOR
    while True:
        made, tokens, games = _entered(stack, moderator, runs_for)
        if len(games) == ENTRANTS:
            break
        runs_for *= 2
    for name, game in games.items():
        over = stack.post(f"/v1/games/{game}/forfeit", json={}, headers=bearer(tokens[name]))
        stack.wait_final(over.json()["run_id"])
    tournament_id = made["id"]
    db = stack.database()
    try:
        stack.until(lambda: db.redis.zscore(keys.tournaments_ended(), tournament_id) is not None,
                    "the tournament's end told")
    finally:
        db.close()
    standings = stack.get(made["standings"], params={"limit": 100}).json()
    return {"id": tournament_id, "entries": standings["entries"], "tokens": tokens, "moderator": moderator,
            "secret": hook.json()["secret"]}


def _entered(stack, moderator: dict, runs_for: int) -> tuple[dict, dict, dict]:
    """A tournament of ``TABLE`` ending ``runs_for`` seconds from now, and the ``ENTRANTS`` registered for it
    with a game begun each: the tournament, the entrants' tokens and their games (fewer than ``ENTRANTS`` if
    it ended before they all began)."""
    now = datetime.now(UTC)
    made = stack.post("/v1/tournaments", headers=moderator, json={
        "title": "Prize night", "starts_at": (now - timedelta(seconds=60)).isoformat(),
        "ends_at": (now + timedelta(seconds=runs_for)).isoformat(), "rewards": TABLE})
    assert made.status_code == 201, made.text
    assert made.json()["rewards"] == TABLE and made.json()["schedule"] is None
    tokens, games = {}, {}
    for _ in range(ENTRANTS):
        name, token = stack.register()
        tokens[name] = token
        game = stack.post("/v1/games", json={"tournament": made.json()["id"]}, headers=bearer(token))
        if game.status_code == 409 and game.json().get("reason") == "ended":
            break
        assert game.status_code == 201, game.text
        games[name] = game.json()["id"]
    return made.json(), tokens, games


def inbox(stack, name: str, token: str) -> list[dict]:
    answer = stack.get(f"/v1/players/{name}/inbox", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return answer.json()["items"]


def earns(rank: int) -> dict:
    return TABLE[0]["payload"] if rank == 1 else TABLE[1]["payload"] if rank <= 3 else TABLE[2]["payload"]


def test_each_entrant_is_granted_their_bands_reward_once_told_signed(stack, receiver, ended):
    assert [entry["rank"] for entry in ended["entries"]] == list(range(1, ENTRANTS + 1))
    for entry in ended["entries"]:
        items = inbox(stack, entry["player"], ended["tokens"][entry["player"]])
        assert [(item["id"], item["source"], item["rank"], item["payload"], item["claimed_at"]) for item in items] \
            == [(f"tournament-{ended['id']}", f"tournament:{ended['id']}", entry["rank"], earns(entry["rank"]),
                 None)]
        assert items[0]["granted_at"].endswith("Z")
    source = f"tournament:{ended['id']}"  # a slow machine's shorter tournament before it is granted its own
    deliveries = stack.until(lambda: len(ours := [(headers, body) for headers, body in receiver.received["/rewards"]
                                                  if json.loads(body)["reward"]["source"] == source]) >= ENTRANTS
                             and ours, f"{ENTRANTS} grants told")
    granted = {}
    for headers, body in deliveries:
        assert headers["X-Scoundrel-Signature"] == signed(ended["secret"], body)
        event = json.loads(body)
        assert event["event"] == headers["X-Scoundrel-Event"] == "reward.granted"
        granted[event["player"]] = event["reward"]
    for entry in ended["entries"]:
        reward = granted[entry["player"]]
        assert (reward["rank"], reward["payload"], reward["source"]) == (entry["rank"], earns(entry["rank"]),
                                                                         f"tournament:{ended['id']}")


def test_settling_again_grants_nothing_twice(stack, receiver, ended):
    db = stack.database()
    try:
        settled = settle_tournament(db, load_tournament(db, ended["id"]))
    finally:
        db.close()
    assert settled is not None and (settled.granted, settled.withdrawn, settled.flagged) == ([], [], [])
    for entry in ended["entries"]:
        assert len(inbox(stack, entry["player"], ended["tokens"][entry["player"]])) == 1


def test_a_reward_is_claimed_once_and_the_claim_told_signed(stack, receiver, ended):
    first = ended["entries"][0]["player"]
    token = ended["tokens"][first]
    path = f"/v1/players/{first}/inbox/tournament-{ended['id']}/claim"
    claimed = stack.post(path, headers=bearer(token))
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["claimed_at"].endswith("Z") and claimed.json()["payload"] == {"coins": 100}
    again = stack.post(path, headers=bearer(token))
    assert again.status_code == 409 and again.json()["reason"] == "already_claimed", again.text
    assert inbox(stack, first, token)[0]["claimed_at"] == claimed.json()["claimed_at"]
    headers, body = stack.until(lambda: next(((headers, body) for headers, body in receiver.received["/rewards"]
                                              if json.loads(body)["event"] == "reward.claimed"), None),
                                "the claim told")
    assert headers["X-Scoundrel-Signature"] == signed(ended["secret"], body)
    event = json.loads(body)
    assert (event["player"], event["reward"]["claimed_at"], event["reward"]["payload"]) == (
        first, claimed.json()["claimed_at"], {"coins": 100})
    missing = stack.post(f"/v1/players/{first}/inbox/tournament-0/claim", headers=bearer(token))
    assert missing.status_code == 404


def test_an_inbox_is_its_players_alone(stack, ended):
    first, second = (entry["player"] for entry in ended["entries"][:2])
    assert stack.get(f"/v1/players/{first}/inbox", headers=bearer(ended["tokens"][second])).status_code == 403
    assert stack.post(f"/v1/players/{first}/inbox/tournament-{ended['id']}/claim",
                      headers=bearer(ended["tokens"][second])).status_code == 403
    assert stack.get(f"/v1/players/{first}/inbox").status_code == 401


def test_a_void_after_the_end_regrants_the_unclaimed_and_flags_the_claimed(stack, ended):
    """The winner claimed (the test before); their run is voided: the claim stays and is flagged, the second
    takes the first band, the fourth the second, the last's reward is unchanged."""
    entries, tokens, moderator = ended["entries"], ended["tokens"], ended["moderator"]
    winner = entries[0]
    dispute = stack.post(f"/v1/runs/{winner['run_id']}/disputes", json={"reason": "shared account"},
                         headers=bearer(tokens[entries[1]["player"]]))
    assert dispute.status_code == 201, dispute.text
    voided = stack.post(f"/v1/disputes/{dispute.json()['id']}/resolve", json={"decision": "void"},
                        headers=moderator)
    assert voided.status_code == 200, voided.text
    db = stack.database()
    try:
        assert settle_revised(db, NO_LEAGUES, {}) == [f"tournament:{ended['id']}"]
        assert settle_revised(db, NO_LEAGUES, {}) == []
    finally:
        db.close()
    claimed = inbox(stack, winner["player"], tokens[winner["player"]])
    assert [(item["rank"], item["payload"], item["claimed_at"] is not None) for item in claimed] == [
        (1, {"coins": 100}, True)]  # never taken back
    for entry, (rank, payload) in zip(entries[1:], [(1, {"coins": 100}), (2, {"coins": 50}), (3, {"coins": 50}),
                                                    (4, {"badge": "took part"})], strict=True):
        items = inbox(stack, entry["player"], tokens[entry["player"]])
        assert [(item["rank"], item["payload"]) for item in items] == [(rank, payload)], entry
    flags = stack.get("/v1/rewards/flagged", headers=moderator).json()
    assert flags["total"] == 1
    flag = flags["flags"][0]
    assert (flag["player"], flag["reward"], flag["now_earned"]) == (winner["player"], f"tournament-{ended['id']}",
                                                                    None)
    assert flag["claimed"]["payload"] == {"coins": 100}


def test_a_players_export_holds_their_inbox(stack, ended):
    first = ended["entries"][0]["player"]
    export = stack.get(f"/v1/players/{first}/export", headers=bearer(ended["tokens"][first]))
    assert export.status_code == 200, export.text
    assert export.json()["rewards"] == inbox(stack, first, ended["tokens"][first]) != []


def test_an_erased_player_leaves_no_reward_behind(stack, ended):
    last = ended["entries"][-1]["player"]
    erased = stack.http.delete(stack.url(f"/v1/players/{last}"), headers=bearer(ended["tokens"][last]))
    assert erased.status_code == 200, erased.text
    db = stack.database()
    try:
        assert not db.redis.exists(keys.inbox(last))
        assert db.redis.hget(keys.rewards_granted(f"tournament:{ended['id']}"), last) is None
        assert db.redis.hlen(keys.rewards_granted(f"tournament:{ended['id']}")) == ENTRANTS - 1
    finally:
        db.close()
