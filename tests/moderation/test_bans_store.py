"""A ban or a hiding withholds a player's places from every board, and lifting it gives back exactly the
places they had: every kind of board the registry has (``domain.boards.BOARDS``), compared place for place.

Runs are accepted and judged in this process (no worker), as the worker records them.
"""

import pytest

from cli.migrate import summary
from domain.boards import BOARDS, LADDER_GAMES, SEASON_LADDER, SEED_BOARD, BoardId, Order
from domain.errors import PlayerBanned
from domain.run import Run
from domain.sanctions import Sanction
from store.base import keys
from store.base.clock import now_ms
from store.boards.cooling import cool_boards
from store.operations.migration import migrate
from store.queue.intake import entry_parts
from store.runs.accepting import Dealt, Submission, accept_runs
from store.runs.records import load_runs
from store.runs.verdicts import record_verdicts
from store.sanctions import ban, ban_of, hide, keep_withheld, lift_ended_bans, unban, unhide
from store.sanctions.places import boards_played
from tests.support.boards import holds_place, place_of
from tests.support.games import legal_games
from verification import judge

SEASON, CLOSED_SEASON, DAY = "2026-12", "2026-11", "2026-12-06"
PLAYERS = ("ada", "bob")


def recorded(db, player: str, submissions: list[Submission]) -> list[Run]:
    """``submissions`` accepted for ``player`` and their verdicts recorded, as a worker records them."""
    accepted = accept_runs(db, player, submissions)
    pending = load_runs(db, [run.id for run, _ in accepted])
    record_verdicts(db, [(run, judge(run)) for run in pending])
    return pending


def every_kind(db, player: str) -> None:
    """Runs of ``player`` on a board of every kind: open, daily and seed boards; dealt games (a ladder's
    worth, in an open season, two in a closed one, counted in the leagues); a sealed daily; two tournaments' games
    (one scoring its best game, one the sum of its deals)."""
    games = legal_games(LADDER_GAMES + 4)
    opened = [Submission(game["seed"], game["variant"], game["moves"], daily=DAY if i == 0 else "")
              for i, game in enumerate(games[:3])]

    def dealt(i: int, game: dict, **where) -> Submission:
        return Submission(game["seed"], game["variant"], game["moves"],
                          dealt=Dealt(game_id=f"{player}-{i}", dealt_ms=now_ms(), **where))

    dealts = [dealt(i, game, season=CLOSED_SEASON if i < 2 else SEASON) for i, game in enumerate(games)]
    dealts += [dealt(100, games[0], challenge="daily", date=DAY),
               dealt(101, games[1], tournament="best-cup", scoring="best"),
               dealt(102, games[2], tournament="sum-cup", deal=1, scoring="sum"),
               dealt(103, games[3], tournament="sum-cup", deal=2, scoring="sum")]
    recorded(db, player, opened + dealts)


def board_state(db, boards: list[BoardId]) -> dict:
    """Everything the boards hold: each one's places (with rank keys), the runs naming them, its game counts,
    every player's window and its sole place (a board kept so)."""
    state = {}
    for board in boards:
        kind, parts = board.board.kind, board.parts
        state[board] = (db.redis.zrange(keys.board_places(kind, parts), 0, -1, withscores=True),
                        db.redis.hgetall(keys.board_holders(kind, parts)),
                        db.redis.hgetall(keys.board_games(kind, parts)),
                        [db.redis.zrange(keys.board_window(kind, parts, player), 0, -1, withscores=True)
                         for player in PLAYERS], db.redis.hget(keys.sole_places(board.name), board.name))
    return state


@pytest.fixture
def boards(archived_store_db):
    db = archived_store_db
    for player in PLAYERS:
        every_kind(db, player)
    db.redis.zadd(keys.closed("season"), {CLOSED_SEASON: now_ms()})  # its boards are frozen from here
    played = boards_played(db, "ada")
    assert {board.board for board in played} == set(BOARDS)  # every kind the registry has
    assert [board for board in played if not holds_place(db, board, "ada")] == [
        BoardId(SEASON_LADDER, ("classic", CLOSED_SEASON))]  # two games: no ladder place
    return played


def frozen(board: BoardId) -> bool:
    return board.closer == CLOSED_SEASON


def test_a_ban_withholds_every_place_and_an_unban_gives_back_exactly_the_boards_before(archived_store_db, boards):
    db = archived_store_db
    before = board_state(db, boards)
    held = {board: holds_place(db, board, "ada") for board in boards}
    others = {board: holds_place(db, board, "bob") for board in boards}

    ban(db, "ada", "mia", "cheating")
    for board in boards:
        assert holds_place(db, board, "ada") is (held[board] and frozen(board)), board  # a closed season's stays
        assert holds_place(db, board, "bob") is others[board], board
        if board.board.order is Order.LATEST and not frozen(board):
            assert not db.redis.exists(keys.board_window(board.board.kind, board.parts, "ada"))
    assert ban_of(db, "ada").reason == "cheating"

    unban(db, "ada", "mia")
    assert board_state(db, boards) == before
    assert ban_of(db, "ada") is None


def test_a_verdict_landing_during_a_ban_is_withheld_and_counted_at_the_unban(archived_store_db, boards):
    db = archived_store_db
    game = legal_games(LADDER_GAMES + 5)[-1]
    [(accepted, _)] = accept_runs(db, "ada", [Submission(game["seed"], game["variant"], game["moves"])])
    ban(db, "ada", "mia", "cheating")  # after its acceptance, before its verdict
    [run] = load_runs(db, [accepted.id])
    record_verdicts(db, [(run, judge(run))])
    keep_withheld(db, ["ada", "bob"])  # what the worker does after recording verdicts
    assert not any(holds_place(db, board, "ada") for board in boards if not frozen(board))
    unban(db, "ada", "mia")
    assert place_of(db, BoardId(SEED_BOARD, ("classic", game["seed"])), "ada").run_id == run.id


def test_a_timed_ban_ends_by_itself_and_the_places_come_back(archived_store_db, boards):
    db = archived_store_db
    before = board_state(db, boards)
    ban(db, "ada", "mia", "cooling off", until_ms=now_ms() + 60_000)
    assert ban_of(db, "ada") is not None and lift_ended_bans(db) == []
    ban(db, "ada", "mia", "cooling off", until_ms=now_ms() - 1)  # the same ban, its end come
    assert ban_of(db, "ada") is None  # refuses nothing already
    assert lift_ended_bans(db) == ["ada"]
    assert board_state(db, boards) == before


def test_hiding_withholds_the_places_and_unhiding_gives_them_back_while_a_ban_holds_them(archived_store_db, boards):
    db = archived_store_db
    before = board_state(db, boards)
    hide(db, "ada", "mia", "bot?")
    assert not any(holds_place(db, board, "ada") for board in boards if not frozen(board))
    ban(db, "ada", "mia", "bot")
    unhide(db, "ada", "mia")
    assert not any(holds_place(db, board, "ada") for board in boards if not frozen(board))  # still banned
    unban(db, "ada", "mia")
    assert board_state(db, boards) == before


def test_a_board_the_archive_holds_is_brought_back_for_the_ban_and_given_back_whole(archived_store_db, boards):
    db = archived_store_db
    before = board_state(db, boards)
    cooled = cool_boards(db, now_ms() + 1).cooled  # every cold board of a kind that cools: seeds, seasons, leagues…
    assert cooled > 0
    seed = next(board for board in boards if board.board is SEED_BOARD)
    assert not db.redis.exists(keys.board_places("seed", seed.parts))  # in the archive now
    ban(db, "ada", "mia", "cheating")
    assert holds_place(db, seed, "bob")  # back in Redis, ada not
    assert not holds_place(db, seed, "ada")
    unban(db, "ada", "mia")
    assert board_state(db, boards) == before


def test_a_banned_players_run_is_refused_in_the_step_that_would_accept_it_and_taken_once_the_ban_has_ended(
        archived_store_db):
    """The script accepting a run reads the ban with the token (no look of its own): a ban in force refuses
    the run and stores nothing of it; a timed ban past its end, not yet lifted by the sweep, refuses nothing."""
    db = archived_store_db
    game = legal_games(1)[0]
    submission = Submission(game["seed"], game["variant"], game["moves"])
    ban(db, "cy", "mia", "cheating", until_ms=now_ms() + 60_000)
    with pytest.raises(PlayerBanned) as refused:
        accept_runs(db, "cy", [submission])
    assert refused.value.until_ms is not None
    assert not db.redis.zcard(keys.player_runs("cy")) and not db.redis.llen(keys.intake())

    ban(db, "cy", "mia", "cheating", until_ms=now_ms() - 1)  # its end come, the sweep not yet by
    [(run, created)] = accept_runs(db, "cy", [submission])
    assert created and [entry_parts(entry)[0] for entry in db.redis.lrange(keys.intake(), 0, -1)] == [run.id]


def test_migrate_moves_the_bans_of_the_older_layouts_hash_into_keys_of_their_players(archived_store_db):
    db = archived_store_db
    until = now_ms() + 60_000
    db.redis.hset(keys.old_bans(), mapping={"cy": Sanction("cheating", "mia", 1, until).kept(),
                                            "dee": Sanction("abuse", "mia", 2).kept()})

    assert migrate(db, apply=False).hashed_bans == 2
    assert "2 bans in the older layout's hash of bans" in summary(migrate(db, apply=True), True)
    assert ban_of(db, "cy") == Sanction("cheating", "mia", 1, until)
    assert ban_of(db, "dee") == Sanction("abuse", "mia", 2)
    assert db.redis.zrange(keys.banned(), 0, -1, withscores=True) == [("cy", until), ("dee", float("inf"))]
    assert not db.redis.exists(keys.old_bans()) and not migrate(db, apply=False).anything
