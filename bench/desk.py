"""The moderators' desk at scale: the queue with 10,000 open disputes and 10,000 flags, and a case page.

Fills the store (``store.runs``, as the worker records verdicts) with
``--runs`` open classic runs of ``--players`` players, each disputed once
(``store.moderation.file_dispute``) and flagged once (``fast_moves``,
``store.moderation.raise_run_flags``); signs a moderator in at the desk over
HTTP (``POST /desk/sign-in``, the session cookie), then times, p50 and p99:

- ``/desk``: the queue's first page (25 open disputes, oldest first, with
  their runs, who is on each case, and every section's count);
- ``/desk?section=flags``: the flags' first page;
- ``/desk/runs/<id>``: a case page (the run, its audit log, disputes, flags,
  the player's recent runs and open reports, sanctions).

Goal: the queue's first page p99 under 50 ms server time, a case page p99
under 100 ms. Both are printed: the round trip as the client sees it, and
the server's own time, from the API's request log (``duration_ms``).

    .venv/bin/python bench/desk.py [--runs 10000] [--players 100] [--requests 500]
"""

import argparse
import time
from urllib.parse import urlencode

from _harness import Client, Service, latencies_ms, percentiles
from scoundrel.strategies import play_game
from store import create_moderator
from store.moderation import FAST_MOVES, Finding, file_dispute, raise_run_flags
from store.runs.accepting import Submission, accept_runs
from store.runs.records import load_runs
from store.runs.verdicts import record_verdicts
from verification import judge

SEED = "bench-desk"
BATCH = 500


def fill(db, runs: int, players: int) -> str:
    """``runs`` verified runs, each disputed and flagged once; a run's id (the case page's)."""
    moves = play_game(SEED, "classic")
    verdict = None
    per_player = -(-runs // players)
    last = ""
    for player in range(players):
        name = f"player{player:05d}"
        for start in range(0, per_player, BATCH):
            count = min(BATCH, per_player - start, runs - player * per_player - start)
            if count <= 0:
                break
            submissions = [Submission(f"{SEED}-{start + i}", "classic", moves) for i in range(count)]
            pending = load_runs(db, [run.id for run, _ in accept_runs(db, name, submissions)])
            verdict = verdict or judge(pending[0])
            record_verdicts(db, [(run, {**verdict}) for run in pending])
            for run in load_runs(db, [run.id for run in pending]):
                file_dispute(db, run.id, "reporter", "looks like a bot")
                raise_run_flags(db, run, [Finding(FAST_MOVES, {"median_ms": 40, "spread": 0.5, "timed_moves": 30,
                                                               "limit_ms": 250})], runs)
                last = run.id
    return last


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10_000, help="runs, each disputed once and flagged once")
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--requests", type=int, default=500)
    args = parser.parse_args()

    # one address sends every request: no rate limit (a desk is a few moderators, not a crowd)
    stack = Service(workers=0, env={"SCOUNDREL_RATE_LIMIT_TOKEN": "", "SCOUNDREL_RATE_LIMIT_ADDRESS": ""})
    try:
        db = stack.database(timeout=30)
        started = time.perf_counter()
        case_run = fill(db, args.runs, args.players)
        print(f"stored {args.runs:,} runs, each disputed and flagged once, in {time.perf_counter() - started:.1f} s")
        token = create_moderator(db, "bench")
        http = Client(stack.base)
        http.connection.request("POST", "/desk/sign-in", body=urlencode({"token": token}),
                                headers={"Content-Type": "application/x-www-form-urlencoded", "Origin": stack.base})
        signed = http.connection.getresponse()
        signed.read()
        assert signed.status == 303, signed.status
        cookie = {"Cookie": signed.getheader("Set-Cookie").split(";")[0]}
        pages = (("queue, disputes' first page", "/desk", 50), ("queue, flags' first page", "/desk?section=flags", 50),
                 (f"case page ({case_run})", f"/desk/runs/{case_run}", 100))
        for _, path, _ in pages:
            status, body = http.request("GET", path, headers=cookie)
            assert status == 200, (status, body[:300])
        assert f"{args.runs}</span>".encode() in http.request("GET", "/desk", headers=cookie)[1]
        for label, path, goal in pages:
            latencies_ms(lambda path=path: http.request("GET", path, headers=cookie), 20)  # warm up
            logged = len(stack.server_times(lambda logged_path, path=path: logged_path == path.split("?")[0]))
            times = latencies_ms(lambda path=path: http.request("GET", path, headers=cookie), args.requests)
            server = stack.server_times(lambda logged_path, path=path: logged_path == path.split("?")[0])[logged:]
            print(f"{label + ':':36s} round trip {percentiles(times)}; server {percentiles(server)} "
                  f"(goal p99 under {goal} ms)")
        db.close()
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
