"""Reports: a player reports a run or a player (one open report per reporter and target, ten an hour at most),
moderators work through the queue (filtered, paged) and close each with a decision, which the reporter reads;
a signed-in player reads their own reports and disputes."""

import pytest

from store.sanctions.reports import REPORTS_PER_HOUR
from tests.support.games import legal_games


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def players(stack):
    """Three players; the second with a verified run (its id under ``run``)."""
    tokens = {name: stack.register(name)[1] for name in ("ada", "bob", "cyd")}
    tokens["run"] = stack.submit(tokens["bob"], legal_games(1)[0]).json()["id"]
    return tokens


def test_a_player_reports_a_run_and_a_player_once_while_it_is_open(stack, moderator, players):
    ada = bearer(players["ada"])
    run = stack.post(f"/v1/runs/{players['run']}/reports", json={"reason": "bot", "text": "too fast"}, headers=ada)
    assert run.status_code == 201, run.text
    assert run.json() | {"id": "", "filed_at": ""} == {
        "id": "", "kind": "run", "target": players["run"], "reporter": "ada", "reason": "bot", "text": "too fast",
        "status": "open", "filed_at": "", "decision": None, "note": None, "moderator": None, "closed_at": None}
    again = stack.post(f"/v1/runs/{players['run']}/reports", json={"reason": "cheating"}, headers=ada)
    assert (again.status_code, again.json()["report_id"]) == (409, run.json()["id"])
    player = stack.post("/v1/players/BOB/reports", json={"reason": "offensive_name"}, headers=ada)
    assert player.status_code == 201 and player.json()["target"] == "bob"
    assert stack.post("/v1/players/ada/reports", json={"reason": "bot"}, headers=ada).status_code == 422  # oneself
    assert stack.post("/v1/players/bob/reports", json={"reason": "rude"}, headers=ada).status_code == 422
    assert stack.post("/v1/runs/nope/reports", json={"reason": "bot"}, headers=ada).status_code == 404
    assert stack.post("/v1/players/bob/reports", json={"reason": "bot"}).status_code == 401

    listed = stack.get("/v1/reports?kind=run", headers=bearer(moderator)).json()
    assert [report["id"] for report in listed["reports"]] == [run.json()["id"]] and listed["total"] == 1
    assert stack.get("/v1/reports?reason=offensive_name&target=bob", headers=bearer(moderator)).json()["total"] == 1
    assert stack.get("/v1/reports", headers=bearer(players["ada"])).status_code == 403

    closed = stack.post(f"/v1/reports/{run.json()['id']}/close", json={"decision": "dismissed", "note": "human"},
                        headers=bearer(moderator))
    assert closed.status_code == 200 and closed.json()["decision"] == "dismissed"
    assert stack.post(f"/v1/reports/{run.json()['id']}/close", json={"decision": "actioned"},
                      headers=bearer(moderator)).status_code == 409
    assert stack.get("/v1/reports?status=closed", headers=bearer(moderator)).json()["total"] == 1
    own = stack.get("/v1/players/ada/reports", headers=ada).json()
    assert [report["status"] for report in own["reports"]] == ["open", "closed"]  # newest first
    assert own["reports"][1]["note"] == "human"
    assert stack.get("/v1/players/ada/reports", headers=bearer(players["bob"])).status_code == 403
    assert stack.post(f"/v1/runs/{players['run']}/reports", json={"reason": "bot"}, headers=ada).status_code == 201


def test_a_reporter_files_ten_reports_an_hour_at_most(stack, players):
    cyd = bearer(players["cyd"])
    names = [stack.register(f"target-{i}")[0] for i in range(REPORTS_PER_HOUR + 1)]
    for name in names[:REPORTS_PER_HOUR]:
        assert stack.post(f"/v1/players/{name}/reports", json={"reason": "bot"}, headers=cyd).status_code == 201
    limited = stack.post(f"/v1/players/{names[-1]}/reports", json={"reason": "bot"}, headers=cyd)
    assert limited.status_code == 429 and limited.json()["retry_at"].endswith("Z")


def test_a_player_reads_their_own_disputes(stack, players):
    filed = stack.post(f"/v1/runs/{players['run']}/disputes", json={"reason": "R10"}, headers=bearer(players["cyd"]))
    assert filed.status_code == 201
    own = stack.get("/v1/players/cyd/disputes", headers=bearer(players["cyd"]))
    assert [dispute["id"] for dispute in own.json()] == [filed.json()["id"]]
    assert stack.get("/v1/players/cyd/disputes", headers=bearer(players["ada"])).status_code == 403
    assert stack.get("/v1/players/ada/disputes", headers=bearer(players["ada"])).json() == []
