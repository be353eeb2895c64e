"""Friends' views at scale: a player and the 200 they follow, ranked among themselves on a million-place board.

Fills the classic board with 1,000,000 ranked players (``rankings.load_board``:
the store's keys and packing, pipelined), registers one of them, has them
follow 200 others picked at random (``store.accounts.following``), and times, p50
and p99:

- ``/v1/leaderboards/classic?among=<name>&limit=100`` over HTTP: round trip,
  and the server's own time from the API's request log (``duration_ms``);
- ``store.boards.pages.board_among`` alone, straight to Redis: one script, a
  ZREVRANK a player (O(F log N)), never a scan;
- the same at the cap (``MOST_FOLLOWED`` follows), and a plain page of 100 for scale.

Goal: p99 under 20 ms for 200 follows.

    .venv/bin/python bench/friends_view.py [--players 1000000] [--follows 200] [--requests 1000]
"""

import argparse
import json
import random
import time

import redis

from _harness import Client, Service, latencies_ms, percentiles
from domain.boards import OPEN_BOARD, BoardId
from rankings import load_board
from store import create_player
from store.accounts.following import MOST_FOLLOWED, follow, followed_by
from store.base import keys
from store.boards.pages import board_among


def _on_board(path: str) -> bool:
    return path == "/v1/leaderboards/classic"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--follows", type=int, default=200)
    parser.add_argument("--requests", type=int, default=1000)
    args = parser.parse_args()
    if not 0 < args.follows < min(args.players, MOST_FOLLOWED + 1):
        parser.error(f"--follows must be 1 to {MOST_FOLLOWED} and fewer than --players")

    stack = Service(workers=0)
    try:
        started = time.perf_counter()
        load_board(stack.redis_url, args.players)
        print(f"loaded {args.players:,} ranked players in {time.perf_counter() - started:.1f} s")
        db = stack.database()
        rng = random.Random(3)
        names = [f"player{number:07d}" for number in rng.sample(range(args.players), min(args.players,
                                                                                           MOST_FOLLOWED + 2))]
        viewer, capped = names[0], names[1]
        create_player(db, viewer)
        create_player(db, capped)
        for other in names[2:2 + args.follows]:
            follow(db, viewer, other)
        redis.Redis.from_url(stack.redis_url).zadd(keys.following(capped), {other: 0 for other in
                                                                            names[2:2 + MOST_FOLLOWED]})

        http = Client(stack.base)
        path = f"/v1/leaderboards/classic?among={viewer}&limit=100"
        status, body = http.request("GET", path)
        listing = json.loads(body)
        assert status == 200 and listing["total"] == args.follows + 1, (status, body[:300])
        assert [entry["rank"] for entry in listing["entries"]] == list(range(1, min(100, listing["total"]) + 1))
        latencies_ms(lambda: http.request("GET", path), 100)  # warm up
        logged = len(stack.server_times(_on_board))
        times = latencies_ms(lambda: http.request("GET", path), args.requests)
        print(f"friends' view, {args.follows} follows, over HTTP: round trip {percentiles(times)}; "
              f"server {percentiles(stack.server_times(_on_board)[logged:logged + args.requests])}")
        board = BoardId(OPEN_BOARD, ("classic",))
        chosen = [viewer, *followed_by(db, viewer)]
        alone = latencies_ms(lambda: board_among(db, board, chosen, 0, 100), args.requests)
        print(f"board_among alone (Redis), {len(chosen) - 1} follows: {percentiles(alone)}")
        at_cap = [capped, *followed_by(db, capped)]
        most = latencies_ms(lambda: board_among(db, board, at_cap, 0, 100), args.requests)
        print(f"board_among alone (Redis), {len(at_cap) - 1} follows (the cap, or every other player): "
              f"{percentiles(most)}")
        plain = latencies_ms(lambda: http.request("GET", "/v1/leaderboards/classic?limit=100"), args.requests)
        print(f"(a plain page of 100 over HTTP, for scale: {percentiles(plain)})")
        db.close()
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
