"""Issue 4: every moderator endpoint answers 401 without a token and 403 to a player's token."""

import pytest

from .conftest import bearer, cli

MODERATOR_ENDPOINTS = [
    ("GET", "/v1/disputes", None),
    ("POST", "/v1/disputes/{dispute}/resolve", {"decision": "uphold", "note": "fine"}),
    ("POST", "/v1/runs/{run}/restore", None),
    ("POST", "/v1/runs/{run}/reverify", None),
]


@pytest.fixture(scope="module")
def scene(stack):
    name, token = stack.register()
    run = stack.submit(token, {"seed": "auth-1", "moves": ["flee"]}).json()
    stack.wait_final(run["id"])
    dispute = stack.post(f"/v1/runs/{run['id']}/disputes", json={"reason": "odd"}, headers=bearer(token))
    assert dispute.status_code == 201, dispute.text
    return {"token": token, "run": run["id"], "dispute": dispute.json()["id"]}


def _call(stack, method, path, body, scene, headers):
    url = path.format(run=scene["run"], dispute=scene["dispute"])
    return stack.http.request(method, stack.url(url), json=body, headers=headers, timeout=10)


@pytest.mark.parametrize("method,path,body", MODERATOR_ENDPOINTS)
def test_a_moderator_endpoint_without_a_token_is_401(stack, scene, method, path, body):
    response = _call(stack, method, path, body, scene, {})
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize("method,path,body", MODERATOR_ENDPOINTS)
def test_a_moderator_endpoint_with_a_wrong_token_is_401(stack, scene, method, path, body):
    assert _call(stack, method, path, body, scene, bearer("sr_mod_not-a-token")).status_code == 401


@pytest.mark.parametrize("method,path,body", MODERATOR_ENDPOINTS)
def test_a_moderator_endpoint_with_a_players_token_is_403(stack, scene, method, path, body):
    response = _call(stack, method, path, body, scene, bearer(scene["token"]))
    assert response.status_code == 403
    assert "moderator" in response.json()["message"]


@pytest.mark.parametrize("method,path,body", MODERATOR_ENDPOINTS)
def test_a_moderator_endpoint_with_a_moderators_token_passes(stack, scene, moderator, method, path, body):
    assert _call(stack, method, path, body, scene, bearer(moderator)).status_code in (200, 409)


def test_filing_a_dispute_needs_a_player_token(stack, scene, moderator):
    path = f"/v1/runs/{scene['run']}/disputes"
    assert stack.post(path, json={"reason": "odd"}).status_code == 401
    assert stack.post(path, json={"reason": "odd"}, headers=bearer("sr_nope")).status_code == 401
    # a moderator is not a player: moderators settle disputes, they do not file them
    assert stack.post(path, json={"reason": "odd"}, headers=bearer(moderator)).status_code == 401


def test_the_replay_and_the_audit_log_are_public(stack, scene):
    assert stack.get(f"/v1/runs/{scene['run']}/replay").status_code == 200
    assert stack.get(f"/v1/runs/{scene['run']}/audit-log").status_code == 200


def test_a_moderator_name_is_one_name_in_every_case_and_free_again_once_revoked(stack):
    assert cli(stack, "moderator", "add", "Case-Mod").returncode == 0
    taken = cli(stack, "moderator", "add", "CASE-MOD")
    assert taken.returncode == 1
    assert taken.stderr.splitlines()[-1] == \
        "scoundrel moderator add: a moderator named 'Case-Mod' exists (names ignore case)"
    same = cli(stack, "moderator", "add", "Case-Mod")
    assert same.stderr.splitlines()[-1] == "scoundrel moderator add: a moderator named 'Case-Mod' exists"
    revoked = cli(stack, "moderator", "revoke", "CASE-mod")  # any case, as every name lookup
    assert revoked.returncode == 0, revoked.stderr
    assert revoked.stdout.strip() == "Moderator Case-Mod revoked; its token no longer works."
    assert "Case-Mod\t" not in cli(stack, "moderator", "list").stdout
    again = cli(stack, "moderator", "add", "case-mod")
    assert again.returncode == 0, again.stderr
    assert "case-mod\t" in cli(stack, "moderator", "list").stdout
