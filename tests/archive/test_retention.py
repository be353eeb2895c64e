"""Issue 11: finished runs leave Redis for the archive, every read answers as before, and disputes and
moderators' changes reach archived runs, which come back to Redis first.

cat plays three games (low, high, and one cut short, so rejected) and one
that stays pending (no worker runs for it... it is judged at once, so a
pending run is made by hand). Retention moves every finished run, the high
one holding cat's places among them, and the cold seed boards; the boards
still name the high run, which every read finds in the archive.

don plays two classic games (low, then high). With both archived but the
high one holding his place, each of the moderators' tests archives the low
run and acts on it: the change brings it back to Redis
(``store.runs.history.hot_run``) with its audit log, and the usual change
follows. (``--older-than 0`` counts a run brought back a moment ago as old
enough to leave again.)
"""

import pytest

import scoundrel
from store.archive import ArchivedRun
from store.base import keys
from store.base.packing import LADDER_GAMES
from store.operations.consistency import check
from store.operations.retention import archive_old_runs
from store.runs.history import hot_run
from store.runs.records import load_run, stored_hashes
from tests.audit.conftest import bearer, cli, submit_final
from tests.support.commands import run_command
from tests.support.games import accept_dealt_games, games_by_score, legal_games, play_at_machine_speed
from tests.support.stores import NO_REDIS_URL, REFUSED_PORT

from .conftest import archive_now, snapshot, submitted_final

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cat(stack):
    name, token = stack.register("cat")
    low, high = games_by_score("archive-1", 2)
    short = {**high, "moves": high["moves"][:3]}
    runs = dict(zip(("low", "high", "short"), submitted_final(stack, token, [low, high, short]), strict=True))
    assert [runs[label]["status"] for label in ("low", "high", "short")] == ["verified", "verified", "rejected"]
    before = {label: snapshot(stack, run["id"]) for label, run in runs.items()}
    listing = stack.get("/v1/players/cat/runs?limit=10").json()
    moved = archive_now(stack)
    return {"name": name, "token": token, "runs": runs, "before": before, "listing": listing, "moved": moved}


def archived(db, run_id: str) -> bool:
    return run_id in db.archive.load([run_id])


def test_finished_runs_move_the_ones_holding_places_too(stack, db, cat):
    runs = cat["runs"]
    for label in ("low", "high", "short"):
        assert load_run(db, runs[label]["id"]) is None, label
        assert archived(db, runs[label]["id"]), label
    assert "1 cold board archived" in cat["moved"].stdout  # the seed board of cat's deal
    place = stack.get("/v1/leaderboards/classic/players/cat").json()
    assert place["run_id"] == runs["high"]["id"] and stack.get(f"/v1/runs/{place['run_id']}").status_code == 200


def test_reads_of_archived_runs_answer_as_before(stack, cat):
    for label, run in cat["runs"].items():
        assert snapshot(stack, run["id"]) == cat["before"][label], label
    listed = {run["id"]: run for run in cat["listing"]["runs"]}
    asked = [run["id"] for run in cat["runs"].values()]
    assert stack.get(f"/v1/runs?ids={','.join(asked)}").json()["runs"] == [listed[run_id] for run_id in asked]


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
    db.redis.zadd(keys.run_players(), {"cat": 1})
    try:
        assert "1 pending or in error" in archive_now(stack).stdout
        assert load_run(db, run_id) is not None and not archived(db, run_id)
    finally:
        db.redis.delete(keys.run(run_id))
        db.redis.zrem(keys.player_runs("cat"), run_id)
        db.redis.zrem(keys.run_players(), "cat")


def test_check_passes_over_redis_and_the_archive(stack, cat):
    checked = cli(stack, "check")
    assert checked.returncode == 0, checked.stderr
    assert "every run is in Redis or the archive" in checked.stdout


def test_check_reports_a_run_in_both_places_and_the_next_pass_ends_it(stack, db, cat):
    high_id = cat["runs"]["high"]["id"]
    hot_run(db, high_id)  # back in Redis, as a dispute brings it
    [high] = stored_hashes(db, [high_id])
    db.archive.write([ArchivedRun(high, [])], 1)
    try:
        checked = cli(stack, "check")
        assert checked.returncode == 1
        assert f"run {high_id} is both in Redis and in the archive" in checked.stderr
    finally:
        archive_now(stack)  # the move finishes: it holds places, and moves all the same
    assert archived(db, high_id) and load_run(db, high_id) is None
    assert cli(stack, "check").returncode == 0


def test_check_reports_a_board_place_naming_a_run_in_neither_place(stack, db, cat):
    db.redis.hset(keys.board_holders("open", ("classic",)), "cat", "nosuchrun")
    try:
        checked = cli(stack, "check")
        assert checked.returncode == 1
        assert "cat's place names run 'nosuchrun'" in checked.stderr
    finally:
        db.redis.hset(keys.board_holders("open", ("classic",)), "cat", cat["runs"]["high"]["id"])


def test_a_void_and_a_restore_recompute_places_from_archived_runs(stack, db, cat, moderator):
    """cat's runs are all archived: voiding the high one gives cat's place to the low one, read
    from the archive; restoring it gives it back; each run read through the board is found."""
    high_id, low_id = cat["runs"]["high"]["id"], cat["runs"]["low"]["id"]
    dispute = stack.post(f"/v1/runs/{high_id}/disputes", json={"reason": "too good"},
                         headers=bearer(cat["token"])).json()
    voided = stack.post(f"/v1/disputes/{dispute['id']}/resolve", json={"decision": "void", "note": "n"},
                        headers=bearer(moderator))
    assert voided.status_code == 200
    assert stack.get("/v1/leaderboards/classic/players/cat").json()["run_id"] == low_id
    seed = cat["runs"]["low"]["seed"]
    assert stack.get(f"/v1/seeds/{seed}/leaderboard").json()["entries"][0]["run_id"] == low_id
    assert check(db, 3600) == []
    restored = stack.post(f"/v1/runs/{high_id}/restore", headers=bearer(moderator))
    assert restored.status_code == 200, restored.text
    assert stack.get("/v1/leaderboards/classic/players/cat").json()["run_id"] == high_id
    archive_old_runs(db, 0)
    assert archived(db, high_id) and load_run(db, high_id) is None
    assert stack.get(f"/v1/seeds/{seed}/leaderboard").json()["entries"][0]["run_id"] == high_id
    assert stack.get(f"/v1/runs/{high_id}/replay").status_code == 200
    assert check(db, 3600) == []


def test_a_seed_board_leaves_redis_and_reads_the_same_from_the_archive(stack, db):
    """dora's best run on a deal that is not her best on the variant board: it leaves Redis with
    its seed board, and the board (its page, its API, a player's place) reads as before."""
    _, token = stack.register("dora")

    def score(game: dict) -> int:
        return scoundrel.replay(game["seed"], game["moves"]).score

    higher = games_by_score("archive-seed-a", 3)[-1]
    lower = next(game for game in games_by_score("archive-seed-b", 3) if score(game) < score(higher))
    best = submit_final(stack, token, higher)
    other = submit_final(stack, token, lower)
    reads = [f"/v1/seeds/{lower['seed']}/leaderboard", f"/v1/seeds/{lower['seed']}/leaderboard/players/dora"]
    before = [stack.get(path).json() for path in reads]
    page = stack.get(f"/boards/seed/{lower['seed']}?player=dora")
    assert before[0]["entries"][0]["run_id"] == other["id"]
    archive_old_runs(db, 0)
    assert load_run(db, best["id"]) is None and load_run(db, other["id"]) is None
    assert not db.redis.exists(keys.board_places("seed", ("classic", lower["seed"])),
                               keys.board_holders("seed", ("classic", lower["seed"])))
    assert db.archive.board_places("seed", f"classic:{lower['seed']}")[0].run_id == other["id"]
    assert [stack.get(path).json() for path in reads] == before
    assert stack.get(f"/boards/seed/{lower['seed']}?player=dora").text == page.text
    assert stack.get(f"/v1/runs/{other['id']}/replay").status_code == 200


def test_a_verdict_on_an_archived_seed_board_is_merged_then_brought_back(stack, db):
    """eve plays a deal whose seed board is archived (ada's run on it): the read merges the two
    copies at once, and the next pass, the board being warm again, brings it back into Redis."""
    low, high = games_by_score("archive-seed-late", 2)
    _, ada = stack.register("ada-late")
    _, eve = stack.register("eve-late")
    first = submit_final(stack, ada, low)
    archive_old_runs(db, 0)
    assert not db.redis.exists(keys.board_places("seed", ("classic", low["seed"])))
    late = submit_final(stack, eve, high)
    board = stack.get(f"/v1/seeds/{low['seed']}/leaderboard").json()
    assert [entry["run_id"] for entry in board["entries"]] == [late["id"], first["id"]] and board["total"] == 2
    assert stack.get(f"/v1/seeds/{low['seed']}/leaderboard/players/ada-late").json()["rank"] == 2
    assert archive_old_runs(db, 30).boards.brought_back == 1  # eve's run is new: the board is warm
    assert db.redis.zcard(keys.board_places("seed", ("classic", low["seed"]))) == 2
    assert not db.archive.board_places("seed", f"classic:{low['seed']}")
    assert stack.get(f"/v1/seeds/{low['seed']}/leaderboard").json() == board
    assert check(db, 3600) == []


@pytest.fixture(scope="module")
def dan(stack, db):
    """dan's dealt games, one more than the ladder's window holds, then a retention pass: every game
    leaves Redis, those in the window and the dealt board's place too, and still counts."""
    stack.register("dan")
    played = accept_dealt_games(stack, "dan", list(legal_games(LADDER_GAMES + 1)))
    assert {run["status"] for run in played} == {"verified"}
    archive_now(stack)
    return played


def test_archived_dealt_games_still_count_on_the_ladder_and_check_passes(stack, db, dan):
    assert all(archived(db, run["id"]) and load_run(db, run["id"]) is None for run in dan)
    assert stack.get("/v1/leaderboards/dealt/classic/ladder/players/dan").json()["games"] == len(dan)
    checked = cli(stack, "check")
    assert checked.returncode == 0, checked.stderr


def test_a_void_of_an_archived_game_recomputes_the_ladder_window_from_the_archive(stack, db, dan, moderator):
    """The window's newest game voided: the window takes the game before the window's oldest, an
    archived one, and the count every game but the void one."""
    newest = dan[-1]["id"]
    _, token = stack.register("dan-watcher")
    dispute = stack.post(f"/v1/runs/{newest}/disputes", json={"reason": "odd"}, headers=bearer(token)).json()
    assert dispute.get("id"), dispute
    voided = stack.post(f"/v1/disputes/{dispute['id']}/resolve", json={"decision": "void", "note": "n"},
                        headers=bearer(moderator))
    assert voided.status_code == 200, voided.text
    window = db.redis.zrange(keys.board_window("ladder", ("classic",), "dan"), 0, -1)
    assert [member.split(":")[0] for member in window] == [run["id"] for run in dan[-LADDER_GAMES - 1:-1]]
    assert stack.get("/v1/leaderboards/dealt/classic/ladder/players/dan").json()["games"] == len(dan) - 1
    assert check(db, 3600) == []
    restored = stack.post(f"/v1/runs/{newest}/restore", headers=bearer(moderator))
    assert restored.status_code == 200, restored.text
    assert stack.get("/v1/leaderboards/dealt/classic/ladder/players/dan").json()["games"] == len(dan)


def test_check_still_reports_a_ladder_count_the_runs_do_not_give(stack, db, dan):
    db.redis.hincrby(keys.board_games("ladder", ("classic",)), "dan", 1)
    try:
        checked = cli(stack, "check")
        assert checked.returncode == 1
        assert f"dan counts {len(dan) + 1} games, the runs give {len(dan)}" in checked.stderr
    finally:
        db.redis.hincrby(keys.board_games("ladder", ("classic",)), "dan", -1)


def test_an_unreachable_archive_is_one_line_and_status_1():
    done = run_command({"REDIS_URL": NO_REDIS_URL,
                        "SCOUNDREL_ARCHIVE_URL":
                            f"postgresql+psycopg://scoundrel:secret@127.0.0.1:{REFUSED_PORT}/archive"},
                       "archive")
    assert done.returncode == 1
    assert done.stderr.startswith(f"scoundrel archive: cannot reach the archive (postgresql+psycopg://scoundrel:***"
                                  f"@127.0.0.1:{REFUSED_PORT}/archive): ")
    assert done.stderr.count("\n") == 1 and "secret" not in done.stderr


@pytest.fixture(scope="module")
def don(stack):
    token = stack.register("don")[1]
    low, high = games_by_score("archive-moderation", 2)
    runs = dict(zip(("low", "high"), submitted_final(stack, token, [low, high]), strict=True))
    return {"token": token, "runs": runs}


@pytest.fixture
def archived_low(stack, db, don):
    """The low run, in the archive only, and what a client read of it there."""
    low_id = don["runs"]["low"]["id"]
    archive_now(stack)
    assert load_run(db, low_id) is None and low_id in db.archive.load([low_id])
    return low_id, snapshot(stack, low_id)


def back_in_redis(db, run_id: str) -> bool:
    return load_run(db, run_id) is not None and run_id not in db.archive.load([run_id])


def test_a_dispute_of_an_archived_run_brings_it_back_with_its_audit_log(stack, db, don, archived_low):
    low_id, before = archived_low
    response = stack.post(f"/v1/runs/{low_id}/disputes", json={"reason": "odd"}, headers=bearer(don["token"]))
    assert response.status_code == 201
    assert back_in_redis(db, low_id)
    entries = stack.get(f"/v1/runs/{low_id}/audit-log").json()["entries"]
    assert entries[:-1] == before["audit"]["entries"]
    assert entries[-1]["event"] == "disputed"
    assert stack.get(f"/v1/runs/{low_id}").json() == before["run"]


def test_voiding_an_archived_run_and_restoring_it(stack, db, don, moderator, archived_low):
    low_id, _ = archived_low
    dispute = stack.post(f"/v1/runs/{low_id}/disputes", json={"reason": "void it"},
                         headers=bearer(don["token"])).json()
    voided = stack.post(f"/v1/disputes/{dispute['id']}/resolve", json={"decision": "void", "note": "n"},
                        headers=bearer(moderator))
    assert voided.status_code == 200 and stack.get(f"/v1/runs/{low_id}").json()["status"] == "void"
    archive_now(stack)
    assert load_run(db, low_id) is None
    restored = stack.post(f"/v1/runs/{low_id}/restore", headers=bearer(moderator))
    assert restored.status_code == 200
    assert restored.json()["status"] == "verified"
    assert back_in_redis(db, low_id)
    assert stack.get(f"/v1/runs/{low_id}/audit-log").json()["entries"][-1]["event"] == "restored"


def test_reverifying_an_archived_run(stack, db, don, moderator, archived_low):
    low_id, before = archived_low
    response = stack.post(f"/v1/runs/{low_id}/reverify", headers=bearer(moderator))
    assert response.status_code == 200
    assert response.json()["changed"] is False
    assert response.json()["run"] == before["run"]
    assert back_in_redis(db, low_id)
    entries = stack.get(f"/v1/runs/{low_id}/audit-log").json()["entries"]
    assert entries[:-1] == before["audit"]["entries"] and entries[-1]["event"] == "reverified"


def test_requeue_of_an_archived_run_is_409_not_404(stack, moderator, archived_low):
    low_id, _ = archived_low
    assert stack.post(f"/v1/runs/{low_id}/requeue", headers=bearer(moderator)).status_code == 409


def test_an_unknown_run_is_still_404_everywhere(stack, moderator, don):
    for path in ("/v1/runs/nope", "/v1/runs/nope/audit-log", "/v1/runs/nope/replay", "/runs/nope"):
        assert stack.get(path).status_code == 404, path
    assert stack.post("/v1/runs/nope/restore", headers=bearer(moderator)).status_code == 404
    assert stack.post("/v1/runs/nope/disputes", json={"reason": "x"},
                      headers=bearer(don["token"])).status_code == 404


def test_a_run_brought_back_stays_hot_for_the_hot_days(stack, db, don, moderator, archived_low):
    low_id, _ = archived_low
    assert stack.post(f"/v1/runs/{low_id}/reverify", headers=bearer(moderator)).status_code == 200
    # as if submitted in 1970: old enough for any cutoff
    db.redis.zadd(keys.player_runs("don"), {low_id: 1})
    db.redis.zadd(keys.run_players(), {"don": 1})
    try:
        kept = cli(stack, "archive", "--older-than", "1")
        assert kept.returncode == 0, kept.stderr
        assert "1 back from the archive since" in kept.stdout
        assert back_in_redis(db, low_id)
    finally:
        db.redis.zadd(keys.player_runs("don"), {low_id: load_run(db, low_id).submitted_ms})
        [(_, oldest)] = db.redis.zrange(keys.player_runs("don"), 0, 0, withscores=True)
        db.redis.zadd(keys.run_players(), {"don": oldest})


def test_a_flag_of_an_archived_run_still_resolves_and_dismissing_it_brings_the_run_back(stack, db, moderator):
    """A bot-speed dealt game, flagged, then voided (so it holds no place) and archived: its flags
    still list it and link a replay that answers; dismissing one is logged on the run, back in Redis."""
    game, token = play_at_machine_speed(stack)
    run_id = game["run_id"]
    stack.until(lambda: stack.get("/v1/flags", params={"run_id": run_id}, headers=bearer(moderator)).json()["entries"],
                "the bot-speed game's flag")
    dispute = stack.post(f"/v1/runs/{run_id}/disputes", json={"reason": "a bot"}, headers=bearer(token)).json()
    stack.post(f"/v1/disputes/{dispute['id']}/resolve", json={"decision": "void"}, headers=bearer(moderator))
    archive_now(stack)
    assert load_run(db, run_id) is None and run_id in db.archive.load([run_id])

    [fast] = [flag for flag in stack.get("/v1/flags", params={"run_id": run_id}, headers=bearer(moderator))
              .json()["entries"] if flag["reason"] == "fast_moves"]
    assert stack.get(fast["replay"]).status_code == 200
    assert stack.get(f"/v1/runs/{run_id}/replay", headers=bearer(moderator)).status_code == 200
    dismissed = stack.post(f"/v1/flags/{fast['id']}/dismiss", json={}, headers=bearer(moderator))
    assert dismissed.status_code == 200 and dismissed.json()["status"] == "dismissed"
    assert back_in_redis(db, run_id)
    last = stack.get(f"/v1/runs/{run_id}/audit-log", headers=bearer(moderator)).json()["entries"][-1]
    assert (last["event"], last["detail"]) == ("flag_dismissed", {"flag": fast["id"], "reason": "fast_moves"})
    assert stack.get(f"/v1/runs/{run_id}").json()["status"] == "void"  # the flag changed nothing of the verdict
