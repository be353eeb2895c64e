"""Issue 3's data rules: an accepted run is stored, before the 202, with its
way to exactly one job: a single submission waits in the intake until a
dispatcher queues a job for it (this test's own ``drain`` here); a
malformed one gets neither. No worker runs here, so what the API queued
stays in the intake and the queue to be counted."""

import pytest
import redis
from rq import Queue

from store import load_run
from store.base import keys
from store.queue.intake import IN_INTAKE, drain, take
from store.queue.pending import jobs_of


@pytest.fixture(scope="module")
def idle_stack(stack_pool):
    running = stack_pool.take(workers=0)
    yield running
    stack_pool.give_back(running)


def queued_run_ids(stack) -> list[str]:
    queue = Queue("verify", connection=redis.Redis.from_url(stack.redis.url))
    return [run_id for job in queue.get_jobs() for run_id in job.args]


def waiting_run_ids(stack) -> list[str]:
    return [run_id.decode() for run_id in redis.Redis.from_url(stack.redis.url).lrange(keys.intake(), 0, -1)]


def test_an_accepted_run_is_stored_with_exactly_one_job(idle_stack):
    _, token = idle_stack.register()
    body = {"seed": "queue-1", "moves": ["flee"]}
    run_id = idle_stack.submit(token, body).json()["id"]
    db = idle_stack.database()
    assert load_run(db, run_id).status == "pending"
    assert idle_stack.submit(token, body).json()["id"] == run_id
    assert idle_stack.submit(token, body, {"Idempotency-Key": "k1"}).json()["id"] == run_id
    assert waiting_run_ids(idle_stack).count(run_id) == 1 and run_id not in queued_run_ids(idle_stack)
    assert load_run(db, run_id).job == IN_INTAKE
    assert drain(db) >= 1
    assert queued_run_ids(idle_stack).count(run_id) == 1 and run_id not in waiting_run_ids(idle_stack)
    [job] = [job for job in Queue("verify", connection=db.raw).get_jobs() if run_id in job.args]
    assert jobs_of(db, [run_id]) == [job.id]


def test_single_submissions_share_a_job(idle_stack):
    _, token = idle_stack.register()
    run_ids = [idle_stack.submit(token, {"seed": f"queue-share-{n}", "moves": ["flee"]}).json()["id"]
               for n in range(5)]
    assert waiting_run_ids(idle_stack)[-5:] == run_ids
    db = idle_stack.database()
    assert drain(db) == 5
    [job] = [job for job in Queue("verify", connection=db.raw).get_jobs() if run_ids[0] in job.args]
    assert list(job.args) == run_ids
    assert set(jobs_of(db, run_ids)) == {job.id}


def test_a_dispatcher_that_lost_the_race_queues_nothing(idle_stack):
    """Two dispatchers read the same head: the second's take finds the head changed, takes nothing and
    queues no job."""
    _, token = idle_stack.register()
    run_id = idle_stack.submit(token, {"seed": "queue-race", "moves": ["flee"]}).json()["id"]
    db = idle_stack.database()
    before = len(queued_run_ids(idle_stack))
    head = db.redis.lrange(keys.intake(), 0, 99)  # what the slower dispatcher read
    assert drain(db) == len(head)
    assert take(db, head) == 0  # the head it read is gone
    assert queued_run_ids(idle_stack).count(run_id) == 1
    assert len(queued_run_ids(idle_stack)) == before + 1


def test_a_malformed_submission_queues_nothing(idle_stack):
    _, token = idle_stack.register()
    before = len(queued_run_ids(idle_stack)), len(waiting_run_ids(idle_stack))
    assert idle_stack.submit(token, {"seed": "queue-2", "moves": ["nope"]}).status_code == 422
    assert (len(queued_run_ids(idle_stack)), len(waiting_run_ids(idle_stack))) == before


def test_health_reports_the_queue_depth(idle_stack):
    jobs = Queue("verify", connection=redis.Redis.from_url(idle_stack.redis.url)).count
    assert idle_stack.get("/v1/health").json()["queue_depth"] == jobs
