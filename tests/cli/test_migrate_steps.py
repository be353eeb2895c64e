"""``scoundrel migrate``: a one-Redis store of the previous release, with the keys its steps left, becomes
one the store reads, its boards whole.

The previous release wrote a verdict, then each board's place in a step of
its own, and a void, then the player's recomputed places; between those
steps a run sat in ``placing`` or ``replacing``, and every board kept a
version hash and a set of placed runs. Here the service of today makes
real runs, then the test puts the store where a crash between those steps
left it: one run's places missing from its boards (its verdict written, in
``placing``), another voided with its places still shown (in
``replacing``), fences and marks beside them. The dry run counts them and
changes nothing, ``scoundrel check`` reports them, ``--apply`` finishes
the places and deletes the rest while the worker and the API run, and a
second run finds nothing.
"""

from domain.boards import Order
from store.base import keys
from store.boards.placements import placements
from store.operations import old_layouts
from store.runs.records import load_run
from tests.audit.conftest import cli, submit_final
from tests.support.games import games_by_score

SEED = "steps-left"


def _places_of(db, run_id: str) -> dict:
    """The run's player's places on the run's boards: each board key's entry for them."""
    run = load_run(db, run_id)
    read = {}
    for board in placements(run):
        places, *others = board.keys
        read[places] = db.redis.zscore(places, run.player)
        if board.board.board.order is Order.LATEST:
            read[others[0]] = db.redis.zrange(others[0], 0, -1, withscores=True)
            read[others[1]] = db.redis.hget(others[1], run.player)
        else:
            read[others[0]] = db.redis.hget(others[0], run.player)
    return read


def _unplace(db, run_id: str) -> None:
    """The run's player taken off the run's boards, as if its board steps never ran."""
    run = load_run(db, run_id)
    for board in placements(run):
        places, holders = board.keys[:2]
        db.redis.zrem(places, run.player)
        db.redis.hdel(holders, run.player)


def _leftovers(db, placed_run: str, voided_run: str) -> list[str]:
    """The keys the previous release's steps left, written as it wrote them: the run whose board steps
    never ran in ``placing``, the run voided whose places were never recomputed in ``replacing``, a
    board's version hash and set of placed runs, the marks."""
    now = 1_700_000_000_000
    fences = [keys.PREFIX + ":open-versions:classic", keys.PREFIX + f":seed-placed:classic:{SEED}"]
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.zadd(old_layouts.placing(), {placed_run: now})
        pipe.zadd(old_layouts.replacing(), {voided_run: now})
        pipe.hset(fences[0], "someone", "3:7")
        pipe.sadd(fences[1], placed_run)
        registered, doorbell, moved = old_layouts.step_marks()
        pipe.set(registered, "1")
        pipe.rpush(doorbell, "1")
        pipe.hset(moved, mapping={"from": "redis://127.0.0.1:1", "finished_ms": now})
        pipe.execute()
    return [old_layouts.placing(), old_layouts.replacing(), *fences, *old_layouts.step_marks()]


def _dump(db, names) -> dict:
    return {name: db.raw.dump(name) for name in names}


def test_the_places_owed_are_finished_and_the_step_keys_deleted(stack, db):
    owed_player, owed_token = stack.register()
    voided_player, voided_token = stack.register()
    low, high = games_by_score(SEED, 2)
    owed = [submit_final(stack, owed_token, game)["id"] for game in (low, high)]
    voided = [submit_final(stack, voided_token, game)["id"] for game in (low, high)]
    placed = _places_of(db, owed[1])
    assert db.redis.hget(keys.board_holders("open", ("classic",)), voided_player) == voided[1]

    _unplace(db, owed[1])  # its verdict written, its board steps owed
    db.redis.hset(keys.run(voided[1]), mapping={"status": "void", "voided_status": "verified"})  # its recompute owed
    leftovers = _leftovers(db, owed[1], voided[1])
    assert not any(_places_of(db, owed[1]).values())
    untouched = _dump(db, [*placed, *leftovers, *map(keys.run, owed + voided)])

    dry = cli(stack, "migrate")
    assert dry.returncode == 0, dry.stderr
    # the seed board holds one place (the other owed): as an older release kept it, in its two keys
    assert ("would rewrite 1 seed board of one place in its own keys, "
            "2 runs whose board places were still owed, 1 board version hash, "
            "1 board set of runs being placed and 3 other keys of the older layout's steps") in dry.stdout
    assert "nothing changed" in dry.stdout
    assert _dump(db, untouched) == untouched
    checked = cli(stack, "check")
    assert checked.returncode == 1
    assert "2 runs whose board places were still owed" in checked.stderr and "scoundrel migrate" in checked.stderr

    applied = cli(stack, "migrate", "--apply")
    assert applied.returncode == 0, applied.stderr
    assert "rewrote 2 runs whose board places were still owed" in applied.stdout
    assert not any(db.redis.exists(name) for name in leftovers)
    assert _places_of(db, owed[1]) == placed
    assert db.redis.hget(keys.board_holders("open", ("classic",)), owed_player) == owed[1]
    assert db.redis.hget(keys.board_holders("open", ("classic",)), voided_player) == voided[0]  # the void's recompute
    assert db.redis.hget(keys.board_holders("seed", ("classic", SEED)), voided_player) == voided[0]
    assert stack.get(f"/v1/seeds/{SEED}/leaderboard").json()["entries"][0]["player"] == owed_player
    checked = cli(stack, "check")
    assert checked.returncode == 0, checked.stderr
    again = cli(stack, "migrate", "--apply")
    assert again.returncode == 0 and "nothing to change" in again.stdout, again.stdout


def test_an_ended_game_the_steps_left_without_its_run_gets_it_once(stack, db):
    """The previous release ended a game in one step and accepted its run in the next, the game waiting
    in ``games-ending`` between them: ``migrate --apply`` accepts its run, once."""
    name, token = stack.register()
    game = stack.post("/v1/games", json={"variant": "classic"}, headers={"Authorization": f"Bearer {token}"}).json()
    ended_ms = 1_700_000_000_000
    with db.redis.pipeline(transaction=True) as pipe:  # where a crash between the two steps left it
        pipe.hset(keys.game(game["id"]), mapping={"status": "forfeit", "ended_ms": ended_ms})
        pipe.zrem(keys.games_playing(), game["id"])
        pipe.hdel(keys.player_games_playing(name), "classic")
        pipe.zadd(old_layouts.games_ending(), {game["id"]: ended_ms})
        pipe.execute()
    assert stack.get(f"/v1/players/{name}/runs").json()["total"] == 0
    dry = cli(stack, "migrate")
    assert "1 ended game whose run was still to be accepted" in dry.stdout, dry.stdout
    applied = cli(stack, "migrate", "--apply")
    assert applied.returncode == 0, applied.stderr
    assert not db.redis.exists(old_layouts.games_ending())
    runs = stack.get(f"/v1/players/{name}/runs").json()
    assert runs["total"] == 1 and runs["runs"][0]["game_id"] == game["id"]
    assert stack.wait_final(runs["runs"][0]["id"])["outcome"] == "forfeit"
    assert "nothing to change" in cli(stack, "migrate", "--apply").stdout
