"""What a test asks of the service over HTTP, the same of either stack: the processes' (``stack.Stack``) or
the one in the test's process (``in_process.InProcessStack``)."""

import uuid
from collections.abc import Callable
from datetime import date
from typing import TypeVar

import requests

from domain.daily_seed import today

Done = TypeVar("Done")  # what a test did in time (``with_more_time``)

# What both stacks run with unless a test sets its own: rate limits far above what a test sends, webhooks
# allowed to the tests' receivers on 127.0.0.1, and par searches of 0.02 s. A search spends its whole budget
# (it proves no par of a deal in less), and nearly every module's worker runs one it never reads: its first
# periodic pass reveals yesterday's sealed daily and queues that deal's search; what the tests check of a
# search, that it ends and that what it kept is consistent (its line reaches its par, within what it proved),
# holds at any budget. At 0.2 s those searches were some 10 s of the fast loop's CPU.
TEST_LIMITS = {"SCOUNDREL_RATE_LIMIT_ADDRESS": "100000/second", "SCOUNDREL_RATE_LIMIT_TOKEN": "100000/second",
               "SCOUNDREL_RATE_LIMIT_PAR": "100000/second"}
TEST_SETTINGS = {**TEST_LIMITS, "SCOUNDREL_WEBHOOK_ALLOW": "127.0.0.1", "SCOUNDREL_PAR_SECONDS": "0.02"}
# For a module that checks what a worker's search kept: a budget that finds a better line than a request's own quick
# search (``domain.par.quick_par``), which the par kept would show otherwise, so that what is checked is the search's.
# With a search's result broken on purpose, such a module failed in two runs of three at 0.2 s on a loaded machine,
# and in none at 0.05 s: whether a search beats the quick line in its budget depends on the machine.
SEARCHED_PAR = {"SCOUNDREL_PAR_SECONDS": "0.2"}


class ServiceHttp:
    """The requests a test sends, given the stack's ``base`` URL, its ``http`` session and its ``until`` (how
    it waits: the workers at work meanwhile, in their processes or in this one)."""

    base: str
    http: requests.Session

    def url(self, path: str) -> str:
        return self.base + path

    def get(self, path: str, **kwargs) -> requests.Response:
        return self.http.get(self.url(path), timeout=10, **kwargs)

    def post(self, path: str, **kwargs) -> requests.Response:
        return self.http.post(self.url(path), timeout=10, **kwargs)

    def register(self, name: str | None = None) -> tuple[str, str]:
        """A new player: ``(name, token)``."""
        name = name or f"p-{uuid.uuid4().hex[:12]}"
        response = self.post("/v1/players", json={"name": name})
        assert response.status_code == 201, response.text
        return name, response.json()["token"]

    def submit(self, token: str, body, headers: dict | None = None) -> requests.Response:
        return self.post("/v1/runs", json=body, headers={"Authorization": f"Bearer {token}", **(headers or {})})

    def wait_final(self, run_id: str, timeout: float = 120.0) -> dict:
        """The run once it is no longer pending: its verdict and its board places are written together.
        ``timeout`` only ends a wait that has failed: on a loaded machine a backlog of runs takes long."""
        return self.until(lambda: (run := self.get(f"/v1/runs/{run_id}").json())["status"] != "pending" and run,
                          f"run {run_id}'s verdict", timeout)


def with_more_time(attempt: Callable[[int, int], Done | None], seconds: int, tries: int, what: str) -> Done:
    """What ``attempt(number, seconds)`` did in time, given twice the time each try it ran out, up to ``tries``.

    For a test racing a moment of the service's clock (a midnight, a tournament's end): that race is the
    machine's, and ``attempt`` returns None where the moment came first. Each try starts afresh (a stack, a
    tournament) with twice the seconds, so the test waits on the machine as long as it takes and never
    fails for its speed; ``what`` names what lost the race in the error after the last.
    """
    for number in range(tries):
        done = attempt(number, seconds)
        if done is not None:
            return done
        seconds *= 2
    raise AssertionError(f"{what} outlasted {tries} tries, the last given {seconds // 2} s")


def within_one_day(attempt: Callable[[date], object]) -> None:
    """``attempt(today)`` for the UTC day it starts in, and where it failed after that day ended (a test run
    across midnight, which closes the sealed daily it was playing: R18), once more for the new day: that race
    is the clock's. A failure within one day is the test's, and so is a second."""
    for last in (False, True):
        day = today()
        try:
            attempt(day)
            return
        except AssertionError:
            if last or today() == day:
                raise
