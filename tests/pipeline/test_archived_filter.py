"""A single submission asks the archive only where the archived-runs filter says it may hold the run.

cat plays two games on one seed, and both leave for the archive (a board
place keeps no run in Redis). Sent again, an archived game is the run cat
has (200), found through the filter; a new game is stored without an
archive lookup. A Redis whose filter is not whole yet (runs archived by an
older release) asks the archive for every new submission until
``make_whole`` notes what it holds; one an older release kept with its
whole mark in a key of its own has it moved into the filter by
``scoundrel migrate``.
"""

import pytest

from store import Submission, accept_runs
from store.base import keys
from store.operations.migration import migrate
from store.runs.archived_filter import WHOLE, make_whole
from tests.archive.conftest import archive_now
from tests.audit.conftest import submit_final
from tests.support.games import games_by_score, legal_games


@pytest.fixture(scope="module")
def cat(stack):
    _, token = stack.register("cat")
    low, high = games_by_score("filter-1", 2)
    runs = [submit_final(stack, token, game) for game in (low, high)]
    archive_now(stack)
    db = stack.database()
    assert list(db.archive.load([runs[0]["id"]])) == [runs[0]["id"]]
    yield {"token": token, "low": low, "low_id": runs[0]["id"], "db": db}
    db.close()


@pytest.fixture()
def lookups(cat, monkeypatch):
    """The run ids each archive lookup of ``cat['db']`` asked for."""
    asked: list[list[str]] = []
    load = cat["db"].archive.load

    def counted(run_ids):
        asked.append(list(run_ids))
        return load(run_ids)

    monkeypatch.setattr(cat["db"].archive, "load", counted)
    return asked


def _submit(db, game: dict):
    [(run, created)] = accept_runs(db, "cat", [Submission(game["seed"], game["variant"], game["moves"])])
    return run, created


def test_an_archived_game_sent_again_is_the_run_the_archive_holds(stack, cat):
    again = stack.submit(cat["token"], cat["low"])
    assert again.status_code == 200 and again.json()["id"] == cat["low_id"]


def test_a_new_game_asks_no_archive_and_an_archived_one_asks_once(cat, lookups):
    run, created = _submit(cat["db"], legal_games(1)[0])
    assert created and lookups == []
    run, created = _submit(cat["db"], cat["low"])
    assert (run.id, created) == (cat["low_id"], False) and lookups == [[cat["low_id"]]]


def test_until_the_filter_is_whole_every_new_game_asks_the_archive(stack, cat, lookups):
    db = cat["db"]
    db.redis.delete(keys.archived_filter())  # as a store with no filter yet has it
    run, created = _submit(db, legal_games(2)[1])
    assert created and lookups == [[run.id]]
    assert stack.submit(cat["token"], cat["low"]).json()["id"] == cat["low_id"]
    assert make_whole(db) == 2 and make_whole(db) == 0  # cat's two archived runs, noted once
    lookups.clear()
    run, created = _submit(db, legal_games(3)[2])
    assert created and lookups == []
    assert _submit(db, cat["low"])[0].id == cat["low_id"]


def _old_filter(db) -> None:
    """The filter as an older release kept it: the same bits for the runs, its whole mark a key of its own."""
    db.redis.setbit(keys.archived_filter(), WHOLE, 0)
    db.redis.set(keys.old_archived_filter_whole(), "1")


def test_migrate_moves_the_whole_mark_of_an_older_filter_into_the_filter(cat, lookups):
    db = cat["db"]
    _old_filter(db)
    run, created = _submit(db, legal_games(5)[4])
    assert created and lookups == [[run.id]]  # not whole today: the archive is asked
    assert migrate(db, apply=False).filter_marks == 1 and db.redis.exists(keys.old_archived_filter_whole())
    tally = migrate(db, apply=True)
    assert tally.filter_marks == 1 and not db.redis.exists(keys.old_archived_filter_whole())
    assert db.redis.getbit(keys.archived_filter(), WHOLE) == 1
    lookups.clear()
    run, created = _submit(db, legal_games(6)[5])
    assert created and lookups == []
    assert _submit(db, cat["low"])[0].id == cat["low_id"] and lookups == [[cat["low_id"]]]
    assert migrate(db, apply=False).filter_marks == 0
