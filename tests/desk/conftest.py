"""What the desk's tests share: a browser-like client of the desk (its own cookies, its Origin), signed in."""

import re

import pytest
import requests

from tests.support.games import moderator_token, winning_moves

CSRF = re.compile(r'name="csrf" value="([^"]+)"')
SEEN = re.compile(r'name="seen" value="(\d+)"')
WON_SEED = "desk-1"


class Desk:
    """One moderator's browser at the desk: a session of its own (cookies), sending its origin with each POST
    as a browser does, and the CSRF token of the last page it read."""

    def __init__(self, stack):
        self.stack = stack
        self.http = requests.Session()
        self.http.trust_env = stack.http.trust_env  # the in-process stack's looks up no proxy (in_process_session)
        for prefix, adapter in stack.http.adapters.items():  # the in-process stack's transport, if it has one
            self.http.mount(prefix, adapter)
        self.origin = stack.base.rstrip("/")
        self.csrf = ""
        self.seen = ""

    def get(self, path: str, **kwargs) -> requests.Response:
        response = self.http.get(self.stack.url(path), timeout=10, allow_redirects=False, **kwargs)
        if found := CSRF.search(response.text):
            self.csrf = found.group(1)
        if found := SEEN.search(response.text):
            self.seen = found.group(1)
        return response

    def post(self, path: str, data: dict | None = None, *, csrf: bool = True, origin: str | None = "",
             headers: dict | None = None, **kwargs) -> requests.Response:
        """POST a form as the desk's page would (its CSRF token and the page's ``seen``, unless given or left
        out), with the desk's origin (``origin``: another, or None for none)."""
        form = {**({"csrf": self.csrf, "seen": self.seen} if csrf else {}), **(data or {})}
        headers = {**({} if origin is None else {"Origin": origin or self.origin}), **(headers or {})}
        return self.http.post(self.stack.url(path), data=form, headers=headers, timeout=10, allow_redirects=False,
                              **kwargs)

    def sign_in(self, token: str) -> requests.Response:
        response = self.post("/desk/sign-in", {"token": token}, csrf=False)
        assert response.status_code == 303, response.text
        self.get("/desk")
        return response


@pytest.fixture(scope="module")
def mia(moderator):
    """Mia's moderator token (the tests' ``moderator``), by the name the desk's tests call her."""
    return moderator


@pytest.fixture(scope="module")
def ned(stack):
    """Another moderator's token (ned)."""
    return moderator_token(stack, "ned")


@pytest.fixture
def desk(stack, mia):
    """Mia's browser at the desk, signed in."""
    signed = Desk(stack)
    signed.sign_in(mia)
    return signed


def won_run(stack, token: str, seed: str = WON_SEED) -> dict:
    response = stack.submit(token, {"seed": seed, "moves": winning_moves(seed)})
    assert response.status_code == 202, response.text
    return stack.wait_final(response.json()["id"])


def dispute(stack, token: str, run_id: str, reason: str = "C14w after a C13 kill is not legal") -> dict:
    response = stack.post(f"/v1/runs/{run_id}/disputes", json={"reason": reason},
                          headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 201, response.text
    return response.json()
