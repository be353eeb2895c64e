"""Issue 11: finished runs leave Redis for the archive, and every read answers as before.

cat plays three games (low, high, and one cut short, so rejected) and one
that stays pending (no worker runs for it... it is judged at once, so a
pending run is made by hand). Retention moves every finished run that holds
no board place; the high run, cat's place on the board, stays in Redis.
"""

import time

import pytest

import scoundrel
from store import keys
from store.archive import ArchivedRun
from store.packing import LADDER_GAMES
from store.runs import load_run, stored_hashes
from tests.audit.conftest import bearer, cli, submit_final
from tests.support.games import accept_dealt, games_by_score, legal_games

from .conftest import archive_now, snapshot


@pytest.fixture(scope="module")
def cat(stack):
    name, token = stack.register("cat")
    low, high = games_by_score("archive-1", 2)
    runs = {"low": submit_final(stack, token, low)}
    time.sleep(0.005)
    runs["high"] = submit_final(stack, token, high)
    time.sleep(0.005)
    runs["short"] = submit_final(stack, token, {**high, "moves": high["moves"][:3]})
    assert [runs[label]["status"] for label in ("low", "high", "short")] == ["verified", "verified", "rejected"]
    before = {label: snapshot(stack, run["id"]) for label, run in runs.items()}
    listing = stack.get("/v1/players/cat/runs?limit=10").json()
    moved = archive_now(stack)
    return {"name": name, "token": token, "runs": runs, "before": before, "listing": listing, "moved": moved}


def archived(db, run_id: str) -> bool:
    return run_id in db.archive.load([run_id])


def test_finished_runs_without_a_place_move_and_the_place_holder_stays(db, cat):
    runs = cat["runs"]
    for label in ("low", "short"):
        assert load_run(db, runs[label]["id"]) is None, label
        assert archived(db, runs[label]["id"]), label
    assert load_run(db, runs["high"]["id"]) is not None
    assert not archived(db, runs["high"]["id"])
    assert "holding a board place" in cat["moved"].stdout


def test_reads_of_archived_runs_answer_as_before(stack, cat):
    for label, run in cat["runs"].items():
        assert snapshot(stack, run["id"]) == cat["before"][label], label


def test_a_players_runs_span_redis_and_the_archive_newest_first(stack, cat):
    assert stack.get("/v1/players/cat/runs?limit=10").json() == cat["listing"]
    assert cat["listing"]["total"] == 3
    assert [run["id"] for run in cat["listing"]["runs"]] == [cat["runs"][label]["id"] for label in
                                                           ("short", "high", "low")]
    second = stack.get("/v1/players/cat/runs?limit=1&offset=1").json()
    assert second["total"] == 3 and [run["id"] for run in second["runs"]] == [cat["runs"]["high"]["id"]]
    third = stack.get("/v1/players/cat/runs?limit=5&offset=2").json()
    assert [run["id"] for run in third["runs"]] == [cat["runs"]["low"]["id"]]


def test_a_pending_run_stays_in_redis(stack, db, cat):
    run_id = cat["runs"]["low"]["id"] + "p"
    db.redis.hset(keys.run(run_id), mapping={"player": "cat", "seed": "x", "variant": "classic",
                                             "status": "pending", "submitted_ms": 1})
    db.redis.zadd(keys.player_runs("cat"), {run_id: 1})
    try:
        assert "1 pending or in error" in archive_now(stack).stdout
        assert load_run(db, run_id) is not None and not archived(db, run_id)
    finally:
        db.redis.delete(keys.run(run_id))
        db.redis.zrem(keys.player_runs("cat"), run_id)


def test_check_passes_over_redis_and_the_archive(stack, cat):
    checked = cli(stack, "check")
    assert checked.returncode == 0, checked.stderr
    assert "every run is in Redis or the archive" in checked.stdout


def test_check_reports_a_run_in_both_places_and_the_next_pass_ends_it(stack, db, cat):
    [high] = stored_hashes(db, [cat["runs"]["high"]["id"]])
    db.archive.write([ArchivedRun(high, [])], 1)
    try:
        checked = cli(stack, "check")
        assert checked.returncode == 1
        assert f"run {high['id']} is both in Redis and in the archive" in checked.stderr
    finally:
        archive_now(stack)  # high holds a place: its row goes, it stays hot
    assert not archived(db, high["id"]) and load_run(db, high["id"]) is not None
    assert cli(stack, "check").returncode == 0


def test_check_reports_a_board_place_naming_an_archived_run(stack, db, cat):
    low_id = cat["runs"]["low"]["id"]
    db.redis.hset(keys.board_runs("classic"), "cat", low_id)
    try:
        checked = cli(stack, "check")
        assert checked.returncode == 1
        assert f"place names run {low_id}, which is archived" in checked.stderr
    finally:
        db.redis.hset(keys.board_runs("classic"), "cat", cat["runs"]["high"]["id"])


def test_a_run_that_loses_its_place_moves_at_the_next_pass(stack, db, cat, moderator):
    high_id = cat["runs"]["high"]["id"]
    dispute = stack.post(f"/v1/runs/{high_id}/disputes", json={"reason": "too good"},
                         headers=bearer(cat["token"])).json()
    voided = stack.post(f"/v1/disputes/{dispute['id']}/resolve", json={"decision": "void", "note": "n"},
                        headers=bearer(moderator))
    assert voided.status_code == 200
    assert stack.get("/v1/leaderboards/classic/players/cat").status_code == 404
    before = snapshot(stack, high_id)
    archive_now(stack)
    assert archived(db, high_id) and load_run(db, high_id) is None
    assert snapshot(stack, high_id) == before
    assert before["run"]["status"] == "void"


def test_a_run_holding_its_seed_boards_place_stays_hot(stack, db):
    """A run that is not the player's best on the variant board but is their best on its own
    deal's seed board holds a place (store.boards.place_checks): it stays in Redis."""
    _, token = stack.register("dora")
    def score(game: dict) -> int:
        return scoundrel.replay(game["seed"], game["moves"]).score

    higher = games_by_score("archive-seed-a", 3)[-1]
    lower = next(game for game in games_by_score("archive-seed-b", 3) if score(game) < score(higher))
    best = submit_final(stack, token, higher)
    other = submit_final(stack, token, lower)
    assert stack.get(f"/v1/seeds/{lower['seed']}/leaderboard").json()["entries"][0]["run_id"] == other["id"]
    archive_now(stack)
    assert load_run(db, best["id"]) is not None and load_run(db, other["id"]) is not None
    assert not archived(db, other["id"])


@pytest.fixture(scope="module")
def dan(stack, db):
    """dan's dealt games, three more than the ladder's window holds, then a retention pass: the oldest
    games (but the best, the dealt board's place) leave Redis and still count in dan's ladder games."""
    stack.register("dan")
    played = [accept_dealt(stack, "dan", game) for game in legal_games(LADDER_GAMES + 3)]
    assert {run["status"] for run in played} == {"verified"}
    archive_now(stack)
    return played


def test_archived_dealt_games_still_count_on_the_ladder_and_check_passes(stack, db, dan):
    gone = [run["id"] for run in dan if archived(db, run["id"])]
    assert len(gone) >= 2 and all(load_run(db, run_id) is None for run_id in gone)
    assert stack.get("/v1/leaderboards/dealt/classic/ladder/players/dan").json()["games"] == len(dan)
    checked = cli(stack, "check")
    assert checked.returncode == 0, checked.stderr


def test_check_still_reports_a_ladder_count_the_runs_do_not_give(stack, db, dan):
    db.redis.hincrby(keys.ladder_games("classic"), "dan", 1)
    try:
        checked = cli(stack, "check")
        assert checked.returncode == 1
        assert f"dan counts {len(dan) + 1} games, the runs give {len(dan)}" in checked.stderr
    finally:
        db.redis.hincrby(keys.ladder_games("classic"), "dan", -1)
