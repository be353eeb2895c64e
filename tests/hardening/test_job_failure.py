"""A job that fails for a reason other than the rules is retried, then its
run shows ``error`` with a reason — never dropped; a moderator re-queues it.

The failure is real: the stored run is damaged behind the API's back (a
variant the engine does not know), so the engine raises on every attempt.
"""

import pytest

from store.base import keys
from tests.support.games import legal_games, moderator_token


@pytest.fixture(scope="module")
def idle_stack(stack_pool):
    running = stack_pool.take(workers=0)
    yield running
    stack_pool.give_back(running)


def test_a_job_that_keeps_failing_leaves_its_run_in_error_for_a_moderator(idle_stack):
    store = idle_stack.database().redis
    _, token = idle_stack.register()
    game = legal_games(1)[0]
    run_id = idle_stack.submit(token, game).json()["id"]
    store.hset(keys.run(run_id), "variant", "no-such-variant")
    idle_stack.start_worker()

    run = idle_stack.wait_final(run_id)
    assert run["status"] == "error"
    assert run["error"]["code"] == "verification_failed"
    assert "moderator" in run["error"]["message"]
    assert "Traceback" not in run["error"]["message"]
    failures = next(line for line in idle_stack.get("/metrics").text.splitlines()
                    if line.startswith("scoundrel_job_failures_total"))
    assert float(failures.split()[-1]) == 3  # the first attempt and two retries

    assert idle_stack.post(f"/v1/runs/{run_id}/requeue").status_code == 401
    player = idle_stack.post(f"/v1/runs/{run_id}/requeue", headers={"Authorization": f"Bearer {token}"})
    assert player.status_code == 403

    store.hset(keys.run(run_id), "variant", game["variant"])  # the bug is fixed
    moderator = {"Authorization": f"Bearer {moderator_token(idle_stack)}"}
    requeued = idle_stack.post(f"/v1/runs/{run_id}/requeue", headers=moderator)
    assert requeued.status_code == 202, requeued.text
    assert requeued.json()["status"] == "pending"
    assert idle_stack.wait_final(run_id)["status"] == "verified"
    log = idle_stack.get(f"/v1/runs/{run_id}/audit-log").json()["entries"]
    assert [entry["event"] for entry in log] == ["submitted", "errored", "requeued", "verified"]
    errored, requeued = log[1], log[2]
    assert (errored["before"]["status"], errored["after"]["status"]) == ("pending", "error")
    assert errored["detail"]["code"] == "verification_failed" and errored["actor"]["kind"] == "worker"
    assert requeued["actor"] == {"kind": "moderator", "name": "mod"}
    assert (requeued["before"]["status"], requeued["after"]["status"]) == ("error", "pending")
    again = idle_stack.post(f"/v1/runs/{run_id}/requeue", headers=moderator)
    assert again.status_code == 409
    assert idle_stack.post("/v1/runs/nope/requeue", headers=moderator).status_code == 404
