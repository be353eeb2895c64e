"""Issue 34: a tournament across its start and its end, with the real clock, on the service in this process
(``tests.support.in_process``: the worker's periodic pass, which starts and ends tournaments and tells of
them, runs between the test's looks): the tournament is made to start a second and a half after it is created
and to end three seconds later, and every wait is on what the service shows (its state, a run's verdict, a
webhook delivery). Where the joins outlast the time before its start or the entrants' games the tournament (a
loaded machine), another is made, its times twice as long, with entrants of its own: the test waits on the
machine, and never fails for its speed.

Before the start only joining works; while it runs, entrants play its sealed deck and nothing of the deck
shows, to the player either; at the end the game left in play is forfeited (R19) before the deck is shown,
a move after it is refused, the final standings are told once (``tournament.ended``), and a void after the
end re-ranks the board, which then says it was revised; ``scoundrel check`` finds it all consistent.
"""

import json
import random
import time
from datetime import UTC, datetime, timedelta

import pytest

from tests.games.table import Table, assert_nothing_shown_early
from tests.support.games import moderator_token, scoundrel_check
from tests.support.in_process import stack_of
from tests.support.service_http import with_more_time

pytestmark = pytest.mark.slow

RUNS_FOR = 3  # seconds the first tournament runs: the entrants' games take a second, on a busy machine a few
TRIES = 3  # tournaments at most, each twice as long as the one before
ROLES = ("ada", "bob", "cyd", "dee")


@pytest.fixture(scope="module")
def stack(request):
    yield from stack_of(request, env={"SCOUNDREL_WEBHOOK_RETRIES": "0.2", "SCOUNDREL_WEBHOOK_TIMEOUT": "2",
                                      "SCOUNDREL_GAME_IDLE": "600"})


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def wait_for_state(stack, tournament_id: str, state: str, timeout: float) -> dict:
    return stack.until(lambda: (shown := stack.get(f"/v1/tournaments/{tournament_id}").json())["state"] == state
                       and shown, f"the tournament {state}", timeout)


def played(stack, token: str, tournament_id: str, seed: int) -> Table:
    table = Table(stack, token, random.Random(seed))
    table.start(tournament=tournament_id)
    table.play_to_the_end()
    return table


@pytest.fixture(scope="module")
def window(stack, receiver):
    """A gauntlet of one sealed deck, two attempts each, three entrants at most, those who joined only,
    from its start to its end: what was answered on the way, for the tests to check."""
    moderator = bearer(moderator_token(stack, "mia"))
    hook = stack.post("/v1/webhooks", json={"url": receiver.url("/tournaments"),
                                            "events": ["tournament.started", "tournament.ended"]}, headers=moderator)
    assert hook.status_code == 201, hook.text
    return with_more_time(
        lambda attempt, runs_for: gauntlet(stack, moderator, {role: f"{role}{attempt}" if attempt else role
                                                              for role in ROLES}, runs_for),
        RUNS_FOR, TRIES, "the entrants' joins or games")


def gauntlet(stack, moderator: dict, names: dict[str, str], runs_for: int) -> dict | None:
    """The gauntlet of ``window`` with entrants ``names`` (by role), ``runs_for`` seconds long and starting
    half that after it is made, or None where its start came before the joins or its end before the entrants'
    games."""
    tokens = {role: stack.register(name)[1] for role, name in names.items()}
    now = datetime.now(UTC)
    starts_in = runs_for / 2  # the early game and the joins go first
    made = stack.post("/v1/tournaments", headers=moderator, json={
        "title": "Evening gauntlet", "starts_at": (now + timedelta(seconds=starts_in)).isoformat(),
        "ends_at": (now + timedelta(seconds=starts_in + runs_for)).isoformat(), "join_required": True,
        "max_entrants": 3, "max_attempts": 2, "deals": 1})
    assert made.status_code == 201, made.text
    tournament = made.json()
    tid = tournament["id"]
    starts = datetime.fromisoformat(tournament["starts_at"]).timestamp()
    ends = datetime.fromisoformat(tournament["ends_at"]).timestamp() - 0.5
    seen = {"early_start": stack.post("/v1/games", json={"tournament": tid}, headers=bearer(tokens["ada"])),
            "joins": [stack.post(f"/v1/tournaments/{tid}/join", headers=bearer(tokens[role])) for role in ROLES]}
    if time.time() >= starts:
        return None  # the start came before the last join
    wait_for_state(stack, tid, "running", starts_in + 10)
    try:
        seen, ada, cyd, bob, runs = while_running(stack, tokens, tid, seen)
    except AssertionError:
        if time.time() < ends:
            raise
        return None  # the end came mid-game
    if time.time() >= ends:
        return None
    ended = wait_for_state(stack, tid, "ended", runs_for + 10)
    seen["bob_move_after_end"] = bob.send([bob.game["legal_moves"][0]])
    return {"tid": tid, "names": names, "tokens": tokens, "moderator": moderator, "ada": ada, "cyd": cyd,
            "bob": bob, "runs": runs, "seen": seen, "ended": ended}


def while_running(stack, tokens: dict, tid: str, seen: dict) -> tuple[dict, list[Table], Table, Table, dict]:
    """The entrants' games, and what the service shows of them, while the tournament runs: ada's two, cyd's
    one, bob's left in play, and their runs once verified."""
    ada = [played(stack, tokens["ada"], tid, seed) for seed in (1, 2)]
    seen["third_attempt"] = stack.post("/v1/games", json={"tournament": tid}, headers=bearer(tokens["ada"]))
    cyd = played(stack, tokens["cyd"], tid, 3)
    bob = Table(stack, tokens["bob"], random.Random(4))
    bob.start(tournament=tid)
    bob.step()  # and left in play
    seen["second_game"] = stack.post("/v1/games", json={"tournament": tid}, headers=bearer(tokens["bob"]))
    runs = {table.game["run_id"]: stack.wait_final(table.game["run_id"]) for table in [*ada, cyd]}
    seen["ada_run_while_running"] = stack.get(f"/v1/runs/{ada[0].game['run_id']}", headers=bearer(tokens["ada"]))
    seen["tournament_while_running"] = stack.get(f"/v1/tournaments/{tid}").json()
    seen["standings_while_running"] = stack.get(f"/v1/tournaments/{tid}/standings").json()
    return seen, ada, cyd, bob, runs


def test_before_the_start_only_joining_works_up_to_the_cap(window):
    seen = window["seen"]
    assert (seen["early_start"].status_code, seen["early_start"].json()["reason"]) == (409, "not_started")
    assert [join.status_code for join in seen["joins"]] == [200, 200, 200, 409]
    assert seen["joins"][3].json()["reason"] == "full"


def test_while_it_runs_attempts_and_the_one_game_in_play_are_enforced(window):
    seen = window["seen"]
    assert seen["third_attempt"].json()["reason"] == "attempts_used"
    assert (seen["second_game"].json()["reason"], seen["second_game"].json()["game_id"]) == (
        "game_in_play", window["bob"].game["id"])
    assert {run["status"] for run in window["runs"].values()} == {"verified"}


def test_nothing_of_the_sealed_deck_shows_before_the_end_to_its_players_either(stack, window):
    seen = window["seen"]
    run = seen["ada_run_while_running"].json()
    assert (run["seed"], run["moves"], run["tournament"]) == (None, None, window["tid"])
    assert seen["tournament_while_running"]["sealed_deals"] is None
    seed = window["ended"]["sealed_deals"][0]["seed"]
    for table in [*window["ada"], window["cyd"], window["bob"]]:
        assert all(seed not in exchange.text for exchange in table.exchanges)
        assert_nothing_shown_early(table, seed)  # every response named only cards face up by then
    assert seed not in json.dumps(seen["standings_while_running"])


def test_at_the_end_the_game_in_play_is_forfeited_before_the_deck_shows_r19(stack, window):
    bob, tokens = window["bob"], window["tokens"]
    moved = window["seen"]["bob_move_after_end"]
    assert moved.status_code == 409 and moved.json().get("reason") in ("ended", None), moved.text
    game = stack.get(f"/v1/games/{bob.game['id']}", headers=bearer(tokens["bob"])).json()
    assert game["status"] == "forfeit" and len(game["moves"]) == len(bob.game["moves"])  # the moves it had
    forfeited = stack.wait_final(game["run_id"])
    assert (forfeited["status"], forfeited["outcome"]) == ("verified", "forfeit")
    seed = window["ended"]["sealed_deals"][0]["seed"]
    assert game["seed"] == seed  # shown now, to anyone
    for table in window["ada"]:
        assert stack.get(f"/v1/runs/{table.game['run_id']}").json()["seed"] == seed


def test_the_final_standings_are_told_once_and_match_the_runs(stack, window, receiver):
    tid = window["tid"]
    stack.until(lambda: stack.get(f"/v1/tournaments/{tid}").json()["final"], "the final standings", 20)
    events = {event["event"]: event for event in told(stack, receiver, tid, 2)}
    assert set(events) == {"tournament.started", "tournament.ended"}
    ended = events["tournament.ended"]
    standings = stack.get(f"/v1/tournaments/{tid}/standings").json()
    assert ended["standings"]["total"] == standings["total"] == 3
    assert [(e["player"], e["score"]) for e in ended["standings"]["entries"]] == [
        (e["player"], e["score"]) for e in standings["entries"]]
    assert [e["player"] for e in standings["entries"]] == expected_order(stack, tid, window["names"])
    stack.work()  # a pass more of the worker, which would tell again what it had not marked told
    assert len(told(stack, receiver, tid, 2)) == 2  # each told once


def told(stack, receiver, tid: str, count: int) -> list[dict]:
    """The webhook's deliveries about tournament ``tid`` (an earlier one outlasted by its games tells of
    itself too), once there are ``count``."""
    return stack.until(lambda: len(about := [event for event in receiver.events("/tournaments")
                                             if event["tournament"]["id"] == tid]) >= count and about,
                       f"{count} deliveries about {tid}", 15)


def expected_order(stack, tid: str, names: dict[str, str]) -> list[str]:
    """The standings recomputed from the runs: each entrant's best verified game of the tournament (higher
    score first, then the earlier)."""
    best: dict[str, tuple[int, str]] = {}
    for name in (names["ada"], names["bob"], names["cyd"]):
        for run in stack.get(f"/v1/players/{name}/runs?limit=100").json()["runs"]:
            if run["tournament"] == tid and run["status"] == "verified":
                key = (run["score"], run["submitted_at"])
                held = best.get(name)
                if held is None or key[0] > held[0] or (key[0] == held[0] and key[1] < held[1]):
                    best[name] = key
    return sorted(best, key=lambda name: (-best[name][0], best[name][1]))


def test_a_void_after_the_end_re_ranks_the_standings_and_says_so(stack, window):
    tid, tokens, moderator = window["tid"], window["tokens"], window["moderator"]
    top = stack.get(f"/v1/tournaments/{tid}/standings").json()["entries"][0]
    dispute = stack.post(f"/v1/runs/{top['run_id']}/disputes", json={"reason": "too good"},
                         headers=bearer(tokens["dee"])).json()
    resolved = stack.post(f"/v1/disputes/{dispute['id']}/resolve", json={"decision": "void"}, headers=moderator)
    assert resolved.status_code == 200, resolved.text
    after = stack.get(f"/v1/tournaments/{tid}/standings").json()
    assert top["run_id"] not in [e["run_id"] for e in after["entries"]]
    assert [e["player"] for e in after["entries"]] == expected_order(stack, tid, window["names"])
    assert after["revised_at"] is not None and after["final"] is True
    assert scoundrel_check(stack).returncode == 0
