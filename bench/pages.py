"""Board pages at scale: a million ranked players, then the page read over HTTP.

Fills the classic board with 1,000,000 ranked players (``rankings.load_board``:
the store's keys and packing, pipelined), registers one of them as a player,
and times over HTTP, p50 and p99:

- ``/boards/classic``: the first 50 places and the histogram of all scores
  (``store.boards.standings.board_spread``: one ZCOUNT per bucket, no scan);
- ``/boards/classic?page=10000&player=…``: a deep page, plus a player's line
  (their place, and the places below their score);
- the spread script alone, straight to Redis, for its own share.

Goal: p99 under 50 ms server time. Both are printed: the round
trip as the client sees it, and the server's own time, from the API's
request log (``duration_ms``: from the request's first hook to its last).

    .venv/bin/python bench/pages.py [--players 1000000] [--requests 1000]
"""

import argparse
import time

from _harness import Client, Service, latencies_ms, percentiles
from domain.boards import OPEN_BOARD, BoardId
from rankings import load_board
from store import create_player, ranking
from store.boards.standings import board_spread


def _a_page(path: str) -> bool:
    return path.startswith("/boards/")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=1000)
    args = parser.parse_args()

    stack = Service(workers=0)
    try:
        started = time.perf_counter()
        load_board(stack.redis_url, args.players)
        print(f"loaded {args.players:,} ranked players in {time.perf_counter() - started:.1f} s")
        db = stack.database()
        middle = f"player{args.players // 2:07d}"
        create_player(db, middle)

        http = Client(stack.base)
        top, deep = "/boards/classic", f"/boards/classic?page=10000&player={middle}"
        for path in (top, deep):
            status, body = http.request("GET", path)
            assert status == 200, (status, body[:300])
        assert b"better than" in http.request("GET", deep)[1]
        latencies_ms(lambda: http.request("GET", top), 100)  # warm up
        for label, path in (("top 50 + histogram", top), ("page 10,000 + a player", deep)):
            logged = len(stack.server_times(_a_page))
            times = latencies_ms(lambda path=path: http.request("GET", path), args.requests)
            print(f"board page, {label + ':':28s} round trip {percentiles(times)}; "
                  f"server {percentiles(stack.server_times(_a_page)[logged:])}")
        spread = board_spread(db, ranking(BoardId(OPEN_BOARD, ("classic",))))
        print(f"histogram: {len(spread.buckets)} buckets, {spread.total:,} places, median {spread.median}")
        alone = latencies_ms(lambda: board_spread(db, ranking(BoardId(OPEN_BOARD, ("classic",))), -50), args.requests)
        print(f"the spread script alone (Redis):        {percentiles(alone)}")
        trivial = latencies_ms(lambda: http.request("GET", "/v1/health"), args.requests)
        print(f"(health, for scale:                     {percentiles(trivial)})")
        db.close()
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
