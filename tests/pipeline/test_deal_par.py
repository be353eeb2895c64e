"""Issue 35: ``GET /v1/seeds/<seed>/par`` answers at once with what is proven, queues one worker's search
per deal and variant, and shows the search's result once kept; through Flask's test client on a
throwaway Redis, the queued job run as a worker runs it. Issue 44: a page queues no search, and an
address's requests queue a few at most (``SCOUNDREL_RATE_LIMIT_PAR``)."""

from datetime import timedelta

import pytest
from rq.job import Job

import scoundrel
from domain.daily_seed import sealed_seed, today
from domain.par import quick_par
from scoundrel.par import par
from service.app import create_app
from settings import Settings
from store import Database
from store.queue.queues import par_queue
from tests.support.stores import empty
from worker import process
from worker.registry import JOBS

SEALED_SECRET = "test-deal-par-secret"  # the sealed dailies' deals known to the test (a past day's chosen so)


@pytest.fixture
def app_of(redis_url, tmp_path, monkeypatch):
    """An API's test client and its store on the emptied Redis, with the settings given."""
    # the worker's own settings, read from the environment as a worker process reads them
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("SCOUNDREL_PAR_SECONDS", "20")
    process.settings.cache_clear()
    process.database.cache_clear()
    made = []

    def make(**options):
        settings = Settings(**{"redis_url": redis_url, "archive_url": f"sqlite:///{tmp_path}/archive.sqlite3",
                               "par_seconds": 20, **options})
        db = empty(Database.from_settings(settings, JOBS))
        made.append(db)
        return create_app(settings).test_client(), db

    yield make
    process.settings.cache_clear()
    process.database.cache_clear()
    for db in made:
        db.close()


@pytest.fixture
def client(app_of):
    return app_of()


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
    assert [(job.func_name, job.args) for job in queued(db)] == [("worker.par.search_par", ("par-3", "classic", 20.0))]
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


def test_a_past_days_page_queues_no_search_and_shows_the_par_kept(app_of):
    """A crawler following the pages' "previous day" links searches nothing: a page shows the par kept, or
    says none is yet; the API's request searches it, and the page shows it once kept. The day is one whose
    deal has no exact quick par, which would need no search (about 2 deals in 300 have one)."""
    http, db = app_of(par_seconds=0.5, sealed_secret=SEALED_SECRET)
    day = next(day for day in (today() - timedelta(days=back) for back in range(2, 60))
               if not quick_par(sealed_seed(SEALED_SECRET, day), scoundrel.CLASSIC).exact).isoformat()
    page = http.get(f"/daily/{day}")
    assert page.status_code == 200 and "its par not searched yet" in page.get_data(as_text=True)
    assert http.get("/daily").status_code == 200  # today's, with yesterday's sealed deal
    assert queued(db) == []
    sealed = http.get(f"/v1/daily/{day}/sealed").get_json()
    assert sealed["par"]["searching"]
    [job] = queued(db)
    job.perform()
    assert not http.get(f"/v1/daily/{day}/sealed").get_json()["par"]["searching"]
    page = http.get(f"/daily/{day}").get_data(as_text=True)
    assert "; par <strong>" in page and "not searched yet" not in page


def test_an_addresss_par_searches_answer_429_past_its_limit(app_of):
    """Only a request that queues a search counts: asking again for a par kept or searched is free."""
    http, db = app_of(rate_limit_par="2/minute")
    assert http.get("/v1/seeds/limit-1/par").status_code == 200
    for _ in range(3):
        assert http.get("/v1/seeds/limit-1/par").status_code == 200  # searching already: no second search
    assert http.get("/v1/seeds/limit-2/par").status_code == 200
    refused = http.get("/v1/seeds/limit-3/par")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert "par searches" in refused.get_json()["message"]
    assert [job.args[0] for job in queued(db)] == ["limit-1", "limit-2"]
    assert http.get("/daily").status_code == 200  # the rest answers
