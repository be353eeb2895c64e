"""The intake's take writes each run's job without reading it first (``store.queue.intake``): so the
intake must only ever hold runs that exist and wait. A player's erasure takes their waiting runs out of
it in the step that deletes them; a dispatcher then takes the others and nothing is written for the
erased."""

from cli.migrate import summary
from store import Submission, create_player, load_runs, submit_run
from store.accounts import erasure as erasing
from store.base import keys
from store.base.service_mark import mark_service
from store.operations.migration import migrate
from store.queue.intake import IN_INTAKE, dispatch, intake_depth
from store.queue.queues import verify_queue
from tests.support.games import legal_games


def waiting(db, player: str, games: tuple[dict, ...]) -> list[str]:
    return [submit_run(db, player, Submission(game["seed"], game["variant"], game["moves"]))[0].id
            for game in games]


def test_a_dispatch_takes_the_intakes_head_for_one_job_and_each_run_names_it(archived_store_db):
    db = archived_store_db
    run_ids = waiting(db, "ada", legal_games(3))
    assert {run.job for run in load_runs(db, run_ids)} == {IN_INTAKE}

    assert dispatch(db, most=2) == 2
    [job] = verify_queue(db).get_jobs()
    assert list(job.args) == run_ids[:2] and intake_depth(db) == 1
    assert [run.job for run in load_runs(db, run_ids)] == [job.id, job.id, IN_INTAKE]


def test_an_erased_players_waiting_runs_leave_the_intake_and_no_take_writes_them(archived_store_db):
    db = archived_store_db
    mark_service(db)
    create_player(db, "zoltan")
    games = legal_games(4)
    kept = waiting(db, "ada", games[:1])
    erased = waiting(db, "zoltan", games[1:3])
    kept += waiting(db, "ada", games[3:])
    assert db.redis.lrange(keys.intake(), 0, -1) == [kept[0], *erased, kept[1]]

    erasing.erase(db, erasing.begin_erasure(db, "zoltan"), ("moderator", "mia"), 60)
    assert db.redis.lrange(keys.intake(), 0, -1) == kept

    assert dispatch(db) == 2
    assert not any(db.redis.exists(keys.run(run_id)) for run_id in erased)  # no hash made by the take
    [job] = verify_queue(db).get_jobs()
    assert list(job.args) == kept and {run.job for run in load_runs(db, kept)} == {job.id}


def test_migrate_takes_out_of_the_intake_the_runs_an_older_release_erased_while_they_waited(archived_store_db):
    """An older release's erasure left its player's waiting runs in the intake (its take skipped them):
    ``scoundrel migrate`` counts them, and with --apply takes them out, before a take would write them."""
    db = archived_store_db
    run_ids = waiting(db, "ada", legal_games(3))
    db.redis.delete(keys.run(run_ids[1]))  # as the older release's erasure did, the intake left as it was

    assert migrate(db, apply=False).gone_waiting == 1
    assert db.redis.llen(keys.intake()) == 3
    assert "1 run erased while waiting in the intake" in summary(migrate(db, apply=True), True)
    assert db.redis.lrange(keys.intake(), 0, -1) == [run_ids[0], run_ids[2]]
    assert not migrate(db, apply=False).anything
