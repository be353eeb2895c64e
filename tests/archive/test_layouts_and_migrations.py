"""How a run is stored, and how older layouts become today's: a run's Redis layout, ``scoundrel
migrate`` from an older release's, and the archive's schema from Alembic's migrations.

A run is one compact hash: its moves one byte each, its audit log a field, no id, no empty field,
no submission index (its id comes from its player and game). A game sent again is the run it made,
in Redis or archived.

``scoundrel migrate``: an older release kept a run's id in its hash too, its moves spelt out in one
string, its audit log in a stream of its own, a submission key naming its random id under its game,
and an index of every run. The tests write such runs key by key as that release did, then: the dry
run counts them and changes nothing, ``--apply`` rewrites them (each then reads, verifies, disputes,
archives and comes back as a run of today, its log, moves and id intact, its game sent again still
found), a second run changes nothing, a killed run carries on when started again, and a run beside
a worker and the API loses none of their changes. ``scoundrel check`` reports the older layout until
it is gone. The API and the worker are the in-process stack's; ``scoundrel migrate`` has a process of
its own where that is the point (killed, beside them, in a terminal): forked from this one.

The archive's migrations build exactly the tables ``store.archive.tables`` describes (Alembic's own
comparison finds no difference), a second upgrade changes nothing, an archive at an older migration
is upgraded to the head (which ``upgrade`` reads from the migrations' file names, as Alembic does),
a new SQLite archive waits for another process's lock, and an archive whose rows spell out a run's
moves is rewritten in place. (Several processes upgrading one new archive at once:
``test_processes.py``.)
"""

import json
import os
import pty
import re
import select
import sqlite3
import threading
import time
from importlib import resources
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from domain.run import Run
from store.archive import Archive, ArchivedRun, head_revision
from store.archive.tables import metadata
from store.base import keys
from store.base.clock import now_ms
from store.base.packing import iso_time
from store.queue.queues import enqueue_verification
from store.runs import move_codes
from store.runs.accepting import fingerprint
from store.runs.audit import audit_log, run_snapshot
from store.runs.records import load_run, run_from_stored
from store.runs.verdicts import verdict_fields
from tests.audit.conftest import bearer, cli, submit_final
from tests.support.games import games_by_score
from tests.support.stores import NO_REDIS_URL
from verification import judge

from .conftest import archive_now, forked_command, fresh_archive_url, snapshot

# ``scoundrel migrate`` killed, racing the API and the worker, in a terminal: processes of its own (``forked_command``)
pytestmark = pytest.mark.stack

PENDING = {"status": "pending", "outcome": None, "score": None, "health": None, "error": None}


def test_a_new_run_is_one_compact_hash(stack, db):
    _, token = stack.register("eve")
    game = games_by_score("layout-1", 1)[0]
    run = submit_final(stack, token, game)
    stored = db.redis.hgetall(keys.run(run["id"]))
    assert move_codes.decode(stored.pop("codes")) == game["moves"]
    assert not {"id", "moves", "job", "request_id", "daily", "error"} & set(stored)
    assert "" not in stored.values()
    assert db.redis.object("encoding", keys.run(run["id"])) == "listpack"
    assert not db.redis.exists(keys.submission("eve", fingerprint(game["seed"], "classic", game["moves"])))
    assert db.redis.memory_usage(keys.run(run["id"])) < 450
    entries = stack.get(f"/v1/runs/{run['id']}/audit-log").json()["entries"]
    assert [(entry["event"], entry["before"], entry["after"]) for entry in entries] == [
        ("submitted", None, {"status": "pending"}),
        ("verified", {"status": "pending", "outcome": None, "score": None, "health": None, "error": None},
         {"status": "verified", "outcome": run["outcome"], "score": run["score"], "health": run["health"],
          "error": None})]


def test_a_game_sent_again_is_its_run_in_redis_and_once_archived(stack, db):
    _, token = stack.register("fay")
    low, high = games_by_score("layout-2", 2)
    low_run = submit_final(stack, token, low)
    again = stack.submit(token, low)
    assert again.status_code == 200 and again.json()["id"] == low_run["id"]
    submit_final(stack, token, high)  # the places are high's: low moves to the archive
    archive_now(stack)
    assert not db.redis.exists(keys.run(low_run["id"])) and low_run["id"] in db.archive.load([low_run["id"]])
    again = stack.submit(token, low)
    assert again.status_code == 200 and again.json() == low_run
    batch = stack.post("/v1/runs/batch", json={"runs": [low]}, headers=bearer(token)).json()
    assert (batch["accepted"], batch["existing"]) == (0, 1) and batch["results"][0]["run"] == low_run
    assert not db.redis.exists(keys.run(low_run["id"]))  # still archived, not accepted anew
    assert not db.redis.zscore(keys.pending_runs(), low_run["id"])


def test_a_verified_run_costs_a_few_hundred_bytes(stack, db):
    """At most 600 bytes a run in all at a million runs (``bench/memory.py`` measures
    Redis' ``used_memory``, which a few hundred runs cannot: client buffers swing it by more). Here the
    keys a verified open run adds, on a seed of its own: its hash, its seed board (its one place, in the
    hashes such boards share: here about 300 of the 2,048, most of them for one board), its share of its
    player's run list. A stream of two audit entries alone would take 4.7 KB."""
    player, token = stack.register("hal")
    count = 300
    games = [{"seed": f"memory-{n}", "moves": games_by_score(f"memory-{n}", 1)[0]["moves"]} for n in range(count)]
    answer = stack.post("/v1/runs/batch", json={"runs": games}, headers=bearer(token)).json()
    assert answer["accepted"] == count
    stack.until(lambda: not db.redis.zcard(keys.pending_runs()), "the batch's verdicts")
    run_keys = [keys.run(result["run"]["id"]) for result in answer["results"]]
    assert [db.redis.hget(key, "status") for key in run_keys] == ["verified"] * count
    assert {db.redis.object("encoding", key) for key in run_keys} == {"listpack"}
    hashes = sum(db.redis.memory_usage(key, samples=0) for key in run_keys)
    names = [f"seed:classic:{game['seed']}" for game in games]  # each a board of one place, in a shared hash
    assert all(db.redis.hexists(keys.sole_places(name), name) for name in names)
    boards = sum(db.redis.memory_usage(bucket, samples=0) for bucket in {keys.sole_places(name) for name in names})
    run_list = db.redis.memory_usage(keys.player_runs(player), samples=0)
    per_run = (hashes + boards + run_list) / count
    assert per_run < 600, (hashes / count, boards / count, run_list / count)


def _old_run(redis, player: str, game: dict, run_id: str, submitted_ms: int, *, judged: bool = True) -> list[dict]:
    """A run as an older release stored it, every key of it; its audit entries as the API shows them.

    ``judged``: with the verdict of ``game`` (a short game: rejected); else pending, as just accepted.
    """
    return _old_runs(redis, player, [(game, run_id, submitted_ms)], judged=judged)[run_id]


def _old_runs(redis, player: str, runs: list[tuple[dict, str, int]], *, judged: bool = True) -> dict[str, list[dict]]:
    """``_old_run`` for each of ``runs`` (its game, id and submission time), written in one round trip (a round
    trip a run cost a test writing 800 about as much CPU as their migration): each run's audit entries by its id."""
    written = [(run_id, game["moves"], *_old_keys(player, game, run_id, submitted_ms, judged))
               for game, run_id, submitted_ms in runs]
    pipe = redis.pipeline(transaction=False)
    for run_id, _, _, stream in written:  # the streams' entries first: their ids lead the replies
        for at, event, kind, actor, before, after in stream:
            pipe.xadd(keys.old_audit_stream(run_id), {"event": event, "actor_kind": kind, "actor": actor, "at": at,
                                                      "before": json.dumps(before), "after": json.dumps(after),
                                                      "detail": json.dumps({})})
    for run_id, moves, fields, _ in written:
        pipe.hset(keys.run(run_id), mapping=fields)
        pipe.set(keys.submission(player, fingerprint(fields["seed"], "classic", moves)), run_id)
        pipe.zadd(keys.player_runs(player), {run_id: fields["submitted_ms"]})
        pipe.zadd(keys.old_run_index(), {run_id: fields["submitted_ms"]})
        if not judged:
            pipe.zadd(keys.pending_runs(), {run_id: now_ms()})  # just queued: not the sweeper's yet
    ids = iter(pipe.execute())
    return {run_id: [{"id": next(ids), "event": event, "actor": {"kind": kind, "name": actor}, "at": iso_time(at),
                      "before": before, "after": after, "detail": {}}
                     for at, event, kind, actor, before, after in stream]
            for run_id, _, _, stream in written}


def _old_keys(player: str, game: dict, run_id: str, submitted_ms: int, judged: bool) -> tuple[dict, list[tuple]]:
    """What ``_old_run`` writes of a run: its hash's fields, and its audit stream's entries."""
    fields = {"id": run_id, "player": player, "seed": game["seed"], "variant": "classic",
              "moves": " ".join(game["moves"]), "status": "pending", "submitted_ms": submitted_ms, "daily": "",
              "request_id": "r" * 32, "job": "j" * 24}
    stream = [(submitted_ms, "submitted", "player", player, None, {"status": "pending"})]
    if judged:
        verdict = verdict_fields(judge(Run(run_id, player, "classic", game["seed"], "pending", None, submitted_ms,
                                               moves=tuple(game["moves"]))))
        fields.update({**verdict, "verified_ms": submitted_ms + 40})
        del fields["job"], fields["request_id"]
        stream.append((submitted_ms + 40, verdict["status"], "worker", "f" * 32, PENDING, run_snapshot(fields)))
    return fields, stream


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
    return _old_runs(redis, player, [({**game, "seed": f"{seed}-{n}"}, f"{seed}-{n:05d}"[-16:], base + n)
                                     for n in range(count)])


def test_a_killed_migration_carries_on_when_started_again(stack, db):
    player, _ = stack.register("jon")
    logs = _many_old_runs(db.redis, player, 800, "migrate-2")
    migrating = forked_command(stack.env(), "migrate", "--apply", "--batch", "1")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and sum(
            not db.redis.hexists(keys.run(run_id), "id") for run_id in list(logs)[::40]) < 2:
        time.sleep(0.02)
    migrating.kill()
    migrating.join()
    layouts = _layouts(db.redis, list(logs))
    left = sum("id" in stored for stored, _ in layouts)
    assert 0 < left < len(logs), left  # killed midway
    for stored, streamed in layouts:  # each run in one layout or the other, never half
        assert ("id" in stored) == ("moves" in stored) == streamed

    resumed = cli(stack, "migrate", "--apply")
    assert resumed.returncode == 0, resumed.stderr
    assert f"rewrote {left} runs of an older layout" in resumed.stdout
    assert not any("id" in stored for stored, _ in _layouts(db.redis, list(logs)))
    for run_id, log in logs.items():
        assert audit_log(db, run_id) == log
    assert "nothing to change" in cli(stack, "migrate", "--apply").stdout


def _layouts(redis, run_ids: list[str]) -> list[tuple[dict, bool]]:
    """Each run's hash, and whether its audit stream is there: read in one round trip for all."""
    with redis.pipeline(transaction=False) as pipe:
        for run_id in run_ids:
            pipe.hgetall(keys.run(run_id))
            pipe.exists(keys.old_audit_stream(run_id))
        replies = pipe.execute()
    return [(stored, bool(streamed)) for stored, streamed in zip(replies[::2], replies[1::2], strict=True)]


def test_a_migration_beside_the_worker_and_the_api_loses_no_change(stack, db):
    player, token = stack.register("kit")
    logs = _many_old_runs(db.redis, player, 300, "migrate-3")
    disputed = list(logs)[::7]
    new_games = [{"seed": f"migrate-3-new-{n}", "moves": games_by_score(f"migrate-3-new-{n}", 1)[0]["moves"]}
                 for n in range(5)]
    migrating = forked_command(stack.env(), "migrate", "--apply", "--batch", "2")
    answers = [stack.post(f"/v1/runs/{run_id}/disputes", json={"reason": "Beside the migration."},
                          headers=bearer(token)).status_code for run_id in disputed]
    answers += [submit_final(stack, token, game)["status"] for game in new_games]
    migrating.join(timeout=120)
    assert migrating.exitcode == 0
    assert answers == [201] * len(disputed) + ["verified"] * len(new_games)
    for run_id, log in logs.items():
        _assert_todays(db.redis, run_id, {"moves": _short(games_by_score("migrate-3", 1)[0])["moves"]})
        entries = audit_log(db, run_id)
        assert entries[:2] == log
        assert [entry["event"] for entry in entries[2:]] == (["disputed"] if run_id in disputed else [])
    assert "nothing to change" in cli(stack, "migrate", "--apply").stdout
    assert cli(stack, "check").returncode == 0


def _in_a_terminal(env: dict, *args: str) -> tuple[int | None, list[str]]:
    """``scoundrel migrate ARGS`` with a terminal as its stdin, stdout and stderr: its status and the
    lines the terminal shows (a progress bar redrawn in place shows as a line a redraw)."""
    leader, follower = pty.openpty()
    process = forked_command(env, "migrate", *args, terminal=follower)
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
    process.join(timeout=60)
    return process.exitcode, [line for line in text.replace("\r", "\n").splitlines() if line.strip()]


def test_in_a_terminal_a_progress_bar_then_one_line(stack, db):
    player, _ = stack.register("lea")
    _many_old_runs(db.redis, player, 20, "migrate-4")
    status, lines = _in_a_terminal(stack.env(), "--apply")
    assert status == 0
    assert lines[0].startswith("scoundrel migrate: Redis redis://")
    assert any(re.search(r"\d+/\d+ \[.* runs/s\]", line) for line in lines[1:-1]), lines  # tqdm's bar
    assert lines[-1].startswith("scoundrel migrate: rewrote 20 runs of an older layout"), lines


def test_in_a_terminal_an_unreachable_redis_is_one_line(stack):
    status, lines = _in_a_terminal({**stack.env(), "REDIS_URL": NO_REDIS_URL})
    assert status == 1
    assert len(lines) == 1 and lines[0].startswith("scoundrel migrate: cannot reach Redis (REDIS_URL)"), lines


def test_the_migrations_build_the_described_tables(archive_url):
    archive = Archive(archive_url)
    try:
        archive.upgrade()
        archive.upgrade()
        with archive.engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), metadata) == []
            assert connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalars().all() == ["0005"]
    finally:
        archive.dispose()


def test_the_head_read_from_the_file_names_is_alembics():
    """``upgrade`` skips Alembic when the schema is at ``head_revision``, read from the migrations' file
    names: each file's revision is its name's number, in one line from the first, as Alembic reads them."""
    scripts = ScriptDirectory(str(resources.files("store.archive").joinpath("migrations")))
    assert scripts.get_heads() == [head_revision()]
    for script in scripts.walk_revisions():
        assert Path(script.path).name.split("_", 1)[0] == script.revision


def test_an_archive_at_an_older_migration_is_upgraded_to_the_head(tmp_path):
    archive = Archive(f"sqlite:///{tmp_path}/old.sqlite3")
    try:
        _upgrade_to(archive, "0002")
        assert archive.revision() == "0002"
        archive.upgrade()
        assert archive.revision() == head_revision()
    finally:
        archive.dispose()


def test_a_new_sqlite_archive_opened_while_another_process_holds_it_waits_for_it(tmp_path):
    """A new file is switched to write-ahead logging by whoever opens it first; SQLite refuses that
    switch at once while another connection holds a lock, rather than waiting for it."""
    path = tmp_path / "archive.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")  # another process's write, in the file's first journal mode
    holder.execute("CREATE TABLE elsewhere (x)")
    released = threading.Timer(0.5, holder.execute, ["COMMIT"])
    released.start()
    archive = Archive(f"sqlite:///{path}")
    try:
        archive.upgrade()
        with archive.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert list(archive.run_ids()) == []
    finally:
        released.join()
        holder.close()
        archive.dispose()


def _upgrade_to(archive: Archive, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(resources.files("store.archive").joinpath("migrations")))
    with archive.engine.connect() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
        connection.commit()


def test_archived_runs_with_their_moves_spelt_out_get_them_as_codes(tmp_path, archive_url):
    """An archive whose rows keep a run's moves as one string (as an older release archived them) is
    rewritten in place when it is upgraded: the archive's reader knows one shape, as Redis's does."""
    (tmp_path / "fresh").mkdir()
    archive = Archive(fresh_archive_url(archive_url, tmp_path))
    try:
        _upgrade_to(archive, "0001")
        game = games_by_score("archived-moves", 1)[0]
        spelt = {"id": "0123456789abcdef", "player": "ann", "seed": game["seed"], "variant": "classic",
                 "moves": " ".join(game["moves"]), "status": "verified", "submitted_ms": "1"}
        empty = {**spelt, "id": "fedcba9876543210", "moves": ""}
        archive.write([ArchivedRun(spelt, []), ArchivedRun(empty, [])], 2)
        archive.upgrade()
        found = archive.load([spelt["id"], empty["id"]])
        assert found[spelt["id"]].fields == {**{k: v for k, v in spelt.items() if k != "moves"},
                                             "codes": move_codes.encode(game["moves"])}
        assert "moves" not in found[empty["id"]].fields and "codes" not in found[empty["id"]].fields
        assert list(run_from_stored(spelt["id"], found[spelt["id"]].fields).moves) == game["moves"]
    finally:
        archive.dispose()
