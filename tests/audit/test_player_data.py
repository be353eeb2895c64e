"""Issue 33, items 3 and 4: a player's data exported and erased, over the real processes.

A player signed in with a studio's token plays everything the service has (open runs, a dealt game, the
sealed daily, a tournament game, a game left in play), follows and is followed, disputes a run; part of it
moves to the archive. Their export holds all of it, and only they or a server key may read it. Then the
day and the season close and the player is erased: a dump of Redis (every key, every value, RQ's job data
unpacked) and of the archive's tables holds the name nowhere; the open boards read as the remaining runs
give them, gap closed; the closed season's board and the day's sealed board keep the place under a pseudonym;
``scoundrel check`` is clean; the studios are told (``player.erased``); the name rests for its cool-off.
"""

import json
import time
import zlib
from datetime import UTC, datetime

import jwt
import pytest
import sqlalchemy as sa
from redis import Redis

from domain.seasons import season_at
from store.accounts.players import erased_name_key
from store.boards.seasons import close_season
from store.games.dealt import close_sealed_day
from tests.support.commands import run_command
from tests.support.games import legal_games, moderator_token, scoundrel_check
from tests.support.in_process import stack_of

STUDIO, AUDIENCE, SECRET = "https://studio.example", "scoundrel-referee", "the-studio-shares-this-secret-long"
ERASED = "quinn"  # spelt nowhere else in the store: any trace of it in a dump is the erased player's
COOL_OFF_DAYS = 1  # longer than any test takes: its end is brought about (``cool_off_ends``), not waited for


def studio_token(subject: str, **claims) -> str:
    payload = {"iss": STUDIO, "aud": AUDIENCE, "sub": subject, "exp": int(time.time()) + 600, **claims}
    return jwt.encode(payload, SECRET, algorithm="HS256")


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def stack(request):
    issuers = [{"issuer": STUDIO, "audience": AUDIENCE, "secret": SECRET, "name_claim": "nickname"}]
    yield from stack_of(request, env={"SCOUNDREL_JWT_ISSUERS": json.dumps(issuers),
                                      "SCOUNDREL_NAME_COOL_OFF_DAYS": repr(COOL_OFF_DAYS)})


def forfeited(stack, token: str, **start) -> dict:
    """A dealt game started with ``start`` and given up at once: its run, verified."""
    game = stack.post("/v1/games", json=start, headers=bearer(token))
    assert game.status_code == 201, game.text
    ended = stack.post(f"/v1/games/{game.json()['id']}/forfeit", json={}, headers=bearer(token)).json()
    return stack.wait_final(ended["run_id"])


def played(stack, token: str, moderator: str) -> dict:
    """Everything the erased player does: what their export must show."""
    auth = bearer(token)
    open_runs = [stack.wait_final(stack.submit(token, game).json()["id"]) for game in legal_games(2)]
    dealt = forfeited(stack, token)
    sealed = forfeited(stack, token, challenge="daily")
    tournament = stack.post("/v1/tournaments", headers=bearer(moderator), json={
        "title": "Open cup", "starts_at": datetime.now(UTC).isoformat(),
        "ends_at": datetime.fromtimestamp(time.time() + 3600, UTC).isoformat(), "join_required": False}).json()
    cup = forfeited(stack, token, tournament=tournament["id"])
    assert stack.http.put(stack.url("/v1/players/quinn/following/ruth"), headers=auth).status_code == 204
    dispute = stack.post(f"/v1/runs/{open_runs[0]['id']}/disputes", json={"reason": "Please look."}, headers=auth)
    assert dispute.status_code == 201, dispute.text
    in_play = stack.post("/v1/games", json={"variant": "easy"}, headers=auth).json()
    return {"runs": {run["id"] for run in [*open_runs, dealt, sealed, cup]}, "tournament": tournament["id"],
            "dispute": dispute.json()["id"], "in_play": in_play["id"], "sealed": sealed, "dealt": dealt}


def others_play(stack) -> dict[str, str]:
    """Two other players on the same boards: ruth (whom quinn follows) and sam (who follows quinn)."""
    tokens = {}
    for name, game in zip(("ruth", "sam"), legal_games(3)[1:], strict=True):
        _, tokens[name] = stack.register(name)
        stack.wait_final(stack.submit(tokens[name], game).json()["id"])
        forfeited(stack, tokens[name])
        forfeited(stack, tokens[name], challenge="daily")
    return tokens


def dump_redis(stack) -> str:
    """Every key and value of the stack's Redis as text, RQ's compressed job data unpacked."""
    redis = Redis.from_url(stack.env()["REDIS_URL"])  # bytes: RQ's job data is no text
    readers = {b"string": redis.get, b"hash": redis.hgetall, b"list": lambda key: redis.lrange(key, 0, -1),
               b"set": redis.smembers, b"zset": lambda key: redis.zrange(key, 0, -1), b"stream": redis.xrange}
    texts = []
    try:
        for key in redis.scan_iter(count=1000):
            kind = redis.type(key)
            if kind == b"none":  # gone since the scan found it (an expiry)
                continue
            value = readers[kind](key)
            texts.append(f"{key!r} {value!r}")
            if key.startswith(b"rq:job:") and (data := value.get(b"data")):
                texts.append(zlib.decompress(data).decode("latin-1"))
    finally:
        redis.close()
    return "\n".join(texts)


def dump_archive(stack) -> str:
    engine = sa.create_engine(stack.archive_url)
    try:
        with engine.connect() as connection:
            return "\n".join(str(row) for table in ("archived_runs", "archived_board_places")
                             for row in connection.execute(sa.text(f"SELECT * FROM {table}")))
    finally:
        engine.dispose()


def cool_off_ends(stack, name: str) -> None:
    """The cool-off of the erased ``name`` runs out, as its day's passing would: the rest's expiry comes now
    (Redis times it, and keeps the real clock)."""
    db = stack.database()
    try:
        assert db.redis.pexpire(erased_name_key(db, name), 0)
    finally:
        db.close()


def test_the_export_holds_everything_and_the_erasure_leaves_the_name_nowhere(stack, receiver):
    moderator = moderator_token(stack, "mia")
    hook = stack.post("/v1/webhooks", json={"url": receiver.url("/erased"), "events": ["player.erased"]},
                      headers=bearer(moderator))
    assert hook.status_code == 201, hook.text
    token = studio_token("acct-77", nickname=ERASED)
    tokens = others_play(stack)
    done = played(stack, token, moderator)
    assert stack.http.put(stack.url("/v1/players/sam/following/quinn"),
                          headers=bearer(tokens["sam"])).status_code == 204

    # the export: the player's own (their studio's token) or a server key's, nobody else's
    assert stack.get("/v1/players/quinn/export", headers=bearer(tokens["ruth"])).status_code == 403
    assert stack.get("/v1/players/quinn/export").status_code == 401
    assert stack.get("/v1/players/quinn/export", headers=bearer(moderator)).status_code == 403
    answer = stack.get("/v1/players/QUINN/export", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    assert answer.headers["Content-Disposition"] == 'attachment; filename="scoundrel-quinn.json"'
    export = answer.json()
    assert export["player"]["name"] == ERASED
    assert export["player"]["links"] == [{"issuer": STUDIO, "subject": "acct-77"}]
    assert {run["id"] for run in export["runs"]} == done["runs"]
    assert all(run["audit"] and run["audit"][0]["event"] == "submitted" for run in export["runs"])
    assert [game["id"] for game in export["games_in_play"]] == [done["in_play"]]
    assert export["games_in_play"][0]["seed"] is None  # a game in play's deck stays hidden, even here
    assert [followed["player"] for followed in export["following"]] == ["ruth"]
    assert export["followers"] == ["sam"]
    assert [dispute["id"] for dispute in export["disputes"]] == [done["dispute"]]
    assert [tournament["id"] for tournament in export["tournaments"]] == [done["tournament"]]
    assert export["tournaments"][0]["you"]["attempts_used"] == [1]
    assert len(export["leagues"]) == 1 and export["streak"]["current"] == 1
    boards = {place["board"] for place in export["places"]}
    today = done["sealed"]["date"]
    assert {"/v1/leaderboards/classic", "/v1/leaderboards/dealt/classic", f"/v1/daily/{today}/sealed/leaderboard",
            f"/v1/tournaments/{done['tournament']}/standings"} <= boards
    sealed_run = next(run for run in export["runs"] if run["id"] == done["sealed"]["id"])
    assert sealed_run["seed"] is None  # the sealed deck is not shown before its day is over
    key = run_command(stack.env(), "server-key", "add", "studio").stdout.splitlines()[-1]
    by_key = stack.get("/v1/players/quinn/export", headers=bearer(key)).json()
    assert {run["id"] for run in by_key["runs"]} == done["runs"]

    # the day and the season close (as midnight and the month's end do), old runs and cold boards go to the archive
    db = stack.database()
    try:
        close_sealed_day(db, today)
        season = season_at(db.seasons, int(time.time() * 1000))
        close_season(db, season)
    finally:
        db.close()
    archived = run_command(stack.env(), "archive", "--older-than", "0", "--quiet")
    assert archived.returncode == 0, archived.stderr
    assert "0 runs archived" not in archived.stdout
    sealed_before = stack.get(f"/v1/daily/{today}/sealed/leaderboard").json()["entries"]
    season_board = f"/v1/seasons/{season.id}/leaderboards/dealt/classic"
    season_before = stack.get(season_board).json()["entries"]
    assert ERASED in {entry["player"] for entry in sealed_before} & {entry["player"] for entry in season_before}

    # erased by the player themselves, with their studio's token
    assert stack.http.delete(stack.url("/v1/players/quinn"), headers=bearer(tokens["ruth"])).status_code == 403
    erasing = time.time()
    erased = stack.http.delete(stack.url("/v1/players/Quinn"), headers=bearer(token))
    assert (erased.status_code, erased.json()) == (200, {"name": ERASED, "erased": True, "finished": True})

    [(_, body)] = receiver.wait("/erased", 1, stack)
    event = json.loads(body)
    assert (event["event"], event["player"], event["links"]) == ("player.erased", ERASED,
                                                                 [{"issuer": STUDIO, "subject": "acct-77"}])
    pseudonym = event["pseudonym"]
    assert pseudonym.startswith("deleted-")
    assert ERASED not in dump_redis(stack).lower()
    assert ERASED not in dump_archive(stack).lower()

    # the open boards close the gap, as the remaining runs give them
    for board in ("/v1/leaderboards/classic", "/v1/leaderboards/dealt/classic",
                  f"/v1/tournaments/{done['tournament']}/standings"):
        entries = stack.get(board).json()["entries"]
        assert ERASED not in {entry["player"] for entry in entries}
        assert [entry["rank"] for entry in entries] == list(range(1, len(entries) + 1))
    best = {}
    for name in ("ruth", "sam"):
        for run in stack.get(f"/v1/players/{name}/runs").json()["runs"]:
            if run["origin"] == "open" and run["status"] == "verified":
                best[name] = max(best.get(name, run["score"]), run["score"])
    board = stack.get("/v1/leaderboards/classic").json()["entries"]
    assert [(entry["player"], entry["score"]) for entry in board] == sorted(best.items(), key=lambda item: -item[1])

    # history keeps the place under the pseudonym, with no run behind it
    for path, before in ((f"/v1/daily/{today}/sealed/leaderboard", sealed_before), (season_board, season_before)):
        after = stack.get(path).json()["entries"]
        assert [(entry["player"].replace(pseudonym, ERASED), entry["score"]) for entry in after] == \
               [(entry["player"], entry["score"]) for entry in before]
        assert next(entry for entry in after if entry["player"] == pseudonym)["run_id"] is None

    page = stack.get(f"/boards/sealed-{today}").text
    assert f">{pseudonym}<" in page and f"/players/{pseudonym}" not in page  # no player has that page

    checked = scoundrel_check(stack)
    assert checked.returncode == 0, checked.stderr
    log = stack.get("/v1/erasures", headers=bearer(moderator)).json()
    assert log["total"] == 1 and log["entries"][0]["pseudonym"] == pseudonym
    assert log["entries"][0]["by"] == {"kind": "player", "name": pseudonym}

    # gone for good: the tokens, the link; the name rests for its cool-off, then is anyone's
    assert stack.get("/v1/players/quinn/runs").status_code == 404
    assert stack.get("/v1/players/quinn/export", headers=bearer(key)).status_code == 404
    resting = stack.post("/v1/players", json={"name": "QUINN"})
    assert (resting.status_code, resting.json()["reason"]) == (409, "name_resting")
    assert stack.post("/v1/players", json={"name": pseudonym}).status_code == 422
    available = datetime.fromisoformat(resting.json()["available_at"]).timestamp()
    assert erasing + COOL_OFF_DAYS * 86_400 - 1 <= available <= time.time() + COOL_OFF_DAYS * 86_400
    cool_off_ends(stack, "quinn")
    again = stack.post("/v1/players", json={"name": "quinn"})
    assert again.status_code == 201, again.text
    assert stack.get("/v1/players/quinn/runs").json()["total"] == 0


def test_a_moderator_or_a_server_key_erases_and_nobody_else(stack):
    moderator = moderator_token(stack, "max")
    key = run_command(stack.env(), "server-key", "add", "backend").stdout.splitlines()[-1]
    for name in ("uma", "vic"):
        _, player_token = stack.register(name)
        stack.wait_final(stack.submit(player_token, legal_games(1)[0]).json()["id"])
    _, other = stack.register("wes")
    assert stack.http.delete(stack.url("/v1/players/uma")).status_code == 401
    assert stack.http.delete(stack.url("/v1/players/uma"), headers=bearer(other)).status_code == 403
    assert stack.http.delete(stack.url("/v1/players/nobody"), headers=bearer(moderator)).status_code == 404
    assert stack.http.delete(stack.url("/v1/players/uma"), headers=bearer(moderator)).status_code == 200
    assert stack.http.delete(stack.url("/v1/players/vic"), headers=bearer(key)).status_code == 200
    log = stack.get("/v1/erasures", headers=bearer(moderator)).json()["entries"]
    assert [entry["by"] for entry in log[:2]] == [{"kind": "server_key", "name": "backend"},
                                                  {"kind": "moderator", "name": "max"}]
    assert not {"uma", "vic"} & {entry["player"] for entry in stack.get("/v1/leaderboards/classic").json()["entries"]}
    assert stack.get("/v1/erasures", headers=bearer(other)).status_code == 403
