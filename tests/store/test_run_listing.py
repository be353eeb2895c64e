"""A run Redis holds is always in its player's run list: the accept script's one write there
(``ZADD NX``) is also its test of whether Redis holds the run already (``lua/_new_run.lua``).

A game sent again finds its run through that list, and changes nothing of it; a run its list does
not name (which no script leaves) is reported by ``scoundrel check``.
"""

from store.base import keys
from store.operations.consistency import check
from store.runs.accepting import Submission, accept_runs
from tests.support.games import legal_games


def _accept(db, game: dict):
    [(run, created)] = accept_runs(db, "ann", [Submission(game["seed"], game["variant"], game["moves"])])
    return run, created


def test_a_game_sent_again_is_its_run_and_changes_nothing_of_it(archived_store_db):
    db = archived_store_db
    game = legal_games(1)[0]
    run, created = _accept(db, game)
    stored = db.redis.hgetall(keys.run(run.id))
    again, created_again = _accept(db, game)
    assert created and not created_again and again.id == run.id
    assert db.redis.hgetall(keys.run(run.id)) == stored
    assert db.redis.zrange(keys.player_runs("ann"), 0, -1) == [run.id]
    assert check(db, 3600) == []


def test_check_reports_a_run_its_player_s_run_list_does_not_name(archived_store_db):
    db = archived_store_db
    run, _ = _accept(db, legal_games(2)[1])
    db.redis.zrem(keys.player_runs("ann"), run.id)
    assert f"run {run.id} is in Redis but not in its player's run list" in " ".join(check(db, 3600))
