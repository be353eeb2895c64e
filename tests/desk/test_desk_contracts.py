"""Issue 46, the desk's contracts over HTTP: signing in, the session and its cookie, CSRF and Origin, revoking a
moderator, the queue's contents, paging and filters, taking a case, a case's actions and two moderators on one
case (docs/moderation.md)."""

import json
import re

import pytest

from scoundrel.strategies import play_game
from store import revoke_moderator
from tests.support.games import moderator_token, play_at_machine_speed, winning_moves

from .conftest import WON_SEED, Desk, dispute, won_run

CONFLICT = re.compile(r'id="conflict">([^<]*)<')
REASON = re.compile(r'id="reason">([^<]*)<')


@pytest.fixture
def disputed(stack):
    """A verified run a player disputed: ``(run, dispute, its player's name)``."""
    name, token = stack.register()
    run = won_run(stack, token)
    _, other = stack.register()
    return run, dispute(stack, other, run["id"]), name


def _place(stack, name: str) -> int | None:
    """The player's rank on the classic board, None for no place."""
    found = stack.get(f"/v1/leaderboards/classic/players/{name}")
    return found.json()["rank"] if found.status_code == 200 else None


def test_a_page_without_a_session_leads_to_the_sign_in(stack):
    answer = Desk(stack).get("/desk")
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/desk/sign-in")


def test_signing_in_sets_a_strict_http_only_cookie_of_the_desk_alone(stack, mia):
    answer = Desk(stack).post("/desk/sign-in", {"token": mia}, csrf=False)
    assert answer.status_code == 303
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/desk" in cookie
    assert "Secure" not in cookie  # the request came over plain HTTP
    assert mia not in cookie


def test_an_untrusted_forwarded_proto_makes_no_secure_cookie(stack, mia):
    answer = Desk(stack).post("/desk/sign-in", {"token": mia}, csrf=False, headers={"X-Forwarded-Proto": "https"})
    assert "Secure" not in answer.headers["Set-Cookie"]  # no proxy is trusted here: the header is anyone's


def test_a_token_that_makes_no_moderator_is_refused(stack):
    _, player = stack.register()
    for token in (player, "sr_mod_nothing", ""):
        answer = Desk(stack).post("/desk/sign-in", {"token": token}, csrf=False)
        assert answer.status_code == 401 and "Set-Cookie" not in answer.headers


def test_the_sign_in_is_checked_for_its_origin(stack, mia):
    answer = Desk(stack).post("/desk/sign-in", {"token": mia}, csrf=False, origin="https://evil.example")
    assert answer.status_code == 403 and REASON.search(answer.text).group(1) == "origin_mismatch"


def test_the_api_takes_no_desk_cookie(stack, desk):
    answer = desk.http.get(stack.url("/v1/disputes"), timeout=10)
    assert answer.status_code == 401  # the cookie's path is /desk: the API keeps bearer tokens


@pytest.mark.parametrize(("csrf", "origin", "reason"), [
    (False, "", "csrf_missing"), (True, None, "origin_missing"), (True, "https://evil.example", "origin_mismatch"),
    (True, "null", "origin_missing")])
def test_a_post_without_its_csrf_token_or_origin_is_refused_with_a_reason(stack, desk, disputed, csrf, origin,
                                                                           reason):
    run, _, _ = disputed
    desk.get(f"/desk/runs/{run['id']}")
    answer = desk.post(f"/desk/runs/{run['id']}/reverify", csrf=csrf, origin=origin)
    assert answer.status_code == 403 and REASON.search(answer.text).group(1) == reason
    json = desk.post(f"/desk/runs/{run['id']}/reverify", csrf=csrf, origin=origin,
                     headers={"Accept": "application/json"})
    assert json.status_code == 403 and json.json()["reason"] == reason
    assert [entry["event"] for entry in stack.get(f"/v1/runs/{run['id']}/audit-log").json()["entries"]][-1] == \
        "disputed"  # nothing was done


def test_a_wrong_csrf_token_is_refused(stack, desk, disputed):
    run, _, _ = disputed
    desk.get(f"/desk/runs/{run['id']}")
    answer = desk.post(f"/desk/runs/{run['id']}/reverify", {"csrf": "not-this-sessions"})
    assert answer.status_code == 403 and REASON.search(answer.text).group(1) == "csrf_mismatch"


def test_another_sessions_csrf_token_is_refused(stack, desk, ned, disputed):
    run, _, _ = disputed
    other = Desk(stack)
    other.sign_in(ned)
    desk.get(f"/desk/runs/{run['id']}")
    answer = desk.post(f"/desk/runs/{run['id']}/reverify", {"csrf": other.csrf})
    assert answer.status_code == 403 and REASON.search(answer.text).group(1) == "csrf_mismatch"


def test_revoking_the_moderator_ends_their_open_desk_at_once(stack, db):
    token = moderator_token(stack, "rex")
    desk = Desk(stack)
    desk.sign_in(token)
    assert desk.get("/desk").status_code == 200
    revoke_moderator(db, "rex")
    answer = desk.get("/desk")
    assert answer.status_code == 303 and "/desk/sign-in?ended=1" in answer.headers["Location"]
    refused = desk.post("/desk/sign-out")
    assert refused.status_code == 403 and REASON.search(refused.text).group(1) == "signed_out"


def test_a_moderator_added_again_does_not_bring_back_the_old_sessions(stack, db):
    desk = Desk(stack)
    desk.sign_in(moderator_token(stack, "uma"))
    revoke_moderator(db, "uma")
    moderator_token(stack, "uma")
    assert desk.get("/desk").status_code == 303


def test_signing_out_ends_the_session_server_side(stack, mia):
    desk = Desk(stack)
    desk.sign_in(mia)
    cookie = desk.http.cookies.get("scoundrel_desk")
    assert desk.post("/desk/sign-out").status_code == 303
    replayed = Desk(stack)
    replayed.http.cookies.set("scoundrel_desk", cookie, path="/desk")
    assert replayed.get("/desk").status_code == 303  # the cookie, kept, no longer signs anyone in


def test_the_queue_lists_open_disputes_oldest_first_with_counts(stack, desk, disputed):
    run, filed, _ = disputed
    page = desk.get("/desk")
    assert page.status_code == 200
    assert f'data-id="{filed["id"]}"' in page.text and f"/desk/runs/{run['id']}" in page.text
    ids = re.findall(r'data-kind="disputes" data-id="([^"]+)"', page.text)
    listed = stack.get("/v1/disputes?limit=100", headers={"Authorization": f"Bearer {_api_token(stack)}"}).json()
    assert ids == [one["id"] for one in listed["disputes"]][:25]  # the API's order: oldest first
    total = re.search(r'id="tab-disputes">Disputes <span class="count">(\d+)<', page.text).group(1)
    assert int(total) == listed["total"]


_API_TOKENS: dict = {}


def _api_token(stack) -> str:
    if id(stack) not in _API_TOKENS:
        _API_TOKENS[id(stack)] = moderator_token(stack, "api-reader")
    return _API_TOKENS[id(stack)]


def test_the_queue_is_paged_and_filtered_by_player_and_variant(stack, desk):
    name, token = stack.register()
    # a verified run of a seed of its own (won or lost: what is paged is its disputes), the greedy player's game
    run = stack.wait_final(stack.submit(token, {"seed": "desk-paged", "moves": play_game("desk-paged")}).json()["id"])
    assert run["status"] == "verified", run
    for _ in range(27):
        _, other = stack.register()
        dispute(stack, other, run["id"])
    everything = desk.get("/desk")
    total = int(re.search(r'id="tab-disputes">Disputes <span class="count">(\d+)<', everything.text).group(1))
    assert total >= 27
    last = -(-total // 25)
    page = desk.get(f"/desk?section=disputes&page={last}")
    assert len(re.findall(r'data-kind="disputes"', page.text)) == total - 25 * (last - 1)
    mine = desk.get(f"/desk?section=disputes&player={name}")
    assert re.search(r'id="total">Disputes: (\d+) matching', mine.text).group(1) == "27"
    assert len(re.findall(r'data-kind="disputes"', mine.text)) == 25
    second = desk.get(f"/desk?section=disputes&player={name}&page=2")
    assert len(re.findall(r'data-kind="disputes"', second.text)) == 2
    none = desk.get(f"/desk?section=disputes&player={name}&variant=hard")
    assert "Nothing waits here." in none.text
    board = desk.get("/desk?section=disputes&board=seed/desk-paged?variant=classic")
    assert re.search(r'id="total">Disputes: (\d+) matching', board.text).group(1) == "27"


@pytest.mark.parametrize("query", ["section=nothing", "kind=nothing&section=flags", "page=0", "page=%C2%B9",
                                   "variant=chess", "player=no%20such%20name!"])
def test_a_queue_address_it_cannot_use_is_a_422_naming_the_field(desk, query):
    answer = desk.get(f"/desk?{query}")
    assert answer.status_code == 422
    field = query.split("=")[0] if not query.startswith("kind") else "kind"
    assert f"<code>{field}</code>" in answer.text


def test_taking_a_case_shows_the_others_who_is_on_it_until_they_act(stack, desk, ned, disputed):
    run, filed, _ = disputed
    desk.get(f"/desk/runs/{run['id']}")
    assert desk.post(f"/desk/runs/{run['id']}/take").status_code == 303
    other = Desk(stack)
    other.sign_in(ned)
    assert "On this case: <strong>mia</strong>" in other.get(f"/desk/runs/{run['id']}").text
    queue = other.get(f"/desk?section=disputes&player={filed['player']}")
    assert "On it: <strong>mia</strong>" in queue.text
    desk.get(f"/desk/runs/{run['id']}")
    desk.post(f"/desk/runs/{run['id']}/resolve", {"dispute": filed["id"], "decision": "uphold", "note": "fine"})
    assert "Nobody has taken this case." in other.get(f"/desk/runs/{run['id']}").text


def test_voiding_from_the_case_moves_the_board_and_restoring_brings_it_back(stack, desk, disputed):
    run, filed, name = disputed
    assert _place(stack, name) is not None
    desk.get(f"/desk/runs/{run['id']}")
    done = desk.post(f"/desk/runs/{run['id']}/resolve", {"dispute": filed["id"], "decision": "void",
                                                         "note": "a client bug"})
    assert done.status_code == 303
    assert stack.get(f"/v1/runs/{run['id']}").json()["status"] == "void"
    assert _place(stack, name) is None
    desk.get(f"/desk/runs/{run['id']}")
    assert desk.post(f"/desk/runs/{run['id']}/restore", {"note": "the client was right"}).status_code == 303
    assert stack.get(f"/v1/runs/{run['id']}").json()["status"] == "verified"
    assert _place(stack, name) is not None
    entries = stack.get(f"/v1/runs/{run['id']}/audit-log").json()["entries"]
    assert [(entry["event"], entry["actor"]["name"], entry["detail"].get("note")) for entry in entries[-2:]] == \
        [("voided", "mia", "a client bug"), ("restored", "mia", "the client was right")]


def test_a_restore_needs_a_reason(stack, desk, disputed):
    run, _, _ = disputed
    desk.get(f"/desk/runs/{run['id']}")
    answer = desk.post(f"/desk/runs/{run['id']}/restore", {"note": ""})
    assert answer.status_code == 422 and "<code>note</code>" in answer.text


def test_a_form_whose_seen_is_a_digit_int_refuses_is_a_422(stack, desk, disputed):
    """"¹" is a digit to ``str.isdigit``, and not a number to ``int`` (``domain.numerals``)."""
    run, _, _ = disputed
    desk.get(f"/desk/runs/{run['id']}")
    answer = desk.post(f"/desk/runs/{run['id']}/restore", {"note": "a reason", "seen": "¹"})
    assert answer.status_code == 422 and "<code>seen</code>" in answer.text


def test_the_second_of_two_moderators_is_told_who_acted_first_and_nothing_is_applied_twice(stack, desk, ned,
                                                                                           disputed):
    run, filed, _ = disputed
    other = Desk(stack)
    other.sign_in(ned)
    desk.get(f"/desk/runs/{run['id']}")
    other.get(f"/desk/runs/{run['id']}")  # both have the case open
    first = desk.post(f"/desk/runs/{run['id']}/resolve", {"dispute": filed["id"], "decision": "void", "note": "x"})
    assert first.status_code == 303
    second = other.post(f"/desk/runs/{run['id']}/resolve",
                        {"dispute": filed["id"], "decision": "uphold", "note": "y"})
    assert second.status_code == 409
    sentence = CONFLICT.search(second.text).group(1)
    assert sentence.startswith("mia voided this run at ") and "nothing was applied" in sentence
    again = other.post(f"/desk/runs/{run['id']}/restore", {"note": "z"})  # from the page opened before the void
    assert again.status_code == 409 and CONFLICT.search(again.text).group(1).startswith("mia voided")
    events = [entry["event"] for entry in stack.get(f"/v1/runs/{run['id']}/audit-log").json()["entries"]]
    assert events.count("voided") == 1 and "upheld" not in events and "restored" not in events


def test_a_dispute_resolved_meanwhile_is_told_from_the_store(stack, desk, ned, disputed):
    """The moment between reading the page and the store's write: the store's refusal says who resolved it."""
    run, filed, _ = disputed
    other = Desk(stack)
    other.sign_in(ned)
    other.get(f"/desk/runs/{run['id']}")
    stack.post(f"/v1/disputes/{filed['id']}/resolve", json={"decision": "uphold", "note": "api"},
               headers={"Authorization": f"Bearer {_api_token(stack)}"})
    answer = other.post(f"/desk/runs/{run['id']}/resolve", {"dispute": filed["id"], "decision": "void", "note": ""})
    assert answer.status_code == 409
    assert CONFLICT.search(answer.text).group(1).startswith("api-reader")


def test_the_case_page_shows_the_verdict_the_audit_log_and_the_dispute(stack, desk, disputed):
    run, filed, name = disputed
    page = desk.get(f"/desk/runs/{run['id']}")
    assert page.status_code == 200
    assert 'data-replay-url="/desk/runs/' in page.text
    assert filed["reason"] in page.text and "disputed" in page.text and name in page.text
    replay = desk.get(f"/desk/runs/{run['id']}/replay").json()
    assert replay["run_id"] == run["id"] and replay["verdict"] == "verified"


def test_an_unknown_run_is_a_404(desk):
    assert desk.get("/desk/runs/nosuchrun").status_code == 404


def test_an_unknown_action_is_a_422(desk, disputed):
    run, _, _ = disputed
    desk.get(f"/desk/runs/{run['id']}")
    assert desk.post(f"/desk/runs/{run['id']}/explode").status_code == 422


def test_a_dealt_game_at_machine_speed_shows_its_gaps_against_the_limit_and_its_flag_is_dismissed_once(
        stack, desk, ned):
    game, token = play_at_machine_speed(stack)
    run_id = game["run_id"]
    later = won_run(stack, token)  # the same player's next run: its case shows the flag as theirs
    assert f'<a href="/desk/runs/{run_id}"><code>{run_id}</code></a>' in \
        re.search(r'id="player-flags">(.*?)</ul>', desk.get(f"/desk/runs/{later['id']}").text, re.S).group(1)
    flags = desk.get("/desk?section=flags&kind=fast_moves")
    assert f"/desk/runs/{run_id}" in flags.text
    page = desk.get(f"/desk/runs/{run_id}")
    assert "fast_moves below a median of 250 ms" in page.text and "12 gaps between decisions" in page.text
    flag_id = re.search(r'flag-reason">fast_moves</span>.*?name="flag" value="([^"]+)"', page.text, re.S).group(1)
    other = Desk(stack)
    other.sign_in(ned)
    other.get(f"/desk/runs/{run_id}")
    assert desk.post(f"/desk/runs/{run_id}/dismiss", {"flag": flag_id, "note": "a fast reader"}).status_code == 303
    late = other.post(f"/desk/runs/{run_id}/dismiss", {"flag": flag_id, "note": "me too"})
    assert late.status_code == 409
    assert CONFLICT.search(late.text).group(1).startswith("mia dismissed a flag of this run at ")
    events = [entry["event"] for entry in stack.get(f"/v1/runs/{run_id}/audit-log",
                                                    headers={"Authorization": f"Bearer {_api_token(stack)}"}
                                                    ).json()["entries"]]
    assert events.count("flag_dismissed") == 1
    assert f"/desk/runs/{run_id}" not in desk.get("/desk?section=flags&kind=fast_moves").text


def test_a_run_whose_verification_failed_waits_under_reverify_until_its_case_queues_it_again(stack, desk, db):
    from store.queue import mark_error

    _, token = stack.register()
    run_id = stack.submit(token, {"seed": WON_SEED, "moves": winning_moves(WON_SEED)}).json()["id"]
    assert mark_error(db, run_id, "verification_failed", "the engine raised")
    waiting = desk.get("/desk?section=reverify")
    assert f"/desk/runs/{run_id}" in waiting.text and "the engine raised" in waiting.text
    page = desk.get(f"/desk/runs/{run_id}")
    assert "Queue it for verification again" in page.text
    assert desk.post(f"/desk/runs/{run_id}/reverify").status_code == 303
    assert stack.get(f"/v1/runs/{run_id}").json()["status"] in ("pending", "verified")
    assert f"/desk/runs/{run_id}" not in desk.get("/desk?section=reverify").text
    assert stack.wait_final(run_id)["status"] == "verified"


def test_a_rejected_runs_case_names_its_first_illegal_move_and_its_ruling(stack, desk):
    moves = winning_moves(WON_SEED)
    _, token = stack.register()
    bad = [*moves, moves[-1]]  # a move after the game is over
    answer = stack.submit(token, {"seed": "desk-1", "moves": bad})
    run = stack.wait_final(answer.json()["id"])
    assert run["status"] == "rejected"
    page = desk.get(f"/desk/runs/{run['id']}")
    ruling = re.search(r'id="ruling">([^<]*)<strong>(R\d+)</strong>', page.text)
    assert ruling and ruling.group(1).startswith(f"First illegal move: move {len(moves) + 1}, ruling ")
    assert ruling.group(2) == run["error"]["ruling"]


def test_the_moderators_log_is_filtered_by_moderator_kind_and_player(stack, desk, db):
    from store.sanctions import ban, hide, unban

    name, _ = stack.register()
    other, _ = stack.register()
    ban(db, name, "mia", "a bot")
    unban(db, name, "mia")
    hide(db, other, "ned", "one pace all day")
    everything = desk.get("/desk/log")
    assert everything.status_code == 200 and name in everything.text and other in everything.text
    theirs = desk.get(f"/desk/log?player={name.upper()}")
    assert re.search(r'id="total">(\d+) matching', theirs.text).group(1) == "2" and other not in theirs.text
    bans = desk.get(f"/desk/log?player={name}&kind=ban")
    assert re.search(r'id="total">(\d+) matching', bans.text).group(1) == "1"
    by_ned = desk.get("/desk/log?moderator=ned")
    assert other in by_ned.text and name not in by_ned.text
    assert desk.get("/desk/log?kind=explode").status_code == 422


def test_a_tournament_is_created_at_the_desk_with_the_apis_checks(stack, desk):
    page = desk.get("/desk/tournaments")
    assert page.status_code == 200
    made = desk.post("/desk/tournaments", {"title": "Desk cup", "variant": "classic", "starts_at": "2030-01-01T10:00",
                                           "ends_at": "2030-01-02T10:00", "deals": "1", "max_attempts": "2",
                                           "scoring": "best"})
    assert made.status_code == 200 and 'id="done"' in made.text
    listed = stack.get("/v1/tournaments?state=upcoming&limit=100").json()["tournaments"]
    cup = next(one for one in listed if one["title"] == "Desk cup")
    assert cup["created_by"] == "mia" and cup["max_attempts"] == 2 and cup["starts_at"].startswith("2030-01-01T10:00")
    refused = desk.post("/desk/tournaments", {"title": "Backwards", "starts_at": "2030-01-02T10:00",
                                              "ends_at": "2030-01-01T10:00"})
    assert refused.status_code == 422 and "<code>ends_at</code>" in refused.text
    assert desk.post("/desk/tournaments", {"title": "x"}, csrf=False).status_code == 403


def test_a_webhook_is_registered_at_the_desk_its_secret_shown_once(stack, desk):
    made = desk.post("/desk/webhooks", {"url": "https://studio.example/hooks", "events": ["run.voided"]})
    assert made.status_code == 200
    secret = re.search(r'id="secret">[^<]*<code class="seed">([^<]+)<', made.text).group(1)
    page = desk.get("/desk/webhooks")
    assert "https://studio.example/hooks" in page.text and secret not in page.text
    refused = desk.post("/desk/webhooks", {"url": "ftp://studio.example/hooks", "events": ["run.voided"]})
    assert refused.status_code == 422 and "<code>url</code>" in refused.text
    assert desk.post("/desk/webhooks", {"url": "https://a.example/", "events": []}).status_code == 422


def test_the_erasures_log_lists_pseudonyms(stack, desk):
    page = desk.get("/desk/erasures")
    assert page.status_code == 200 and 'id="erasures"' in page.text


def test_a_run_voided_at_the_desk_with_no_dispute_leaves_the_board_once(stack, desk, ned, undisputed):
    run, name = undisputed
    other = Desk(stack)
    other.sign_in(ned)
    desk.get(f"/desk/runs/{run['id']}")
    other.get(f"/desk/runs/{run['id']}")
    assert desk.post(f"/desk/runs/{run['id']}/void", {"note": ""}).status_code == 422  # a void says why
    assert desk.post(f"/desk/runs/{run['id']}/void", {"note": "a bot's game"}).status_code == 303
    assert stack.get(f"/v1/runs/{run['id']}").json()["status"] == "void" and _place(stack, name) is None
    late = other.post(f"/desk/runs/{run['id']}/void", {"note": "me too"})
    assert late.status_code == 409 and CONFLICT.search(late.text).group(1).startswith("mia voided this run at ")
    entries = stack.get(f"/v1/runs/{run['id']}/audit-log").json()["entries"]
    assert [(entry["event"], entry["actor"]["name"], entry["detail"]) for entry in entries
            if entry["event"] == "voided"] == [("voided", "mia", {"note": "a bot's game"})]


@pytest.fixture
def undisputed(stack):
    """A verified run nobody disputed: ``(run, its player's name)``."""
    name, token = stack.register()
    return won_run(stack, token), name


def test_a_void_at_the_desk_tells_the_webhooks_run_voided(stack, desk, undisputed, receiver):
    run, _ = undisputed
    registered = stack.post("/v1/webhooks", json={"url": receiver.url("/desk-voids"), "events": ["run.voided"]},
                            headers={"Authorization": f"Bearer {_api_token(stack)}"})
    assert registered.status_code == 201, registered.text
    desk.get(f"/desk/runs/{run['id']}")
    assert desk.post(f"/desk/runs/{run['id']}/void", {"note": "a bot's game"}).status_code == 303
    [(_, body)] = receiver.wait("/desk-voids", 1, stack)
    assert json.loads(body)["event"] == "run.voided" and json.loads(body)["run"]["id"] == run["id"]


def test_desk_pages_are_never_cached_and_send_their_origin(desk):
    page = desk.get("/desk")
    assert page.headers["Cache-Control"] == "no-store"
    assert page.headers["Referrer-Policy"] == "same-origin"  # under no-referrer a form's POST says Origin: null
    assert "script-src 'self';" in page.headers["Content-Security-Policy"]
    assert page.headers["X-Frame-Options"] == "DENY"


def test_a_dispute_or_flag_of_another_run_is_refused_on_this_case(stack, desk, disputed, undisputed):
    _, filed, _ = disputed
    run, _ = undisputed
    desk.get(f"/desk/runs/{run['id']}")
    answer = desk.post(f"/desk/runs/{run['id']}/resolve", {"dispute": filed["id"], "decision": "void", "note": ""})
    assert answer.status_code == 422 and "Not a dispute of this run." in answer.text
    assert stack.get(f"/v1/runs/{filed['run_id']}").json()["status"] == "verified"
    assert desk.post(f"/desk/runs/{run['id']}/resolve", {"dispute": "nosuchdispute", "decision": "void"}
                     ).status_code == 404
    assert desk.post(f"/desk/runs/{run['id']}/dismiss", {"flag": "nosuchflag"}).status_code == 404


def test_every_moderators_action_on_a_run_is_in_the_moderators_log(stack, desk, disputed):
    run, filed, name = disputed
    desk.get(f"/desk/runs/{run['id']}")
    desk.post(f"/desk/runs/{run['id']}/resolve", {"dispute": filed["id"], "decision": "void", "note": "bot"})
    desk.get(f"/desk/runs/{run['id']}")
    desk.post(f"/desk/runs/{run['id']}/restore", {"note": "not a bot"})
    desk.get(f"/desk/runs/{run['id']}")
    desk.post(f"/desk/runs/{run['id']}/reverify")
    logged = stack.get("/v1/moderation-log?limit=100", headers={"Authorization": f"Bearer {_api_token(stack)}"})
    mine = [(entry["action"], entry["moderator"], entry.get("reason")) for entry in logged.json()["entries"]
            if entry.get("run_id") == run["id"]]
    assert mine == [("reverify", "mia", None), ("restore", "mia", "not a bot"), ("void", "mia", "bot")]
    page = desk.get(f"/desk/log?player={name}&kind=restore")
    assert re.search(r'id="total">(\d+) matching', page.text).group(1) == "1" and "not a bot" in page.text


def test_the_cases_player_is_banned_and_unbanned_once_at_the_desk(stack, desk, ned, undisputed):
    run, name = undisputed
    desk.get(f"/desk/runs/{run['id']}")
    assert desk.post(f"/desk/runs/{run['id']}/player/ban", {"reason": ""}).status_code == 422
    assert desk.post(f"/desk/runs/{run['id']}/player/ban", {"reason": "x", "until": "2001-01-01T00:00"}
                     ).status_code == 422  # an end in the past
    assert desk.post(f"/desk/runs/{run['id']}/player/ban", {"reason": "a bot"}).status_code == 303
    assert _place(stack, name) is None
    other = Desk(stack)
    other.sign_in(ned)
    other.get(f"/desk/runs/{run['id']}")
    assert desk.post(f"/desk/runs/{run['id']}/player/unban").status_code == 303
    late = other.post(f"/desk/runs/{run['id']}/player/unban")
    assert late.status_code == 409 and "nothing was applied" in CONFLICT.search(late.text).group(1)
    assert _place(stack, name) is not None
    assert desk.post(f"/desk/runs/{run['id']}/player/explode").status_code == 422
