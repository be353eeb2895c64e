"""Issue 3's data rules: an accepted run is stored with exactly one job,
before the 202; a malformed one gets neither. No worker runs here, so
what the API queued stays in the queue to be counted."""

import pytest
import redis
from rq import Queue

from store import load_run


@pytest.fixture(scope="module")
def idle_stack(stack_pool):
    running = stack_pool.take(workers=0)
    yield running
    stack_pool.give_back(running)


def queued_run_ids(stack) -> list[str]:
    queue = Queue("verify", connection=redis.Redis.from_url(stack.redis.url))
    return [job.args[0] for job in queue.get_jobs()]


def test_an_accepted_run_is_stored_with_exactly_one_job(idle_stack):
    _, token = idle_stack.register()
    body = {"seed": "queue-1", "moves": ["flee"]}
    run_id = idle_stack.submit(token, body).json()["id"]
    assert load_run(idle_stack.database(), run_id).status == "pending"
    assert idle_stack.submit(token, body).json()["id"] == run_id
    assert idle_stack.submit(token, body, {"Idempotency-Key": "k1"}).json()["id"] == run_id
    assert queued_run_ids(idle_stack).count(run_id) == 1


def test_a_malformed_submission_queues_nothing(idle_stack):
    _, token = idle_stack.register()
    before = len(queued_run_ids(idle_stack))
    assert idle_stack.submit(token, {"seed": "queue-2", "moves": ["nope"]}).status_code == 422
    assert len(queued_run_ids(idle_stack)) == before


def test_health_reports_the_queue_depth(idle_stack):
    assert idle_stack.get("/v1/health").json()["queue_depth"] == len(queued_run_ids(idle_stack))
