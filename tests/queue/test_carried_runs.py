"""A job of the intake carries its runs' hashes from their entries (``store.queue.intake``), and the worker judges
them unread (``worker.jobs.verify_runs``); the verdicts' script, which reads each run anyway, is the guard: it
writes nothing for a run no longer pending or its player's as judged, and the worker reads those runs then and
judges the ones still pending as they are stored."""

import zlib

import pytest
from rq.job import Job

from store import Submission, create_player, load_runs, record_verdicts, submit_run
from store.base import keys
from store.privacy import erasure as erasing
from store.queue.intake import dispatch, entry_fields
from store.queue.queues import verify_queue
from tests.support.games import legal_games
from tests.support.stores import emptied_database
from verification import judge
from worker import jobs, process


@pytest.fixture
def worker_db(redis_url, tmp_path, monkeypatch):
    """The throwaway Redis, emptied, as the worker's jobs reach it (``worker.process``)."""
    archive_url = f"sqlite:///{tmp_path}/archive.sqlite3"
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("SCOUNDREL_ARCHIVE_URL", archive_url)
    process.settings.cache_clear()
    process.database.cache_clear()
    with emptied_database(redis_url, archive_url=archive_url) as database:
        database.archive.upgrade()
        yield database
    process.settings.cache_clear()
    process.database.cache_clear()


def _hgetall_calls(db) -> int:
    return int(db.redis.info("commandstats").get("cmdstat_hgetall", {}).get("calls", 0))


def _submitted(db, player: str, games) -> list[str]:
    return [submit_run(db, player, Submission(game["seed"], game["variant"], game["moves"]))[0].id for game in games]


def _taken(db, player: str, count: int):
    """``count`` runs of ``player`` submitted and taken from the intake for one job: their ids and the job."""
    run_ids = _submitted(db, player, legal_games(count))
    assert dispatch(db) == count
    [job] = verify_queue(db).get_jobs()
    return run_ids, job


def _job_text(db, job_id: str) -> str:
    """The job's data as RQ keeps it, unpacked."""
    return zlib.decompress(db.queue_redis.hget(f"rq:job:{job_id}", "data")).decode("latin-1")


def test_a_job_of_the_intake_carries_its_runs_as_stored_and_the_worker_judges_them_unread(worker_db):
    db = worker_db
    run_ids, job = _taken(db, "ada", 2)
    stored = {run_id: {name: value for name, value in db.redis.hgetall(keys.run(run_id)).items() if name != "log"}
              for run_id in run_ids}
    assert list(job.args) == run_ids and job.kwargs == {"carried": stored}
    assert [entry_fields(entry) for entry in db.redis.lrange(keys.intake(), 0, -1)] == []

    reads = _hgetall_calls(db)
    assert jobs.verify_runs(*job.args, **job.kwargs) == dict.fromkeys(run_ids, "verified")
    assert _hgetall_calls(db) == reads
    assert [run.status for run in load_runs(db, run_ids)] == ["verified", "verified"]


def test_the_verdicts_script_writes_nothing_for_a_run_renamed_since_it_was_read(worker_db):
    db = worker_db
    [run_id], _ = _taken(db, "ada", 1)
    [run] = load_runs(db, [run_id])
    db.redis.hset(keys.run(run_id), "player", "bea")  # as a rename moves it
    assert record_verdicts(db, [(run, judge(run))]) == [False]
    assert db.redis.hget(keys.run(run_id), "status") == "pending"


def test_a_carried_run_changed_since_its_submission_is_read_and_judged_as_stored(worker_db):
    db = worker_db
    [renamed, erased, kept], job = _taken(db, "ada", 3)
    db.redis.hset(keys.run(renamed), "player", "bea")
    db.redis.delete(keys.run(erased))

    reads = _hgetall_calls(db)
    assert jobs.verify_runs(*job.args, **job.kwargs) == {renamed: "verified", erased: "missing", kept: "verified"}
    assert _hgetall_calls(db) == reads + 2  # the two runs the script left alone, read once
    [run] = load_runs(db, [renamed])
    assert (run.player, run.status) == ("bea", "verified")
    assert db.redis.zscore(keys.run_players(), "bea") == run.submitted_ms  # the verdict's script read its player
    assert db.redis.zscore(keys.run_players(), "ada") is not None

    again = _hgetall_calls(db)
    assert jobs.verify_runs(*job.args, **job.kwargs) == {renamed: "verified", erased: "missing", kept: "verified"}
    assert _hgetall_calls(db) == again + 3  # a job run again writes nothing, and reads its runs to say so


def test_an_erasure_drops_its_players_runs_from_the_jobs_carrying_them(worker_db):
    """A job carries a copy of its runs' hashes, the player's name among them: an erased player's go with
    the runs, and the job reads the runs left to it by their ids (RQ's description never spelt them)."""
    db = worker_db
    for name in ("quinn", "bea"):
        create_player(db, name)
    erased = _submitted(db, "quinn", legal_games(2))
    [kept] = _submitted(db, "bea", legal_games(3)[2:])
    assert dispatch(db) == 3
    [job] = verify_queue(db).get_jobs()
    assert "quinn" in _job_text(db, job.id) and "quinn" not in job.description

    erasing.erase(db, erasing.begin_erasure(db, "quinn"), ("moderator", "mia"), 60)
    left = Job.fetch(job.id, connection=db.queue_redis)
    assert "quinn" not in _job_text(db, job.id) and list(left.kwargs["carried"]) == [kept]
    assert jobs.verify_runs(*left.args, **left.kwargs) == {**dict.fromkeys(erased, "missing"), kept: "verified"}


def test_a_job_kept_failed_keeps_no_copy_of_its_runs(worker_db):
    db = worker_db
    run_ids, job = _taken(db, "ivy", 2)  # letters no hex digit has: the run ids can't spell her name
    job.retries_left = 0  # its last attempt failed
    jobs.verification_failed(job, db.queue_redis, ValueError, ValueError("a bug"), None)
    failed = Job.fetch(job.id, connection=db.queue_redis)
    assert list(failed.args) == run_ids and failed.kwargs == {} and "ivy" not in _job_text(db, job.id)
