"""The flags' store (``store.moderation.flags``) in a throwaway Redis: raised once, bounded, and the address
players of a day forgotten a week after it.

The HTTP side (raised by the real workers, listed and dismissed by moderators) is
``tests/audit/test_flags.py``; these hold the store's promises where a stack would make them slow
to reach: the cap on how many flags Redis keeps, and what each raise leaves behind.
"""

import itertools
from datetime import UTC, datetime

import pytest

from cli.redis_server import RedisServer
from domain.run import DEALT, Run
from store import Database
from store.base import keys
from store.moderation import flags as store_flags
from store.moderation.flags import (
    FAST_MOVES,
    STEADY_RHYTHM,
    Finding,
    every_index,
    flag_page,
    forget_address_at,
    note_sealed_start,
    raise_run_flags,
    run_flag_id,
    run_flags,
)
from tests.support.stores import empty
from worker.registry import JOBS


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = RedisServer(tmp_path_factory.mktemp("flags"), persistent=False).start()
    yield running
    running.stop()


@pytest.fixture
def db(server, monkeypatch):
    """An empty store, whose clock ticks a millisecond at every raise (so "newest" is exact)."""
    clock = itertools.count(1_800_000_000_000)
    monkeypatch.setattr(store_flags, "now_ms", lambda: next(clock))
    database = empty(Database(server.url, JOBS))
    yield database
    database.close()


def run(number: int) -> Run:
    return Run(f"run{number:013d}", f"p{number}", "classic", "s", "verified", 0, number, DEALT)


FAST = Finding(FAST_MOVES, {"median_ms": 4})


def test_a_run_s_flag_is_raised_once_however_often_it_is_raised(db):
    assert raise_run_flags(db, run(1), [FAST, Finding(STEADY_RHYTHM, {"spread": 0})], kept=100) == [True, True]
    assert raise_run_flags(db, run(1), [FAST], kept=100) == [False]
    found = run_flags(db, run(1).id)
    assert {flag.reason for flag in found} == {STEADY_RHYTHM, FAST_MOVES} and len(found) == 2
    assert {flag.id for flag in found} == {run_flag_id(reason, run(1).id) for reason in (STEADY_RHYTHM, FAST_MOVES)}
    assert flag_page(db, None, None, 0, 10)[0] == 2
    assert flag_page(db, FAST_MOVES, "open", 0, 10)[0] == 1
    assert flag_page(db, FAST_MOVES, "dismissed", 0, 10)[0] == 0


def test_past_the_cap_the_oldest_flags_are_forgotten_everywhere(db):
    for number in range(5):
        raise_run_flags(db, run(number), [FAST], kept=3)
    total, kept = flag_page(db, None, None, 0, 10)
    assert total == 3 and [flag.run_id for flag in kept] == [run(n).id for n in (4, 3, 2)]
    for number in (0, 1):
        forgotten = run_flag_id(FAST_MOVES, run(number).id)
        assert not db.redis.exists(keys.flag(forgotten), keys.run_flags(run(number).id))
        assert not any(db.redis.zscore(index, forgotten) for index in every_index())
    assert db.redis.zcard(keys.flags(FAST_MOVES, "open")) == 3


def test_the_second_player_from_an_address_raises_its_flag_and_the_next_join_it(db):
    day = "2026-12-01"
    assert note_sealed_start(db, day, "h1", "ada", "run-ada", kept=100) is None
    assert note_sealed_start(db, day, "h2", "bob", "run-bob", kept=100) is None  # another address
    flag_id = note_sealed_start(db, day, "h1", "cyd", "run-cyd", kept=100)
    assert flag_id is not None
    assert note_sealed_start(db, day, "h1", "cyd", "run-cyd", kept=100) == flag_id  # noted twice: once
    assert note_sealed_start(db, day, "h1", "dee", "run-dee", kept=100) == flag_id
    [flag] = flag_page(db, None, None, 0, 10)[1]
    assert (flag.id, flag.players, flag.run_ids, flag.detail) == (
        flag_id, ["ada", "cyd", "dee"], ["run-ada", "run-cyd", "run-dee"], {"date": day})
    assert flag.run_id is None
    assert [found.id for found in run_flags(db, "run-dee")] == [flag_id]
    assert note_sealed_start(db, "2026-12-02", "h1", "eve", "run-eve", kept=100) is None  # a day of its own
    assert db.redis.expiretime(keys.flag_address(day, "h1")) == forget_address_at(day)


def test_an_address_is_forgotten_a_week_after_its_day_ends():
    assert forget_address_at("2026-12-01") == datetime(2026, 12, 9, tzinfo=UTC).timestamp()
