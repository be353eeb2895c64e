"""A forced rename in the store: every place on every board the registry has is the same, place for place, under
the new name (a closed season's frozen board and boards the archive holds included), and nothing in Redis names
the old name any more but the moderators' log.

Runs are accepted and judged in this process (no worker), as the worker records them.
"""

import json

import pytest

from domain.boards import BOARDS, BoardId
from domain.errors import NameNotAllowed, NameResting, NameTaken
from domain.leagues import LeagueRules
from domain.names import NamePolicy
from domain.transparency import SHOW, WITHHOLD
from store.accounts import create_player, find_player, follow, player_for_token
from store.accounts.players import resting_until
from store.base import keys
from store.base.clock import now_ms
from store.boards.cooling import cool_boards, hot_boards
from store.leagues.membership import cohort, history, join_week
from store.log import pseudonyms
from store.operations.consistency import check
from store.privacy import rename
from store.privacy.renaming import unfinished
from store.sanctions import (
    ReportTarget,
    ban,
    ban_of,
    file_report,
    hide,
    hiding_of,
    lift_ended_bans,
    reports_filed,
    unhide,
)
from store.sanctions.places import boards_played
from store.tournaments.tournaments import create_tournament, entry_of, join_tournament, load_tournament
from tests.moderation.test_bans_store import CLOSED_SEASON, every_kind
from tests.support.leagues import game as league_game

OLD, NEW, OTHER = "rudeboy", "ann", "bob"
POLICY = NamePolicy.of(("villain",))
COOL_OFF = 3600


def state(db, boards: list[BoardId], player: str) -> dict:
    """Everything the boards hold, ``player`` written as ``*``: each board's places with their rank keys (which
    order them; two players whose keys are equal, the same score in the same millisecond, are listed by name,
    so a rename may list such a tie the other way round: the same place), the runs naming them, its game
    counts, and ``player``'s window."""
    def named(name: str) -> str:
        return "*" if name == player else name

    held = {}
    for board in boards:
        kind, parts = board.board.kind, board.parts
        held[board] = ({named(name): key for name, key in
                        db.redis.zrange(keys.board_places(kind, parts), 0, -1, withscores=True)},
                       {named(name): run for name, run in db.redis.hgetall(keys.board_holders(kind, parts)).items()},
                       {named(name): n for name, n in db.redis.hgetall(keys.board_games(kind, parts)).items()},
                       db.redis.zrange(keys.board_window(kind, parts, player), 0, -1, withscores=True))
    return held


def naming(db, name: str) -> list[str]:
    """Every place in Redis that names ``name``: a key, a member, a field, a value or a word of one (a run's audit
    log, which records who acted, and the moderators' log excepted)."""
    found = []
    for key in db.redis.scan_iter(count=1000):
        if name in key.split(":"):
            found.append(key)
        kind = db.redis.type(key)
        if kind == "hash":
            found += [f"{key} {field}" for field, value in db.redis.hgetall(key).items()
                      if field != "log" and (name in field.split(":") or name in value.split())]
        elif kind == "zset":
            found += [f"{key} {member}" for member in db.redis.zrange(key, 0, -1) if member == name]
        elif kind == "list" and key != keys.moderation_log():
            found += [f"{key} {item}" for item in db.redis.lrange(key, 0, -1) if item == name]
        elif kind == "string" and db.redis.get(key) == name:
            found.append(key)
    return found


@pytest.fixture
def boards(archived_store_db):
    db = archived_store_db
    tokens = {player: create_player(db, player) for player in (OLD, OTHER)}
    for player in (OLD, OTHER):
        every_kind(db, player)
    db.redis.zadd(keys.closed("season"), {CLOSED_SEASON: now_ms()})  # its boards are frozen from here
    follow(db, OLD, OTHER)
    follow(db, OTHER, OLD)
    file_report(db, OTHER, ReportTarget("player", OLD), "offensive_name", "that name")
    file_report(db, OLD, ReportTarget("player", OTHER), "other", "retaliation")
    db.redis.hset(keys.streak(OLD), mapping={"last": "2026-12-06", "run": "3", "best": "5"})
    cup = create_tournament(db, title="Cup", variant="classic", starts_ms=now_ms() - 1000, ends_ms=now_ms() + 60_000,
                            join_required=True, max_entrants=None, max_attempts=2, deals=1, scoring="best",
                            created_by="mia")
    for player in (OLD, OTHER):
        join_tournament(db, cup, player)
        db.redis.hset(keys.tournament_attempts(cup.id), f"{player}:1", 1)  # one game begun of its one deal
        join_week(db, LeagueRules(("Bronze", "Silver"), 30, 2), league_game(player, "2026-W49", 10, 1000))
    played = boards_played(db, OLD)
    assert {board.board for board in played} == set(BOARDS)  # every kind the registry has
    return played, tokens


def test_a_rename_keeps_every_place_on_every_board_and_leaves_nothing_naming_the_old_name(archived_store_db, boards):
    db = archived_store_db
    played, tokens = boards
    before = state(db, played, OLD)
    hide(db, OLD, "mia", "a bot?")  # withholds the open boards' places…
    hidden = state(db, played, OLD)

    renamed = rename(db, "RUDEBOY", NEW, "mia", COOL_OFF, POLICY.check)

    assert (renamed.previous, renamed.player) == (OLD, NEW)
    assert state(db, played, NEW) == hidden  # place for place, the withheld ones still withheld
    assert hiding_of(db, NEW).reason == "a bot?" and hiding_of(db, OLD) is None
    assert naming(db, OLD) == []
    assert find_player(db, OLD) is None and find_player(db, NEW) == NEW
    assert player_for_token(db, tokens[OLD]) == NEW  # the token carries over
    assert db.redis.zscore(keys.following(NEW), OTHER) and db.redis.zscore(keys.following(OTHER), NEW)
    assert db.redis.hgetall(keys.streak(NEW))["best"] == "5"
    cup = load_tournament(db, "1")
    assert entry_of(db, cup, NEW).joined and entry_of(db, cup, NEW).used[0] == 1
    [week] = history(db, NEW)
    assert NEW in cohort(db, week.week, week.cohort).unplaced
    assert reports_filed(db, NEW, 0, 10)[1][0]["reporter"] == NEW
    assert reports_filed(db, OTHER, 0, 10)[1][0]["target"] == NEW
    assert resting_until(db, OLD) is not None
    with pytest.raises(NameResting):
        create_player(db, OLD)
    assert json.loads(db.redis.lindex(keys.moderation_log(), 0)) | {"at_ms": 0} == {
        "action": "rename", "player": NEW, "previous": OLD, "moderator": "mia", "at_ms": 0}

    unhide(db, NEW, "mia")  # …and given back whole, under the new name
    assert state(db, played, NEW) == before  # the other player's places too
    assert check(db, 3600) == []  # scoundrel check: the boards are what the runs give


def test_a_rename_moves_the_places_the_archive_holds(archived_store_db, boards):
    db = archived_store_db
    played, _ = boards
    before = state(db, played, OLD)
    assert cool_boards(db, now_ms() + 1).cooled > 0  # the cold boards of every kind that cools, in the archive
    rename(db, OLD, NEW, "mia", COOL_OFF, POLICY.check)
    assert db.archive.player_count(OLD) == 0
    with hot_boards(db, played):  # back in Redis
        assert state(db, played, NEW) == before


def test_a_rename_refuses_a_name_taken_resting_or_refused_and_changes_nothing(archived_store_db, boards):
    db = archived_store_db
    played, _ = boards
    rename(db, OTHER, "bobby", "mia", COOL_OFF, POLICY.check)
    before = state(db, played, OLD)
    with pytest.raises(NameTaken):
        rename(db, OLD, "BOBBY", "mia", COOL_OFF, POLICY.check)
    with pytest.raises(NameNotAllowed):
        rename(db, OLD, "Vi11ain", "mia", COOL_OFF, POLICY.check)
    with pytest.raises(NameResting):
        rename(db, OLD, "Bob", "mia", COOL_OFF, POLICY.check)  # resting, in any case
    assert state(db, played, OLD) == before and find_player(db, OLD) == OLD
    assert rename(db, "nobody", NEW, "mia", COOL_OFF, POLICY.check) is None


def test_without_a_name_the_next_free_player_number_is_given(archived_store_db, boards):
    db = archived_store_db
    create_player(db, "player-1")  # taken by someone: skipped
    assert rename(db, OLD, None, "mia", COOL_OFF, POLICY.check).player == "player-2"
    assert rename(db, OTHER, None, "mia", COOL_OFF, POLICY.check).player == "player-3"


def test_a_change_of_case_alone_keeps_the_name_registrable_by_no_one_else(archived_store_db, boards):
    db = archived_store_db
    played, _ = boards
    before = state(db, played, OLD)
    assert rename(db, OLD, "RudeBoy", "mia", COOL_OFF, POLICY.check).player == "RudeBoy"
    assert find_player(db, "rudeboy") == "RudeBoy" and state(db, played, "RudeBoy") == before
    assert resting_until(db, OLD) is None  # the same name: it rests not, it is held


def test_a_rename_stopped_before_its_archive_share_is_finished_by_asking_again(archived_store_db, boards):
    db = archived_store_db
    cool_boards(db, now_ms() + 1)
    db.archive.rename_player = lambda old, new: (_ for _ in ()).throw(OSError("the archive is away"))
    with pytest.raises(OSError):
        rename(db, OLD, NEW, "mia", COOL_OFF, POLICY.check)
    assert unfinished(db, OLD.upper()).player == NEW and find_player(db, NEW) == NEW
    del db.archive.rename_player
    assert rename(db, OLD, "someone-else", "mia", COOL_OFF, POLICY.check).player == NEW  # finished as begun
    assert unfinished(db, OLD) is None and db.archive.player_count(OLD) == 0


def test_a_renamed_player_keeps_their_public_log_pseudonym(archived_store_db, boards):
    """The log's pseudonym is the player's secret applied to no name: a rename moves the secret, so the
    hiding's ``withhold`` leaf, written under the old name, and the ``show`` after the rename name one
    pseudonym, and ``scoundrel log verify`` counts the player's runs before and after as one player's."""
    db = archived_store_db
    before = pseudonyms(db, [OLD])[OLD]
    hide(db, OLD, "mia", "a bot?")
    rename(db, OLD, NEW, "mia", COOL_OFF, POLICY.check)
    unhide(db, NEW, "mia")

    leaves = [json.loads(text) for text in db.redis.lrange(keys.log_leaves(), 0, -1)]
    assert [(leaf["kind"], leaf["player"]) for leaf in leaves if leaf["kind"] in (WITHHOLD, SHOW)] == [
        (WITHHOLD, before), (SHOW, before)]
    assert pseudonyms(db, [NEW])[NEW] == before


def test_a_renamed_players_ban_follows_them_and_ends_under_their_new_name(archived_store_db, boards):
    """A ban is a key of its player's and a place in the list of bans by their end: both move with the name,
    so the new name is refused and the sweep lifts the ban under it."""
    db = archived_store_db
    until = now_ms() + 60_000
    banned = ban(db, OLD, "mia", "cheating", until_ms=until)
    rename(db, OLD, NEW, "mia", COOL_OFF, POLICY.check)

    assert ban_of(db, OLD) is None and ban_of(db, NEW) == banned
    assert db.redis.zrange(keys.banned(), 0, -1, withscores=True) == [(NEW, until)]
    ban(db, NEW, "mia", "cheating", until_ms=now_ms() - 1)  # its end come
    assert lift_ended_bans(db) == [NEW] and not db.redis.exists(keys.ban(NEW))
