"""Issue 44: a verdict's wait never depends on par searches. A worker takes no search while a run waits
(``worker.runner.behind_runs``), and a search in progress gives way as soon as one does (``worker.par``):
it keeps what it proved and queues itself again, first, with the budget it has left. The pages search
nothing: the workers' sweep queues each sealed daily's search once its day is over."""

import threading
from datetime import timedelta

import pytest

from domain.daily_seed import sealed_seed, today
from domain.par import quick_par
from settings import Settings
from store.base import keys
from store.par.results import begin_search, read_par
from store.queue.queues import enqueue_par_search, enqueue_verification, par_queue, verify_queue, webhook_queue
from tests.support.stores import emptied_database
from worker import process
from worker.par import queue_sealed_search, search_par
from worker.runner import behind_runs

BUDGET = 30.0  # seconds of a search here: far more than a search that gives way runs


@pytest.fixture
def db(redis_url, monkeypatch):
    """The throwaway Redis, emptied, as the worker's jobs reach it (``worker.process``)."""
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("SCOUNDREL_PAR_SECONDS", str(BUDGET))
    process.settings.cache_clear()
    process.database.cache_clear()
    with emptied_database(redis_url) as database:
        yield database
    process.settings.cache_clear()
    process.database.cache_clear()


def _take(db):
    """What a worker would take now: ``(job, queue)``, or None."""
    queues = [verify_queue(db), webhook_queue(db), par_queue(db)]
    return behind_runs(db).dequeue_any(queues, None, connection=db.queue_redis)


def test_a_worker_takes_no_par_search_while_a_run_waits_in_the_intake(db):
    enqueue_par_search(db, "par-3", "classic", BUDGET)
    db.redis.rpush(keys.intake(), "a-run")  # a single submission, its job not made yet
    assert _take(db) is None
    db.redis.delete(keys.intake())
    job, queue = _take(db)
    assert (job.func_name, queue.name) == ("worker.par.search_par", par_queue(db).name)


def test_a_search_in_progress_gives_way_to_a_run_and_resumes_first_with_the_budget_left(db):
    begin_search(db, "par-3", "classic", BUDGET)  # as the request that queued it marked it
    enqueue_par_search(db, "par-5", "classic", BUDGET)  # another search, queued behind
    searching = threading.Thread(target=search_par, args=("par-3", "classic"))
    searching.start()
    verification = enqueue_verification(db, ["a-run"])  # a run waits for its verdict
    searching.join(timeout=BUDGET / 3)
    assert not searching.is_alive(), "the search went on while a run waited"
    job, queue = _take(db)
    assert (job.id, queue.name) == (verification.id, verify_queue(db).name)  # the run's verdict first
    resumed, behind = par_queue(db).get_jobs()
    seed, variant, left = resumed.args
    assert (seed, variant, behind.args[0]) == ("par-3", "classic", "par-5")
    assert BUDGET / 2 < left < BUDGET
    kept = read_par(db, "par-3", "classic")
    assert kept.found is not None and not kept.searched  # what it proved is kept, the search not done
    assert kept.searching  # and marked: a request queues no second search meanwhile


def test_a_search_no_run_interrupts_ends_with_its_whole_budget_spent(db):
    search_par("par-7", "hard", 5.0)  # hard's search ends exact at once
    kept = read_par(db, "par-7", "hard")
    assert kept.found is not None and kept.found.exact and kept.searched and not kept.searching
    assert par_queue(db).count == 0


def test_a_search_cut_short_keeps_at_least_the_line_a_requests_own_search_finds(db):
    search_par("par-3", "classic", 0.0001)  # ended by its clock after a few positions, as a starved worker's
    kept = read_par(db, "par-3", "classic").found
    quick = quick_par("par-3", "classic")
    assert kept is not None and not kept.exact and kept.score >= quick.score  # -138 without the quick line
    assert kept.upper <= quick.upper


def test_the_sweep_queues_the_search_of_yesterdays_sealed_par_once(db, redis_url):
    config = Settings(redis_url=redis_url, sealed_secret="sealed-for-a-test", par_seconds=0.5)
    assert queue_sealed_search(db, config)
    [job] = par_queue(db).get_jobs()
    assert job.args == (sealed_seed(config.sealed_secret, today() - timedelta(days=1)), "classic", 0.5)
    assert not queue_sealed_search(db, config)  # under way: not again
    job.perform()  # as a worker runs it (taking it off the queue is the worker's)
    assert not queue_sealed_search(db, config)  # kept whole: not again
    assert par_queue(db).get_job_ids() == [job.id]
