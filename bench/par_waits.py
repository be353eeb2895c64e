"""A run's wait for its verdict with par searches queued: it must not depend on them.

First, on the quiet stack, single submissions one at a time (``--gap``
seconds apart) and their wait from submission to verdict (server times:
the run's submission, taken just before its 202, to its verdict's audit
entry). Then ``--searches`` deals' pars are asked for over the API
(``GET /v1/seeds/<seed>/par``, each queueing a worker's search of
``SCOUNDREL_PAR_SECONDS``, 10 s), and the same submissions are timed
again while the searches run and wait. Goal: with 100 searches queued, p99
< 200 ms on 2 workers. Also prints how many searches were still queued once
the last verdict was in, to show they were there throughout.

    .venv/bin/python bench/par_waits.py [--searches 100] [--runs 300] [--quiet-runs 100] [--workers 2]
"""

import argparse
import json
import random

from _harness import Client, Service, percentiles, verdict_waits_ms
from scoundrel.strategies import play_game
from store.queue.queues import par_searches_queued

# No rate limit (the par searches' included), and the service's own par budget: the searches are what is measured
ENV = {"SCOUNDREL_RATE_LIMIT_TOKEN": "", "SCOUNDREL_RATE_LIMIT_ADDRESS": "", "SCOUNDREL_RATE_LIMIT_PAR": "",
       "SCOUNDREL_PAR_SECONDS": "10"}


def games(first: int, count: int) -> list[dict]:
    return [{"seed": f"wait-{n}", "moves": play_game(f"wait-{n}", rng=random.Random(n), strategy="greedy")}
            for n in range(first, first + count)]


def ask_pars(base: str, count: int) -> None:
    """Ask the API for deals' pars none has asked for until ``count`` of them queued a worker's search (a
    request's own quick search proves a few deals' par exact, and queues none for them)."""
    client = Client(base)
    searching, n = 0, 0
    while searching < count:
        status, text = client.request("GET", f"/v1/seeds/par-wait-{n}/par")
        assert status == 200, (status, text[:200])
        searching += json.loads(text)["searching"]
        n += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--searches", type=int, default=100)
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--quiet-runs", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--gap", type=float, default=0.05, help="seconds between two submissions")
    args = parser.parse_args()

    stack = Service(workers=args.workers, env=ENV)
    try:
        _, token = stack.register("bench")
        quiet = verdict_waits_ms(stack, token, games(0, args.quiet_runs), args.gap)
        print(f"{args.workers} workers, no par search: {len(quiet)} single submissions {args.gap * 1000:.0f} ms "
              f"apart, submission to verdict: {percentiles(quiet)}")
        ask_pars(stack.base, args.searches)
        db = stack.database()
        try:
            queued = par_searches_queued(db)
            waits = verdict_waits_ms(stack, token, games(args.quiet_runs, args.runs), args.gap)
            left = par_searches_queued(db)
        finally:
            db.close()
        print(f"{args.searches} par searches asked for ({queued} queued as the runs began, {left} once the last "
              f"verdict was in): {len(waits)} single submissions, submission to verdict: {percentiles(waits)} "
              f"(goal: p99 < 200 ms)")
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
