"""A season's roll-over with a million ranked players: the close's time and Redis memory.

Loads 1,000,000 places on last month's dealt board and ladder (through the
store's own key functions and packing, in pipelined batches, as
``rankings.py`` does), makes the service's seasons begin with that month,
then closes it the workers' way (``store.boards.seasons.close_ended_seasons``):
its time, and the Redis bytes it adds. Closing freezes the season where it
stands (one member in the set of closed seasons, which every placing
script reads), so neither figure grows with the board. Then a late verdict
of one of its runs is recorded (it must leave the frozen board as it was),
and the frozen board is read over HTTP: ``/v1/seasons``, its top-100 page
and one player's rank with 5 neighbours, p50 and p99. Also prints Redis
bytes per ranked player of a season's boards, which each past season keeps
until the archive takes them.

    .venv/bin/python bench/season_rollover.py [--players 1000000] [--requests 500]
"""

import argparse
import random
import secrets
import time

import redis

from _harness import Client, Service, latencies_ms, percentiles
from domain.boards import SEASON_LADDER
from domain.seasons import Schedule, season_at
from scoundrel.strategies import play_game
from store import Submission, accept_runs, create_player, load_runs, record_verdicts
from store.base import keys
from store.base.packing import LADDER_GAMES, pack, pack_ladder
from store.boards.seasons import close_ended_seasons
from store.runs.accepting import Dealt
from verification import judge

LOOKED_UP = 200  # players registered to have their ranks looked up


def load_season(url: str, season: str, players: int, variant: str = "classic") -> None:
    """``players`` places on the season's dealt board (with the run behind each) and on its ladder (with
    their game counts; no windows)."""
    client = redis.Redis.from_url(url)
    rng = random.Random(1)
    start_ms = int(time.time() * 1000) - players
    parts = (variant, season)
    batch = 10_000
    for first in range(0, players, batch):
        places, runs, means, games = {}, {}, {}, {}
        for number in range(first, min(players, first + batch)):
            name = f"player{number:07d}"
            places[name] = pack(rng.randint(-200, 30), start_ms + number)
            runs[name] = f"{number:016x}"
            means[name] = pack_ladder(rng.randint(-200, 30) * LADDER_GAMES, start_ms + number)
            games[name] = LADDER_GAMES
        with client.pipeline(transaction=False) as pipe:
            pipe.zadd(keys.board_places("season", parts), places)
            pipe.hset(keys.board_holders("season", parts), mapping=runs)
            pipe.zadd(keys.board_places(SEASON_LADDER.kind, parts), means)
            pipe.hset(keys.board_games(SEASON_LADDER.kind, parts), mapping=games)
            pipe.execute()


def settled(client: redis.Redis) -> None:
    """Until Redis is done rewriting its append-only file after the load (the fork of a large Redis stalls it)."""
    while any(client.info("persistence")[field] for field in ("aof_rewrite_in_progress", "aof_rewrite_scheduled",
                                                               "rdb_bgsave_in_progress")):
        time.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=500)
    args = parser.parse_args()
    if args.players < LOOKED_UP:
        parser.error(f"--players must be at least {LOOKED_UP}")

    stack = Service(workers=0)  # no worker: its own pass would close the season first
    try:
        client = redis.Redis.from_url(stack.redis_url)
        db = stack.database()
        now = int(time.time() * 1000)
        current = season_at(Schedule.MONTHLY, now)
        ended = season_at(Schedule.MONTHLY, current.starts_ms - 1)
        before = client.info("memory")["used_memory"]
        started = time.perf_counter()
        load_season(stack.redis_url, ended.id, args.players)
        print(f"loaded {args.players:,} ranked players on season {ended.id}'s dealt board and ladder "
              f"in {time.perf_counter() - started:.1f} s")
        per_player = (client.info("memory")["used_memory"] - before) / args.players
        print(f"Redis bytes per ranked player, the season's dealt board and ladder: {per_player:,.0f}")

        client.set(keys.seasons_began(), ended.starts_ms)
        settled(client)
        db.redis.ping()  # a connection made: the close's time is its own
        before = client.info("memory")["used_memory"]
        started = time.perf_counter()
        closed = close_ended_seasons(db)
        took = (time.perf_counter() - started) * 1000
        added = client.info("memory")["used_memory"] - before
        record = client.memory_usage(keys.closed("season"), samples=0)
        assert [season.id for season in closed] == [ended.id], closed
        print(f"closing season {ended.id} ({args.players:,} players): {took:.2f} ms; Redis used_memory "
              f"{added:+,} bytes, the record of closed seasons {record:,} bytes; closing again: "
              f"{close_ended_seasons(db)} (no second close)")

        seed = f"late-{secrets.token_hex(4)}"
        late = Submission(seed, "classic", play_game(seed), dealt=Dealt(secrets.token_hex(16), season=ended.id))
        [(run, _)] = accept_runs(db, "late-player", [late])
        cards = client.zcard(keys.board_places("season", ("classic", ended.id)))
        started = time.perf_counter()
        assert record_verdicts(db, [(pending, judge(pending)) for pending in load_runs(db, [run.id]) if pending])
        took = (time.perf_counter() - started) * 1000
        assert client.zcard(keys.board_places("season", ("classic", ended.id))) == cards, "the frozen board changed"
        assert client.zscore(keys.board_places("dealt", ("classic",)), "late-player") is not None
        print(f"a late verdict of the closed season: {took:.2f} ms, the frozen board unchanged, "
              "the all-time board placed")

        rng = random.Random(2)
        names = [f"player{rng.randrange(args.players):07d}" for _ in range(LOOKED_UP)]
        for name in set(names):
            create_player(db, name)
        http = Client(stack.base)
        base = f"/v1/seasons/{ended.id}/leaderboards/dealt/classic"
        for label, path in (("/v1/seasons", lambda: "/v1/seasons"), ("top-100 page", lambda: f"{base}?limit=100"),
                            ("rank with 5 around", lambda: f"{base}/players/{rng.choice(names)}?around=5"),
                            ("ladder top-100", lambda: f"{base}/ladder?limit=100")):
            def read(path=path):
                status, body = http.request("GET", path())
                assert status == 200, body[:200]
            read()
            print(f"{label} of the closed season over HTTP: {percentiles(latencies_ms(read, args.requests))}")
        db.close()
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
