"""Bursts: the same run submitted by 32 clients at once, four times each, is
one run; 320 distinct submissions from 32 clients at once are all accepted,
then all verified, none lost, and every board equals its recomputation from
the stored runs (``scoundrel check``). The clients are threads sending to the
API's app in this process (``tests.support.in_process``): what a burst
tests is the store's (each submission one atomic step in Redis, however
many arrive at once), which the clients' threads meet there as clients
over HTTP would; gunicorn's own handling of many connections is
``test_raw_http.py``'s.

A burst races only while its clients' requests are in flight together: 32
at once, however long it goes on. So each burst is a few rounds of every
client: the same run's first round all race for its creation and the rest
meet it stored; a player's distinct runs are sent by many clients at once,
the players one after another."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from store.base import keys
from store.queue.pending import pending_count
from tests.support.games import legal_games, scoundrel_check
from tests.support.in_process import in_process_session, stack_of

pytestmark = pytest.mark.slow

CLIENTS = 32
SAME_RUN = 4 * CLIENTS  # the same run's submissions
PLAYERS, GAMES = 16, 20  # each player submits every game: 320 distinct runs, a player's 20 sent at once


@pytest.fixture(scope="module")
def stack(request):
    yield from stack_of(request, env={"SCOUNDREL_LOG_LEVEL": "WARNING"})


RETRIES_503 = 3  # attempts of a client that is answered 503 with Retry-After
_sessions = threading.local()


def _post(stack, token: str, body: dict) -> requests.Response:
    """One session per client thread, as separate game clients would have.

    A client told 503 with ``Retry-After`` (Redis slow to answer, as on a
    loaded machine) sends the same submission again once it has waited, as
    the README asks: the submission is never lost, only delayed.
    """
    if not hasattr(_sessions, "http"):
        _sessions.http = in_process_session()
        _sessions.http.mount(stack.base, stack.http.get_adapter(stack.base))  # the stack's way to the API
    for _ in range(RETRIES_503):
        response = _sessions.http.post(stack.url("/v1/runs"), json=body,
                                       headers={"Authorization": f"Bearer {token}"}, timeout=60)
        if response.status_code != 503:
            return response
        time.sleep(int(response.headers["Retry-After"]))
    return response


def test_the_same_run_submitted_by_every_client_at_once_is_one_run(stack):
    player, token = stack.register()
    game = legal_games(1)[0]
    with ThreadPoolExecutor(CLIENTS) as pool:
        responses = list(pool.map(lambda _: _post(stack, token, game), range(SAME_RUN)))
    assert sorted({response.status_code for response in responses}) == [200, 202]
    assert [response.status_code for response in responses].count(202) == 1
    assert len({response.json()["id"] for response in responses}) == 1
    assert stack.get(f"/v1/players/{player}/runs").json()["total"] == 1


def test_distinct_submissions_from_every_client_at_once_are_all_verified_and_the_boards_add_up(stack):
    games = legal_games(GAMES)
    players = [stack.register() for _ in range(PLAYERS)]
    submissions = [(token, game) for _, token in players for game in games]
    started = time.monotonic()
    with ThreadPoolExecutor(CLIENTS) as pool:
        codes = list(pool.map(lambda pair: _post(stack, *pair).status_code, submissions))
    submitted = time.monotonic()
    # every submission accepted: 202, or 200 where a retry after a 503 found the run already stored
    assert len(codes) == PLAYERS * GAMES and set(codes) <= {200, 202}  # the run count below: all distinct runs

    store = stack.database().redis
    stack.until(lambda: not pending_count(store), "every run's verdict", timeout=300)
    verified = time.monotonic()
    print(f"{len(codes):,} submissions: accepted in {submitted - started:.1f} s, "
          f"all verified {verified - started:.1f} s after the first")
    assert pending_count(store) == 0
    player_names = [name for name, _ in players]
    with store.pipeline(transaction=False) as pipe:
        for name in player_names:
            pipe.zrange(keys.player_runs(name), 0, -1)
        run_ids = [run_id for ids in pipe.execute() for run_id in ids]
    assert len(run_ids) == PLAYERS * GAMES
    with store.pipeline(transaction=False) as pipe:
        for run_id in run_ids:
            pipe.hget(keys.run(run_id), "status")
        statuses = pipe.execute()
    assert set(statuses) == {"verified"}
    board = stack.get("/v1/leaderboards/classic", params={"limit": 1}).json()
    assert board["total"] >= PLAYERS
    result = scoundrel_check(stack, "--pending-limit", "600")
    assert result.returncode == 0, result.stderr
