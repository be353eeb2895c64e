"""A season rolling over, against the real service with its clock moved to just before the end of
a month that ends on a Sunday (Debian's ``faketime`` around the API and the worker): the ended
season's standings are kept as they were, frozen, the new season starts empty, and a game ended
after the boundary counts on the new one. Then the pages: the season's boards with the time left,
the past season's podium, and a player's season history, at 1280 and 375 px. The boundary is a
week's end too (issue 34): the week's league cohort moved its best up a tier, as computed here
from the runs.

Under libfaketime a thread's timed wait never returns, so the worker's periodic pass does not run
here: the API's reads close the ended season (as they must, before showing it), and the
worker's own pass is tested on a stack with the real clock (``test_the_workers_pass_closes_…``).
"""

import random
import time
from datetime import UTC, date, datetime

import pytest

from domain.seasons import Schedule, Season, season_at
from store.base import keys
from store.base.packing import LADDER_GAMES
from tests.games.table import Table
from tests.support.browser import WIDTHS, chromium, console_problems, screenshot, scrolls_sideways, serious_violations
from tests.support.stack import Stack, started_before

pytestmark = pytest.mark.slow

BEFORE_BOUNDARY = 12  # seconds from the stack's start to the service's next month, at first (``started_before``)
TRIES = 4  # stacks started at most, each with twice the time before the boundary of the one before


def monday_month_start(now_ms: int) -> float:
    """The first month's start after ``now_ms`` that is a Monday: a month's end and an ISO week's at once."""
    season = season_at(Schedule.MONTHLY, now_ms)
    while datetime.fromtimestamp(season.ends_ms / 1000, UTC).date().isoweekday() != date(2027, 2, 1).isoweekday():
        season = season.following()
    return season.ends_ms / 1000


def stack_before_boundary(root, seconds: int) -> tuple[Stack, Season]:
    """A stack whose clock starts ``seconds`` before a month's end that is a Monday's start, and the month."""
    now_ms = int(time.time() * 1000)
    boundary = monday_month_start(now_ms)
    offset = int(boundary - seconds - now_ms / 1000)
    return Stack(root, clock_offset=offset).start(), season_at(Schedule.MONTHLY, int(boundary * 1000) - 1)


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


def forfeited(stack, token: str) -> str:
    """A dealt game started and forfeited at once: its run id."""
    auth = {"Authorization": f"Bearer {token}"}
    game = stack.post("/v1/games", json={}, headers=auth).json()
    return stack.post(f"/v1/games/{game['id']}/forfeit", json={}, headers=auth).json()["run_id"]


def played(stack, token: str, seed: int) -> str:
    table = Table(stack, token, random.Random(seed))
    table.start()
    return table.play_to_the_end()["run_id"]


def boards_of(stack, season: str) -> dict:
    base = f"/v1/seasons/{season}/leaderboards/dealt/classic"
    return {"dealt": stack.get(base).json(), "ladder": stack.get(f"{base}/ladder").json()}


def ending_season(stack, ending: Season) -> dict | None:
    """Games of the ``ending`` season (ada and bob's played out, cyd's 20 forfeits: a ladder place) and its
    boards as read before the boundary; None if the boundary came first (the machine was slower than the time
    given)."""
    if stack.get("/v1/seasons").json()["current"]["id"] != ending.id:
        return None
    (_, ada), (_, bob), (_, cyd) = stack.register("ada"), stack.register("bob"), stack.register("cyd")
    runs = [played(stack, ada, 1), played(stack, bob, 2), *(forfeited(stack, cyd) for _ in range(LADDER_GAMES))]
    verified = [stack.wait_final(run_id) for run_id in runs]
    assert {run["status"] for run in verified} == {"verified"}
    before = boards_of(stack, ending.id)
    if stack.get("/v1/seasons").json()["current"]["id"] != ending.id or stack.now() >= ending.ends_ms / 1000 - 1:
        return None
    return {"ending": ending, "before": before, "following": ending.following(), "runs": verified, "ada": ada}


@pytest.fixture(scope="module")
def rolled_stack(tmp_path_factory):
    """A stack whose clock crosses the boundary once the ending season's games are in, and those games
    (``started_before``: a slow machine gets more time, never a failure)."""
    running, season = started_before(lambda seconds: stack_before_boundary(tmp_path_factory.mktemp("season"), seconds),
                                     ending_season, BEFORE_BOUNDARY, TRIES)
    yield running, season
    running.kill()  # under faketime a quick shutdown never ends (nothing of this stack is kept)


@pytest.fixture(scope="module")
def stack(rolled_stack):
    return rolled_stack[0]


@pytest.fixture(scope="module")
def rolled(rolled_stack):
    """The ending season's games and boards (``ending_season``), then, past the boundary, one game of ada's."""
    stack, season = rolled_stack
    while stack.now() < season["ending"].ends_ms / 1000 + 0.3:
        time.sleep(0.05)
    after_boundary = played(stack, season["ada"], 3)
    stack.wait_final(after_boundary)
    return {**season, "ada_after": after_boundary}


def test_the_ended_season_is_listed_past_and_the_new_one_is_current(stack, rolled):
    listing = stack.get("/v1/seasons").json()
    ending, following = rolled["ending"], rolled["following"]
    assert listing["current"] == {"id": following.id, "starts_at": iso(following.starts_ms),
                                  "ends_at": iso(following.ends_ms)}
    assert listing["past"] == [{"id": ending.id, "starts_at": iso(ending.starts_ms), "ends_at": iso(ending.ends_ms)}]
    assert listing["total"] == 1


def test_the_past_seasons_standings_are_intact_and_frozen(stack, rolled):
    before = rolled["before"]
    assert {entry["player"] for entry in before["dealt"]["entries"]} == {"ada", "bob", "cyd"}
    assert [entry["player"] for entry in before["ladder"]["entries"]] == ["cyd"]
    assert boards_of(stack, rolled["ending"].id) == before
    db = stack.database()
    try:
        assert db.redis.zscore(keys.closed("season"), rolled["ending"].id) is not None
    finally:
        db.close()
    ada = stack.get(f"/v1/seasons/{rolled['ending'].id}/leaderboards/dealt/classic/players/ada?around=0").json()
    assert ada["rank"] == next(e["rank"] for e in before["dealt"]["entries"] if e["player"] == "ada")
    assert stack.get(f"/v1/seasons/{rolled['ending'].id}/leaderboards/dealt/classic/ladder/players/cyd").json()[
        "games"] == LADDER_GAMES


def test_the_new_season_starts_empty_but_for_the_game_ended_after_the_boundary(stack, rolled):
    now = boards_of(stack, rolled["following"].id)
    assert [(entry["player"], entry["run_id"]) for entry in now["dealt"]["entries"]] == [("ada", rolled["ada_after"])]
    assert now["ladder"]["total"] == 0
    ended = stack.get(f"/v1/seasons/{rolled['ending'].id}/leaderboards/dealt/classic").json()
    assert rolled["ada_after"] not in [entry["run_id"] for entry in ended["entries"]]
    all_time = stack.get("/v1/leaderboards/dealt/classic?limit=100").json()
    assert all_time["total"] == 3  # the all-time board goes on across seasons


@pytest.mark.parametrize(("path", "status", "field"), [
    ("/v1/seasons/2026-13/leaderboards/dealt/classic", 422, "season"),
    ("/v1/seasons/2027-W53/leaderboards/dealt/classic", 404, None),  # 2027 has 52 ISO weeks
    ("/v1/seasons/9999-W52/leaderboards/dealt/classic/players/ada?around=3", 404, None),  # ends in year 10000
    ("/v1/seasons/latest/leaderboards/dealt/classic/ladder", 422, "season"),
    ("/v1/seasons/2001-01/leaderboards/dealt/classic", 404, None),
    ("/v1/seasons/2999-01/leaderboards/dealt/classic/players/ada", 404, None),
    ("/v1/seasons/2026-W49/leaderboards/dealt/classic", 404, None),  # a weekly season, on a monthly service
    ("/v1/seasons?limit=0", 422, "limit"),
])
def test_a_season_that_is_not_one_or_not_the_services_is_refused(stack, rolled, path, status, field):
    response = stack.get(path)
    assert response.status_code == status, response.text
    if field:
        assert field in response.json()["errors"]


def test_the_seasons_page_shows_the_time_left_and_the_past_podiums(stack, rolled):
    page = stack.get("/seasons")
    assert page.status_code == 200
    text = page.text
    assert f"Season {rolled['following'].id}" in text and " left" in text
    podium = text.split('id="past-heading"')[1]
    for entry in rolled["before"]["dealt"]["entries"][:3]:
        assert f'href="/players/{entry["player"]}"' in podium
    frozen = stack.get(f"/boards/dealt-classic-{rolled['ending'].id}")
    assert "final standings" in frozen.text and frozen.headers["Cache-Control"] == "public, max-age=3600"
    live = stack.get(f"/boards/dealt-classic-{rolled['following'].id}-ladder")
    assert live.status_code == 200 and "left" in live.text and live.headers["Cache-Control"] == "public, max-age=5"
    assert stack.get("/boards/dealt-classic-2001-01").status_code == 404
    assert stack.get("/boards/dealt-classic-2027-W53").status_code == 422  # shaped as a season, none such
    assert stack.get("/boards/dealt-classic-2026-13").status_code == 404


def test_a_players_page_shows_their_place_in_each_season(stack, rolled):
    text = stack.get("/players/ada").text
    assert f"Classic: dealt games, {rolled['ending'].id}" in text
    assert f"Classic: dealt games, {rolled['following'].id}" in text
    assert f"Classic: ladder, {rolled['ending'].id}" in stack.get("/players/cyd").text


@pytest.mark.parametrize(("path", "width"), [*(("/seasons", width) for width in WIDTHS), ("/players/ada", 375)])
def test_the_season_pages_fit_the_width_with_no_serious_accessibility_violation(stack, rolled, browser, path, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    problems = console_problems(page)
    page.goto(stack.url(path))
    page.wait_for_load_state("networkidle")
    assert serious_violations(page) == []
    assert not scrolls_sideways(page)
    screenshot(page, f"season{path.replace('/', '-')}-{width}")
    context.close()
    assert problems == []


def test_the_weeks_cohort_sent_its_best_up_a_tier_at_the_boundary(stack, rolled):
    """Issue 34: ada, bob and cyd raced one Bronze cohort the week the month ended; in a cohort of three
    one goes up (a third), nobody down from the lowest tier. Their best games, brute force from the runs."""
    week = season_at(Schedule.WEEKLY, rolled["ending"].ends_ms - 1)
    best: dict[str, tuple[int, str]] = {}  # each player's best score, and when its earliest game of it ended
    for run in sorted(rolled["runs"], key=lambda run: run["submitted_at"]):
        if run["player"] not in best or run["score"] > best[run["player"]][0]:
            best[run["player"]] = (run["score"], run["submitted_at"])
    ranked = sorted(best, key=lambda player: (-best[player][0], best[player][1]))
    [cohort_id] = {stack.get(f"/v1/players/{name}/leagues").json()["weeks"][-1]["cohort"] for name in best}
    cohort = stack.get(f"/v1/leagues/{week.id}/cohorts/{cohort_id}").json()
    assert (cohort["tier"], cohort["over"]) == ("Bronze", True)
    assert [(entry["player"], entry["score"]) for entry in cohort["entries"]] == [(name, best[name][0])
                                                                                  for name in ranked]
    assert [entry["zone"] for entry in cohort["entries"]] == ["up", "stays", "stays"]
    first = ranked[0]
    ada = stack.get("/v1/players/ada/leagues").json()["weeks"]
    assert [week_of["week"] for week_of in ada] == [season_at(Schedule.WEEKLY, rolled["ending"].ends_ms).id, week.id]
    assert ada[0]["tier"] == ("Silver" if first == "ada" else "Bronze")  # ada's game after the boundary


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
