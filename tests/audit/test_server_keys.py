"""Issue 33, item 2: a studio's server key, its whole life over the real processes: made by the operator's
command (shown once), listed; its backend registers a player linked to an account id, finds them by it,
recovers their account with a new token (the old one stops working), submits runs and plays dealt games for
them (``X-Scoundrel-Player``), its runs' audit entries naming the key; nothing a moderator may; revoked, it
stops working."""

import pytest

from tests.support.commands import run_command
from tests.support.games import legal_games


def bearer(token: str, player: str | None = None) -> dict:
    return {"Authorization": f"Bearer {token}", **({"X-Scoundrel-Player": player} if player else {})}


@pytest.fixture(scope="module")
def key(stack) -> str:
    added = run_command(stack.env(), "server-key", "add", "studio")
    assert added.returncode == 0, added.stderr
    assert added.stdout.splitlines()[0] == "Server key studio created. Its token is shown this once; keep it secret:"
    return added.stdout.splitlines()[-1]


def test_the_operator_lists_keys_and_a_name_is_one_key(stack, key):
    assert key.startswith("sr_srv_")
    listed = run_command(stack.env(), "server-key", "list")
    assert listed.returncode == 0 and listed.stdout.startswith("studio\t")
    again = run_command(stack.env(), "server-key", "add", "STUDIO")
    assert (again.returncode, again.stdout) == (1, "")
    assert again.stderr.splitlines()[-1] == ("scoundrel server-key add: a server key named 'studio' exists "
                                             "(names ignore case)")


def test_a_backend_registers_a_player_by_account_id_and_finds_them(stack, key):
    made = stack.post("/v1/server/players", json={"name": "zed", "external_id": "acct-9"}, headers=bearer(key))
    assert (made.status_code, made.json()) == (201, {"name": "zed", "external_id": "acct-9"})
    again = stack.post("/v1/server/players", json={"name": "zoe", "external_id": "acct-9"}, headers=bearer(key))
    assert (again.status_code, again.json()["name"]) == (200, "zed")
    assert stack.get("/v1/server/players/acct-9", headers=bearer(key)).json() == {"name": "zed",
                                                                                   "external_id": "acct-9"}
    assert stack.get("/v1/server/players/acct-0", headers=bearer(key)).status_code == 404
    bad = stack.post("/v1/server/players", json={"name": "zip", "external_id": "a b"}, headers=bearer(key))
    assert bad.status_code == 422 and "external_id" in bad.json()["errors"]
    _, player_token = stack.register("pia")
    assert stack.get("/v1/server/players/acct-9", headers=bearer(player_token)).status_code == 401


def test_it_acts_for_a_named_player_and_its_runs_say_so(stack, key):
    stack.post("/v1/server/players", json={"name": "yan", "external_id": "acct-5"}, headers=bearer(key))
    submitted = stack.post("/v1/runs", json=legal_games(1)[0], headers=bearer(key, "YAN"))
    assert submitted.status_code == 202, submitted.text
    run = stack.wait_final(submitted.json()["id"])
    assert run["player"] == "yan"
    [entry, *_] = stack.get(f"/v1/runs/{run['id']}/audit-log").json()["entries"]
    assert (entry["event"], entry["actor"]) == ("submitted", {"kind": "server_key", "name": "studio"})
    started = stack.post("/v1/games", json={}, headers=bearer(key, "yan"))
    assert started.status_code == 201 and started.json()["player"] == "yan"
    moved = stack.post(f"/v1/games/{started.json()['id']}/moves", json={"moves": [started.json()["legal_moves"][0]]},
                       headers=bearer(key, "yan"))
    assert moved.status_code == 200, moved.text
    ended = stack.post(f"/v1/games/{started.json()['id']}/forfeit", json={}, headers=bearer(key, "yan")).json()
    [entry, *_] = stack.get(f"/v1/runs/{ended['run_id']}/audit-log").json()["entries"]
    assert (entry["event"], entry["actor"]) == ("submitted", {"kind": "server_key", "name": "studio"})
    missing = stack.post("/v1/runs", json=legal_games(2)[1], headers=bearer(key))
    assert missing.status_code == 422 and list(missing.json()["errors"]) == ["X-Scoundrel-Player"]
    assert stack.post("/v1/runs", json=legal_games(2)[1], headers=bearer(key, "nobody-here")).status_code == 404
    assert stack.get("/v1/disputes", headers=bearer(key, "yan")).status_code == 403  # nothing a moderator may


def test_account_recovery_issues_a_new_token_and_the_old_one_stops(stack, key):
    stack.post("/v1/server/players", json={"name": "xia", "external_id": "acct-3"}, headers=bearer(key))
    first = stack.post("/v1/server/players/acct-3/token", headers=bearer(key)).json()
    assert first["name"] == "xia" and first["token"].startswith("sr_")
    assert stack.post("/v1/runs", json=legal_games(3)[2], headers=bearer(first["token"])).status_code == 202
    second = stack.post("/v1/server/players/acct-3/token", headers=bearer(key)).json()
    assert stack.post("/v1/runs", json=legal_games(4)[3], headers=bearer(first["token"])).status_code == 401
    assert stack.post("/v1/runs", json=legal_games(4)[3], headers=bearer(second["token"])).status_code == 202


def test_a_revoked_key_stops_working(stack):
    added = run_command(stack.env(), "server-key", "add", "old-backend")
    old = added.stdout.splitlines()[-1]
    assert stack.get("/v1/server/players/acct-9", headers=bearer(old)).status_code == 200
    revoked = run_command(stack.env(), "server-key", "revoke", "old-backend")
    assert (revoked.returncode, revoked.stdout.strip()) == (0, "Server key old-backend revoked; its token no "
                                                                "longer works.")
    assert stack.get("/v1/server/players/acct-9", headers=bearer(old)).status_code == 401
    assert stack.post("/v1/runs", json=legal_games(5)[4], headers=bearer(old, "zed")).status_code == 401
    assert run_command(stack.env(), "server-key", "revoke", "old-backend").returncode == 1
