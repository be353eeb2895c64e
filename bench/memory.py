"""Redis bytes per verified run, measured with the batch path at scale.

N short games (the ``random`` strategy: about 7 moves, each on a seed of
its own, as open play mostly is) are submitted with ``POST /v1/runs/batch``
(1,000 a request by default, ``--batch``; one player per request) to a real stack and verified by
its workers. Redis' ``used_memory`` before the first batch (players already
registered) and once every run has its verdict, and the public log's leaves
have left for the archive (the workers move them every
``SCOUNDREL_LOG_INTERVAL`` seconds: a buffer of that many seconds' leaves,
however many runs are stored, whose bytes are printed apart), gives the bytes per
verified run, board entries and indexes included; the breakdown sums
``MEMORY USAGE`` over every key by kind (``{scoundrel}:<kind>:…``), so a
kind with one key per run shows its per-run cost and a shared index its
share. Then one retention pass, ``scoundrel archive --older-than 0`` (every
run old enough), moves them to the archive (SQLite in the data directory),
and ``used_memory`` again gives the bytes per archived run.

With ``--against PATH`` (another checkout, run with its own venv's
``scoundrel``) the same is measured on that checkout's service after this
one's, and the two compared.

    .venv/bin/python bench/memory.py [--runs 1000000] [--per-player 1000] [--batch 1000] [--workers 2] [--against PATH]
"""

import argparse
import collections
import functools
import multiprocessing
import random
import time
from pathlib import Path

import redis

from _harness import Client, Service, checkout_argument, kind_of, label
from scoundrel.strategies import play_game
from store.base import keys

BATCH = 1000  # the batch path's most submissions per request
GIB = 2**30


def batch_of(size: int, first: int) -> list[dict]:
    """``size`` short games on seeds of their own, the ``first``-th game's onwards."""
    return [{"seed": f"m{n}", "moves": play_game(f"m{n}", rng=random.Random(n), strategy="random")}
            for n in range(first, first + size)]


def moved_leaves(connection: redis.Redis, timeout: float = 120.0) -> None:
    """Wait until the workers moved the public log's leaves to the archive (every
    ``SCOUNDREL_LOG_INTERVAL`` seconds): the leaves wait in Redis for that long whatever the runs stored,
    a buffer, not a run's bytes."""
    deadline = time.monotonic() + timeout
    while connection.llen(keys.log_leaves()):
        if time.monotonic() > deadline:
            raise SystemExit(f"the public log's leaves were not moved to the archive in {timeout:.0f} s")
        time.sleep(0.2)


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
                totals[kind_of(key.decode())][0] += 1
                totals[kind_of(key.decode())][1] += used or 0
        if cursor == 0:
            return {kind: (count, used) for kind, (count, used) in totals.items()}


def print_breakdown(connection: redis.Redis, runs: int, top: int) -> None:
    for kind, (count, size) in sorted(breakdown(connection).items(), key=lambda item: -item[1][1])[:top]:
        print(f"    {kind:<20} {count:>10,} keys {size:>14,} bytes {size / runs:>8,.1f} per run")


def measure(checkout: Path | None, args) -> tuple[float, float]:
    """One checkout's service filled with the batches, then every run archived: bytes per run, hot and archived."""
    batches = args.runs // args.batch
    runs = batches * args.batch
    per_player = max(1, args.per_player // args.batch)
    stack = Service(workers=args.workers, env={"SCOUNDREL_RATE_LIMIT_TOKEN": "", "SCOUNDREL_RATE_LIMIT_ADDRESS": ""},
                    checkout=checkout)
    try:
        connection = redis.Redis.from_url(stack.redis_url)
        tokens = [stack.register(f"bench{n}")[1] for n in range((batches + per_player - 1) // per_player)]
        before = connection.info("memory")["used_memory"]
        started = time.perf_counter()
        with multiprocessing.Pool(1) as pool:  # the games are made while the service takes the batches
            made = pool.imap(functools.partial(batch_of, args.batch), range(0, runs, args.batch))
            for number, games in enumerate(made):
                # a connection a request: making the next batch may outlast the server's keep-alive
                status, text = Client(stack.base).request(
                    "POST", "/v1/runs/batch", {"runs": games},
                    {"Authorization": f"Bearer {tokens[number // per_player]}"})
                assert status == 200 and b'"accepted":%d' % args.batch in text.replace(b" ", b""), (status, text[:300])
                if number % 100 == 99:
                    print(f"  {(number + 1) * args.batch:,} runs sent, {time.perf_counter() - started:.0f} s",
                          flush=True)
        stack.wait_for_verdicts(runs)  # each logged once its verdict and board places are written
        seconds = time.perf_counter() - started
        waiting = connection.info("memory")["used_memory"]
        leaves = connection.llen(keys.log_leaves())
        moved_leaves(connection)
        used = connection.info("memory")["used_memory"]
        print(f"  the public log's leaves waiting for the worker's move to the archive at the last verdict: "
              f"{leaves:,} ({(waiting - used) / runs:,.0f} bytes a run until moved); measured once moved")
        hot = (used - before) / runs
        print(f"{label(checkout)}: {runs:,} runs by {len(tokens):,} players "
              f"({stack.verdicts_logged()['verified']:,} verified) in {seconds:.0f} s: "
              f"**{hot:,.0f} bytes of Redis per verified run** (used_memory {before:,} → {used:,}); "
              f"a 64 GB Redis then holds about {64 * GIB / hot / 1e6:,.0f} million runs")
        stats = connection.memory_stats()
        main = stats.get("db.0", {}).get("overhead.hashtable.main", 0)
        print(f"  MEMORY STATS: {stats['keys.count']:,} keys; the keyspace's own table {main:,} bytes "
              f"({main / runs:,.1f} per run); Lua scripts {stats.get('lua.caches', 0):,} bytes")
        print("  by kind of key (MEMORY USAGE), per run:")
        print_breakdown(connection, runs, args.top)
        if args.without_retention:
            return hot, float("nan")
        started = time.perf_counter()
        stack.command("archive", "--older-than", "0", "--quiet")
        archived = (connection.info("memory")["used_memory"] - before) / runs
        print(f"  after `scoundrel archive --older-than 0` ({time.perf_counter() - started:.0f} s): "
              f"**{archived:,.0f} bytes of Redis per archived run**; what is left, per run:")
        print_breakdown(connection, runs, args.top)
        return hot, archived
    finally:
        stack.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1_000_000)
    parser.add_argument("--per-player", type=int, default=1000, help="runs each player submits (a multiple of --batch)")
    parser.add_argument("--batch", type=int, default=BATCH, choices=range(1, BATCH + 1), metavar="RUNS",
                        help=f"runs a request (at most {BATCH:,}, the default)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--top", type=int, default=12, help="kinds of key listed")
    parser.add_argument("--without-retention", action="store_true", help="no retention pass")
    parser.add_argument("--against", type=checkout_argument, help="another checkout, measured after this one")
    args = parser.parse_args()
    hot, archived = measure(None, args)
    if args.against:
        other_hot, other_archived = measure(args.against, args)
        print(f"bytes per run, this checkout / {label(args.against)}: hot {hot / other_hot:.2f}, "
              f"archived {archived / other_archived:.2f}")


if __name__ == "__main__":
    main()
