"""A tournament's standings at 100,000 entrants: a page, a player's place with those around it, the page.

Creates a running tournament (``store.tournaments``), puts 100,000 entrants
on its board (``rankings.load_board``: the store's keys and packing,
pipelined; the tournament board is a registry board, so its reads are every
board's), registers ``LOOKED_UP`` of them, and times over HTTP, p50 and p99,
round trip and the server's own time from the API's request log:

- ``GET /v1/tournaments/<id>/standings?limit=100&offset=<random>``;
- ``GET /v1/tournaments/<id>/standings?around=<entrant>``;
- the tournament's page, ``/tournaments/<id>`` (its standings' first 50).

Goal: p99 ≤ 20 ms for the standings.

    .venv/bin/python bench/tournaments.py [--entrants 100000] [--requests 1000]
"""

import argparse
import random
import time

from _harness import Client, Service, latencies_ms, percentiles
from domain.boards import TOURNAMENT_BOARD, BoardId
from rankings import load_board
from store import create_player
from store.base.clock import now_ms
from store.tournaments.tournaments import create_tournament

LOOKED_UP = 500  # entrants registered to have their places looked up
HOUR = 3_600_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=1000)
    args = parser.parse_args()
    if args.entrants < 1:
        parser.error("--entrants must be at least 1")

    stack = Service(workers=0)
    try:
        db = stack.database()
        tournament = create_tournament(db, title="Bench gauntlet", variant="classic", starts_ms=now_ms() - HOUR,
                                       ends_ms=now_ms() + HOUR, join_required=False, max_entrants=None,
                                       max_attempts=3, deals=5, scoring="best", created_by="bench")
        started = time.perf_counter()
        load_board(stack.redis_url, args.entrants, BoardId(TOURNAMENT_BOARD, (tournament.id,)))
        print(f"loaded {args.entrants:,} entrants in {time.perf_counter() - started:.1f} s")
        rng = random.Random(4)
        looked_up = [f"player{number:07d}" for number in rng.sample(range(args.entrants),
                                                                     min(args.entrants, LOOKED_UP))]
        for name in looked_up:
            create_player(db, name)
        db.close()

        http = Client(stack.base)
        standings = f"/v1/tournaments/{tournament.id}/standings"

        def page_of_100():
            status, _ = http.request("GET", f"{standings}?limit=100&offset={rng.randrange(args.entrants)}")
            assert status == 200

        def around_an_entrant():
            status, _ = http.request("GET", f"{standings}?around={rng.choice(looked_up)}")
            assert status == 200

        def the_page():
            status, _ = http.request("GET", f"/tournaments/{tournament.id}")
            assert status == 200

        for name, call, path in (("standings, a page of 100", page_of_100, standings),
                                 ("standings around an entrant", around_an_entrant, standings),
                                 ("the tournament's page", the_page, f"/tournaments/{tournament.id}")):
            latencies_ms(call, min(100, args.requests))  # warm up

            def on_path(logged: str, wanted: str = path) -> bool:
                return logged == wanted

            logged = len(stack.server_times(on_path))
            times = latencies_ms(call, args.requests)
            print(f"{name}: round trip {percentiles(times)}; "
                  f"server {percentiles(stack.server_times(on_path)[logged:logged + args.requests])}")
        trivial = latencies_ms(lambda: http.request("GET", "/v1/health"), args.requests)
        print(f"(health, for scale: {percentiles(trivial)})")
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
