"""Issue 14: the board, player and daily pages, read as a browser with JavaScript off reads them.

The service (in the test process) holds 55 open runs by 55 players, plus ada's
open daily run, a win and a rejected run, bob's dealt game and sealed daily
game, and cyd's 20 dealt games (a ladder place). Every expectation is computed
from the JSON API, which the pages must agree with. The pages are
server-rendered: their HTML is read here as rendered (``tests.support.html``);
their look at 1280 and 375 px, axe-core, their scripts and the console are
``test_in_chromium.py``'s.
"""

import math
import random
import re
from datetime import date, timedelta

import pytest

import scoundrel
from domain.daily_seed import sealed_seed
from store.base.packing import LADDER_GAMES
from store.games.day_secrets import sealed_secret
from tests.games.table import Table
from tests.support.games import accept_dealt, games_by_score, legal_games, moderator_token, winning_moves
from tests.support.html import Rendered, rendered
from tests.support.in_process import stack_of
from tests.support.service_http import SEARCHED_PAR
from tests.support.stores import NO_REDIS_URL

OPEN_PLAYERS = 55
WON_SEED = "view-1"


@pytest.fixture(scope="module")
def stack(request):
    """Par searches long enough that the par kept is the worker's search's (``SEARCHED_PAR``), not a request's
    quick line: a past day's sealed daily's page shows it."""
    yield from stack_of(request, env=SEARCHED_PAR)


@pytest.fixture(scope="module")
def scene(stack):
    return board_scene(stack)


def board_scene(stack) -> dict:
    """The runs and games the board pages show (the module's docstring); ``test_in_chromium.py`` looks at the
    pages of the same."""
    daily = stack.get("/v1/daily").json()
    tokens = {f"pl{index:02d}": stack.register(f"pl{index:02d}")[1] for index in range(OPEN_PLAYERS)}
    pending = [stack.submit(tokens[name], game).json()["id"]
               for name, game in zip(tokens, legal_games(OPEN_PLAYERS), strict=True)]
    _, ada = stack.register("ada")
    won = {"seed": WON_SEED, "moves": winning_moves(WON_SEED)}
    rejected = {"seed": WON_SEED, "moves": ["flee", "flee"]}
    on_the_daily = games_by_score(daily["seed"], 1)[0]
    pending += [stack.submit(ada, game).json()["id"] for game in (won, rejected, on_the_daily)]
    runs = {run_id: stack.wait_final(run_id) for run_id in pending}
    stack.register("bob")
    bob_dealt = accept_dealt(stack, "bob", legal_games(2)[1])
    bob_sealed = accept_dealt(stack, "bob", games_by_score("sealed-page", 1)[0], challenge="daily",
                              date=daily["date"])
    past = (date.fromisoformat(daily["date"]) - timedelta(days=2)).isoformat()
    accept_dealt(stack, "bob", games_by_score("sealed-page", 2)[-1], challenge="daily", date=past)
    _, cyd = stack.register("cyd")
    for game in legal_games(LADDER_GAMES):
        accept_dealt(stack, "cyd", game)
    tournament = stack.post("/v1/tournaments", headers={"Authorization": f"Bearer {moderator_token(stack)}"}, json={
        "title": "Page gauntlet", "variant": "hard", "starts_at": "2026-01-01T00:00:00Z",
        "ends_at": "2099-01-01T00:00:00Z", "deals": 2, "max_attempts": 3}).json()["id"]
    for name, seed in (("tia", 1), ("tom", 2)):  # hard dealt games: on no board the other tests read
        token = stack.register(name)[1]
        table = Table(stack, token, random.Random(seed))
        table.start(tournament=tournament)
        stack.wait_final(table.play_to_the_end()["run_id"])
    return {"daily": daily, "runs": runs, "bob_dealt": bob_dealt, "bob_sealed": bob_sealed, "ada": ada, "cyd": cyd,
            "tournament": tournament}


def everyone(stack, path: str) -> list[dict]:
    """Every entry of an API board (the boards here fit in one page of 100)."""
    page = stack.get(f"{path}{'&' if '?' in path else '?'}limit=100").json()
    assert page["total"] <= 100
    return page["entries"]


def number(value: float) -> str:
    return f"{value:,.0f}".replace("-", "−") if float(value).is_integer() else \
        f"{value:,.2f}".rstrip("0").replace("-", "−")


def percent(value: float) -> str:
    return f"{number(value)}\xa0%"


def bar_counts(page: Rendered, chart: str = "svg.histogram") -> list[int]:
    titles = [title.get_text() for title in page.all(f"{chart} rect.bar title")]
    return [int(re.search(r": ([\d,]+) player", title)[1].replace(",", "")) for title in titles]


def test_a_board_page_lists_the_places_as_the_api_does_with_links(stack, scene):
    entries = everyone(stack, "/v1/leaderboards/classic")
    page = rendered(stack, "/boards/classic")
    assert page.text("h1") == "Classic: open runs"
    shown = page.rows()
    assert len(shown) == 50  # a page of the board
    assert [row[:5] for row in shown] == [[str(entry["rank"]), entry["player"], number(entry["score"]),
                                           percent(entry["top_percent"]), entry["run_id"]] for entry in entries[:50]]
    tied_first = {entry["score"]: entry for entry in reversed(entries)}  # each score's best-ranked place
    for entry in entries:  # issue 34: a tie shares its best place's figures; the JSON's own count agrees
        better = sum(other["score"] > entry["score"] for other in entries)
        assert entry["total"] == len(entries) and entry["top_percent"] == tied_first[entry["score"]]["top_percent"]
        assert entry["percentile"] == (len(entries) - better) * 10_000 // len(entries) / 100
    first = page.one("table.places tbody tr").select("a")
    assert first[0]["href"] == f"/players/{entries[0]['player']}"
    assert first[1]["href"] == f"/runs/{entries[0]['run_id']}"


def test_the_next_page_holds_the_places_after_the_first_fifty(stack, scene):
    entries = everyone(stack, "/v1/leaderboards/classic")
    following = rendered(stack, "/boards/classic").attribute("a[rel=next]", "href")
    assert following == "/boards/classic?page=2"
    page = rendered(stack, following)
    assert [row[1] for row in page.rows()] == [entry["player"] for entry in entries[50:]]
    assert page.count("a[rel=next]") == 0 and page.count("a[rel=prev]") == 1


def test_the_histogram_counts_every_score_on_the_board_and_marks_the_median(stack, scene):
    scores = [entry["score"] for entry in everyone(stack, "/v1/leaderboards/classic")]
    page = rendered(stack, "/boards/classic")
    assert sum(bar_counts(page)) == len(scores)
    median = sorted(scores, reverse=True)[(len(scores) - 1) // 2]
    assert page.text_content("svg.histogram text.marker-median") == f"median {number(median)}"
    assert f"{len(scores)} players" in page.text_content("svg.histogram desc")


def test_a_players_line_says_how_many_they_beat(stack, scene):
    entries = everyone(stack, "/v1/leaderboards/classic")
    ada = next(entry for entry in entries if entry["player"] == "ada")
    below = sum(entry["score"] < ada["score"] for entry in entries)
    form = rendered(stack, "/boards/classic").one("form.lookup")  # sent as a GET of this page, ?player=
    assert form.get("method", "get").lower() == "get" and form.get("action", "") in ("", "/boards/classic")
    assert form.select_one("input[name=player]") is not None and form.select_one("button") is not None
    static = rendered(stack, "/boards/classic?player=ADA")  # any case finds the name
    line = static.text("#you").replace("\xa0", " ")
    assert f"ada scored {number(ada['score'])}: top {number(ada['top_percent'])} % of {len(entries)} players, " \
           f"better than {below * 100 // len(entries)} % of them (rank {ada['rank']}" in line
    # the server knows not who reads: the marker names the player looked up
    assert static.text_content("svg.histogram text.marker-mine") == f"ada {number(ada['score'])}"
    page_of_ada = math.ceil(ada["rank"] / 50)
    assert [link["href"] for link in static.all("#you a") if "on the board" in link.get_text()] == \
        [f"/boards/classic?page={page_of_ada}&player=ada#place-{ada['rank']}"]


def test_a_player_off_the_board_or_unknown_is_told_so(stack, scene):
    assert rendered(stack, "/boards/dealt-classic?player=ada").text("#you") == "ada has no place on this board."
    assert rendered(stack, "/boards/classic?player=nobody-here").text("#you") == "There is no player of that name."


def test_the_dealt_board_and_the_ladder(stack, scene):
    assert [row[1] for row in rendered(stack, "/boards/dealt-classic").rows()] == \
        [entry["player"] for entry in everyone(stack, "/v1/leaderboards/dealt/classic")]
    ladder = everyone(stack, "/v1/leaderboards/dealt/classic/ladder")
    assert [entry["player"] for entry in ladder] == ["cyd"]
    static = rendered(stack, "/boards/dealt-classic-ladder?player=cyd")
    assert static.rows()[0][:4] == ["1", "cyd", number(ladder[0]["mean"]), str(ladder[0]["games"])]
    assert f"cyd has a mean of {number(ladder[0]['mean'])}: the only one on this board so far" in \
        static.text("#you").replace("\xa0", " ")
    assert bar_counts(static) == [1]


def test_a_seed_board_page(stack, scene):
    entries = everyone(stack, f"/v1/seeds/{WON_SEED}/leaderboard?variant=classic")
    static = rendered(stack, f"/boards/seed/{WON_SEED}")
    assert [row[1] for row in static.rows()] == [entry["player"] for entry in entries] == ["ada"]
    assert static.text("h1") == f"Seed {WON_SEED}: classic"


def test_the_player_page_shows_places_runs_win_rate_and_history(stack, scene):
    runs = stack.get("/v1/players/ada/runs?limit=100").json()["runs"]
    verified = [run for run in runs if run["status"] == "verified"]
    won = sum(run["outcome"] == "won" for run in verified)
    static = rendered(stack, "/players/Ada")
    assert static.text("h1") == "ada"
    assert f"Won {won} of {len(verified)} verified runs: a win rate of {round(won * 100 / len(verified), 1)} %" \
        in static.text(".summary").replace("\xa0", " ")
    places = {row[0]: row[1:] for row in static.rows()}
    classic = stack.get("/v1/leaderboards/classic/players/ada?around=0").json()
    total = stack.get("/v1/leaderboards/classic?limit=1").json()["total"]
    assert places["Classic: open runs"] == [str(classic["rank"]), str(total), percent(classic["top_percent"]),
                                            number(classic["score"])]
    assert classic["total"] == total
    daily = stack.get(f"/v1/daily/{scene['daily']['date']}/leaderboard/players/ada?around=0")
    assert daily.status_code == 404 or places[f"Daily of {scene['daily']['date']}: open"][0] == "1"
    assert places[f"Seed {WON_SEED}: classic"][0] == "1"
    listed = [row.get_text() for row in static.all("table.runs tbody tr")]
    assert len(listed) == len(runs)
    assert any("rejected" in row and "flee_not_allowed" in row for row in listed)
    assert static.count(f"table.runs a[href='/runs/{runs[0]['id']}']") == 1
    assert static.count("svg.history circle") == len(verified)
    assert static.count("svg.history circle.point-won") == won


def test_the_player_page_shows_dealt_and_ladder_places(stack, scene):
    places = {row[0]: row[1:] for row in rendered(stack, "/players/bob").rows()}
    assert "Classic: dealt games" in places and f"Daily of {scene['daily']['date']}: sealed" in places
    assert "Classic: ladder" in {row[0] for row in rendered(stack, "/players/cyd").rows()}


def test_the_daily_page_shows_both_boards_and_keeps_the_sealed_seed_until_the_day_is_over(stack, scene):
    day = scene["daily"]["date"]
    sealed = stack.get(f"/v1/daily/{day}/sealed").json()
    static = rendered(stack, "/daily?player=bob")
    assert static.text("h1") == f"Daily of {day}"
    text = static.text("main")
    assert scene["daily"]["seed"] in text and sealed["commitment"] in text
    assert "The seed and par are shown once the day is over" in text
    assert scene["bob_sealed"]["id"] in static.html
    line = static.text("#you-2").replace("\xa0", " ")
    assert "bob scored" in line and "the only one on this board so far" in line and "%" not in line
    db = stack.database()
    try:
        assert sealed_seed(sealed_secret(db), date.fromisoformat(day)) not in static.html
    finally:
        db.close()


def searched_par(stack, day: str) -> dict:
    """A revealed day's sealed daily once the worker's search of its par is kept (``searching`` false)."""
    return stack.until(lambda: not (sealed := stack.get(f"/v1/daily/{day}/sealed").json())["par"]["searching"]
                       and sealed, f"the par search of {day}")


def test_a_past_days_sealed_daily_shows_its_seed_its_par_and_who_reached_it(stack, scene):
    day = (date.fromisoformat(scene["daily"]["date"]) - timedelta(days=2)).isoformat()
    sealed = searched_par(stack, day)
    par = sealed["par"]
    assert sealed["seed"] is not None and par["par"] <= par["upper"] and par["exact"] == (par["par"] == par["upper"])
    assert scoundrel.replay(sealed["seed"], par["line"]).score == par["par"]  # the line reaches it
    bob = stack.get(f"/v1/daily/{day}/sealed/leaderboard/players/bob?around=0").json()["score"]
    text = rendered(stack, f"/daily/{day}").text("main").replace("\xa0", " ")
    assert f"Seed {sealed['seed']}; par {number(par['par'])} (" in text
    assert ("reached by bob" in text) == (bob >= par["par"])
    assert stack.get(f"/v1/daily/{scene['daily']['date']}/sealed").json()["par"] is None  # today's: hidden


def test_todays_daily_page_shows_yesterdays_par(stack, scene):
    yesterday = (date.fromisoformat(scene["daily"]["date"]) - timedelta(days=1)).isoformat()
    par = searched_par(stack, yesterday)["par"]
    line = rendered(stack, "/daily").text("p.yesterday").replace("\xa0", " ")
    assert line.startswith(f"Yesterday's sealed deal ({yesterday}): par {number(par['par'])} (")
    assert "reached by" not in line  # nobody played it


def test_the_leagues_page_shows_a_players_cohort_as_the_api_does(stack, scene):
    """Issue 34: bob's and cyd's classic dealt games this week put them in a Bronze cohort, as the worker
    verified them; the page lists it as the cohort's JSON does."""
    cyd = stack.get("/v1/leagues/current", headers={"Authorization": f"Bearer {scene['cyd']}"}).json()
    assert cyd["tier"] == "Bronze" and cyd["cohort"] is not None
    cohort = stack.get(f"/v1/leagues/{cyd['week']}/cohorts/{cyd['cohort']}").json()
    assert {entry["player"] for entry in cohort["entries"]} == {"bob", "cyd"}
    static = rendered(stack, "/leagues?player=cyd")
    assert static.text_content("#cohort-heading") == f"cyd: Bronze, cohort {cyd['cohort']}"
    assert static.rows("table.cohort tbody tr") == [[str(entry["rank"]), entry["player"], number(entry["score"]),
                                                     "stays"] for entry in cohort["entries"]]  # two: nobody moves
    # open runs only: not in the leagues
    assert "their first puts them in Bronze" in rendered(stack, "/leagues?player=pl00").text("main")


def test_the_tournament_pages_list_it_and_show_its_standings_as_the_api_does(stack, scene):
    """Issue 34: the tournaments page lists the running one; its page shows the rules, the time left, ada's
    attempts left and the standings the API gives."""
    tournament = scene["tournament"]
    assert rendered(stack, "/tournaments").text(f"a[href='/tournaments/{tournament}']") == "Page gauntlet"
    static = rendered(stack, f"/tournaments/{tournament}?player=tia")
    assert static.text_content("h1") == "Page gauntlet"
    assert static.text("#countdown").replace("\xa0", " ").startswith("Ends 2099-01-01 00:00 UTC")
    assert static.text("#attempts").replace("\xa0", " ") == "tia joined: 5 attempts left."
    standings = stack.get(f"/v1/tournaments/{tournament}/standings").json()
    assert [row[1:3] for row in static.rows()] == [[entry["player"], number(entry["score"])]
                                                   for entry in standings["entries"]]


CACHING = [
    ("/boards/classic", "public, max-age=5"),
    ("/boards/dealt-classic-ladder", "public, max-age=5"),
    ("/boards", "public, max-age=5"),
    ("/players/ada", "public, max-age=5"),
    ("/daily", "public, max-age=5"),
    ("/boards/classic?player=ada", "private, max-age=5"),
    ("/daily?player=ada", "private, max-age=5"),
]


@pytest.mark.parametrize(("path", "policy"), CACHING)
def test_pages_say_how_long_they_may_be_cached(stack, scene, path, policy):
    response = stack.get(path)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == policy
    policy_of_content = response.headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy_of_content and "unsafe-inline" not in policy_of_content
    assert response.headers["X-Frame-Options"] == "DENY"


def test_a_settled_days_pages_are_cached_for_an_hour(stack, scene):
    day = (date.fromisoformat(scene["daily"]["date"]) - timedelta(days=2)).isoformat()
    for path in (f"/daily/{day}", f"/boards/daily-{day}", f"/boards/sealed-{day}"):
        assert stack.get(path).headers["Cache-Control"] == "public, max-age=3600", path


REFUSALS = [
    ("/boards/nonsense", 404, None),
    ("/boards/daily-2999-01-01", 404, None),
    ("/boards/sealed-2026-02-30", 422, "board"),
    ("/boards/classic?page=0", 422, "page"),
    ("/boards/classic?page=x", 422, "page"),
    ("/boards/classic?player=a!", 422, "player"),
    ("/boards/seed/abc?variant=nightmare", 422, "variant"),
    ("/boards/seed/not%20a%20seed", 404, None),
    ("/players/nobody-at-all", 404, None),
    ("/daily/2999-01-01", 404, None),
    ("/daily/2026-13-01", 422, "day"),
]


@pytest.mark.parametrize(("path", "status", "field"), REFUSALS)
def test_bad_addresses_get_a_page_naming_what_is_wrong(stack, path, status, field):
    response = stack.get(path)
    assert response.status_code == status
    assert response.headers["Content-Type"].startswith("text/html")
    assert response.headers["Cache-Control"] == "no-store"
    if field:
        assert f"<dt><code>{field}</code></dt>" in response.text


def test_a_page_says_try_again_while_redis_is_away(tmp_path):
    from service.app import create_app
    from settings import Settings

    app = create_app(Settings(redis_url=NO_REDIS_URL,
                              archive_url=f"sqlite:///{tmp_path}/archive.sqlite3"))
    for path in ("/boards/classic", "/players/ada", "/daily"):
        response = app.test_client().get(path)
        assert response.status_code == 503, path
        assert response.mimetype == "text/html" and int(response.headers["Retry-After"]) >= 1
        assert "try again in a few seconds" in response.get_data(as_text=True)
        assert response.headers["Cache-Control"] == "no-store"
