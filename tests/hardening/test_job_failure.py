"""A job that fails for a reason other than the rules is retried, then its
run shows ``error`` with a reason — never dropped; a moderator re-queues it.

The failure is real: the stored run is damaged behind the API's back (a
variant the engine does not know), in its hash and in its entry in the
intake, which its job carries to the worker, before the dispatcher takes it
(the in-process stack's worker runs only when the test waits on it), so the
engine raises on every attempt.
"""

from store.base import keys
from store.queue.intake import entry_fields, entry_parts, intake_entry
from tests.support.games import legal_games, moderator_token


def _damage(store, run_id: str, variant: str) -> None:
    """The run's variant changed behind the API's back: in its hash, and in its entry in the intake."""
    store.hset(keys.run(run_id), "variant", variant)
    for index, entry in enumerate(store.lrange(keys.intake(), 0, -1)):
        named, request_id = entry_parts(entry)
        if named == run_id:
            damaged = {**entry_fields(entry), "variant": variant}
            store.lset(keys.intake(), index, intake_entry(run_id, request_id, damaged))


def test_a_job_that_keeps_failing_leaves_its_run_in_error_for_a_moderator(stack):
    store = stack.database().redis
    _, token = stack.register()
    game = legal_games(1)[0]
    run_id = stack.submit(token, game).json()["id"]
    _damage(store, run_id, "no-such-variant")

    run = stack.wait_final(run_id)
    assert run["status"] == "error"
    assert run["error"]["code"] == "verification_failed"
    assert "moderator" in run["error"]["message"]
    assert "Traceback" not in run["error"]["message"]
    failures = next(line for line in stack.get("/metrics").text.splitlines()
                    if line.startswith("scoundrel_job_failures_total"))
    assert float(failures.split()[-1]) == 3  # the first attempt and two retries

    assert stack.post(f"/v1/runs/{run_id}/requeue").status_code == 401
    player = stack.post(f"/v1/runs/{run_id}/requeue", headers={"Authorization": f"Bearer {token}"})
    assert player.status_code == 403

    store.hset(keys.run(run_id), "variant", game["variant"])  # the bug is fixed
    moderator = {"Authorization": f"Bearer {moderator_token(stack)}"}
    requeued = stack.post(f"/v1/runs/{run_id}/requeue", headers=moderator)
    assert requeued.status_code == 202, requeued.text
    assert requeued.json()["status"] == "pending"
    assert stack.wait_final(run_id)["status"] == "verified"
    log = stack.get(f"/v1/runs/{run_id}/audit-log").json()["entries"]
    assert [entry["event"] for entry in log] == ["submitted", "errored", "requeued", "verified"]
    errored, requeued = log[1], log[2]
    assert (errored["before"]["status"], errored["after"]["status"]) == ("pending", "error")
    assert errored["detail"]["code"] == "verification_failed" and errored["actor"]["kind"] == "worker"
    assert requeued["actor"] == {"kind": "moderator", "name": "mod"}
    assert (requeued["before"]["status"], requeued["after"]["status"]) == ("error", "pending")
    again = stack.post(f"/v1/runs/{run_id}/requeue", headers=moderator)
    assert again.status_code == 409
    assert stack.post("/v1/runs/nope/requeue", headers=moderator).status_code == 404
