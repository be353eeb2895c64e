"""A forced rename over the API and the command line (``POST /v1/players/<name>/rename``, ``scoundrel player
rename``): the moderators' door and its refusals, every board the player is on the same under the new name,
their token and studio link acting as the new name, the old name answering 404 and resting, the moderators'
log and the studios told (``player.renamed``)."""

import json
import time

import jwt
import pytest

from tests.support.commands import run_command
from tests.support.games import legal_games
from tests.support.in_process import stack_of

STUDIO, AUDIENCE, SECRET = "https://studio.example", "scoundrel-referee", "a-long-shared-secret-of-the-studio"
GAMES = legal_games(3)


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def studio(subject: str, nickname: str) -> dict:
    payload = {"iss": STUDIO, "aud": AUDIENCE, "sub": subject, "exp": int(time.time()) + 600, "nickname": nickname}
    return bearer(jwt.encode(payload, SECRET, algorithm="HS256"))


@pytest.fixture(scope="module")
def stack(request):
    issuers = [{"issuer": STUDIO, "audience": AUDIENCE, "secret": SECRET, "name_claim": "nickname"}]
    yield from stack_of(request, env={"SCOUNDREL_JWT_ISSUERS": json.dumps(issuers)})


def boards(stack, *players: str) -> dict:
    """Each board of the classic game, every entry: rank, player, score, run."""
    paths = ["/v1/leaderboards/classic", f"/v1/seeds/{GAMES[0]['seed']}/leaderboard"]
    return {path: [(entry["rank"], entry["player"], entry["score"], entry["run_id"])
                   for entry in stack.get(path).json()["entries"]] for path in paths}


@pytest.fixture(scope="module")
def players(stack, moderator):
    """rude (a studio's player, following bob and followed by him) and bob, each with runs on the boards."""
    rude = studio("acct-9", "rude")
    assert stack.get("/v1/players/me", headers=rude).json() == {"name": "rude"}
    _, bob = stack.register("bob")
    for headers, games in ((rude, GAMES[:2]), (bearer(bob), GAMES[:1])):
        for game in games:
            stack.wait_final(stack.post("/v1/runs", json=game, headers=headers).json()["id"])
    assert stack.http.put(stack.url("/v1/players/rude/following/bob"), headers=rude).status_code == 204
    assert stack.http.put(stack.url("/v1/players/bob/following/rude"), headers=bearer(bob)).status_code == 204
    sealed = stack.post("/v1/games", json={"challenge": "daily"}, headers=rude)  # in play across the rename
    assert sealed.status_code == 201, sealed.text
    return {"rude": rude, "bob": bearer(bob), "game": sealed.json()["id"]}


def test_only_a_moderator_renames_and_a_refusal_says_why(stack, moderator, players):
    assert stack.post("/v1/players/rude/rename", json={"name": "ann"}).status_code == 401
    assert stack.post("/v1/players/rude/rename", json={"name": "ann"}, headers=players["bob"]).status_code == 403
    missing = stack.post("/v1/players/nobody/rename", json={"name": "ann"}, headers=bearer(moderator))
    assert missing.status_code == 404
    for bad in ("a", "no spaces", "deleted-4"):
        refused = stack.post("/v1/players/rude/rename", json={"name": bad}, headers=bearer(moderator))
        assert refused.status_code == 422 and list(refused.json()["errors"]) == ["name"], refused.text
    taken = stack.post("/v1/players/rude/rename", json={"name": "BOB"}, headers=bearer(moderator))
    assert taken.status_code == 409 and "'BOB' is taken" in taken.json()["message"]
    unknown = stack.post("/v1/players/rude/rename", json={"nom": "x"}, headers=bearer(moderator))
    assert unknown.status_code == 422 and "nom" in unknown.json()["errors"]


def test_a_rename_keeps_every_place_and_the_old_name_rests(stack, moderator, players, receiver):
    hook = stack.post("/v1/webhooks", json={"url": receiver.url("/renamed"), "events": ["player.renamed"]},
                      headers=bearer(moderator))
    assert hook.status_code == 201, hook.text
    before = boards(stack)
    ranked = stack.get("/v1/leaderboards/classic/players/rude").json()

    renamed = stack.post("/v1/players/RUDE/rename", json={"name": "Ann"}, headers=bearer(moderator))

    assert (renamed.status_code, renamed.json()) == (200, {"player": "Ann", "previous": "rude"})
    assert boards(stack) == {path: [(rank, "Ann" if player == "rude" else player, score, run)
                                    for rank, player, score, run in entries] for path, entries in before.items()}
    place = stack.get("/v1/leaderboards/classic/players/ann").json()
    assert {**place, "around": None} == {**ranked, "around": None}
    assert [entry["player"] for entry in place["around"]] == [
        "Ann" if entry["player"] == "rude" else entry["player"] for entry in ranked["around"]]
    assert stack.get("/v1/players/me", headers=players["rude"]).json() == {"name": "Ann"}  # the studio's link
    assert stack.get("/v1/players/ann/runs").json()["total"] == 2
    assert [entry["player"] for entry in stack.get("/v1/leaderboards/classic?among=bob").json()["entries"]] in (
        ["Ann", "bob"], ["bob", "Ann"])  # bob follows Ann
    assert "bob" in {entry["player"] for entry in stack.get("/v1/leaderboards/classic?among=Ann").json()["entries"]}

    ended = stack.post(f"/v1/games/{players['game']}/forfeit", json={}, headers=players["rude"])
    assert ended.status_code == 200, ended.text  # the game in play is the new name's, and so is its run
    assert stack.wait_final(ended.json()["run_id"])["player"] == "Ann"
    assert stack.get("/v1/players/Ann/streak").json()["current"] == 1  # the sealed daily counted in their streak
    assert stack.post("/v1/games", json={"challenge": "daily"}, headers=players["rude"]).status_code == 409

    for path in ("/v1/players/rude", "/v1/players/rude/runs", "/v1/leaderboards/classic/players/rude",
                 "/players/rude"):
        assert stack.get(path).status_code == 404, path
    again = stack.post("/v1/players", json={"name": "Rude"})
    assert again.status_code == 409 and again.json()["reason"] == "name_resting"

    log = stack.get("/v1/moderation-log", headers=bearer(moderator)).json()["entries"][0]
    assert log | {"at": None} == {"action": "rename", "player": "Ann", "previous": "rude", "moderator": "mia",
                                  "at": None, "until": None}
    [event] = [json.loads(body) for _, body in receiver.wait("/renamed", 1, stack)]
    assert (event["event"], event["player"], event["previous"], event["links"]) == (
        "player.renamed", "Ann", "rude", [{"issuer": STUDIO, "subject": "acct-9"}])


def test_without_a_name_the_player_becomes_player_n(stack, moderator, players):
    renamed = stack.post("/v1/players/bob/rename", json={}, headers=bearer(moderator))
    assert (renamed.status_code, renamed.json()["previous"]) == (200, "bob")
    assert renamed.json()["player"].startswith("player-")
    assert stack.get(f"/v1/players/{renamed.json()['player']}/runs").json()["total"] == 1
    submitted = stack.post("/v1/runs", json=GAMES[2], headers=players["bob"])  # the token the API saw as bob's
    assert submitted.status_code == 202, submitted.text
    assert submitted.json()["player"] == renamed.json()["player"]


def test_the_command_line_renames_with_one_line_refusals(stack, moderator, players):
    done = run_command(stack.env(), "player", "rename", "ann", "--to", "Annie", "--moderator", "olga")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("scoundrel player: Ann is now Annie")
    for args, said, status in ((("rename", "nobody", "--to", "x-y-z"), "no player named 'nobody'", 1),
                               (("rename", "annie", "--to", "Ann"), "was erased or renamed recently", 1),
                               (("rename", "annie", "--to", "a b"), "Name must be 3-32 characters", 2)):
        refused = run_command(stack.env(), "player", *args)
        assert refused.returncode == status and "Traceback" not in refused.stderr
        assert said in refused.stderr.strip().splitlines()[-1]
