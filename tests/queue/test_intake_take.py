"""The intake's take reads no run and notes the job of the runs it takes in one hash for them all
(``store.queue.intake``): so the intake must only ever hold runs that exist and wait. A player's erasure
takes their waiting runs out of it in the step that deletes them; the sweeper and the verdicts read and
clear the jobs noted."""

import threading
import time

from rq.suspension import resume, suspend

from cli.migrate import summary
from store import Submission, create_player, load_runs, record_verdicts, submit_run
from store.base import keys
from store.base.clock import now_ms
from store.base.service_mark import mark_service
from store.operations.migration import migrate
from store.privacy import erasure as erasing
from store.queue.intake import dispatch, dispatch_forever, entry_parts, intake_depth
from store.queue.pending import jobs_of, mark_error, oldest_pending, pending_count, pending_run_ids, sweep
from store.queue.queues import requests_of, verify_queue
from store.runs.index import stored_run_ids
from tests.support.games import legal_games
from verification import judge


def waiting(db, player: str, games: tuple[dict, ...], request_id: str = "") -> list[str]:
    return [submit_run(db, player, Submission(game["seed"], game["variant"], game["moves"]),
                       request_id=request_id)[0].id
            for game in games]


def waiting_run_ids(db) -> list[str]:
    return [entry_parts(entry)[0] for entry in db.redis.lrange(keys.intake(), 0, -1)]


def test_a_single_submissions_request_rides_on_its_intake_entry_and_its_job_and_its_verdict_drops_nothing(
        archived_store_db):
    """A single submission's hash holds no field only a pending run needs: its request id goes from its entry
    in the intake to its job, which the worker's log line names, so its verdict sends no ``HDEL``."""
    db = archived_store_db
    [run_id] = waiting(db, "ada", legal_games(1), request_id="req-1")
    [entry] = db.redis.lrange(keys.intake(), 0, -1)
    assert entry_parts(entry) == (run_id, "req-1") and entry.startswith(f"{run_id} req-1\n")
    assert db.redis.hmget(keys.run(run_id), "job", "request_id") == [None, None]
    assert dispatch(db) == 1
    [job] = verify_queue(db).get_jobs()
    assert list(job.args) == [run_id] and requests_of(job) == {run_id: "req-1"}
    [run] = load_runs(db, [run_id])
    calls_before = _hdel_calls(db)
    assert record_verdicts(db, [(run, judge(run))]) == [True]
    assert _hdel_calls(db) == calls_before + 1  # the job's runs out of the jobs noted, none on the run
    assert db.redis.hmget(keys.run(run_id), "job", "request_id") == [None, None]


def _hdel_calls(db) -> int:
    return int(db.redis.info("commandstats").get("cmdstat_hdel", {}).get("calls", 0))


def test_a_dispatch_takes_the_intakes_head_for_one_job_and_each_run_names_it(archived_store_db):
    db = archived_store_db
    run_ids = waiting(db, "ada", legal_games(3))
    assert {run.job for run in load_runs(db, run_ids)} == {""}  # their entries wait in the intake

    assert dispatch(db, most=2) == 2
    [job] = verify_queue(db).get_jobs()
    assert list(job.args) == run_ids[:2] and intake_depth(db) == 1
    assert jobs_of(db, run_ids) == [job.id, job.id, None]


def test_the_runs_waiting_in_the_intake_are_pending_and_join_the_index_as_the_take_gives_them_a_job(
        archived_store_db):
    """A submission pays one write for its way to a job: the intake; its take indexes the runs it takes in one
    ``ZADD``, as queued then. Meanwhile they count as pending, the intake's head the oldest since its submission."""
    db = archived_store_db
    run_ids = waiting(db, "ada", legal_games(3))
    [first] = load_runs(db, run_ids[:1])
    assert db.redis.zcard(keys.pending_runs()) == 0
    assert pending_count(db.redis) == 3 and pending_run_ids(db, 2) == run_ids[:2]
    assert oldest_pending(db) == (first.id, first.submitted_ms)

    before = now_ms()
    assert dispatch(db, most=2) == 2
    indexed = dict(db.redis.zrange(keys.pending_runs(), 0, -1, withscores=True))
    assert list(indexed) == run_ids[:2] and all(queued >= before for queued in indexed.values())
    assert pending_count(db.redis) == 3 and pending_run_ids(db, 3) == [run_ids[2], *run_ids[:2]]


def test_an_erased_players_waiting_runs_leave_the_intake_and_no_take_writes_them(archived_store_db):
    db = archived_store_db
    mark_service(db)
    create_player(db, "zoltan")
    games = legal_games(4)
    kept = waiting(db, "ada", games[:1], request_id="req-a")
    erased = waiting(db, "zoltan", games[1:3], request_id="req-z")
    kept += waiting(db, "ada", games[3:], request_id="req-a")
    assert waiting_run_ids(db) == [kept[0], *erased, kept[1]]

    erasing.erase(db, erasing.begin_erasure(db, "zoltan"), ("moderator", "mia"), 60)
    assert waiting_run_ids(db) == kept

    assert dispatch(db) == 2
    assert not any(db.redis.exists(keys.run(run_id)) for run_id in erased)
    assert sorted(db.redis.hkeys(keys.pending_jobs())) == sorted(kept)  # no job noted for the erased
    [job] = verify_queue(db).get_jobs()
    assert list(job.args) == kept and jobs_of(db, kept) == [job.id, job.id]


def test_migrate_takes_out_of_the_intake_the_runs_an_older_release_erased_while_they_waited(archived_store_db):
    """An older release's erasure left its player's waiting runs in the intake (its take skipped them):
    ``scoundrel migrate`` counts them, and with --apply takes them out, before a take would write them."""
    db = archived_store_db
    run_ids = waiting(db, "ada", legal_games(3))
    db.redis.delete(keys.run(run_ids[1]))  # as the older release's erasure did, the intake left as it was

    assert migrate(db, apply=False).gone_waiting == 1
    assert db.redis.llen(keys.intake()) == 3
    assert "1 run erased while waiting in the intake" in summary(migrate(db, apply=True), True)
    assert waiting_run_ids(db) == [run_ids[0], run_ids[2]]
    assert not migrate(db, apply=False).anything


def test_migrate_takes_out_of_the_pending_index_the_runs_an_older_release_indexed_as_it_accepted_them(
        archived_store_db):
    """An older release indexed a single submission as pending as it accepted it; today's take does as it gives it
    a job: ``scoundrel migrate`` counts the runs in the intake and the index, and with --apply unindexes them."""
    db = archived_store_db
    run_ids = waiting(db, "ada", legal_games(3))
    db.redis.zadd(keys.pending_runs(), {run_ids[0]: 1, run_ids[2]: 2})  # as the older release's accept did

    assert migrate(db, apply=False).indexed_waiting == 2
    assert "2 runs waiting in the intake and in the index of pending runs too" in summary(migrate(db, apply=True), True)
    assert db.redis.zcard(keys.pending_runs()) == 0 and waiting_run_ids(db) == run_ids
    assert not migrate(db, apply=False).anything


def test_a_run_taken_from_the_intake_for_a_job_the_queue_lost_is_queued_again_by_the_sweeper(archived_store_db):
    """The take notes each run's job in one hash for them all (``keys.pending_jobs``); the sweeper reads
    it: a stale run whose job the queue lacks gets a job of its own, and leaves that hash."""
    db = archived_store_db
    [run_id, waiting_id] = waiting(db, "ada", legal_games(2), request_id="req-1")
    assert dispatch(db, most=1) == 1
    [lost] = verify_queue(db).get_jobs()
    lost.delete()  # the queue's Redis lost it
    # the run taken is indexed as queued by the take; the one in the intake waits there, in hand, unindexed
    assert db.redis.zscore(keys.pending_runs(), run_id) and db.redis.zscore(keys.pending_runs(), waiting_id) is None
    db.redis.zadd(keys.pending_runs(), {run_id: 0})  # taken long ago

    assert sweep(db, stale_after=1, worker_ttl=60) == 1
    [job] = verify_queue(db).get_jobs()
    assert list(job.args) == [run_id] and job.id != lost.id
    assert requests_of(job) == {run_id: "req-1"}  # the request the lost job carried
    assert jobs_of(db, [run_id, waiting_id]) == [job.id, None]
    assert db.redis.hgetall(keys.pending_jobs()) == {}


def test_the_verdicts_of_a_job_of_the_intake_take_its_runs_out_of_the_jobs_noted(archived_store_db):
    db = archived_store_db
    run_ids = waiting(db, "ada", legal_games(2))
    assert dispatch(db) == 2
    assert db.redis.hlen(keys.pending_jobs()) == 2
    pending = load_runs(db, run_ids)
    assert record_verdicts(db, [(run, judge(run)) for run in pending]) == [True, True]
    assert db.redis.hlen(keys.pending_jobs()) == 0 and db.redis.zcard(keys.pending_runs()) == 0


def test_a_new_runs_player_joins_the_players_with_runs_with_its_verdict_and_the_walk_of_every_run_finds_it_before(
        archived_store_db):
    """A new run's script leaves its player's place among the players with runs to its verdict (one ``ZADD`` a
    job) or its error: until then the walk of every run (``scoundrel check``, the re-verifications) finds the
    run's player through the intake and the index of pending runs."""
    db = archived_store_db
    run_ids = waiting(db, "ada", legal_games(3))
    [errored] = waiting(db, "bea", legal_games(1))
    assert db.redis.zrange(keys.run_players(), 0, -1) == []
    assert sorted(stored_run_ids(db)) == sorted([*run_ids, errored])  # all in the intake
    assert dispatch(db, most=2) == 2
    assert sorted(stored_run_ids(db)) == sorted([*run_ids, errored])  # two in the pending index, two in the intake

    taken = load_runs(db, run_ids[:2])
    assert record_verdicts(db, [(run, judge(run)) for run in taken]) == [True, True]
    assert db.redis.zscore(keys.run_players(), "ada") == min(run.submitted_ms for run in taken)
    assert mark_error(db, errored, "verification_failed", "failed")
    [errored_run] = load_runs(db, [errored])
    assert db.redis.zscore(keys.run_players(), "bea") == errored_run.submitted_ms
    assert sorted(stored_run_ids(db)) == sorted([*run_ids, errored])


def _calls(db, command: str) -> int:
    return int(db.redis.info("commandstats").get(f"cmdstat_{command}", {}).get("calls", 0))


def _until(found, what: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not found():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def test_a_dispatcher_waits_out_a_suspension_looking_at_it_alone_and_dispatches_once_resumed(archived_store_db):
    """While RQ's workers are suspended the intake's runs stay there; the dispatcher looks at the suspension
    every window, not at the intake again, and queues their job as soon as the workers are resumed."""
    db = archived_store_db
    suspend(db.queue_redis)
    run_ids = waiting(db, "ada", legal_games(2))
    stopped = threading.Event()
    dispatcher = threading.Thread(target=dispatch_forever, args=(db, 0.05, 0.5, stopped), daemon=True)
    waits, looks = _calls(db, "blmove"), _calls(db, "exists")
    dispatcher.start()
    try:
        _until(lambda: _calls(db, "exists") >= looks + 5, "the dispatcher never looked at the suspension")
        assert _calls(db, "blmove") == waits + 1 and intake_depth(db) == 2
        resume(db.queue_redis)
        # the take empties the intake, then its job is queued: what the test waits for is the job
        _until(lambda: verify_queue(db).count == 1, "the dispatcher never queued their job once resumed")
        assert intake_depth(db) == 0
        [job] = verify_queue(db).get_jobs()
        assert list(job.args) == run_ids
    finally:
        stopped.set()
        resume(db.queue_redis)
        dispatcher.join(5)
