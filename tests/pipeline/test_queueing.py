"""Issue 3's data rules: an accepted run is stored, before the 202, with its
way to exactly one job: a single submission waits in the intake until a
dispatcher queues a job for it (this test's own ``drain`` here); a
malformed one gets neither. No worker runs here, so what the API queued
stays in the intake and the queue to be counted."""

import redis
from rq import Queue

from store import load_run
from store.base import keys
from store.queue.intake import drain, entry_parts, take
from store.queue.pending import jobs_of


def queued_run_ids(stack) -> list[str]:
    queue = Queue("verify", connection=redis.Redis.from_url(stack.redis.url))
    return [run_id for job in queue.get_jobs() for run_id in job.args]


def waiting_run_ids(stack) -> list[str]:
    return [entry_parts(entry.decode())[0]
            for entry in redis.Redis.from_url(stack.redis.url).lrange(keys.intake(), 0, -1)]


def test_an_accepted_run_is_stored_with_exactly_one_job(stack):
    _, token = stack.register()
    body = {"seed": "queue-1", "moves": ["flee"]}
    run_id = stack.submit(token, body).json()["id"]
    db = stack.database()
    assert load_run(db, run_id).status == "pending"
    assert stack.submit(token, body).json()["id"] == run_id
    assert stack.submit(token, body, {"Idempotency-Key": "k1"}).json()["id"] == run_id
    assert waiting_run_ids(stack).count(run_id) == 1 and run_id not in queued_run_ids(stack)
    assert load_run(db, run_id).job == "" and jobs_of(db, [run_id]) == [None]  # its entry waits for a job
    assert drain(db) >= 1
    assert queued_run_ids(stack).count(run_id) == 1 and run_id not in waiting_run_ids(stack)
    [job] = [job for job in Queue("verify", connection=db.raw).get_jobs() if run_id in job.args]
    assert jobs_of(db, [run_id]) == [job.id]


def test_single_submissions_share_a_job(stack):
    _, token = stack.register()
    run_ids = [stack.submit(token, {"seed": f"queue-share-{n}", "moves": ["flee"]}).json()["id"]
               for n in range(5)]
    assert waiting_run_ids(stack)[-5:] == run_ids
    db = stack.database()
    assert drain(db) == 5
    [job] = [job for job in Queue("verify", connection=db.raw).get_jobs() if run_ids[0] in job.args]
    assert list(job.args) == run_ids
    assert set(jobs_of(db, run_ids)) == {job.id}


def test_a_dispatcher_that_lost_the_race_queues_nothing(stack):
    """Two dispatchers read the same head: the second's take finds the head changed, takes nothing and
    queues no job."""
    _, token = stack.register()
    run_id = stack.submit(token, {"seed": "queue-race", "moves": ["flee"]}).json()["id"]
    db = stack.database()
    before = len(queued_run_ids(stack))
    head = db.redis.lrange(keys.intake(), 0, 99)  # what the slower dispatcher read
    assert drain(db) == len(head)
    assert take(db, head) == 0  # the head it read is gone
    assert queued_run_ids(stack).count(run_id) == 1
    assert len(queued_run_ids(stack)) == before + 1


def test_a_malformed_submission_queues_nothing(stack):
    _, token = stack.register()
    before = len(queued_run_ids(stack)), len(waiting_run_ids(stack))
    assert stack.submit(token, {"seed": "queue-2", "moves": ["nope"]}).status_code == 422
    assert (len(queued_run_ids(stack)), len(waiting_run_ids(stack))) == before


def test_health_reports_the_queue_depth(stack):
    jobs = Queue("verify", connection=redis.Redis.from_url(stack.redis.url)).count
    assert stack.get("/v1/health").json()["queue_depth"] == jobs
