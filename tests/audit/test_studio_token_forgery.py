"""Studio tokens that must not verify, through Flask's test client: each is a 401 with its reason, never a
500. A JWKS server in this process publishes real keys made with ``cryptography``: an RSA key that declares
``alg: RS256``, one that declares none, an EC P-256 key and an Ed25519 key. A token's algorithm must be one its
key verifies (the ``alg`` the key declares, else one of its kind), and a token may be valid for no longer than
``SCOUNDREL_JWT_MAX_LIFETIME``.

A token that verifies is a 403 ``not_linked`` here (no player is linked to its account): that answer is how
these tests tell "verified" from "refused"."""

import base64
import json
import logging
import time

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

from service.app import create_app
from service.sign_in import KEY_ALGORITHMS
from settings import JwtIssuer, Settings
from tests.support.served import Served

STUDIO, AUDIENCE = "https://studio.example", "scoundrel-referee"
MAX_LIFETIME = 3600
RSA_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
RSA_ANY_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
EC_KEYS = {"ES256": ec.generate_private_key(ec.SECP256R1()), "ES384": ec.generate_private_key(ec.SECP384R1()),
           "ES512": ec.generate_private_key(ec.SECP521R1())}
ED_KEY = ed25519.Ed25519PrivateKey.generate()


def _jwk(key, kid: str, alg: str | None) -> dict:
    """``key``'s public half as its JWKS publishes it, declaring ``alg`` (None: no ``alg``)."""
    kind = (jwt.algorithms.RSAAlgorithm if isinstance(key, rsa.RSAPrivateKey) else
            jwt.algorithms.ECAlgorithm if isinstance(key, ec.EllipticCurvePrivateKey) else jwt.algorithms.OKPAlgorithm)
    return {**json.loads(kind.to_jwk(key.public_key())), "kid": kid, "use": "sig", **({"alg": alg} if alg else {})}


JWKS = {"keys": [_jwk(RSA_KEY, "rsa", "RS256"), _jwk(RSA_ANY_KEY, "rsa-any", None),
                 _jwk(EC_KEYS["ES256"], "ec", "ES256"), _jwk(ED_KEY, "ed", None)]}


@pytest.fixture(scope="module")
def client(redis_url):
    keys = Served(lambda path: (200, "application/json", json.dumps(JWKS)))
    settings = Settings(redis_url=redis_url, rate_limit_token="", rate_limit_address="", rate_limit_server_key="",
                        jwt_issuers=(JwtIssuer(STUDIO, AUDIENCE, jwks_url=f"{keys.origin}/jwks.json"),),
                        jwt_max_lifetime=MAX_LIFETIME)
    yield create_app(settings).test_client()
    keys.close()


def token(key, algorithm: str, kid: str, **claims) -> str:
    payload = {"iss": STUDIO, "aud": AUDIENCE, "sub": "acct-forged", "exp": int(time.time()) + 600, **claims}
    return jwt.encode(payload, key, algorithm=algorithm, headers={"kid": kid})


def answer(client, signed: str) -> tuple[int, str | None]:
    got = client.get("/v1/players/me", headers={"Authorization": f"Bearer {signed}"})
    assert got.is_json, got.get_data(as_text=True)
    return got.status_code, got.json.get("reason")


REFUSED = (401, "bad_algorithm")
VERIFIED = (403, "not_linked")


@pytest.mark.parametrize("algorithm", ["ES256", "ES384", "ES512"])
@pytest.mark.parametrize("kid", ["rsa", "rsa-any"])
def test_an_ec_token_naming_an_rsa_key_is_a_401_not_a_500(client, caplog, algorithm, kid):
    with caplog.at_level(logging.WARNING):
        assert answer(client, token(EC_KEYS[algorithm], algorithm, kid)) == REFUSED
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


@pytest.mark.parametrize(("key", "algorithm", "kid"), [
    (RSA_KEY, "RS256", "ec"),  # an RSA token naming the EC key
    (ED_KEY, "EdDSA", "rsa"),  # an EdDSA token naming an RSA key
    (RSA_KEY, "RS256", "ed"),  # an RSA token naming the Ed25519 key
    (EC_KEYS["ES384"], "ES384", "ec"),  # the EC key's curve is P-256: ES256 only
])
def test_a_token_naming_a_key_of_another_kind_is_refused(client, key, algorithm, kid):
    assert answer(client, token(key, algorithm, kid)) == REFUSED


@pytest.mark.parametrize("algorithm", ["RS384", "RS512", "PS256", "PS512"])
def test_a_key_verifies_only_the_algorithm_it_declares(client, algorithm):
    assert answer(client, token(RSA_KEY, algorithm, "rsa")) == REFUSED
    assert answer(client, token(RSA_KEY, "RS256", "rsa")) == VERIFIED


@pytest.mark.parametrize(("key", "algorithm", "kid"), [
    (RSA_ANY_KEY, "RS256", "rsa-any"), (RSA_ANY_KEY, "PS256", "rsa-any"), (RSA_ANY_KEY, "RS512", "rsa-any"),
    (EC_KEYS["ES256"], "ES256", "ec"), (ED_KEY, "EdDSA", "ed"),
])
def test_a_key_declaring_no_algorithm_verifies_those_of_its_kind(client, key, algorithm, kid):
    assert answer(client, token(key, algorithm, kid)) == VERIFIED


@pytest.mark.parametrize("claims", [
    lambda now: {"exp": 1e300},
    lambda now: {"exp": now + MAX_LIFETIME + 120},  # valid from now for longer than the cap
    lambda now: {"iat": now - MAX_LIFETIME, "exp": now + 120},  # issued for longer than the cap
    lambda now: {"iat": str(now), "exp": str(now + 10 * MAX_LIFETIME)},  # claims as strings
], ids=["far-exp", "from-now", "issued", "strings"])
def test_a_token_valid_for_longer_than_the_cap_is_refused(client, claims):
    """The times are read as the test runs: a suite on a loaded machine runs a test minutes after collecting it."""
    assert answer(client, token(RSA_KEY, "RS256", "rsa", **claims(int(time.time())))) == (401, "token_too_long_lived")


@pytest.mark.parametrize("claims", [
    {"exp": int(time.time()) + MAX_LIFETIME - 60},
    {"iat": int(time.time()) - 60, "exp": int(time.time()) + MAX_LIFETIME - 120},
])
def test_a_token_valid_for_less_than_the_cap_verifies(client, claims):
    assert answer(client, token(RSA_KEY, "RS256", "rsa", **claims)) == VERIFIED


def _forged(algorithm: str, kid: str, signature: bytes) -> str:
    """A token naming ``algorithm`` and ``kid``, its signature ``signature``: nothing signed it."""
    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    head = b64(json.dumps({"alg": algorithm, "typ": "JWT", "kid": kid}).encode())
    body = b64(json.dumps({"iss": STUDIO, "aud": AUDIENCE, "sub": "acct-forged",
                           "exp": int(time.time()) + 600}).encode())
    return f"{head}.{body}.{b64(signature)}"


@pytest.mark.parametrize("algorithm", KEY_ALGORITHMS)
@pytest.mark.parametrize("kid", [key["kid"] for key in JWKS["keys"]])
@pytest.mark.parametrize("length", [0, 64, 132, 256])  # none; an ES256 or EdDSA's; an ES512's; an RSA-2048's
def test_every_algorithm_naming_every_key_with_a_forged_signature_is_a_401(client, algorithm, kid, length):
    status, reason = answer(client, _forged(algorithm, kid, bytes(range(256))[:length]))
    assert status == 401 and reason in ("bad_algorithm", "invalid_token"), (status, reason)
