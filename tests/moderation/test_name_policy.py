"""The name policy (``SCOUNDREL_NAME_BLOCKLIST``): a blocklisted name, however it is spelt, is refused with a 422
``reason: name_not_allowed`` at every door a name comes in by: registration, a studio backend's registration,
a studio's name claim, a moderator's forced rename."""

import json
import time

import jwt
import pytest

from domain.names import NamePolicy, readings
from settings import Settings, SettingsError
from tests.support.commands import run_command
from tests.support.in_process import stack_of

STUDIO, AUDIENCE, SECRET = "https://studio.example", "scoundrel-referee", "a-long-shared-secret-of-the-studio"
BLOCKLIST = "# words no player may take\nvillain\n^ro+gue$\n\n"


def claimed(subject: str, nickname: str) -> dict:
    payload = {"iss": STUDIO, "aud": AUDIENCE, "sub": subject, "exp": int(time.time()) + 600, "nickname": nickname}
    return {"Authorization": f"Bearer {jwt.encode(payload, SECRET, algorithm='HS256')}"}


@pytest.fixture(scope="module")
def stack(request, tmp_path_factory):
    blocklist = tmp_path_factory.mktemp("names") / "blocklist.txt"
    blocklist.write_text(BLOCKLIST)
    issuers = [{"issuer": STUDIO, "audience": AUDIENCE, "secret": SECRET, "name_claim": "nickname"}]
    yield from stack_of(request, env={"SCOUNDREL_NAME_BLOCKLIST": str(blocklist),
                                      "SCOUNDREL_JWT_ISSUERS": json.dumps(issuers)})


def test_a_name_is_read_folded_and_each_one_read_both_ways():
    assert readings("Sc0und-R3L_") == {"scoundrel"}
    assert readings("V1LLA1N") == {"villain", "vlllaln"}
    policy = NamePolicy.of(("villain", "^ro+gue$"))
    assert not policy.allows("Vi11ain.99") and not policy.allows("R0OGUE") and not policy.allows("the_VILLAIN")
    assert policy.allows("rogue-one") and policy.allows("ada")


def test_the_blocklist_is_read_at_start_and_a_bad_one_stops_it(monkeypatch, tmp_path):
    blocklist = tmp_path / "blocklist.txt"
    blocklist.write_text(BLOCKLIST)
    monkeypatch.setenv("SCOUNDREL_NAME_BLOCKLIST", str(blocklist))
    assert Settings.from_env().name_blocklist == ("villain", "^ro+gue$")
    blocklist.write_text("fine\n(unclosed\n")
    with pytest.raises(SettingsError, match=r"SCOUNDREL_NAME_BLOCKLIST: line 2 is not a word or a regular expr"):
        Settings.from_env()
    monkeypatch.setenv("SCOUNDREL_NAME_BLOCKLIST", str(tmp_path / "missing.txt"))
    with pytest.raises(SettingsError, match="is not a readable text file"):
        Settings.from_env()


def refused(response) -> bool:
    return response.status_code == 422 and response.json()["reason"] == "name_not_allowed"


def test_registration_refuses_a_blocklisted_name(stack):
    assert refused(stack.post("/v1/players", json={"name": "VI11AIN-x"}))
    assert refused(stack.post("/v1/players", json={"name": "r0gue"}))
    assert stack.post("/v1/players", json={"name": "rogue-one"}).status_code == 201


def test_a_studio_backend_registration_refuses_it(stack):
    key = run_command(stack.env(), "server-key", "add", "backend").stdout.splitlines()[-1]
    body = {"name": "villainous", "external_id": "acct-1"}
    assert refused(stack.post("/v1/server/players", json=body, headers={"Authorization": f"Bearer {key}"}))


def test_a_studio_name_claim_is_refused_and_the_player_chooses_another(stack):
    headers = claimed("acct-2", "the-villain")
    assert refused(stack.get("/v1/players/me", headers=headers))
    assert stack.get("/v1/leaderboards/classic", headers=headers).status_code == 200  # a public read answers
    assert refused(stack.post("/v1/players", json={"name": "villain2"}, headers=headers))
    made = stack.post("/v1/players", json={"name": "hero"}, headers=headers)
    assert (made.status_code, made.json()) == (201, {"name": "hero", "token": None})
    assert stack.get("/v1/players/me", headers=headers).json() == {"name": "hero"}


def test_one_blocklisted_name_is_refused_at_all_three_doors(stack, moderator):
    spelt = "Th3-V1LL41N"  # villain, its letters spelt with digits
    assert refused(stack.post("/v1/players", json={"name": spelt}))
    assert refused(stack.get("/v1/players/me", headers=claimed("acct-3", spelt)))
    _, token = stack.register("plain-name")
    renamed = stack.post("/v1/players/plain-name/rename", json={"name": spelt},
                         headers={"Authorization": f"Bearer {moderator}"})
    assert refused(renamed) and list(renamed.json()["errors"]) == ["name"]
    assert stack.get("/v1/players/me", headers={"Authorization": f"Bearer {token}"}).json() == {"name": "plain-name"}
