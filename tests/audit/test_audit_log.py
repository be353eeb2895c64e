"""Issue 4: a run's audit log lists every change, oldest first, with actor, time and before/after."""

from datetime import datetime

from tests.support.games import games_by_score

from .conftest import bearer, submit_final


def test_the_audit_log_tells_a_runs_whole_story_in_order(stack, moderator):
    _, ann = stack.register("ann")
    _, ben = stack.register("ben")
    run = submit_final(stack, ann, games_by_score("audit-1", 1)[0])
    dispute = stack.post(f"/v1/runs/{run['id']}/disputes", json={"reason": "Too good."}, headers=bearer(ben)).json()
    stack.post(f"/v1/disputes/{dispute['id']}/resolve", json={"decision": "void", "note": "Checked."},
               headers=bearer(moderator))
    stack.post(f"/v1/runs/{run['id']}/restore", headers=bearer(moderator))
    stack.post(f"/v1/runs/{run['id']}/reverify", headers=bearer(moderator))

    log = stack.get(f"/v1/runs/{run['id']}/audit-log").json()
    assert log["run_id"] == run["id"]
    entries = log["entries"]
    assert [(e["event"], e["actor"]["kind"], e["actor"]["name"]) for e in entries] == [
        ("submitted", "player", "ann"),
        ("verified", "worker", entries[1]["actor"]["name"]),
        ("disputed", "player", "ben"),
        ("voided", "moderator", "mia"),
        ("restored", "moderator", "mia"),
        ("reverified", "moderator", "mia"),
    ]
    assert entries[1]["actor"]["name"]  # the RQ worker's name
    times = [datetime.fromisoformat(e["at"].replace("Z", "+00:00")) for e in entries]
    assert times == sorted(times)
    ids = [tuple(map(int, e["id"].split("-"))) for e in entries]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)

    verified = {"status": "verified", "outcome": run["outcome"], "score": run["score"], "health": run["health"],
                "error": None}
    submitted, judged, disputed, voided, restored, reverified = entries
    assert (submitted["before"], submitted["after"]) == (None, {"status": "pending"})
    assert judged["before"]["status"] == "pending" and judged["after"] == verified
    assert disputed["before"] == disputed["after"] == verified
    assert disputed["detail"] == {"dispute_id": dispute["id"], "reason": "Too good."}
    assert voided["before"] == verified
    assert voided["after"] == {**verified, "status": "void", "voided_status": "verified"}
    assert voided["detail"] == {"dispute_id": dispute["id"], "note": "Checked."}
    assert (restored["before"], restored["after"]) == (voided["after"], verified)
    assert (reverified["before"], reverified["after"]) == (verified, verified)
    assert reverified["detail"] == {"changed": False}


def test_a_rejected_run_and_an_upheld_dispute_are_logged(stack, moderator):
    _, token = stack.register("cal")
    run = submit_final(stack, token, {"seed": "audit-2", "moves": ["flee", "flee"]})
    dispute = stack.post(f"/v1/runs/{run['id']}/disputes", json={"reason": "Why?"}, headers=bearer(token)).json()
    stack.post(f"/v1/disputes/{dispute['id']}/resolve", json={"decision": "uphold"}, headers=bearer(moderator))
    entries = stack.get(f"/v1/runs/{run['id']}/audit-log").json()["entries"]
    assert [e["event"] for e in entries] == ["submitted", "rejected", "disputed", "upheld"]
    assert entries[1]["after"] == {"status": "rejected", "outcome": None, "score": None, "health": None,
                                   "error": "flee_not_allowed"}
    assert entries[3]["before"] == entries[3]["after"] == entries[1]["after"]


def test_the_audit_log_of_an_unknown_run_is_404(stack):
    assert stack.get("/v1/runs/0000000000000000/audit-log").status_code == 404
