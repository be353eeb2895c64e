"""Issue 45, item 5: a seed board played by one player is kept as that one place, a field of a hash it
shares with other boards (``keys.sole_places``), not in two keys of its own; a second player's verified run
moves it into its two keys in the verdict's script, its field then saying so (``SPREAD``), so that one read
tells a verdict the board's form. Every reader and writer of a seed board reads both
forms: its page, ``?among=``, ``?around=``, a player's place and standing, a void and a restore, an
erasure, a rename, a ban, its cooling to the archive and back, ``scoundrel check`` and ``scoundrel
migrate``. Runs are accepted and judged in this process (no worker), as the worker records them.
"""

import time

import pytest

from cli.migrate import found
from domain.boards import DAILY_BOARD, SEED_BOARD, BoardId
from domain.daily_seed import daily_seed, today
from store import create_player, load_runs, record_verdicts, submit_run
from store.base import keys
from store.base.clock import now_ms
from store.boards.cooling import SPREAD, cool_boards
from store.boards.pages import board_among, page_of, position_on, ranking
from store.boards.standings import standings
from store.games import daily_secret
from store.moderation.restoring import restore_run, void_run
from store.operations.consistency import check
from store.operations.migration import migrate
from store.privacy import erasure as erasing
from store.privacy.renaming import rename_player
from store.runs.accepting import Submission
from store.sanctions import ban, unban
from tests.support.boards import place_of
from tests.support.games import games_by_score
from verification import judge

SEED = "sole-seed"
BOARD = BoardId(SEED_BOARD, ("classic", SEED))


@pytest.fixture
def db(archived_store_db):
    for player in ("ada", "bob", "cyd"):
        create_player(archived_store_db, player)
    return archived_store_db


def verified(db, player: str, game: dict, daily: str = "") -> str:
    """``game`` submitted by ``player`` and its verdict recorded, as a worker records it: its run id."""
    run, _ = submit_run(db, player, Submission(game["seed"], game["variant"], game["moves"], daily=daily))
    [stored] = load_runs(db, [run.id])
    record_verdicts(db, [(stored, judge(stored))])
    time.sleep(0.002)  # distinct submission times
    return run.id


def sole(db, board: BoardId = BOARD) -> str | None:
    """The board's one place as its shared hash holds it (``SPREAD`` while it is in its two keys), or None."""
    return db.redis.hget(keys.sole_places(board.name), board.name)


def in_two_keys(db, board: BoardId = BOARD) -> bool:
    return bool(db.redis.exists(keys.board_places("seed", board.parts), keys.board_holders("seed", board.parts)))


def ranked(db, board: BoardId = BOARD) -> list[tuple[str, int, str]]:
    """The board's page: (player, score, run id) per place, best first."""
    return [(entry["player"], entry["score"], entry["run_id"]) for entry in page_of(db, board, 0, 10)[1]]


def test_one_players_board_is_one_field_read_by_every_reader(db):
    low, high = games_by_score(SEED, 2)
    first = verified(db, "ada", low)
    better = verified(db, "ada", high)
    verified(db, "ada", low | {"moves": low["moves"]})  # the same game again: the same run
    assert not in_two_keys(db)
    packed, player, run_id = sole(db).split(" ")
    assert (player, run_id) == ("ada", better) and first != better
    score = ranked(db)[0][1]
    assert ranked(db) == [("ada", score, better)]
    assert page_of(db, BOARD, 1, 10) == (1, [])
    around = position_on(db, BOARD, "ada", 2)
    assert (around["rank"], around["run_id"], around["total"], around["percentile"]) == (1, better, 1, 100.0)
    assert position_on(db, BOARD, "bob", 2) is None
    count, entries = board_among(db, BOARD, ["bob", "ada"], 0, 10)
    assert count == 1 and [(entry["player"], entry["global_rank"]) for entry in entries] == [("ada", 1)]
    assert board_among(db, BOARD, ["bob"], 0, 10) == (0, [])
    [mine] = standings(db, "ada", [ranking(BOARD)], [])
    assert (mine.rank, mine.total, mine.score, mine.above) == (1, 1, score, 0)
    assert standings(db, "bob", [ranking(BOARD)], []) == [None]
    assert int(packed) == place_of(db, BOARD, "ada").rank_key
    assert check(db, 60) == []


def test_a_second_player_moves_the_board_into_its_two_keys(db):
    low, high = games_by_score(SEED, 2)
    ada = verified(db, "ada", low)
    bob = verified(db, "bob", high)
    assert sole(db) == SPREAD and in_two_keys(db)
    assert [(player, run_id) for player, _, run_id in ranked(db)] == [("bob", bob), ("ada", ada)]
    assert position_on(db, BOARD, "ada", 1)["rank"] == 2
    void_run(db, bob, "mia", "cheating")  # back to one place: back into its field
    assert sole(db).split(" ")[1:] == ["ada", ada] and not in_two_keys(db)
    assert check(db, 60) == []
    restore_run(db, bob, "mia")
    assert [player for player, _, _ in ranked(db)] == ["bob", "ada"] and sole(db) == SPREAD
    assert check(db, 60) == []


def test_erasing_one_of_two_players_leaves_the_others_place_in_its_field(db):
    low, high = games_by_score(SEED, 2)
    ada = verified(db, "ada", low)
    verified(db, "bob", high)
    erasing.erase(db, erasing.begin_erasure(db, "bob"), ("moderator", "mia"), 60)
    assert sole(db).split(" ")[1:] == ["ada", ada] and not in_two_keys(db)
    assert check(db, 60) == []


def test_a_second_player_on_the_daily_seed(db):
    day = today()
    seed = daily_seed(daily_secret(db), day)
    daily_board = BoardId(SEED_BOARD, ("classic", seed))
    low, high = games_by_score(seed, 2)
    ada = verified(db, "ada", high, daily=day.isoformat())
    assert sole(db, daily_board).split(" ")[1:] == ["ada", ada]
    bob = verified(db, "bob", low, daily=day.isoformat())
    assert sole(db, daily_board) == SPREAD and in_two_keys(db, daily_board)
    assert [(player, run_id) for player, _, run_id in ranked(db, daily_board)] == [("ada", ada), ("bob", bob)]
    daily = BoardId(DAILY_BOARD, (day.isoformat(),))
    assert [entry["player"] for entry in page_of(db, daily, 0, 10)[1]] == ["ada", "bob"]
    assert check(db, 60) == []


def test_voiding_the_sole_run_empties_the_board_and_a_restore_gives_it_back(db):
    [game] = games_by_score(SEED, 1)
    run_id = verified(db, "ada", game)
    void_run(db, run_id, "mia", "cheating")
    assert sole(db) is None and not in_two_keys(db) and page_of(db, BOARD, 0, 10) == (0, [])
    restore_run(db, run_id, "mia")
    assert sole(db).split(" ")[1:] == ["ada", run_id]
    assert check(db, 60) == []


def test_erasing_the_sole_player_leaves_nothing_of_the_board(db):
    [game] = games_by_score(SEED, 1)
    verified(db, "ada", game)
    erasing.erase(db, erasing.begin_erasure(db, "ada"), ("moderator", "mia"), 60)
    assert sole(db) is None and not in_two_keys(db) and page_of(db, BOARD, 0, 10) == (0, [])
    assert check(db, 60) == []


def test_renaming_the_sole_player_moves_their_place(db):
    [game] = games_by_score(SEED, 1)
    run_id = verified(db, "ada", game)
    rename_player(db, "ada", "ava", "mia", 60)
    assert sole(db).split(" ")[1:] == ["ava", run_id]
    assert [(player, found) for player, _, found in ranked(db)] == [("ava", run_id)]
    assert check(db, 60) == []


def test_a_ban_withholds_the_sole_place_and_the_unban_gives_it_back(db):
    [game] = games_by_score(SEED, 1)
    verified(db, "ada", game)
    before = sole(db)
    ban(db, "ada", "mia", "cheating")
    assert sole(db) is None and page_of(db, BOARD, 0, 10) == (0, [])
    unban(db, "ada", "mia")
    assert sole(db) == before


def test_a_sole_board_cools_to_the_archive_and_comes_back_when_a_second_player_warms_it(db):
    low, high = games_by_score(SEED, 2)
    ada = verified(db, "ada", high)
    assert cool_boards(db, now_ms() + 1).cooled >= 1
    assert sole(db) is None and not in_two_keys(db)
    assert [(place.player, place.run_id) for place in db.archive.board_places("seed", f"classic:{SEED}")] == [
        ("ada", ada)]
    assert [(player, run_id) for player, _, run_id in ranked(db)] == [("ada", ada)]  # read in the archive
    bob = verified(db, "bob", low)  # on the archived board: alone in Redis, read merged
    assert sole(db).split(" ")[1:] == ["bob", bob]
    assert [(player, run_id) for player, _, run_id in ranked(db)] == [("ada", ada), ("bob", bob)]
    assert position_on(db, BOARD, "bob", 1)["rank"] == 2
    assert check(db, 60) == []
    assert cool_boards(db, 0).brought_back == 1  # warm: the archive's places come back, the board in two keys
    assert in_two_keys(db) and sole(db) == SPREAD and not db.archive.board_places("seed", f"classic:{SEED}")
    assert [(player, run_id) for player, _, run_id in ranked(db)] == [("ada", ada), ("bob", bob)]
    assert check(db, 60) == []


def test_migrate_moves_a_board_of_one_place_in_its_two_keys_into_the_shared_hash(db):
    [game] = games_by_score(SEED, 1)
    run_id = verified(db, "ada", game)
    packed, _, _ = sole(db).split(" ")
    db.redis.hdel(keys.sole_places(BOARD.name), BOARD.name)  # as an older release kept it
    db.redis.zadd(keys.board_places("seed", BOARD.parts), {"ada": int(packed)})
    db.redis.hset(keys.board_holders("seed", BOARD.parts), "ada", run_id)
    assert migrate(db, apply=False).lone_boards == 1 and in_two_keys(db)
    assert migrate(db, apply=True).lone_boards == 1
    assert sole(db) == f"{packed} ada {run_id}" and not in_two_keys(db)
    assert migrate(db, apply=False).lone_boards == 0
    assert check(db, 60) == []


def test_migrate_marks_a_board_in_its_two_keys_with_no_field_saying_so(db):
    """An older release left a board of many places with no field: today's verdict would read it as empty."""
    low, high = games_by_score(SEED, 2)
    verified(db, "ada", low)
    verified(db, "bob", high)
    db.redis.hdel(keys.sole_places(BOARD.name), BOARD.name)  # as an older release kept it
    assert migrate(db, apply=False).unmarked_boards == 1 and sole(db) is None
    assert found(migrate(db, apply=False)) == "1 seed board in its own keys with no mark saying so"
    assert migrate(db, apply=True).unmarked_boards == 1
    assert sole(db) == SPREAD and in_two_keys(db)
    assert not migrate(db, apply=False).anything
    [game] = games_by_score(SEED, 1)
    verified(db, "cyd", game)  # a third player joins the two keys, not a field of its own
    assert sole(db) == SPREAD and {player for player, _, _ in ranked(db)} == {"ada", "bob", "cyd"}
    assert check(db, 60) == []


def test_a_board_in_its_two_keys_cooled_to_the_archive_leaves_no_field(db):
    """Its two keys gone, its ``SPREAD`` goes too, so the board reads as empty in Redis."""
    low, high = games_by_score(SEED, 2)
    verified(db, "ada", low)
    verified(db, "bob", high)
    assert cool_boards(db, now_ms() + 1).cooled >= 1
    assert sole(db) is None and not in_two_keys(db)
    assert check(db, 60) == []


def test_the_lua_and_the_python_spell_spread_alike():
    from pathlib import Path

    import store.lua
    text = (Path(store.lua.__file__).parent / "_sole.lua").read_text()
    assert f"local SPREAD = '{SPREAD}'" in text


def hgets(db) -> int:
    """How many ``HGET`` calls this Redis has served, scripts' included."""
    return int(db.redis.info("commandstats").get("cmdstat_hget", {}).get("calls", 0))


def test_each_reader_reads_a_boards_one_place_once(db):
    """A page, a position and ``?among=`` of a board kept as its one place read that place once each
    (``store.boards.pages.places_apart``), not once to find where the board is and again to list it."""
    verified(db, "ada", games_by_score(SEED, 1)[0])
    for read in (lambda: page_of(db, BOARD, 0, 10), lambda: position_on(db, BOARD, "ada", 2),
                 lambda: board_among(db, BOARD, ["ada", "bob"], 0, 10)):
        before = hgets(db)
        assert read()
        assert hgets(db) - before == 1
