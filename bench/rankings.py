"""Rankings at scale: a million ranked players, then reading the board over HTTP.

Loads 1,000,000 board entries directly into Redis (through the store's own
key functions and packing, in pipelined batches), then times the top-100
page and one player's rank with 5 neighbours over HTTP: p50 and p99.
Goal: p99 under 5 ms for both. Also prints Redis bytes per ranked
player. The board entries have no player records (a rank is looked up by a
registered name, in any case), so the players whose ranks are timed,
``LOOKED_UP`` of them drawn at random, are registered the service's way
(``create_player``) once the memory is measured.

    .venv/bin/python bench/rankings.py [--players 1000000] [--requests 2000]
"""

import argparse
import random
import time

import redis

from _harness import Client, Service, latencies_ms, percentiles
from domain.boards import OPEN_BOARD, BoardId
from store import create_player
from store.base import keys
from store.base.packing import pack

LOOKED_UP = 1000  # players registered to have their ranks looked up


CLASSIC_OPEN = BoardId(OPEN_BOARD, ("classic",))


def load_board(url: str, players: int, board: BoardId = CLASSIC_OPEN) -> None:
    """``players`` places on ``board`` (``player0000000``…), random scores, distinct submission times."""
    places_key, runs_key = keys.board_places(board.board.kind, board.parts), keys.board_holders(board.board.kind,
                                                                                                 board.parts)
    client = redis.Redis.from_url(url)
    rng = random.Random(1)
    start_ms = int(time.time() * 1000) - players
    batch = 10_000
    for first in range(0, players, batch):
        places, runs = {}, {}
        for number in range(first, min(players, first + batch)):
            name = f"player{number:07d}"
            places[name] = pack(rng.randint(-200, 30), start_ms + number)
            runs[name] = f"{number:016x}"
        with client.pipeline(transaction=False) as pipe:
            pipe.zadd(places_key, places)
            pipe.hset(runs_key, mapping=runs)
            pipe.execute()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()
    if args.players < 1:
        parser.error("--players must be at least 1")

    stack = Service(workers=0)
    try:
        client = redis.Redis.from_url(stack.redis_url)
        before = client.info("memory")["used_memory"]
        started = time.perf_counter()
        load_board(stack.redis_url, args.players)
        print(f"loaded {args.players:,} ranked players in {time.perf_counter() - started:.1f} s")
        used = client.info("memory")["used_memory"] - before
        print(f"Redis memory: {used / args.players:.0f} bytes per ranked player (board + run index)")

        rng = random.Random(2)
        looked_up = [f"player{number:07d}" for number in rng.sample(range(args.players), min(args.players, LOOKED_UP))]
        db = stack.database()
        for name in looked_up:
            create_player(db, name)
        db.close()

        http = Client(stack.base)
        for path in ("/v1/leaderboards/classic?limit=100", f"/v1/leaderboards/classic/players/{looked_up[0]}?around=5"):
            status, body = http.request("GET", path)
            assert status == 200, (status, body[:200])
        warm_up = min(200, args.requests)
        latencies_ms(lambda: http.request("GET", "/v1/leaderboards/classic?limit=100"), warm_up)
        top = latencies_ms(lambda: http.request("GET", "/v1/leaderboards/classic?limit=100"), args.requests)
        print(f"top-100 page:            {percentiles(top)}")

        def a_players_rank():
            status, _ = http.request("GET", f"/v1/leaderboards/classic/players/{rng.choice(looked_up)}?around=5")
            assert status == 200

        rank = latencies_ms(a_players_rank, args.requests)
        print(f"player rank +5 around:   {percentiles(rank)}")
        trivial = latencies_ms(lambda: http.request("GET", "/v1/health"), args.requests)
        print(f"(health, for scale:      {percentiles(trivial)})")
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
