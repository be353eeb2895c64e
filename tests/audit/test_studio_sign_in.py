"""Issue 33, item 1: players signed in with a studio's own tokens, through the service in this process. A JWKS
server in this process publishes RSA keys made with ``cryptography``; the API trusts it
(``SCOUNDREL_JWT_ISSUERS``) and an HMAC issuer too. A token acts as the player linked to its ``sub`` (made on
first use from a claim, or named once with ``POST /v1/players``), through every path a player's token takes;
each refusal is a 401 with its reason code and nothing more; a new key is found and a dropped one refused."""

import base64
import hashlib
import hmac
import json
import time

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from service import sign_in
from tests.games.table import Table
from tests.support.games import legal_games
from tests.support.in_process import stack_of
from tests.support.served import Served

STUDIO, HMAC_STUDIO, AUDIENCE = "https://studio.example", "https://hmac.example", "scoundrel-referee"
SECRET = "a-long-shared-secret-of-the-hmac-studio"
# service.sign_in.KEYS_COOLDOWN_SECONDS (5 s) in this module's service: an unknown key id fetches the key set
# again at most so often, so a rotated key is found within it; the module waits one out
COOLDOWN = 1


class Keys(Served):
    """A JWKS endpoint on a free port, publishing whichever RSA keys the test puts in it."""

    def __init__(self):
        self.published: dict[str, rsa.RSAPrivateKey] = {}
        super().__init__(lambda path: (200, "application/json", json.dumps(
            {"keys": [self.jwk(kid, key) for kid, key in self.published.items()]})))
        self.url = f"{self.origin}/.well-known/jwks.json"

    @staticmethod
    def jwk(kid: str, key: rsa.RSAPrivateKey) -> dict:
        return {**json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key())), "kid": kid, "use": "sig",
                "alg": "RS256"}


def new_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def signed(key, kid: str, subject: str, **claims) -> str:
    payload = {"iss": STUDIO, "aud": AUDIENCE, "sub": subject, "exp": int(time.time()) + 600, **claims}
    return jwt.encode(payload, key, algorithm="RS256", headers={"kid": kid})


def hmac_signed(subject: str, **claims) -> str:
    payload = {"iss": HMAC_STUDIO, "aud": AUDIENCE, "sub": subject, "exp": int(time.time()) + 600, **claims}
    return jwt.encode(payload, SECRET, algorithm="HS256")


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def forged_hmac(public_pem: bytes, subject: str) -> str:
    """The HS/RS confusion: a token "signed" with HMAC-SHA256 keyed by the issuer's public key."""
    head = b64(json.dumps({"alg": "HS256", "typ": "JWT", "kid": "a"}).encode())
    body = b64(json.dumps({"iss": STUDIO, "aud": AUDIENCE, "sub": subject, "exp": int(time.time()) + 600}).encode())
    signature = hmac.new(public_pem, f"{head}.{body}".encode(), hashlib.sha256).digest()
    return f"{head}.{body}.{b64(signature)}"


def unsigned(subject: str) -> str:
    head = b64(json.dumps({"alg": "none", "typ": "JWT"}).encode())
    body = b64(json.dumps({"iss": STUDIO, "aud": AUDIENCE, "sub": subject, "exp": int(time.time()) + 600}).encode())
    return f"{head}.{body}."


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def keys():
    running = Keys()
    running.published["a"] = new_key()
    yield running
    running.close()


@pytest.fixture(scope="module")
def stack(request, keys):
    issuers = [{"issuer": STUDIO, "audience": AUDIENCE, "jwks_url": keys.url, "name_claim": "nickname"},
               {"issuer": HMAC_STUDIO, "audience": AUDIENCE, "secret": SECRET}]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sign_in, "KEYS_COOLDOWN_SECONDS", COOLDOWN)
        yield from stack_of(request, env={"SCOUNDREL_JWT_ISSUERS": json.dumps(issuers)})


def test_a_first_token_makes_its_player_from_the_claim_and_every_player_path_takes_it(stack, keys):
    token = signed(keys.published["a"], "a", "acct-1", nickname="kiri")
    submitted = stack.submit(token, legal_games(1)[0])
    assert submitted.status_code == 202, submitted.text
    run = stack.wait_final(submitted.json()["id"])
    assert (run["player"], run["status"]) == ("kiri", "verified")
    table = Table(stack, token, __import__("random").Random(7))
    assert table.start()["player"] == "kiri"
    assert table.play_to_the_end()["status"] in ("won", "lost")  # every move through the studio's token
    again = signed(keys.published["a"], "a", "acct-1", nickname="someone-else")
    assert stack.get("/v1/leagues/current", headers=bearer(again)).status_code == 200
    assert stack.get("/v1/players/kiri/games?status=playing", headers=bearer(again)).status_code == 200
    assert stack.get("/v1/players/someone-else/runs").status_code == 404  # the link holds, the claim named it once
    assert stack.get("/v1/players/me", headers=bearer(again)).json() == {"name": "kiri"}  # whose the token is
    for unfit in ("no spaces allowed", "deleted-12", "x"):  # no name, or an erased player's pseudonym
        refused = stack.get("/v1/leagues/current", headers=bearer(signed(keys.published["a"], "a", f"acct-{unfit}",
                                                                          nickname=unfit)))
        assert (refused.status_code, refused.json()["reason"]) == (403, "not_linked")


def test_an_issuer_without_a_name_claim_has_the_player_choose_a_name_once(stack):
    token = hmac_signed("acct-7")
    refused = stack.post("/v1/runs", json=legal_games(2)[1], headers=bearer(token))
    assert (refused.status_code, refused.json()["reason"]) == (403, "not_linked")
    assert stack.get("/v1/players/me", headers=bearer(token)).json()["reason"] == "not_linked"
    read = stack.get(f"/v1/games/{'0' * 32}", headers=bearer(token))  # a public read: answered as to anyone
    assert read.status_code == 404, read.text
    made = stack.post("/v1/players", json={"name": "hana"}, headers=bearer(token))
    assert (made.status_code, made.json()) == (201, {"name": "hana", "token": None})
    again = stack.post("/v1/players", json={"name": "other"}, headers=bearer(token))
    assert (again.status_code, again.json()) == (200, {"name": "hana", "token": None})
    taken = stack.post("/v1/players", json={"name": "hana"}, headers=bearer(hmac_signed("acct-8")))
    assert taken.status_code == 409
    assert stack.post("/v1/runs", json=legal_games(2)[1], headers=bearer(token)).status_code == 202
    _, own = stack.register("own-token")  # the service's own tokens keep working
    assert stack.post("/v1/runs", json=legal_games(3)[2], headers=bearer(own)).status_code == 202


def test_each_refusal_is_a_401_with_its_reason_and_nothing_more(stack, keys):
    key = keys.published["a"]
    pem = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    tampered = signed(key, "a", "acct-2", nickname="tam")
    tampered = tampered[:-4] + ("AAAA" if not tampered.endswith("AAAA") else "BBBB")
    cases = {
        "token_expired": signed(key, "a", "acct-2", nickname="exp", exp=int(time.time()) - 3600),
        "wrong_audience": signed(key, "a", "acct-2", nickname="aud", aud="another-service"),
        "unknown_issuer": jwt.encode({"iss": "https://evil.example", "aud": AUDIENCE, "sub": "x",
                                      "exp": int(time.time()) + 600}, key, algorithm="RS256",
                                     headers={"kid": "a"}),
        "unknown_key": signed(new_key(), "nobody-knows", "acct-2", nickname="kid"),
        "bad_algorithm": unsigned("acct-2"),
        "invalid_token": tampered,
    }
    cases_too = {"bad_algorithm": forged_hmac(pem, "acct-2")}
    for reason, token in [*cases.items(), *cases_too.items()]:
        answer = stack.post("/v1/runs", json=legal_games(1)[0], headers=bearer(token))
        assert (answer.status_code, answer.json().get("reason")) == (401, reason), (reason, answer.text)
        assert set(answer.json()) == {"code", "status", "message", "reason"}, answer.text
        assert "acct-2" not in answer.text and "kid" not in answer.text.lower()
        assert answer.headers["WWW-Authenticate"].startswith("Bearer")
    assert stack.get("/v1/players/exp/runs").status_code == 404  # no refused token made a player


def test_a_new_key_is_found_and_a_dropped_one_refused(stack, keys):
    old = keys.published["a"]
    before = signed(old, "a", "acct-3", nickname="rota")
    assert stack.get("/v1/leagues/current", headers=bearer(before)).status_code == 200
    keys.published = {"b": new_key()}  # the studio rotates: b published, a dropped
    after = signed(keys.published["b"], "b", "acct-3", nickname="rota")
    deadline = time.monotonic() + COOLDOWN + 10  # a bound for a failure only: a loaded machine's requests are slow
    while (answer := stack.get("/v1/leagues/current", headers=bearer(after))).status_code != 200:
        assert answer.json().get("reason") == "unknown_key", answer.text  # until the cooldown lets it fetch
        assert time.monotonic() < deadline, answer.text
        time.sleep(COOLDOWN / 5)
    dropped = stack.get("/v1/leagues/current", headers=bearer(signed(old, "a", "acct-3", nickname="rota")))
    assert (dropped.status_code, dropped.json()["reason"]) == (401, "unknown_key")
