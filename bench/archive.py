"""The archive: how fast retention moves runs, and reading a run from Redis against from the archive.

1. Throughput: ``--runs`` finished runs are stored the service's own way
   (``accept_runs`` then ``record_verdicts``: run hash, indexes, audit log,
   board places), spread over players so few hold a board place, then one
   retention pass (``archive_old_runs``, batches of 500) moves them: runs
   per second moved, into SQLite and into PostgreSQL (a throwaway server on
   a free port). The pass is the store's, run here: the PostgreSQL half
   needs no API, only a Redis as ``scoundrel up`` runs its own (append-only
   file, the same server binary) beside the PostgreSQL.
2. ``GET /v1/runs/<id>`` over HTTP (the API under gunicorn, keep-alive):
   p50/p99 for hot runs against archived ones, with SQLite holding
   ``--archived`` runs (default 1,000,000). Beyond the runs moved in step 1,
   the table is filled directly in bulk (copies of a real archived row with
   new ids, players and times, through ``store.archive.tables``), which is
   far quicker than moving a million runs through Redis and reads the same.

    .venv/bin/python bench/archive.py [--runs 20000] [--archived 1000000] [--requests 2000]
"""

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import sqlalchemy as sa

from _harness import POSTGRES_TEMPLATE, Client, Service, latencies_ms, percentiles
from cli.redis_server import RedisServer, find_redis_server
from settings import Settings
from store import Database, Submission, accept_runs, load_runs, record_verdicts
from store.archive.tables import archived_runs
from store.operations.retention import archive_old_runs
from store.queue.queues import verify_queue
from throwaway.postgres import PostgresServer
from verification import judge
from worker.registry import JOBS

PLAYERS = 100
FILL_BATCH = 20_000


def store_finished_runs(db, count: int) -> list[str]:
    """``count`` verified runs of ``PLAYERS`` players, stored as the batch path stores them."""
    run_ids = []
    per_player = count // PLAYERS
    for number in range(PLAYERS):
        submissions = [Submission(f"bench-{number}-{i}", "classic", []) for i in range(per_player)]
        # an empty move list on a fresh seed: a quick, legal "incomplete" rejection, stored like any verdict
        for first in range(0, len(submissions), 1000):
            accepted = accept_runs(db, f"bench{number:03d}", submissions[first:first + 1000], runs_per_job=1000)
            run_ids += [run.id for run, _ in accepted]
    db.raw.delete(verify_queue(db).key)  # the jobs: judged right here instead
    for first in range(0, len(run_ids), 1000):
        runs = [run for run in load_runs(db, run_ids[first:first + 1000]) if run]
        record_verdicts(db, [(run, judge(run)) for run in runs], worker="bench")
    return run_ids


def throughput(db: Database, label: str, runs: int) -> tuple[float, list[str]]:
    db.archive.upgrade()
    run_ids = store_finished_runs(db, runs)
    started = time.perf_counter()
    tally = archive_old_runs(db, 0)
    elapsed = time.perf_counter() - started
    rate = tally.archived / elapsed
    print(f"{label}: {tally.archived:,} of {tally.examined:,} runs moved in {elapsed:.1f} s: {rate:,.0f} runs/s",
          flush=True)
    db.close()
    return rate, run_ids


def fill_archive(stack, total: int) -> None:
    """Copies of a real archived row until the table holds ``total`` runs."""
    db = stack.database()
    engine = db.archive.engine
    with engine.connect() as connection:
        template = connection.execute(sa.select(archived_runs).limit(1)).mappings().one()
        have = connection.execute(sa.select(sa.func.count()).select_from(archived_runs)).scalar_one()
    started = time.perf_counter()
    base_ms = int(template["submitted_ms"]) - 10 ** 9
    for first in range(have, total, FILL_BATCH):
        rows = []
        for number in range(first, min(total, first + FILL_BATCH)):
            run_id = f"f{number:015x}"
            fields = {**template["run"], "id": run_id, "player": f"filler{number % 50_000:05d}",
                      "submitted_ms": str(base_ms + number)}
            rows.append({**template, "run_id": run_id, "player": fields["player"],
                         "submitted_ms": base_ms + number, "run": fields})
        with engine.begin() as connection:
            connection.execute(sa.insert(archived_runs), rows)
    with engine.connect() as connection:  # fold the write-ahead log into the database, as SQLite does over time
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    print(f"archive filled to {total:,} runs in {time.perf_counter() - started:.0f} s", flush=True)
    db.close()


def read_latencies(stack, hot: list[str], archived: list[str], requests: int) -> None:
    client = Client(stack.base)
    rng = random.Random(7)

    def get(ids):
        def one():
            status, _ = client.request("GET", f"/v1/runs/{rng.choice(ids)}")
            assert status == 200, status
        return one

    warm_up = min(200, requests)
    latencies_ms(get(hot), warm_up)  # warm up both paths
    latencies_ms(get(archived), warm_up)
    for _ in range(2):  # alternate rounds, keep the second (the machine is shared)
        hot_times = latencies_ms(get(hot), requests)
        archived_times = latencies_ms(get(archived), requests)
    print(f"GET /v1/runs/<id>, hot run:      {percentiles(hot_times)}")
    print(f"GET /v1/runs/<id>, archived run: {percentiles(archived_times)}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20_000, help="runs moved by one retention pass, per database")
    parser.add_argument("--archived", type=int, default=1_000_000, help="archived runs when reading (SQLite)")
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()
    if args.runs < PLAYERS or args.archived < args.runs:
        parser.error(f"--runs must be at least {PLAYERS} (a run per player), and --archived at least --runs")

    template = os.environ.get(POSTGRES_TEMPLATE)
    server = PostgresServer(template=Path(template) if template else None).start()
    try:
        with tempfile.TemporaryDirectory(prefix="scoundrel-bench-") as directory:
            redis = RedisServer(Path(directory) / "redis", persistent=True, binary=find_redis_server()).start()
            try:
                settings = Settings(redis_url=redis.url, data_dir=directory, archive_url=server.url)
                throughput(Database.from_settings(settings, JOBS), "PostgreSQL", args.runs)
            finally:
                redis.stop()
    finally:
        server.stop()

    stack = Service(workers=0)
    try:
        _, moved = throughput(stack.database(), "SQLite", args.runs)
        db = stack.database()
        hot = [run.id for run in (accepted for accepted, _ in accept_runs(
            db, "hotplayer", [Submission(f"hot-{i}", "classic", []) for i in range(min(1000, args.runs))]))]
        db.close()
        fill_archive(stack, args.archived)
        archived = moved + [f"f{number:015x}" for number in random.Random(3).sample(
            range(len(moved), args.archived), min(50_000, args.archived - len(moved)))]
        read_latencies(stack, hot, archived, args.requests)
    finally:
        stack.stop()


if __name__ == "__main__":
    sys.exit(main())
