"""``scoundrel migrate``: a Redis an older release wrote becomes one the store reads, and nothing is lost.

An older release kept a run's id in its hash too, its moves spelt out in one
string, its audit log in a stream of its own, a submission key naming its
random id under its game, and an index of every run. The tests write such
runs key by key as that release did, then: the dry run counts them and
changes nothing, ``--apply`` rewrites them (each then reads, verifies,
disputes, archives and comes back as a run of today, its log, moves and id
intact, its game sent again still found), a second run changes nothing, a
killed run carries on when started again, and a run beside a worker and the
API loses none of their changes. ``scoundrel check`` reports the older
layout until it is gone.
"""

import json
import os
import pty
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from domain.run import Run
from store.base import keys
from store.base.clock import now_ms
from store.base.packing import iso_time
from store.queue.queues import enqueue_verification
from store.runs import move_codes
from store.runs.accepting import fingerprint
from store.runs.audit import audit_log, run_snapshot
from store.runs.records import load_run
from store.runs.verdicts import verdict_fields
from tests.audit.conftest import bearer, cli, submit_final
from tests.support.games import games_by_score
from verification import judge

from .conftest import archive_now, snapshot

pytestmark = pytest.mark.served  # a migration beside the running API and worker

PENDING = {"status": "pending", "outcome": None, "score": None, "health": None, "error": None}


def _old_run(redis, player: str, game: dict, run_id: str, submitted_ms: int, *, judged: bool = True) -> list[dict]:
    """A run as an older release stored it, every key of it; its audit entries as the API shows them.

    ``judged``: with the verdict of ``game`` (a short game: rejected); else pending, as just accepted.
    """
    moves = " ".join(game["moves"])
    fields = {"id": run_id, "player": player, "seed": game["seed"], "variant": "classic", "moves": moves,
              "status": "pending", "submitted_ms": submitted_ms, "daily": "", "request_id": "r" * 32, "job": "j" * 24}
    stream = [(submitted_ms, "submitted", "player", player, None, {"status": "pending"})]
    if judged:
        verdict = verdict_fields(judge(Run(run_id, player, "classic", game["seed"], "pending", None, submitted_ms,
                                               moves=tuple(game["moves"]))))
        fields.update({**verdict, "verified_ms": submitted_ms + 40})
        del fields["job"], fields["request_id"]
        stream.append((submitted_ms + 40, verdict["status"], "worker", "f" * 32, PENDING, run_snapshot(fields)))
    pipe = redis.pipeline(transaction=False)
    pipe.hset(keys.run(run_id), mapping=fields)
    for at, event, kind, actor, before, after in stream:
        pipe.xadd(keys.old_audit_stream(run_id), {"event": event, "actor_kind": kind, "actor": actor, "at": at,
                                                  "before": json.dumps(before), "after": json.dumps(after),
                                                  "detail": json.dumps({})})
    pipe.set(keys.submission(player, fingerprint(game["seed"], "classic", game["moves"])), run_id)
    pipe.zadd(keys.player_runs(player), {run_id: submitted_ms})
    pipe.zadd(keys.old_run_index(), {run_id: submitted_ms})
    if not judged:
        pipe.zadd(keys.pending_runs(), {run_id: now_ms()})  # just queued: not the sweeper's yet
    ids = pipe.execute()[1:1 + len(stream)]
    return [{"id": entry_id, "event": event, "actor": {"kind": kind, "name": actor}, "at": iso_time(at),
             "before": before, "after": after, "detail": {}}
            for entry_id, (at, event, kind, actor, before, after) in zip(ids, stream, strict=True)]


def _short(game: dict) -> dict:
    """The game cut short: a run of it is rejected, so it holds no board place."""
    return {**game, "moves": game["moves"][:3]}


_RUN_KEYS = (keys.run("*"), keys.old_audit_stream("*"), keys.submission("*", "*"), keys.player_runs("*"),
             keys.old_run_index(), keys.run_players(), keys.pending_runs())


def _everything(redis) -> dict:
    """Every key of a run, and what it holds."""
    found = {}
    for key in (key for pattern in _RUN_KEYS for key in redis.scan_iter(match=pattern, count=1000)):
        kind = redis.type(key)
        found[key] = {"hash": redis.hgetall, "stream": redis.xrange, "string": redis.get,
                      "zset": lambda k: redis.zrange(k, 0, -1, withscores=True), "set": redis.smembers,
                      "list": lambda k: redis.lrange(k, 0, -1)}[kind](key)
    return found


def _assert_todays(redis, run_id: str, game: dict) -> None:
    stored = redis.hgetall(keys.run(run_id))
    assert not {"id", "moves"} & set(stored), stored
    assert move_codes.decode(stored["codes"]) == game["moves"] and "log" in stored
    assert not redis.exists(keys.old_audit_stream(run_id))


def test_dry_run_counts_apply_rewrites_and_each_run_lives_on_as_todays(stack, db):
    player, token = stack.register("ida")
    low, high = games_by_score("migrate-1", 2)
    base = now_ms() - 60_000
    rejected_id, pending_id = "0123456789abcdef", "fedcba9876543210"
    rejected_log = _old_run(db.redis, player, _short(low), rejected_id, base)
    pending_log = _old_run(db.redis, player, high, pending_id, base + 10, judged=False)
    untouched = _everything(db.redis)

    dry = cli(stack, "migrate")
    assert dry.returncode == 0, dry.stderr
    assert ("would rewrite 2 runs of an older layout (2 with an id field, 2 with their moves spelt out, "
            "2 with an audit stream) and the index of every run") in dry.stdout
    assert "nothing changed" in dry.stdout
    assert _everything(db.redis) == untouched
    checked = cli(stack, "check")
    assert checked.returncode == 1
    assert "2 runs of an older layout" in checked.stderr and "scoundrel migrate" in checked.stderr

    applied = cli(stack, "migrate", "--apply")
    assert applied.returncode == 0, applied.stderr
    assert "rewrote 2 runs of an older layout" in applied.stdout
    for run_id, game in ((rejected_id, _short(low)), (pending_id, high)):
        _assert_todays(db.redis, run_id, game)
    assert not db.redis.exists(keys.old_run_index())
    assert db.redis.zscore(keys.run_players(), player) == base
    assert audit_log(db, rejected_id) == rejected_log  # the stream's entry ids too
    assert audit_log(db, pending_id) == pending_log
    again = cli(stack, "migrate", "--apply")
    assert again.returncode == 0 and "nothing to change" in again.stdout, again.stdout
    assert cli(stack, "migrate").stdout == again.stdout

    enqueue_verification(db, [pending_id])  # verifies as a run of today: its moves are read from its codes
    verified = stack.wait_final(pending_id)
    assert verified["status"] == "verified" and verified["moves"] == high["moves"]
    assert db.redis.hget(keys.board_holders("open", ("classic",)), player) == pending_id
    assert [entry["event"] for entry in audit_log(db, pending_id)] == ["submitted", "verified"]
    for run_id, game in ((rejected_id, _short(low)), (pending_id, high)):
        resent = stack.submit(token, game)  # the same game again is the run it made: same id
        assert resent.status_code == 200 and resent.json()["id"] == run_id, resent.text
    checked = cli(stack, "check")
    assert checked.returncode == 0, checked.stderr

    disputed = stack.post(f"/v1/runs/{rejected_id}/disputes", json={"reason": "Old, but fair?"},
                          headers=bearer(token))
    assert disputed.status_code == 201, disputed.text
    hot = snapshot(stack, rejected_id)
    assert hot["run"]["moves"] == low["moves"][:3] and hot["audit"]["entries"][:2] == rejected_log
    archive_now(stack)
    assert load_run(db, rejected_id) is None and rejected_id in db.archive.load([rejected_id])
    assert not db.redis.exists(keys.submission(player, fingerprint(low["seed"], "classic", low["moves"][:3])))
    assert snapshot(stack, rejected_id) == hot
    second = stack.post(f"/v1/runs/{rejected_id}/disputes", json={"reason": "Again."}, headers=bearer(token))
    assert second.status_code == 201, second.text  # brought back from the archive
    _assert_todays(db.redis, rejected_id, _short(low))
    entries = audit_log(db, rejected_id)
    assert entries[:3] == hot["audit"]["entries"]
    assert [entry["event"] for entry in entries] == ["submitted", "rejected", "disputed", "disputed"]
    resent = stack.submit(token, _short(low))  # back in Redis, its submission key is back too
    assert resent.status_code == 200 and resent.json()["id"] == rejected_id
    assert cli(stack, "check").returncode == 0


def _many_old_runs(redis, player: str, count: int, seed: str) -> dict[str, list[dict]]:
    game = _short(games_by_score(seed, 1)[0])
    base = now_ms() - 60_000
    logs = {}
    for n in range(count):
        run_id = f"{seed}-{n:05d}"[-16:]
        logs[run_id] = _old_run(redis, player, {**game, "seed": f"{seed}-{n}"}, run_id, base + n)
    return logs


def _migrate_process(stack, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cli.main", "migrate", "--apply", *args], env=stack.env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_killed_migration_carries_on_when_started_again(stack, db):
    player, _ = stack.register("jon")
    logs = _many_old_runs(db.redis, player, 800, "migrate-2")
    migrating = _migrate_process(stack, "--batch", "1")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and sum(
            not db.redis.hexists(keys.run(run_id), "id") for run_id in list(logs)[::40]) < 2:
        time.sleep(0.02)
    migrating.send_signal(signal.SIGKILL)
    migrating.wait()
    left = sum(db.redis.hexists(keys.run(run_id), "id") for run_id in logs)
    assert 0 < left < len(logs), left  # killed midway
    for run_id in logs:  # each run in one layout or the other, never half
        stored = db.redis.hgetall(keys.run(run_id))
        assert ("id" in stored) == ("moves" in stored) == bool(db.redis.exists(keys.old_audit_stream(run_id)))

    resumed = cli(stack, "migrate", "--apply")
    assert resumed.returncode == 0, resumed.stderr
    assert f"rewrote {left} runs of an older layout" in resumed.stdout
    for run_id, log in logs.items():
        assert not db.redis.hexists(keys.run(run_id), "id")
        assert audit_log(db, run_id) == log
    assert "nothing to change" in cli(stack, "migrate", "--apply").stdout


def test_a_migration_beside_the_worker_and_the_api_loses_no_change(stack, db):
    player, token = stack.register("kit")
    logs = _many_old_runs(db.redis, player, 300, "migrate-3")
    disputed = list(logs)[::7]
    new_games = [{"seed": f"migrate-3-new-{n}", "moves": games_by_score(f"migrate-3-new-{n}", 1)[0]["moves"]}
                 for n in range(5)]
    answers: list = []

    def players_and_worker() -> None:
        for run_id in disputed:
            answers.append(stack.post(f"/v1/runs/{run_id}/disputes", json={"reason": "Beside the migration."},
                                      headers=bearer(token)).status_code)
        answers.extend(submit_final(stack, token, game)["status"] for game in new_games)

    beside = threading.Thread(target=players_and_worker)
    migrating = _migrate_process(stack, "--batch", "2")
    beside.start()
    beside.join(timeout=120)
    out, errors = migrating.communicate(timeout=120)
    assert migrating.returncode == 0, errors
    assert answers == [201] * len(disputed) + ["verified"] * len(new_games)
    for run_id, log in logs.items():
        _assert_todays(db.redis, run_id, {"moves": _short(games_by_score("migrate-3", 1)[0])["moves"]})
        entries = audit_log(db, run_id)
        assert entries[:2] == log
        assert [entry["event"] for entry in entries[2:]] == (["disputed"] if run_id in disputed else [])
    assert "nothing to change" in cli(stack, "migrate", "--apply").stdout
    assert cli(stack, "check").returncode == 0


def _in_a_terminal(env: dict, *args: str) -> tuple[int, list[str]]:
    """``scoundrel migrate ARGS`` with a terminal as its stdin, stdout and stderr: its status and the
    lines the terminal shows (a progress bar redrawn in place shows as a line a redraw)."""
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "cli.main", "migrate", *args], env=env,
                               stdin=follower, stdout=follower, stderr=follower)
    os.close(follower)
    output = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 60)
        try:
            chunk = os.read(leader, 4096) if ready else b""
        except OSError:  # the process ended and closed its side
            chunk = b""
        if not chunk:
            break
        output += chunk
    os.close(leader)
    text = output.decode()
    return process.wait(timeout=60), [line for line in text.replace("\r", "\n").splitlines() if line.strip()]


def test_in_a_terminal_a_progress_bar_then_one_line(stack, db):
    player, _ = stack.register("lea")
    _many_old_runs(db.redis, player, 20, "migrate-4")
    status, lines = _in_a_terminal(stack.env(), "--apply")
    assert status == 0
    assert lines[0].startswith("scoundrel migrate: Redis redis://")
    assert any(re.search(r"\d+/\d+ \[.* runs/s\]", line) for line in lines[1:-1]), lines  # tqdm's bar
    assert lines[-1].startswith("scoundrel migrate: rewrote 20 runs of an older layout"), lines


def test_in_a_terminal_an_unreachable_redis_is_one_line(stack):
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    status, lines = _in_a_terminal({**stack.env(), "REDIS_URL": f"redis://127.0.0.1:{port}/0"})
    assert status == 1
    assert len(lines) == 1 and lines[0].startswith("scoundrel migrate: cannot reach Redis (REDIS_URL)"), lines
