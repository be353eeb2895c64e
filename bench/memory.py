"""Redis bytes per verified run, measured with the batch path at scale.

N short games (the ``random`` strategy: about 7 moves, each on a seed of
its own, as open play mostly is) are submitted with ``POST /v1/runs/batch``
(1,000 a request, one player per request) to a real stack and verified by
its workers. Redis' ``used_memory`` before the first batch (players already
registered) and once every run has its verdict gives the bytes per
verified run, board entries and indexes included; the breakdown sums
``MEMORY USAGE`` over every key by kind (``{scoundrel}:<kind>:…``), so a
kind with one key per run shows its per-run cost and a shared index its
share.

    .venv/bin/python bench/memory.py [--runs 1000000] [--per-player 1000] [--workers 2]
"""

import argparse
import collections
import multiprocessing
import random
import time

import redis

from _harness import Client, Service
from scoundrel.strategies import play_game
from store.base import keys
from store.queue.pending import pending_count

BATCH = 1000  # the batch path's most submissions per request
GIB = 2**30


def batch_of(first: int) -> list[dict]:
    """``BATCH`` short games on seeds of their own, the ``first``-th game's onwards."""
    return [{"seed": f"m{n}", "moves": play_game(f"m{n}", rng=random.Random(n), strategy="random")}
            for n in range(first, first + BATCH)]


def settle(db) -> None:
    """Until every run has its verdict, written with its board places."""
    while pending_count(db.redis):
        time.sleep(0.2)


def kind_of(key: bytes) -> str:
    parts = key.decode().split(":")
    return parts[1] if parts[0] == keys.PREFIX else ":".join(parts[:2])


def breakdown(connection: redis.Redis) -> dict[str, tuple[int, int]]:
    """Kind of key → (keys, bytes by ``MEMORY USAGE``, every element counted)."""
    totals: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    cursor = 0
    while True:
        cursor, found = connection.scan(cursor, count=2000)
        with connection.pipeline(transaction=False) as pipe:
            for key in found:
                pipe.memory_usage(key, samples=0)
            for key, used in zip(found, pipe.execute(), strict=True):
                totals[kind_of(key)][0] += 1
                totals[kind_of(key)][1] += used or 0
        if cursor == 0:
            return {kind: (count, used) for kind, (count, used) in totals.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1_000_000)
    parser.add_argument("--per-player", type=int, default=1000, help="runs each player submits (a multiple of 1,000)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    batches = args.runs // BATCH
    runs = batches * BATCH
    per_player = max(1, args.per_player // BATCH)

    stack = Service(workers=args.workers, env={"SCOUNDREL_RATE_LIMIT_TOKEN": "",
                                                   "SCOUNDREL_RATE_LIMIT_ADDRESS": "",
                                                   "SCOUNDREL_REDIS_TIMEOUT": "30"})
    try:
        connection = redis.Redis.from_url(stack.redis_url)
        tokens = [stack.register(f"bench{n}")[1] for n in range((batches + per_player - 1) // per_player)]
        before = connection.info("memory")["used_memory"]
        started = time.perf_counter()
        with multiprocessing.Pool(1) as pool:  # the games are made while the service takes the batches
            for number, games in enumerate(pool.imap(batch_of, range(0, runs, BATCH))):
                # a connection a request: making the next batch may outlast the server's keep-alive
                status, text = Client(stack.base).request(
                    "POST", "/v1/runs/batch", {"runs": games},
                    {"Authorization": f"Bearer {tokens[number // per_player]}"})
                assert status == 200 and b'"accepted":1000' in text.replace(b" ", b""), (status, text[:300])
                if number % 100 == 99:
                    print(f"  {(number + 1) * BATCH:,} runs sent, {time.perf_counter() - started:.0f} s", flush=True)
        db = stack.database()
        try:
            settle(db)
        finally:
            db.close()
        seconds = time.perf_counter() - started
        verified = connection.hget(keys.metrics(), "verdicts:verified:")
        used = connection.info("memory")["used_memory"]
        per_run = (used - before) / runs
        print(f"{runs:,} runs by {len(tokens):,} players ({int(verified or 0):,} verified) in {seconds:.0f} s: "
              f"**{per_run:,.0f} bytes of Redis per verified run** (used_memory {before:,} → {used:,}); "
              f"a 64 GB Redis then holds about {64 * GIB / per_run / 1e6:,.0f} million runs")
        stats = connection.memory_stats()
        main = stats.get("db.0", {}).get("overhead.hashtable.main", 0)
        print(f"MEMORY STATS: {stats['keys.count']:,} keys; the keyspace's own table {main:,} bytes "
              f"({main / runs:,.1f} per run); Lua scripts {stats.get('lua.caches', 0):,} bytes")
        print("by kind of key (MEMORY USAGE), per run:")
        for kind, (count, size) in sorted(breakdown(connection).items(), key=lambda item: -item[1][1]):
            print(f"  {kind:<20} {count:>10,} keys {size:>14,} bytes {size / runs:>8,.1f} per run")
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
