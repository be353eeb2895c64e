"""Redis bytes per open run before and after retention, and a seed board read hot and archived.

``--runs`` verified open runs, each on a seed of its own (what a client
picking seeds at random sends), 1,000 a player, are stored the service's own
way: ``accept_runs`` then ``record_verdicts`` (run hash, indexes, audit log,
the variant's board and the run's seed board), 1,000 a pipeline. The
verdicts are those of real short games (the ``random`` strategy, about 7
moves) replayed on their own seeds, recorded for runs of the same moves on
fresh seeds: the stored run is as large as a real one, without replaying a
million games. Redis' ``used_memory`` before, once the runs are verified and
after one retention pass (``archive_old_runs``, every run old enough) gives
the bytes per run hot and per archived run, board entries included; the
archive's file size (SQLite, checkpointed) per run what it costs there.

Then ``GET /v1/seeds/<seed>/leaderboard`` over HTTP (the API under
gunicorn, keep-alive) for random seeds, p50/p99: before retention (the
board in Redis) and after (in the archive, an indexed table).

    .venv/bin/python bench/cooling.py [--runs 1000000] [--requests 2000]
"""

import argparse
import os
import random
import sys
import time

from _harness import Client, Service, latencies_ms, percentiles
from scoundrel import replay
from scoundrel.strategies import play_game
from store import Submission, accept_runs, load_runs, record_verdicts
from store.base.database import BULK_TIMEOUT
from store.operations.retention import archive_old_runs
from store.queue.queues import verify_queue

PER_PLAYER = 1000
GAMES = 1000  # real games whose moves and verdicts the runs take in turn
GIB = 2**30


def real_games() -> list[tuple[list[str], dict]]:
    """``GAMES`` short games, each its moves and its verdict on its own seed."""
    games = []
    for number in range(GAMES):
        moves = play_game(f"g{number}", rng=random.Random(number), strategy="random")
        games.append((moves, replay(f"g{number}", moves).to_dict()))
    return games


def store_runs(db, count: int, games: list[tuple[list[str], dict]]) -> None:
    """``count`` verified open runs on seeds of their own, ``PER_PLAYER`` a player."""
    started = time.perf_counter()
    for first in range(0, count, PER_PLAYER):
        numbers = range(first, min(count, first + PER_PLAYER))
        accepted = accept_runs(db, f"p{first // PER_PLAYER:05d}",
                               [Submission(f"s{number}", "classic", games[number % GAMES][0]) for number in numbers],
                               runs_per_job=PER_PLAYER)
        db.raw.delete(verify_queue(db).key)  # the jobs: the verdicts are recorded right here instead
        runs = [run for run in load_runs(db, [run.id for run, _ in accepted]) if run]
        record_verdicts(db, [(run, games[int(run.seed[1:]) % GAMES][1]) for run in runs], worker="bench")
        if (first // PER_PLAYER) % 100 == 99:
            print(f"  {first + PER_PLAYER:,} runs stored, {time.perf_counter() - started:.0f} s", flush=True)


def seed_board_reads(stack, count: int, requests: int) -> list[float]:
    """Latencies (ms) of ``GET /v1/seeds/<seed>/leaderboard`` for random seeds of the runs."""
    client = Client(stack.base)
    rng = random.Random(5)

    def one():
        status, body = client.request("GET", f"/v1/seeds/s{rng.randrange(count)}/leaderboard")
        assert status == 200 and b'"total":1' in body.replace(b" ", b""), (status, body[:200])

    latencies_ms(one, min(200, requests))  # warm up
    return latencies_ms(one, requests)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()

    stack = Service(workers=0)
    try:
        db = stack.database(timeout=BULK_TIMEOUT)  # a million runs: Redis may pause to rewrite its log
        games = real_games()
        before = db.redis.info("memory")["used_memory"]
        started = time.perf_counter()
        store_runs(db, args.runs, games)
        hot_used = db.redis.info("memory")["used_memory"]
        hot = (hot_used - before) / args.runs
        print(f"{args.runs:,} verified open runs on seeds of their own stored in "
              f"{time.perf_counter() - started:.0f} s: "
              f"**{hot:,.0f} bytes of Redis per hot run**, board entries included "
              f"(a 64 GB Redis serves about {64 * GIB / hot / 1e6:,.0f} million hot runs)", flush=True)
        hot_reads = seed_board_reads(stack, args.runs, args.requests)
        print(f"GET /v1/seeds/<seed>/leaderboard, board in Redis:   {percentiles(hot_reads)}", flush=True)

        started = time.perf_counter()
        tally = archive_old_runs(db, 0)
        after = db.redis.info("memory")["used_memory"]
        archived = (after - before) / args.runs
        print(f"retention: {tally.archived:,} runs and {tally.boards.cooled:,} seed boards archived in "
              f"{time.perf_counter() - started:.0f} s: **{archived:,.1f} bytes of Redis per archived run** "
              f"left (used_memory {before:,} → {hot_used:,} → {after:,})", flush=True)
        with db.archive.engine.connect() as connection:  # fold the write-ahead log into the file
            connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        size = os.path.getsize(db.archive.engine.url.database)
        print(f"the archive (SQLite): {size:,} bytes, **{size / args.runs:,.0f} bytes per archived run** with its "
              f"seed board place (a 1 TB disk holds about {1e12 / (size / args.runs) / 1e9:,.1f} billion runs)")
        archived_reads = seed_board_reads(stack, args.runs, args.requests)
        print(f"GET /v1/seeds/<seed>/leaderboard, board archived:   {percentiles(archived_reads)}", flush=True)
        db.close()
    finally:
        stack.stop()


if __name__ == "__main__":
    sys.exit(main())
