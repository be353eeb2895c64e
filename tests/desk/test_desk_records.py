"""Issue 46, item 6 and item 4 over HTTP, at the desk and over the API: a tournament ended early (settled, told
and its games forfeited as at its end), a webhook delivery sent again to a receiver in this process, the
moderators' log filtered alike at ``/desk/log`` and ``GET /v1/moderation-log``, and a report closed at the desk
(docs/moderation.md)."""

import hashlib
import hmac
import json
import re
from datetime import UTC, datetime, timedelta

import pytest

from store import Database
from store.games.dealt import load_game
from store.webhooks import Attempt, Delivery, record_attempt
from store.webhooks.hooks import BODY_KEPT

from .conftest import Desk, won_run

CONFLICT = re.compile(r'id="conflict">([^<]*)<')
DONE = re.compile(r'id="done">([^<]*)<')
REWARDS = [{"from_rank": 1, "payload": {"coins": 100}}]


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def tournament(stack, token: str, starts_in: float = -60, **more) -> dict:
    """A tournament of one sealed deck, running (or starting in ``starts_in`` seconds), ending in an hour."""
    now = datetime.now(UTC)
    made = stack.post("/v1/tournaments", headers=bearer(token), json={
        "title": "Long night", "starts_at": (now + timedelta(seconds=starts_in)).isoformat(),
        "ends_at": (now + timedelta(hours=1)).isoformat(), **more})
    assert made.status_code == 201, made.text
    return made.json()


def log_entries(stack, token: str, **query) -> list[dict]:
    answer = stack.get("/v1/moderation-log", params={"limit": 100, **query}, headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return answer.json()["entries"]


def with_database(stack, read):
    db: Database = stack.database()
    try:
        return read(db)
    finally:
        db.close()


# A tournament ended early

def test_a_tournament_ended_early_forfeits_its_game_in_play_settles_and_is_told(stack, receiver, mia):
    hook = stack.post("/v1/webhooks", json={"url": receiver.url("/ended"), "events": ["tournament.ended"]},
                      headers=bearer(mia))
    assert hook.status_code == 201, hook.text
    made = tournament(stack, mia, rewards=REWARDS)
    winner, winner_token = stack.register()
    finished = stack.post("/v1/games", json={"tournament": made["id"]}, headers=bearer(winner_token))
    assert finished.status_code == 201, finished.text
    over = stack.post(f"/v1/games/{finished.json()['id']}/forfeit", json={}, headers=bearer(winner_token))
    stack.wait_final(over.json()["run_id"])
    _, playing_token = stack.register()
    in_play = stack.post("/v1/games", json={"tournament": made["id"]}, headers=bearer(playing_token)).json()
    assert in_play["status"] == "playing"

    ended = stack.post(f"/v1/tournaments/{made['id']}/end", json={"reason": "A leaked deck."}, headers=bearer(mia))
    assert ended.status_code == 200, ended.text
    assert ended.json()["state"] == "ended" and ended.json()["ends_at"] < made["ends_at"]
    ends_ms = int(datetime.fromisoformat(ended.json()["ends_at"]).timestamp() * 1000)

    game = stack.get(f"/v1/games/{in_play['id']}", headers=bearer(playing_token)).json()
    assert game["status"] == "forfeit"  # R19, as at its end
    copy = with_database(stack, lambda db: load_game(db, in_play["id"]))
    assert copy.tournament_ends_ms == ends_ms  # the game's own copy of the end moved with it
    late = stack.post(f"/v1/games/{in_play['id']}/moves", json={"moves": [in_play["legal_moves"][0]]},
                      headers=bearer(playing_token))
    assert late.status_code == 409

    stack.until(lambda: stack.get(f"/v1/tournaments/{made['id']}").json()["final"], "the standings final")
    told = [json.loads(body) for _, body in receiver.wait("/ended", 1, stack)]
    assert [event["tournament"]["id"] for event in told] == [made["id"]]
    assert told[0]["tournament"]["ends_at"] == ended.json()["ends_at"]
    assert {entry["player"] for entry in told[0]["standings"]["entries"]} >= {winner}
    inbox = stack.get(f"/v1/players/{winner}/inbox", headers=bearer(winner_token)).json()["items"]
    assert [(item["source"], item["payload"]) for item in inbox] == [(f"tournament:{made['id']}", {"coins": 100})]

    [logged] = [entry for entry in log_entries(stack, mia, action="end_tournament")
                if entry.get("tournament") == made["id"]]
    assert (logged["moderator"], logged["reason"], logged["title"]) == ("mia", "A leaked deck.", "Long night")


def test_ending_a_tournament_ended_or_not_started_is_a_409_with_its_reason(stack, mia):
    made = tournament(stack, mia)
    assert stack.post(f"/v1/tournaments/{made['id']}/end", json={"reason": "x"}, headers=bearer(mia)).ok
    again = stack.post(f"/v1/tournaments/{made['id']}/end", json={"reason": "x"}, headers=bearer(mia))
    assert (again.status_code, again.json()["reason"]) == (409, "ended")
    upcoming = tournament(stack, mia, starts_in=600)
    early = stack.post(f"/v1/tournaments/{upcoming['id']}/end", json={"reason": "x"}, headers=bearer(mia))
    assert (early.status_code, early.json()["reason"]) == (409, "not_started")
    assert stack.get(f"/v1/tournaments/{upcoming['id']}").json()["state"] == "upcoming"


def test_ending_a_tournament_is_a_moderators_with_a_reason(stack, mia):
    made = tournament(stack, mia)
    _, player = stack.register()
    assert stack.post(f"/v1/tournaments/{made['id']}/end", json={"reason": "x"}, headers=bearer(player)) \
        .status_code == 403
    missing = stack.post(f"/v1/tournaments/{made['id']}/end", json={}, headers=bearer(mia))
    assert missing.status_code == 422 and list(missing.json()["errors"]) == ["reason"]
    assert stack.post("/v1/tournaments/999999/end", json={"reason": "x"}, headers=bearer(mia)).status_code == 404
    assert stack.get(f"/v1/tournaments/{made['id']}").json()["state"] == "running"


def test_a_running_tournament_is_ended_from_the_desk_and_twice_is_refused_in_a_sentence(stack, desk, mia):
    made = tournament(stack, mia)
    page = desk.get("/desk/tournaments")
    assert f'id="end-{made["id"]}"' in page.text
    assert desk.post(f"/desk/tournaments/{made['id']}/end", {"reason": "Cheating ring"}, csrf=False) \
        .status_code == 403
    done = desk.post(f"/desk/tournaments/{made['id']}/end", {"reason": "Cheating ring"})
    assert done.status_code == 303, done.text
    shown = desk.get(done.headers["Location"])
    assert "Ended Long night now" in DONE.search(shown.text).group(1)
    assert f'id="end-{made["id"]}"' not in shown.text
    assert stack.get(f"/v1/tournaments/{made['id']}").json()["state"] == "ended"
    again = desk.post(f"/desk/tournaments/{made['id']}/end", {"reason": "Cheating ring"})
    assert again.status_code == 409 and CONFLICT.search(again.text).group(1) == "Not ended: The tournament has ended."
    assert desk.post(f"/desk/tournaments/{made['id']}/end", {"reason": ""}).status_code == 422
    assert desk.post("/desk/tournaments/999999/end", {"reason": "x"}).status_code == 404
    assert any(entry.get("tournament") == made["id"] and entry["reason"] == "Cheating ring"
               for entry in log_entries(stack, mia, action="end_tournament", moderator="MIA"))
    logged = desk.get("/desk/log", params={"kind": "end_tournament", "moderator": "Mia"})
    assert f'<a href="/tournaments/{made["id"]}">tournament Long night</a> Cheating ring' in logged.text


# A delivery sent again

def signed(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


@pytest.fixture
def delivered(stack, receiver, mia):
    """A webhook told of a verified run once: ``(the webhook, the headers and body it received)``."""
    path = f"/again-{len(receiver.received)}"
    hook = stack.post("/v1/webhooks", json={"url": receiver.url(path), "events": ["run.verified"]},
                      headers=bearer(mia)).json()
    _, token = stack.register()
    won_run(stack, token)
    [(headers, body)] = receiver.wait(path, 1, stack)
    stack.until(lambda: stack.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=bearer(mia)).json()
                ["deliveries"], "the delivery recorded")
    return hook, path, headers, body


def test_a_delivery_sent_again_over_the_api_is_the_same_body_signed_alike_and_recorded(stack, receiver, mia,
                                                                                       delivered):
    hook, path, headers, body = delivered
    [first] = stack.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=bearer(mia)).json()["deliveries"]
    assert first["resendable"] and "body" not in first
    sent = stack.post(f"/v1/webhooks/{hook['id']}/deliveries/{first['event_id']}/resend", headers=bearer(mia))
    assert sent.status_code == 202, sent.text
    assert sent.json() == {"webhook_id": hook["id"], "event": "run.verified", "event_id": first["event_id"],
                           "attempt": 1}
    (_, _), (again_headers, again) = receiver.wait(path, 2, stack)
    assert again == body and again_headers["X-Scoundrel-Signature"] == signed(hook["secret"], body)
    assert again_headers["X-Scoundrel-Delivery"] == headers["X-Scoundrel-Delivery"] == first["event_id"]
    assert again_headers["X-Scoundrel-Attempt"] == "1"
    stack.until(lambda: len(stack.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=bearer(mia)).json()
                            ["deliveries"]) == 2, "the second sending recorded")


def test_a_delivery_is_sent_again_from_the_desks_webhooks_page(stack, receiver, desk, delivered):
    hook, path, _, body = delivered
    page = desk.get("/desk/webhooks")
    action = re.search(rf'action="(/desk/webhooks/{hook["id"]}/deliveries/(\w+)/resend)"', page.text)
    assert action is not None, page.text
    assert desk.post(action.group(1), csrf=False).status_code == 403
    sent = desk.post(action.group(1))
    assert sent.status_code == 303, sent.text
    assert DONE.search(desk.get(sent.headers["Location"]).text).group(1) == \
        f"run.verified {action.group(2)} queued again."
    assert receiver.wait(path, 2, stack)[1][1] == body


def test_sending_again_what_is_not_kept_is_refused(stack, mia, desk):
    hook = stack.post("/v1/webhooks", json={"url": "http://127.0.0.1:9/big", "events": ["run.verified"]},
                      headers=bearer(mia)).json()
    big = Delivery(hook["id"], "run.verified", "bigevent", "x" * (BODY_KEPT + 1))
    with_database(stack, lambda db: record_attempt(db, big, Attempt(200, None, 1, 1), None, 1.0))
    refused = stack.post(f"/v1/webhooks/{hook['id']}/deliveries/bigevent/resend", headers=bearer(mia))
    assert (refused.status_code, refused.json()["reason"]) == (409, "body_not_kept")
    assert not stack.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=bearer(mia)).json()["deliveries"][0][
        "resendable"]
    assert desk.post(f"/desk/webhooks/{hook['id']}/deliveries/bigevent/resend").status_code == 409
    for path in (f"/v1/webhooks/{hook['id']}/deliveries/nothing/resend", "/v1/webhooks/nohook/deliveries/x/resend"):
        assert stack.post(path, headers=bearer(mia)).status_code == 404
    assert desk.post(f"/desk/webhooks/{hook['id']}/deliveries/nothing/resend").status_code == 404
    _, player = stack.register()
    assert stack.post(f"/v1/webhooks/{hook['id']}/deliveries/bigevent/resend", headers=bearer(player)) \
        .status_code == 403


# The moderators' log, filtered

@pytest.fixture(scope="module")
def sanctions(stack, mia, ned):
    """Two players, each hidden by one moderator and shown again by the other: their names."""
    first, _ = stack.register()
    second, _ = stack.register()
    for name, (hider, shower) in ((first, (mia, ned)), (second, (ned, mia))):
        assert stack.post(f"/v1/players/{name}/hide", json={"reason": "bot?"}, headers=bearer(hider)).ok
        assert stack.http.delete(stack.url(f"/v1/players/{name}/hide"), headers=bearer(shower)).ok
    return first, second


def test_the_api_log_is_filtered_by_moderator_action_and_player_in_any_case(stack, mia, sanctions):
    first, second = sanctions
    ours = {first, second}
    shown = [(entry["moderator"], entry["action"], entry["player"])
             for entry in log_entries(stack, mia, moderator="NED") if entry["player"] in ours]
    assert shown == [("ned", "hide", second), ("ned", "unhide", first)]
    assert [(entry["moderator"], entry["action"]) for entry in log_entries(stack, mia, player=first.upper())] \
        == [("ned", "unhide"), ("mia", "hide")]
    assert [(entry["moderator"], entry["player"]) for entry in
            log_entries(stack, mia, action="hide", moderator="mia", player=second)] == []
    every = stack.get("/v1/moderation-log", params={"limit": 1, "action": "unhide"}, headers=bearer(mia)).json()
    assert every["total"] >= 2 and len(every["entries"]) == 1


def test_the_desk_log_and_the_api_log_agree(stack, mia, desk, sanctions):
    first, _ = sanctions
    page = desk.get("/desk/log", params={"player": first, "kind": "hide"})
    assert page.status_code == 200
    api = log_entries(stack, mia, player=first, action="hide")
    assert len(api) == 1 and f"{len(api)} " in page.text and api[0]["moderator"] in page.text


@pytest.mark.parametrize(("query", "field"), [({"action": "explode"}, "action"), ({"player": "no such!"}, "player"),
                                              ({"moderator": "m" * 101}, "moderator"), ({"limit": "0"}, "limit")])
def test_a_log_filter_that_cannot_be_used_is_a_422_naming_it(stack, mia, desk, query, field):
    answer = stack.get("/v1/moderation-log", params=query, headers=bearer(mia))
    assert answer.status_code == 422 and list(answer.json()["errors"]) == [field]
    if field != "limit":
        desk_query = {"kind" if name == "action" else name: value for name, value in query.items()}
        refused = desk.get("/desk/log", params=desk_query)
        assert refused.status_code == 422 and f"<code>{'kind' if field == 'action' else field}</code>" in refused.text


def test_the_openapi_document_names_the_logs_filters(stack):
    document = stack.get("/v1/openapi.json").json()
    names = {parameter["name"]: parameter for parameter in document["paths"]["/v1/moderation-log"]["get"]["parameters"]}
    assert {"moderator", "action", "player", "limit", "offset"} <= set(names)
    assert "end_tournament" in names["action"]["schema"]["enum"]
    assert "/v1/tournaments/{tournament_id}/end" in document["paths"]
    assert "/v1/webhooks/{hook_id}/deliveries/{event_id}/resend" in document["paths"]


# A report closed at the desk

def report(stack, target_path: str) -> dict:
    _, reporter = stack.register()
    filed = stack.post(f"{target_path}/reports", json={"reason": "cheating", "text": "Too fast."},
                       headers=bearer(reporter))
    assert filed.status_code == 201, filed.text
    return {**filed.json(), "token": reporter}


def test_a_report_is_closed_from_its_case_and_from_the_queue_and_once(stack, desk, mia, ned):
    player, token = stack.register()
    run = won_run(stack, token)
    of_run = report(stack, f"/v1/runs/{run['id']}")
    of_player = report(stack, f"/v1/players/{player}")

    case = desk.get(f"/desk/runs/{run['id']}")
    assert f'id="close-{of_run["id"]}"' in case.text and f'id="close-{of_player["id"]}"' in case.text
    assert desk.post(f"/desk/reports/{of_run['id']}/close", {"decision": "actioned"}, csrf=False).status_code == 403
    closed = desk.post(f"/desk/reports/{of_run['id']}/close", {"decision": "actioned", "note": "Voided.",
                                                                 "run": run["id"]})
    assert closed.status_code == 303 and closed.headers["Location"].startswith(f"/desk/runs/{run['id']}?done=")
    assert f'id="close-{of_run["id"]}"' not in desk.get(closed.headers["Location"]).text

    queue = desk.get("/desk", params={"section": "reports"})
    assert f'id="close-{of_player["id"]}"' in queue.text
    from_queue = desk.post(f"/desk/reports/{of_player['id']}/close", {"decision": "dismissed"})
    assert from_queue.status_code == 303 and "section=reports" in from_queue.headers["Location"]
    assert DONE.search(desk.get(from_queue.headers["Location"]).text).group(1) == \
        f"Report of the player {player} closed: dismissed."

    reports = {one["id"]: one for one in stack.get("/v1/reports", params={"status": "closed", "limit": 100},
                                                   headers=bearer(mia)).json()["reports"]}
    assert (reports[of_run["id"]]["decision"], reports[of_run["id"]]["note"], reports[of_run["id"]]["moderator"]) \
        == ("actioned", "Voided.", "mia")
    logged = log_entries(stack, mia, action="close_report", player=player)
    assert [(entry["moderator"], entry.get("run_id")) for entry in logged] == [("mia", None), ("mia", run["id"])]

    other = Desk(stack)
    other.sign_in(ned)
    other.get(f"/desk/runs/{run['id']}")
    twice = other.post(f"/desk/reports/{of_run['id']}/close", {"decision": "dismissed", "run": run["id"]})
    assert twice.status_code == 409
    assert CONFLICT.search(twice.text).group(1).startswith("mia closed this report first, at ")
    assert other.post(f"/desk/reports/{of_player['id']}/close", {"decision": "dismissed"}).status_code == 409
    assert other.post(f"/desk/reports/{of_player['id']}/close", {"decision": "maybe"}).status_code == 422
    assert other.post("/desk/reports/nothing/close", {"decision": "dismissed"}).status_code == 404
    assert len(log_entries(stack, mia, action="close_report", player=player)) == 2  # nothing applied twice
