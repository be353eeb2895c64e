"""A schedule's occurrences made exactly once with several workers racing: N occurrences, P processes.

A schedule firing every minute is defined with ``ahead`` long enough for N
of its occurrences; P processes (the workers' periodic step, each its own
connection) wait at a barrier, then each makes every occurrence due
(``store.schedules.make_due``) at once. Figures: the tournaments made (each
start once, N in all, each made by one process), and the wall time.

Straight to a throwaway Redis, no API: the store's own functions.

    .venv/bin/python bench/schedules.py [--occurrences 1000] [--processes 4]
"""

import argparse
import multiprocessing
import tempfile
import time
from collections import Counter

import _harness  # noqa: F401  (puts the checkout on sys.path)
from cli.redis_server import RedisServer
from store import Database
from store.base import keys
from store.schedules import create_schedule, load_schedule, make_due
from store.tournaments.tournaments import load_tournaments
from worker.registry import JOBS

TEMPLATE = {"variant": "classic", "join_required": False, "max_entrants": None, "max_attempts": 1, "deals": 1,
            "scoring": "best", "rewards": [{"from_rank": 1, "payload": {"coins": 100}}]}


def racer(url: str, schedule_id: str, ahead_s: int, start, made) -> None:
    db = Database(url, JOBS, socket_timeout=30)
    schedule = load_schedule(db, schedule_id)
    start.wait()
    made.put(make_due(db, schedule, ahead_s))
    db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--occurrences", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        server = RedisServer(root, persistent=False).start()
        try:
            db = Database(server.url, JOBS, socket_timeout=30)
            schedule = create_schedule(db, title="Minute sprint", cron="* * * * *", timezone="UTC", duration_s=600,
                                       template=TEMPLATE, created_by="bench")
            ahead_s = args.occurrences * 60 - 1  # the first start is within a minute from now
            start, made = multiprocessing.Barrier(args.processes + 1), multiprocessing.Queue()
            racers = [multiprocessing.Process(target=racer, args=(server.url, schedule.id, ahead_s, start, made))
                      for _ in range(args.processes)]
            for process in racers:
                process.start()
            start.wait()
            began = time.perf_counter()
            by_racer = [made.get() for _ in racers]
            took = time.perf_counter() - began
            for process in racers:
                process.join()
            ids = [tournament_id for one in by_racer for tournament_id in one]
            tournaments = [tournament for tournament in load_tournaments(db, db.redis.zrange(
                keys.tournaments_starting(), 0, -1)) if tournament.schedule == schedule.id]
            starts = Counter(tournament.starts_ms for tournament in tournaments)
            print(f"schedules, {args.occurrences:,} occurrences of one schedule, {args.processes} processes racing")
            print(f"made: {len(tournaments):,} tournaments, {len(starts):,} distinct starts, the most of one start "
                  f"{max(starts.values(), default=0)}; made by the racers {len(ids):,} ({len(set(ids)):,} distinct), "
                  f"each racer {sorted(len(one) for one in by_racer)}")
            print(f"exactly once: {len(tournaments) == len(starts) == len(set(ids)) == len(ids) == args.occurrences}")
            print(f"wall time: {took:.2f} s ({args.occurrences / took:,.0f} occurrences/s)")
            db.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
