"""What the public log costs: Redis commands and bytes a run, signing a checkpoint, proofs over HTTP.

1. N legal games of P players are stored as the batch path stores them and
   judged one job a run (``record_verdicts`` with one verdict, as single
   submissions are judged), then the worker's step moves the leaves to the
   archive (``store.log.publish``). Redis's ``INFO commandstats`` before and
   after gives the log's own commands: INCR (the log's size) and RPUSH (the
   leaf) run by the verdict script, which nothing else on this path sends, the
   reads and writes of the pseudonyms' secrets (HMGET, HSETNX), and every
   command of the move. Per run, that is the log's added cost.
2. The run's Redis bytes: ``MEMORY USAGE`` of each run's hash (which holds
   nothing of the log) and of the secrets' hash a run; the leaves' list is
   empty once moved (its peak is printed too).
3. Signing a checkpoint: the Ed25519 signature of the note alone, and
   ``sign_checkpoint`` whole (the root from the archive, the insert), median
   and p99 of R signatures over a growing tree.
4. Proofs over HTTP: a tree of L leaves in a SQLite archive, the API served
   by ``scoundrel up`` (gunicorn, no worker, rate limits off: ``NO_LIMITS``)
   on it, R inclusion proofs (by run) and R consistency proofs at random
   sizes, each checked against the tree's root: p50/p99 in ms of the round
   trip and of the server's time (the API's request log), then of the
   store's part alone in this process.

   **The shortcut**: the tree is not appended through Redis and moved by
   the worker, which for ten million leaves would take hours; its rows are
   written straight into the archive (``_write_tree``): each leaf's row
   (its index, a run id ``run<index>``, a short stand-in text
   ``{"index":<index>}`` and its RFC 9162 hash) and every complete subtree
   it finishes, the rows the move writes, in SQLite's bulk way (large
   transactions, the leaves' secondary indexes built after). A proof reads
   the subtrees' hashes and finds a leaf by its run, never its text, so it
   reads what it would in a log grown leaf by leaf. ``--tree DIR`` keeps
   the tree there and takes it up again (ten million leaves: about six
   minutes to write, 2.9 GB).

    .venv/bin/python bench/log.py [--runs 2000] [--players 40] [--leaves 10000000] [--requests 1000] [--tree DIR]
"""

import argparse
import base64
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _harness import Client, Service, percentiles  # (puts the repository root on sys.path)
from cli.redis_server import RedisServer
from domain.transparency import (
    inclusion_nodes,
    leaf_hash,
    node_hash,
    root_nodes,
    verify_consistency,
    verify_inclusion,
)
from scoundrel.strategies import play_game
from settings import sqlite_archive_url
from store import Database, Submission, accept_runs, load_runs, record_verdicts
from store.archive.tables import log_leaves, log_nodes
from store.base import keys
from store.log import archived_size, prove_consistency, prove_inclusion, publish, sign_checkpoint, tree_root
from store.log.leaves import LEAVES, SECRETS
from store.log.notes import Signer
from store.queue.queues import verify_queue
from verification import judge
from worker.registry import JOBS

LOG_COMMANDS = ("incr", "rpush", "hmget", "hsetnx")  # less the script's own HMGET of each run
WRITE_BATCH = 50_000
# the proofs' service without rate limits: a limit counted in Redis costs round trips that are the limiter's,
# not the log's (docs/performance.md measures them), and a client asking as fast as it can would hit them
NO_LIMITS = {"SCOUNDREL_RATE_LIMIT_ADDRESS": "", "SCOUNDREL_RATE_LIMIT_TOKEN": "", "SCOUNDREL_RATE_LIMIT_PAR": ""}


def _stats(db: Database) -> dict[str, int]:
    return {name.removeprefix("cmdstat_"): values["calls"]
            for name, values in db.redis.info("commandstats").items()}


def commands_and_bytes(db: Database, runs: int, players: int) -> None:
    run_ids = []
    per_player = runs // players
    for number in range(players):
        submissions = [Submission(f"log-{number}-{i}", "classic", play_game(f"log-{number}-{i}", "classic"))
                       for i in range(per_player)]
        run_ids += [run.id for run, _ in accept_runs(db, f"bench{number:03d}", submissions, runs_per_job=1000)]
    db.raw.delete(verify_queue(db).key)  # the jobs: judged right here instead
    pending = [run for run in load_runs(db, run_ids) if run]
    judged = [(run, judge(run)) for run in pending]
    before = _stats(db)
    for run, verdict in judged:
        record_verdicts(db, [(run, verdict)], worker="bench")
    peak = db.redis.memory_usage(LEAVES) or 0
    middle = _stats(db)
    publish(db, None)
    after = _stats(db)
    count = len(judged)
    added = {name: middle.get(name, 0) - before.get(name, 0) for name in LOG_COMMANDS}
    added["hmget"] -= count  # the verdict script reads each run with one HMGET, log or not
    moving = sum(after.values()) - sum(middle.values())
    secrets = added["hmget"] + added["hsetnx"]
    print(f"runs judged: {count}, one job a run")
    print(f"  the log's Redis commands a run: {(sum(added.values()) + moving) / count:.2f} (INCR and RPUSH by the "
          f"script {(added['incr'] + added['rpush']) / count:.2f}, the secrets {secrets / count:.2f}, the move "
          f"{moving / count:.3f})")
    run_bytes = sum(db.redis.memory_usage(keys.run(run_id)) or 0 for run_id in run_ids) / count
    kept = (db.redis.memory_usage(SECRETS) or 0) / count
    print(f"  a run's Redis bytes: {run_bytes:.0f} (its hash, unchanged by the log), +{kept:.1f} with the log "
          f"({100 * kept / run_bytes:.1f} %: its share of the players' secrets); leaves waiting to move peaked "
          f"at {peak / count:.0f} bytes a run, 0 once moved")


def signing(db: Database, signatures: int) -> None:
    signer = Signer.generate("bench.example/log")
    note_times, whole_times = [], []
    body = "bench.example/log\n123456789\n" + "A" * 43 + "=\n"
    for _ in range(signatures):
        started = time.perf_counter()
        signer.sign(body)
        note_times.append((time.perf_counter() - started) * 1000)
    db.archive.upgrade()
    for number in range(min(signatures, 200)):
        _write_tree(db, number, number + 1)  # one more leaf: a new checkpoint each time
        started = time.perf_counter()
        sign_checkpoint(db, signer)
        whole_times.append((time.perf_counter() - started) * 1000)
    print(f"signing a checkpoint: the note {_ms(note_times)}; sign_checkpoint whole (root read, note stored) "
          f"{_ms(whole_times)}")


def _ms(times: list[float]) -> str:
    ordered = sorted(times)
    return (f"p50 {statistics.median(ordered):.3f} ms, "
            f"p99 {ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]:.3f} ms")


def _leaf(index: int) -> str:
    """A leaf's text in the proofs' tree: short and unique (the proofs read hashes, never a leaf's text)."""
    return f'{{"index":{index}}}'


def _write_tree(db: Database, start: int, end: int) -> None:
    """Leaves ``start``… ``end`` (excluded) and the complete subtrees they finish, straight into the SQLite
    archive as the move writes them (``store.log.tree``), in SQLite's own bulk way: one transaction a
    ``WRITE_BATCH``, no wait for the disk (``synchronous=OFF``), and for a large tree the leaves' two
    secondary indexes built once after."""
    frontier = root_nodes(start)  # the complete subtrees the new leaves join
    connection = sqlite3.connect(db.archive.engine.url.database, isolation_level=None)
    connection.execute("PRAGMA synchronous=OFF")
    known = {level: digest for level, _, digest in connection.execute(
        f"SELECT level, \"index\", hash FROM {log_nodes.name} WHERE " + " OR ".join(
            f"(level = {level} AND \"index\" = {index})" for level, index in frontier))} if frontier else {}
    bulk = end - start > WRITE_BATCH
    if bulk:
        for secondary in log_leaves.indexes:
            secondary.drop(db.archive.engine)
    for first in range(start, end, WRITE_BATCH):
        leaves, nodes = [], []
        for index in range(first, min(end, first + WRITE_BATCH)):
            digest = leaf_hash(_leaf(index))
            leaves.append((index, f"run{index:012d}", digest, _leaf(index)))
            nodes.append((0, index, digest))
            position, level = index, 0
            while position & 1:  # each parent it closes: the left sibling is the one known at that level
                hashed = node_hash(known.pop(level), digest)
                position, level, digest = position >> 1, level + 1, hashed
                nodes.append((level, position, hashed))
            known[level] = digest
        connection.execute("BEGIN")
        connection.executemany(f'INSERT INTO {log_leaves.name} ("index", run_id, leaf_hash, leaf) VALUES (?, ?, ?, ?)',
                               leaves)
        connection.executemany(f'INSERT INTO {log_nodes.name} (level, "index", hash) VALUES (?, ?, ?)', nodes)
        connection.execute("COMMIT")
    connection.close()
    if bulk:
        for secondary in log_leaves.indexes:
            secondary.create(db.archive.engine)


def proofs(tree: Path, leaves: int, count: int) -> None:
    archive = sqlite_archive_url(tree)
    db = Database("redis://127.0.0.1:1", JOBS, archive_url=archive)  # the archive alone: no Redis asked
    db.archive.upgrade()
    started = time.perf_counter()
    held = archived_size(db)
    if held < leaves:
        _write_tree(db, held, leaves)
    leaves = archived_size(db)
    print(f"proofs over HTTP, a tree of {leaves:,} leaves ({leaves - held:,} written in "
          f"{time.perf_counter() - started:.0f} s):")
    stack = Service(workers=0, env={"SCOUNDREL_ARCHIVE_URL": archive, **NO_LIMITS})  # scoundrel up: gunicorn
    http, chosen = Client(stack.base), random.Random(47)
    try:
        round_trips: dict[str, list[float]] = {"inclusion": [], "consistency": []}
        logged = len(stack.server_times(_a_proof))
        for _ in range(count):
            size = chosen.randint(1, leaves)
            index = chosen.randrange(size)
            begun = time.perf_counter()
            status, body = http.request("GET", f"/v1/log/proof/inclusion?run=run{index:012d}&size={size}")
            round_trips["inclusion"].append((time.perf_counter() - begun) * 1000)
            hashes = [base64.b64decode(h) for h in json.loads(body)["hashes"]]
            assert status == 200 and verify_inclusion(leaf_hash(_leaf(index)), index, size, hashes,
                                                      tree_root(db, size))
            assert len(set(inclusion_nodes(index, size))) <= 2 * size.bit_length()
            first = chosen.randint(1, size)
            begun = time.perf_counter()
            status, body = http.request("GET", f"/v1/log/proof/consistency?first={first}&second={size}")
            round_trips["consistency"].append((time.perf_counter() - begun) * 1000)
            hashes = [base64.b64decode(h) for h in json.loads(body)["hashes"]]
            assert status == 200 and verify_consistency(first, size, tree_root(db, first), tree_root(db, size),
                                                        hashes)
        server = stack.server_times(_a_proof)[logged:]
    finally:
        http.close()
        stack.stop()
    for kind, times in round_trips.items():
        print(f"  {kind}: round trip {percentiles(times)}; server {percentiles(server[kind == 'consistency'::2])}"
              f" ({count}, each checked)")
    alone: dict[str, list[float]] = {"inclusion": [], "consistency": []}
    for _ in range(count):  # the store's part alone, in this process: the subtrees read in one query
        size = chosen.randint(1, leaves)
        begun = time.perf_counter()
        prove_inclusion(db, chosen.randrange(size), size)
        alone["inclusion"].append((time.perf_counter() - begun) * 1000)
        begun = time.perf_counter()
        prove_consistency(db, chosen.randint(1, size), size)
        alone["consistency"].append((time.perf_counter() - begun) * 1000)
    print(f"  the store alone: inclusion {percentiles(alone['inclusion'])}; "
          f"consistency {percentiles(alone['consistency'])}")
    db.close()


def _a_proof(path: str) -> bool:
    return path.startswith("/v1/log/proof/")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--leaves", type=int, default=10_000_000)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--tree", type=Path, help="a directory to keep the proofs' tree in and take it up again "
                                                  "from (default: a temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        redis = RedisServer(root / "redis", persistent=False).start()
        try:
            db = Database(redis.url, JOBS, archive_url=sqlite_archive_url(root / "runs"))
            db.archive.upgrade()
            if args.runs:  # 0: the proofs and signing alone
                commands_and_bytes(db, args.runs, args.players)
            signing(Database(redis.url, JOBS, archive_url=sqlite_archive_url(root / "signing")), args.requests)
            proofs(args.tree or root / "proofs", args.leaves, args.requests)
        finally:
            redis.stop()
    return 0


if __name__ == "__main__":
    os.environ.setdefault("SCOUNDREL_LOG_LEVEL", "WARNING")
    sys.exit(main())
