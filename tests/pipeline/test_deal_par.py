"""Issue 35: ``GET /v1/seeds/<seed>/par`` answers at once with what is proven, queues one worker's search
per deal and variant, and shows the search's result once kept; through Flask's test client on a
throwaway Redis, the queued job run as a worker runs it."""

import pytest
from rq.job import Job

from domain.par import quick_par
from scoundrel.par import par
from service.app import create_app
from settings import Settings
from store import Database
from store.queue.queues import par_queue
from worker import process
from worker.registry import JOBS


@pytest.fixture
def client(redis_url, tmp_path, monkeypatch):
    settings = Settings(redis_url=redis_url, archive_url=f"sqlite:///{tmp_path}/archive.sqlite3", par_seconds=20)
    db = Database.from_settings(settings, JOBS)
    db.redis.flushall()
    # the worker's own settings, read from the environment as a worker process reads them
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("SCOUNDREL_PAR_SECONDS", "20")
    process.settings.cache_clear()
    process.database.cache_clear()
    yield create_app(settings).test_client(), db
    process.settings.cache_clear()
    process.database.cache_clear()
    db.close()


def queued(db: Database) -> list[Job]:
    return par_queue(db).get_jobs()


def test_the_first_request_shows_a_quick_interval_and_queues_one_search(client):
    http, db = client
    first = http.get("/v1/seeds/par-3/par?variant=classic")
    assert first.status_code == 200
    answer = first.get_json()
    quick = quick_par("par-3", "classic")
    assert answer == {"seed": "par-3", "variant": "classic", "par": quick.score, "exact": False,
                      "upper": quick.upper, "line": list(quick.line), "searching": True}
    again = http.get("/v1/seeds/par-3/par?variant=classic").get_json()
    assert again == answer  # kept: a read, and no second search
    assert [(job.func_name, job.args) for job in queued(db)] == [("worker.par.search_par", ("par-3", "classic"))]
    http.get("/v1/seeds/par-3/par?variant=easy")
    assert len(queued(db)) == 2  # each variant is a deal of its own


def test_the_workers_search_is_shown_once_kept_and_never_queued_again(client):
    http, db = client
    http.get("/v1/seeds/par-7/par?variant=hard")
    [job] = queued(db)
    job.perform()  # as the worker runs it
    exact = par("par-7", "hard")
    answer = http.get("/v1/seeds/par-7/par?variant=hard").get_json()
    assert (answer["par"], answer["exact"], answer["upper"], answer["searching"]) == (exact.score, True,
                                                                                     exact.score, False)
    assert answer["line"] == list(exact.line)
    par_queue(db).empty()
    http.get("/v1/seeds/par-7/par?variant=hard")
    assert queued(db) == []


@pytest.mark.parametrize("path, field", [("/v1/seeds/par-1/par?variant=nightmare", "variant"),
                                         ("/v1/seeds/no%20spaces/par", None)])
def test_bad_addresses_are_refused_clearly(client, path, field):
    http, db = client
    answer = http.get(path)
    assert answer.status_code == (422 if field else 404)
    if field:
        assert field in answer.get_json()["errors"]
    assert queued(db) == []
