"""The service's clock moved (Debian's ``faketime`` around the API and the worker) to just before a
day's or a month's end, and across it: what only the real service with its clock moved shows.

Midnight (``before_midnight``): the sealed daily across R18's close at the end of the UTC day. At no
instant is the day's seed shown (its commitment endpoint, its runs, their replays, its board, its
page) while a game dealt from it can move: a move after midnight is refused and forfeits the game,
and the first read that shows the deal forfeits every game of the day still in play first.

A month that ends on a Sunday (``rolled_stack``): a season rolling over. The ended season's
standings are kept as they were, frozen, the new season starts empty, and a game ended after the
boundary counts on the new one. Then the pages: the season's boards with the time left, the past
season's podium, and a player's season history, at 1280 and 375 px. The boundary is a week's end
too (issue 34): the week's league cohort moved its best up a tier, as computed here from the runs.
Under libfaketime a thread's timed wait never returns, so the worker's periodic pass does not run
there: the API's reads close the ended season (as they must, before showing it), and the worker's
own pass is tested on a stack with the real clock (``test_season_close_pass.py``).

Both have stacks of their own (the sealed days' settings differ, and the daily's games are dealt games, which
the season's boards would count), forked from one fork server under faketime (``MovedClock``) and started
together a little before one crossing: the end of a month that is a Monday's midnight (``started_before``: a
slow machine gets more time, never a failure).
"""

import math
import random
import threading
import time
from datetime import UTC, date, datetime, timedelta

import pytest

import scoundrel
from domain.daily_seed import sealed_seed
from domain.seasons import Schedule, Season, season_at
from store.base import keys
from store.base.packing import LADDER_GAMES
from tests.games.conftest import SEALED_SECRET
from tests.games.table import Table, assert_nothing_shown_early, cards_in
from tests.support.browser import WIDTHS, chromium, console_problems, screenshot, scrolls_sideways, serious_violations
from tests.support.stack import MovedClock, started_before

pytestmark = pytest.mark.slow

# seconds from the stacks' start to their clock's crossing (a month's end, at midnight), at first: on a loaded machine
# a stack under faketime (its fork server and processes started) and the work before its crossing often outlasted
# 12 s, here two stacks' and their work's, and each try more costs both stacks
BEFORE = 30
TRIES = 4  # times the stacks are started at most, each with twice the time before the crossing of the one before
WATCHED = 3  # seconds before midnight the reads are watched for, at least
WATCHED_AT_MOST = 6  # and at most: the rest of the time given is waited out


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


class Watcher(threading.Thread):
    """Reads everything that could show the day's deal, over and over until ``until`` (the service's
    clock), recording when each read was sent and whether it showed the seed."""

    def __init__(self, stack, day: str, seed: str, run_id: str, until: float):
        super().__init__(daemon=True)
        self.stack, self.seed, self.until = stack, seed, until
        self.paths = [f"/v1/daily/{day}/sealed", f"/daily/{day}", f"/v1/runs/{run_id}",
                      f"/v1/runs/{run_id}/replay", f"/v1/daily/{day}/sealed/leaderboard", f"/runs/{run_id}"]
        self.reads: list[tuple[float, str, bool]] = []

    def run(self) -> None:
        while True:
            for path in self.paths:
                sent = self.stack.now()
                if sent >= self.until:  # a round of reads on a busy machine can take longer than the margin
                    return
                text = self.stack.get(path).text
                self.reads.append((sent, path, self.seed in text))
            time.sleep(0.05)


def the_day_before_midnight(stack, midnight: float) -> dict | None:
    """Before ``midnight``: one sealed game played to its end (a run of the day), two left in play (one moved
    once); None if midnight came first or too soon to watch the reads (the machine was slower than the time
    given)."""
    started = stack.now()
    if started >= midnight:
        return None
    day = datetime.fromtimestamp(started, UTC).date()
    (name_done, token_done), (name_a, token_a), (name_b, token_b) = (stack.register(), stack.register(),
                                                                      stack.register())
    done = Table(stack, token_done, random.Random(1))
    done.start(challenge="daily")
    final = done.play_to_the_end()
    assert final["seed"] is None and final["date"] == day.isoformat()
    table_a = Table(stack, token_a, random.Random(2))
    game_a = table_a.start(challenge="daily")
    assert 0 < game_a["closes_in"] <= midnight - started and game_a["closes_at"] == (
        datetime.fromtimestamp(midnight, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"))
    table_a.step(alone=True)  # still in play, whatever the day's deal
    game_b = Table(stack, token_b, random.Random(3)).start(challenge="daily")
    stack.wait_final(final["run_id"])
    if stack.now() > midnight - WATCHED:
        return None
    return {"day": day, "midnight": midnight, "names": (name_done, name_a, name_b), "done": done,
            "final": final, "table_a": table_a, "game_a": table_a.game, "game_b": game_b, "token_b": token_b}


@pytest.fixture(scope="module")
def before_midnight(crossed):
    """The midnight's stack and its day's games before midnight (``the_day_before_midnight``)."""
    clock, before = crossed
    return clock.stacks[0], before["day"]


def test_the_sealed_seed_is_never_shown_while_a_game_dealt_from_it_can_move(before_midnight):
    stack, before = before_midnight
    day, midnight, final, done = before["day"], before["midnight"], before["final"], before["done"]
    table_a, game_a, game_b, token_b = before["table_a"], before["game_a"], before["game_b"], before["token_b"]
    name_done, name_a, name_b = before["names"]
    seed = sealed_seed(SEALED_SECRET, day)
    watcher = Watcher(stack, day.isoformat(), seed, final["run_id"], until=midnight - 0.3)
    while stack.now() < midnight - WATCHED_AT_MOST:
        time.sleep(0.1)
    watcher.start()
    watcher.join()
    assert len(watcher.reads) > 12 and not [read for read in watcher.reads if read[2]], watcher.reads
    while stack.now() < midnight + 0.3:
        time.sleep(0.05)
    # after midnight, nothing read yet: a move is refused, and forfeits the game (R18)
    refused = table_a.send([game_a["legal_moves"][0]], expected_moves=len(game_a["moves"]))
    assert refused.status_code == 409, refused.text
    assert refused.json()["reason"] == "sealed_day_over" and refused.json()["ruling"] == "R18"
    assert seed not in refused.text
    # game B did not move after midnight, and nothing of the day is shown yet: B waits for the first
    # read that would show the deal (here A's, over now), which forfeits it first
    waiting = stack.get(f"/v1/games/{game_b['id']}", headers=bearer(token_b)).json()
    assert waiting["status"] == "playing" and waiting["seed"] is None and waiting["closes_in"] == 0
    forfeited = table_a.reload()
    assert forfeited["status"] == "forfeit" and forfeited["moves"] == game_a["moves"]
    assert forfeited["seed"] == seed
    after_b = stack.get(f"/v1/games/{game_b['id']}", headers=bearer(token_b)).json()
    assert after_b["status"] == "forfeit" and after_b["seed"] == seed and after_b["moves"] == []
    revealed = stack.get(f"/v1/daily/{day.isoformat()}/sealed").json()
    assert revealed["seed"] == seed
    # the game played to its end counts its day in its player's streak; the two the close forfeited do not
    done_streak = stack.get(f"/v1/players/{name_done}/streak").json()
    assert (done_streak["last_date"], done_streak["current"]) == (day.isoformat(), 1)  # yesterday's: alive
    assert [stack.get(f"/v1/players/{name}/streak").json()["last_date"] for name in (name_a, name_b)] == [None, None]
    # then everything is open, and checks out against the revealed deal
    assert_nothing_shown_early(table_a, seed)
    assert_nothing_shown_early(done, seed)
    for game in (final, forfeited, after_b):
        run = stack.wait_final(stack.get(f"/v1/games/{game['id']}").json()["run_id"])
        verdict = scoundrel.replay(seed, run["moves"], "classic", forfeit=run["forfeit"])
        assert run["status"] == "verified" and run["seed"] == seed and run["score"] == verdict.score
    for path in watcher.paths:
        assert stack.get(path).status_code == 200, path
    assert seed in stack.get(f"/v1/runs/{final['run_id']}").text
    assert seed in stack.get(f"/daily/{day.isoformat()}").text
    # and the day deals no new game: a sealed start now is the new day's
    _, late = stack.register()
    new_day = stack.post("/v1/games", json={"challenge": "daily"}, headers=bearer(late)).json()
    assert new_day["date"] == (day + timedelta(1)).isoformat() and new_day["commitment"] != revealed["commitment"]
    logs = "".join(path.read_text() for path in stack.root.glob("*.log"))
    assert seed not in logs and not cards_in(logs)


def monday_month_start(now_ms: int) -> float:
    """The first month's start after ``now_ms`` that is a Monday: a month's end and an ISO week's at once."""
    season = season_at(Schedule.MONTHLY, now_ms)
    while datetime.fromtimestamp(season.ends_ms / 1000, UTC).date().isoweekday() != date(2027, 2, 1).isoweekday():
        season = season.following()
    return season.ends_ms / 1000


def crossing_stacks(root, seconds: int) -> tuple[MovedClock, Season]:
    """Two stacks on one clock that starts at most ``seconds`` before a month's end that is a Monday's start, and
    the month: the midnight's (the sweeper all but off, so that what is tested there is the move path and the
    reads, not the sweeper's own close of the day), then the season's."""
    now = time.time()
    boundary = monday_month_start(int(now * 1000))
    # faketime's offset is whole seconds: rounded up, the service's clock starts at most 1 s past the aim,
    # never before it, so however fast the stacks start, the boundary is less than ``seconds`` away
    clock = MovedClock(root, math.ceil(boundary - seconds - now))
    try:
        clock.start("midnight", env={"SCOUNDREL_SEALED_SECRET": SEALED_SECRET, "SCOUNDREL_SWEEP_INTERVAL": "3600"})
        clock.start("season")
    except BaseException:
        clock.kill()
        raise
    return clock, season_at(Schedule.MONTHLY, int(boundary * 1000) - 1)


def before_the_crossing(clock: MovedClock, ending: Season) -> dict | None:
    """The ending season's games on the season's stack (``ending_season``), then the day's on the midnight's
    (``the_day_before_midnight``, which needs the last seconds to watch); None if the crossing came first."""
    midnight_stack, season_stack = clock.stacks
    season = ending_season(season_stack, ending)
    if season is None:
        return None
    day = the_day_before_midnight(midnight_stack, ending.ends_ms / 1000)
    return None if day is None else {"season": season, "day": day}


@pytest.fixture(scope="module")
def crossed(tmp_path_factory):
    """The two stacks on one clock, and what was done on each before its crossing (``started_before``: a slow
    machine gets more time, never a failure)."""
    running, before = started_before(lambda seconds: crossing_stacks(tmp_path_factory.mktemp("crossing"), seconds),
                                     before_the_crossing, BEFORE, TRIES)
    yield running, before
    running.kill()  # under faketime a quick shutdown never ends (nothing of these stacks is kept)


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
def rolled_stack(crossed):
    """The season's stack and the ending season's games (``ending_season``)."""
    clock, before = crossed
    return clock.stacks[1], before["season"]


@pytest.fixture(scope="module")
def season_stack(rolled_stack):
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


def test_the_ended_season_is_listed_past_and_the_new_one_is_current(season_stack, rolled):
    listing = season_stack.get("/v1/seasons").json()
    ending, following = rolled["ending"], rolled["following"]
    assert listing["current"] == {"id": following.id, "starts_at": iso(following.starts_ms),
                                  "ends_at": iso(following.ends_ms)}
    assert listing["past"] == [{"id": ending.id, "starts_at": iso(ending.starts_ms), "ends_at": iso(ending.ends_ms)}]
    assert listing["total"] == 1


def test_the_past_seasons_standings_are_intact_and_frozen(season_stack, rolled):
    before = rolled["before"]
    assert {entry["player"] for entry in before["dealt"]["entries"]} == {"ada", "bob", "cyd"}
    assert [entry["player"] for entry in before["ladder"]["entries"]] == ["cyd"]
    assert boards_of(season_stack, rolled["ending"].id) == before
    db = season_stack.database()
    try:
        assert db.redis.zscore(keys.closed("season"), rolled["ending"].id) is not None
    finally:
        db.close()
    ada = season_stack.get(f"/v1/seasons/{rolled['ending'].id}/leaderboards/dealt/classic/players/ada?around=0").json()
    assert ada["rank"] == next(e["rank"] for e in before["dealt"]["entries"] if e["player"] == "ada")
    assert season_stack.get(f"/v1/seasons/{rolled['ending'].id}/leaderboards/dealt/classic/ladder/players/cyd").json()[
        "games"] == LADDER_GAMES


def test_the_new_season_starts_empty_but_for_the_game_ended_after_the_boundary(season_stack, rolled):
    now = boards_of(season_stack, rolled["following"].id)
    assert [(entry["player"], entry["run_id"]) for entry in now["dealt"]["entries"]] == [("ada", rolled["ada_after"])]
    assert now["ladder"]["total"] == 0
    ended = season_stack.get(f"/v1/seasons/{rolled['ending'].id}/leaderboards/dealt/classic").json()
    assert rolled["ada_after"] not in [entry["run_id"] for entry in ended["entries"]]
    all_time = season_stack.get("/v1/leaderboards/dealt/classic?limit=100").json()
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
def test_a_season_that_is_not_one_or_not_the_services_is_refused(season_stack, rolled, path, status, field):
    response = season_stack.get(path)
    assert response.status_code == status, response.text
    if field:
        assert field in response.json()["errors"]


def test_the_seasons_page_shows_the_time_left_and_the_past_podiums(season_stack, rolled):
    page = season_stack.get("/seasons")
    assert page.status_code == 200
    text = page.text
    assert f"Season {rolled['following'].id}" in text and " left" in text
    podium = text.split('id="past-heading"')[1]
    for entry in rolled["before"]["dealt"]["entries"][:3]:
        assert f'href="/players/{entry["player"]}"' in podium
    frozen = season_stack.get(f"/boards/dealt-classic-{rolled['ending'].id}")
    assert "final standings" in frozen.text and frozen.headers["Cache-Control"] == "public, max-age=3600"
    live = season_stack.get(f"/boards/dealt-classic-{rolled['following'].id}-ladder")
    assert live.status_code == 200 and "left" in live.text and live.headers["Cache-Control"] == "public, max-age=5"
    assert season_stack.get("/boards/dealt-classic-2001-01").status_code == 404
    assert season_stack.get("/boards/dealt-classic-2027-W53").status_code == 422  # shaped as a season, none such
    assert season_stack.get("/boards/dealt-classic-2026-13").status_code == 404


def test_a_players_page_shows_their_place_in_each_season(season_stack, rolled):
    text = season_stack.get("/players/ada").text
    assert f"Classic: dealt games, {rolled['ending'].id}" in text
    assert f"Classic: dealt games, {rolled['following'].id}" in text
    assert f"Classic: ladder, {rolled['ending'].id}" in season_stack.get("/players/cyd").text


@pytest.mark.parametrize(("path", "widths"), [("/seasons", WIDTHS), ("/players/ada", (375,))])
def test_the_season_pages_fit_the_width_with_no_serious_accessibility_violation(season_stack, rolled, browser, path,
                                                                                 widths):
    """Each page loaded once and resized to each width (``tests.support.browser.each_width`` says why)."""
    context = browser.new_context(viewport={"width": widths[0], "height": 900})
    page = context.new_page()
    problems = console_problems(page)
    page.goto(season_stack.url(path))
    page.wait_for_load_state("networkidle")
    for width in widths:
        page.set_viewport_size({"width": width, "height": 900})
        assert serious_violations(page) == [], f"{path} at {width} px"
        assert not scrolls_sideways(page), f"{path} at {width} px"
        screenshot(page, f"season{path.replace('/', '-')}-{width}")
    context.close()
    assert problems == []


def test_the_weeks_cohort_sent_its_best_up_a_tier_at_the_boundary(season_stack, rolled):
    """Issue 34: ada, bob and cyd raced one Bronze cohort the week the month ended; in a cohort of three
    one goes up (a third), nobody down from the lowest tier. Their best games, brute force from the runs."""
    week = season_at(Schedule.WEEKLY, rolled["ending"].ends_ms - 1)
    best: dict[str, tuple[int, str]] = {}  # each player's best score, and when its earliest game of it ended
    for run in sorted(rolled["runs"], key=lambda run: run["submitted_at"]):
        if run["player"] not in best or run["score"] > best[run["player"]][0]:
            best[run["player"]] = (run["score"], run["submitted_at"])
    ranked = sorted(best, key=lambda player: (-best[player][0], best[player][1]))
    [cohort_id] = {season_stack.get(f"/v1/players/{name}/leagues").json()["weeks"][-1]["cohort"] for name in best}
    cohort = season_stack.get(f"/v1/leagues/{week.id}/cohorts/{cohort_id}").json()
    assert (cohort["tier"], cohort["over"]) == ("Bronze", True)
    assert [(entry["player"], entry["score"]) for entry in cohort["entries"]] == [(name, best[name][0])
                                                                                  for name in ranked]
    assert [entry["zone"] for entry in cohort["entries"]] == ["up", "stays", "stays"]
    first = ranked[0]
    ada = season_stack.get("/v1/players/ada/leagues").json()["weeks"]
    assert [week_of["week"] for week_of in ada] == [season_at(Schedule.WEEKLY, rolled["ending"].ends_ms).id, week.id]
    assert ada[0]["tier"] == ("Silver" if first == "ada" else "Bronze")  # ada's game after the boundary


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
