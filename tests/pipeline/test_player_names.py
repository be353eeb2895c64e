"""A name is found by exactly what registering takes (``schemas.players.name_key``): ASCII letters in any
case, nothing that merely lower-cases into a name. The Kelvin sign (U+212A) lower-cases to ``k`` in
Python, so without that rule ``Kate`` spelled with it found ``kate`` and followed her, a name no one
could register."""

from urllib.parse import quote

import pytest

from schemas.players import name_key

KELVIN = "\u212a"


@pytest.fixture(scope="module")
def kate(stack) -> tuple[str, str]:
    return stack.register("kate")


@pytest.fixture(scope="module")
def bob(stack) -> tuple[str, str]:
    return stack.register("bob-names")


def _bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize("text,key", [
    ("Kate", "kate"), ("KATE_2", "kate_2"), (f"{KELVIN}ate", None), ("kate\n", None), ("ka", None),
    ("k\u0131te", None), ("kät", None), ("___", None),
])
def test_one_function_says_what_a_name_is_and_how_names_compare(text, key):
    assert name_key(text) == key


@pytest.mark.parametrize("name", ["kate\n", f"{KELVIN}ate", "\uff4bate"])  # a newline; Kelvin; a fullwidth k
def test_registering_a_name_that_is_not_one_is_a_422(stack, kate, name):
    answer = stack.post("/v1/players", json={"name": name})
    assert answer.status_code == 422 and list(answer.json()["errors"]) == ["name"], answer.text


def test_a_name_with_a_kelvin_sign_finds_no_player(stack, kate):
    assert stack.get("/v1/players/KATE/runs").json()["player"] == "kate"  # any case of ASCII finds her
    answer = stack.get(f"/v1/players/{quote(KELVIN)}ate/runs")
    assert answer.status_code == 404, answer.text
    assert stack.get(f"/players/{quote(KELVIN)}ate").status_code == 404
    among = stack.get("/v1/leaderboards/classic", params={"among": f"{KELVIN}ate"})
    assert among.status_code == 422 and list(among.json()["errors"]) == ["among"]


def test_a_follow_through_a_kelvin_sign_does_not_succeed(stack, kate, bob):
    (_, kate_token), (_, bob_token) = kate, bob
    followed = stack.http.put(stack.url(f"/v1/players/bob-names/following/{quote(KELVIN)}ate"),
                              headers=_bearer(bob_token), timeout=10)
    assert followed.status_code == 404, followed.text
    as_kate = stack.http.put(stack.url(f"/v1/players/{quote(KELVIN)}ate/following/bob-names"),
                             headers=_bearer(kate_token), timeout=10)
    assert as_kate.status_code == 403, as_kate.text
    assert stack.get("/v1/players/kate/following").json()["total"] == 0
    assert stack.get("/v1/players/bob-names/following").json()["total"] == 0
    assert stack.http.put(stack.url("/v1/players/bob-names/following/KATE"), headers=_bearer(bob_token),
                          timeout=10).status_code == 204  # her name in another ASCII case is her name
