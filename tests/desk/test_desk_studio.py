"""Issue 46: signing in at the desk with a studio's own token whose role claim holds ``moderator``
(``moderator_claim`` in ``SCOUNDREL_JWT_ISSUERS``), and the session cookie behind a trusted proxy that says the
request came over TLS (``SCOUNDREL_TRUSTED_PROXIES``)."""

import json
import time

import jwt
import pytest

from tests.support.in_process import stack_of

from .conftest import Desk

STUDIO, OTHER, AUDIENCE = "https://studio.example", "https://other.example", "scoundrel"
SECRET = "a-long-shared-secret-of-the-desk-studio"


@pytest.fixture(scope="module")
def stack(request):
    issuers = [{"issuer": STUDIO, "audience": AUDIENCE, "secret": SECRET, "name_claim": "nickname",
                "moderator_claim": "roles"},
               {"issuer": OTHER, "audience": AUDIENCE, "secret": SECRET}]
    yield from stack_of(request, env={"SCOUNDREL_JWT_ISSUERS": json.dumps(issuers), "SCOUNDREL_TRUSTED_PROXIES": "1"})


def token(issuer: str = STUDIO, **claims) -> str:
    return jwt.encode({"iss": issuer, "aud": AUDIENCE, "sub": "staff-7", "exp": int(time.time()) + 600, **claims},
                      SECRET, algorithm="HS256")


@pytest.mark.parametrize("roles", [["player", "moderator"], "support moderator"])
def test_a_studio_token_holding_the_moderator_role_signs_in(stack, roles):
    desk = Desk(stack)
    desk.sign_in(token(roles=roles, nickname="Vera"))
    page = desk.get("/desk")
    assert page.status_code == 200 and "Signed in as <strong>Vera</strong>" in page.text


@pytest.mark.parametrize("studio_token", [token(roles=["player"]), token(), token(OTHER, roles=["moderator"]),
                                          token(roles="moderators")])
def test_a_studio_token_without_the_role_is_refused(stack, studio_token):
    answer = Desk(stack).post("/desk/sign-in", {"token": studio_token}, csrf=False)
    assert answer.status_code == 401 and "Set-Cookie" not in answer.headers


def test_an_expired_studio_token_is_refused_with_its_reason(stack):
    expired = jwt.encode({"iss": STUDIO, "aud": AUDIENCE, "sub": "x", "exp": int(time.time()) - 600,
                          "roles": ["moderator"]}, SECRET, algorithm="HS256")
    answer = Desk(stack).post("/desk/sign-in", {"token": expired}, csrf=False)
    assert answer.status_code == 401 and "expired" in answer.text


def test_the_cookie_is_secure_when_a_trusted_proxy_says_the_request_came_over_tls(stack):
    answer = Desk(stack).post("/desk/sign-in", {"token": token(roles=["moderator"])}, csrf=False,
                              origin="https://" + stack.base.split("://")[1].rstrip("/"),
                              headers={"X-Forwarded-Proto": "https"})
    assert answer.status_code == 303
    assert "Secure" in [part.strip() for part in answer.headers["Set-Cookie"].split(";")]
