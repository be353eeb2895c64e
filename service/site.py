"""The pages people read: ``/boards``, ``/boards/<board>``, ``/players/<name>``, ``/daily``, ``/seasons``.

Server-rendered from the store functions the API's views use (``page_of``,
``position_on``, ``player_runs``), plus ``store.boards.standings``
for a board's spread and a player's places; every view only turns the
request into those calls and their answers into a template. They work
without JavaScript; ``site.js`` (an ES module) only fills in the line of the
player signed in on this browser.

**Caching** (``Cache-Control``, set by each view):

- a board, player or daily page: ``public, max-age=5``: boards change as
  runs land, and five seconds of staleness lets a cache absorb a crowd;
- a day's boards and daily page once that UTC day has been over an hour
  (its late verdicts have landed; only a moderator's void can still move
  it): ``public, max-age=3600``, and so a closed season's boards (frozen);
- a page asked for with ``?player=<name>``: ``private, max-age=5``: the
  data is as public as the board, but which player a browser asks about is
  its reader's business, so no shared cache keeps it;
- a refusal (404, 422, and 503 while Redis does not answer or refuses
  writes): ``no-store``.
"""

import logging
import math
from datetime import UTC, date, datetime, timedelta

from flask import Blueprint, make_response, render_template, request
from marshmallow import Schema, ValidationError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

import scoundrel
from domain.boards import SEALED_BOARD, SEED_BOARD, BoardId, tournament_board
from domain.daily_seed import DayNotBegun, daily_seed, parse_day, today
from domain.par import ParView
from domain.pseudonyms import is_pseudonym
from domain.run import Run, daily_seal
from domain.sealing import shown
from domain.seasons import Schedule, Season, parse_season, season_at
from domain.tournaments import ENDED, RUNNING, UPCOMING, NoSuchTournament, attempts_left
from schemas.pages import (
    PAGE_SIZE,
    BoardPageArgs,
    LeaguePageArgs,
    PlayerArgs,
    SeasonsPageArgs,
    SeedBoardPageArgs,
    TournamentsPageArgs,
)
from schemas.runs import RunSchema
from store import player_runs, ranking
from store.base import first_line, iso_time, now_ms, refuses_writes
from store.boards import (
    Spread,
    Standing,
    UnknownSeason,
    board_spread,
    close_ended_seasons,
    current_season,
    known_season,
    ladder_spread,
    page_of,
    past_seasons,
    player_standings,
    position_on,
)
from store.games import load_streak
from store.leagues import cohort, league_membership, league_rules, tier_for
from store.sanctions import REPORT_REASONS, ban_of
from store.tournaments import entry_of, load_tournament, progress_of, tournaments_in

from . import board_names, charts
from .board_listing import friends_view
from .board_names import NamedBoard, UnknownBoard
from .context import db, referee, revealed
from .errors import RETRY_AFTER_SECONDS
from .players import player_named
from .sealed import sealed_daily
from .tournaments import tournament_view

blp = Blueprint("site", __name__, template_folder="templates")
log = logging.getLogger(__name__)

LIVE = "public, max-age=5"
SETTLED = "public, max-age=3600"
PERSONAL = "private, max-age=5"
REFUSED = "no-store"
SETTLE_AFTER = timedelta(hours=1)  # after its day ends, a day's boards get no more verdicts
RECENT_RUNS = 100  # a player page's runs: the win rate, the history chart and the boards of their days
RUNS_LISTED = 20
DAILY_TOP = 10
SEASONS_LISTED = 6  # past seasons on a page of /seasons, and in a player's season history
PODIUM = 3
TOURNAMENTS_LISTED = 20  # tournaments of each state on /tournaments (the ended ones paged)
FRIENDS_LISTED = 100  # a board page's friends' view: the best this many of the reader and those they follow


@blp.app_template_filter("score")
def _score(value: float) -> str:
    return charts.number(value)


@blp.app_template_test("pseudonym")
def _pseudonym(name: str) -> bool:
    """An erased player's place kept under a pseudonym: shown with no link (no player has that page)."""
    return is_pseudonym(name)


@blp.app_template_filter("percent")
def _percent(value: float) -> str:
    """A share as pages write it: "3 %", "0.4 %" (a place's "top X %": ``domain.boards.top_percent``)."""
    return f"{charts.number(value)}\u00a0%"


class Refused(Exception):
    """A page that cannot be shown: its status, a sentence, and field errors for a 422."""

    def __init__(self, status: int, message: str, errors: dict | None = None):
        super().__init__(message)
        self.status, self.message, self.errors = status, message, errors or {}


@blp.errorhandler(Refused)
def _refused(refusal: Refused):
    response = make_response(render_template("refused.html", refusal=refusal), refusal.status)
    response.headers["Cache-Control"] = REFUSED
    return response


@blp.errorhandler(RedisConnectionError)
@blp.errorhandler(RedisTimeoutError)
def _storage_unavailable(error):
    """The API's 503 for storage that does not answer (``errors``), as a page: people read these."""
    log.warning("storage unavailable: %s", first_line(error))
    response = _refused(Refused(503, "The boards cannot be read just now; try again in a few seconds."))
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


@blp.errorhandler(ResponseError)
def _redis_refused(error: ResponseError):
    """A page needing a write (a day's secret made on first use) while Redis refuses writes: the same 503."""
    if not refuses_writes(error):
        raise error  # a bug: the app's 500
    return _storage_unavailable(error)


def _query(schema: Schema) -> dict:
    try:
        return schema.load(request.args)
    except ValidationError as invalid:
        raise Refused(422, "This page's address has a parameter it cannot use.",
                      invalid.normalized_messages()) from None


def _day(text: str) -> date:
    try:
        return parse_day(text)
    except DayNotBegun:
        raise Refused(404, f"The day {text} has not begun yet (days are UTC).") from None
    except ValueError:
        raise Refused(422, f"{text!r} is not a date.", {"day": ["Not a date: YYYY-MM-DD, a day that exists."]}) \
            from None


def _settled(day: date | None) -> bool:
    return day is not None and datetime.now(UTC) >= datetime(day.year, day.month, day.day, tzinfo=UTC) + \
        timedelta(days=1) + SETTLE_AFTER


def _page(html: str, day: date | None = None, player: str | None = None, frozen: bool = False):
    """``frozen``: a closed season's board, which nothing changes any more."""
    response = make_response(html)
    response.headers["Cache-Control"] = PERSONAL if player else SETTLED if frozen or _settled(day) else LIVE
    return response


def _season(season_id: str) -> bool:
    """Whether the season the service has under ``season_id`` is closed (404 for one it has not)."""
    try:
        return known_season(db(), season_id)[1]
    except UnknownSeason:
        raise Refused(404, f"There is no season {season_id}: the seasons are this one and those past.") from None


@blp.app_template_filter("iso_minute")
def _iso_minute(ms: int) -> str:
    """An instant to the minute, as the pages show UTC times: ``2027-01-01 00:00``."""
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M")


@blp.app_template_filter("time_left")
def _time_left(ms: int) -> str:
    """``3 days 4 h``, ``5 h 12 min``, ``40 min``: how long a season has left, to the minute."""
    minutes = ms // 60_000
    days, hours, minutes = minutes // 1440, minutes // 60 % 24, minutes % 60
    if days:
        return f"{days} day{'s' if days != 1 else ''} {hours} h"
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"


def _place(named: NamedBoard, name: str | None) -> dict | None:
    """The line of player ``name`` on the board: their rank and score (or why there is none)."""
    if name is None:
        return None
    player = player_named(name)
    if player is None:
        return {"name": name, "rank": None, "missing": "There is no player of that name."}
    found = position_on(db(), named.of, player, 0)
    if found is None:
        return {"name": player, "rank": None, "missing": f"{player} has no place on this board."}
    score = found["mean"] if named.is_ladder else found["score"]
    return {"name": player, "rank": found["rank"], "score": score, "run_id": found["run_id"],
            "top_percent": found["top_percent"], "page": math.ceil(found["rank"] / PAGE_SIZE)}


def _friends(named: NamedBoard, name: str | None) -> dict | None:
    """The friends' view of player ``name`` (whose line the page shows): them and those they follow,
    ranked among themselves, as the JSON's ``?among=`` lists them; None for no such player."""
    player = player_named(name) if name is not None else None
    if player is None:
        return None
    total, entries = friends_view(named.of, player, 0, FRIENDS_LISTED)
    return {"name": player, "total": total, "entries": entries,
            "api": f"{named.api}{'&' if '?' in named.api else '?'}among={player}&limit={FRIENDS_LISTED}"}


def _spread(named: NamedBoard, place: dict | None) -> Spread:
    mine = place["score"] if place and place["rank"] else None
    if named.is_ladder:
        return ladder_spread(db(), named.of, mine)
    return board_spread(db(), ranking(named.of), None if mine is None else int(mine))


def _entries(named: NamedBoard, offset: int, limit: int) -> tuple[int, list[dict]]:
    return page_of(db(), named.of, offset, limit)


def _standing(named: NamedBoard, name: str | None) -> dict:
    """What a board's part of a page shows besides its entries: the reader's line, the spread, the chart."""
    place = _place(named, name)
    spread = _spread(named, place)
    if place and place["rank"]:
        place["below"], place["share"], place["total"] = spread.below, spread.share_below(), spread.total
    noun = "mean" if named.is_ladder else "score"
    looked_up = (place["name"], place["score"]) if place and place["rank"] else None
    return {"place": place, "spread": spread, "noun": noun, "chart": charts.histogram(spread, noun, looked_up)}


@blp.route("/boards")
def boards():
    """Every standing board with its leaders, and today's dailies."""
    day = today()
    listed = [board for variant in scoundrel.VARIANTS for board in board_names.variant_boards(variant)]
    listed += board_names.day_boards(day)
    leaders = [_entries(board, 0, 3) for board in listed]
    return _page(render_template("boards.html", boards=list(zip(listed, leaders, strict=True)), today=day))


@blp.route("/boards/<name>")
def board(name):
    """A board: a page of its places, the spread of all its scores, the reader's line."""
    args = _query(BoardPageArgs())
    try:
        named = board_names.named(name)
    except UnknownBoard:
        raise Refused(404, f"There is no board called {name!r}.") from None
    except DayNotBegun:
        raise Refused(404, "That day has not begun yet (days are UTC).") from None
    except ValueError:
        raise Refused(422, f"{name!r} does not name a day or a season that exists.",
                      {"board": ["A daily board is daily-YYYY-MM-DD or sealed-YYYY-MM-DD, a day that exists; "
                                 "a season's is dealt-<variant>-YYYY-MM or dealt-<variant>-YYYY-Www."]}) \
            from None
    return _board_page(named, args, _season(named.season.id) if named.season is not None else False)


@blp.route("/boards/seed/<seed>")
def seed_board(seed):
    """A seed's board, played as ``?variant=`` (classic by default)."""
    args = _query(SeedBoardPageArgs())
    if not scoundrel.is_valid_seed(seed):
        raise Refused(404, "No such seed: a seed is 1-64 characters from A-Z a-z 0-9 _ -.")
    return _board_page(board_names.shown(BoardId(SEED_BOARD, (args["variant"], seed))), args)


def _board_page(named: NamedBoard, args: dict, frozen: bool = False):
    total, entries = _entries(named, (args["page"] - 1) * PAGE_SIZE, PAGE_SIZE)
    html = render_template("board.html", named=named, entries=entries, total=total, page=args["page"],
                           pages=max(1, math.ceil(total / PAGE_SIZE)), frozen=frozen, now_ms=now_ms(),
                           friends=_friends(named, args["player"]), page_size=PAGE_SIZE,
                           **_standing(named, args["player"]))
    return _page(html, named.day, args["player"], frozen)


def _podiums(season: Season, top: int) -> list[tuple[NamedBoard, tuple[int, list[dict]]]]:
    return [(board, _entries(board, 0, top)) for board in board_names.season_boards(season)]


@blp.route("/seasons")
def seasons():
    """This season's boards with the time it has left, and the past seasons' podiums, newest first."""
    args = _query(SeasonsPageArgs())
    close_ended_seasons(db())
    current = current_season(db())
    total, past = past_seasons(db(), (args["page"] - 1) * SEASONS_LISTED, SEASONS_LISTED)
    html = render_template("seasons.html", current=current, left_ms=current.left_ms(now_ms()),
                           boards=_podiums(current, PODIUM),
                           past=[(season, [podium for podium in _podiums(season, PODIUM) if podium[1][0]])
                                 for season in past],
                           page=args["page"], pages=max(1, math.ceil(total / SEASONS_LISTED)))
    return _page(html)


@blp.route("/leagues")
def leagues():
    """The weekly leagues: how they work, this week's time left, and a player's cohort with where each
    place leads (``?player=``; ``?week=`` for a past week)."""
    args = _query(LeaguePageArgs())
    rules = league_rules(referee().settings)
    this = season_at(Schedule.WEEKLY, now_ms())
    try:
        week = this if args["week"] is None else parse_season(args["week"])
    except ValueError:
        raise Refused(422, "This page's address has a parameter it cannot use.",
                      {"week": ["Not an ISO week: YYYY-Www."]}) from None
    player = player_named(args["player"]) if args["player"] else None
    held = league_membership(db(), week.id, player) if player else None
    found = cohort(db(), week.id, held.cohort) if held else None
    joins = rules.name(tier_for(db(), rules, player, week.id)) if player and found is None and week == this else None
    html = render_template("leagues.html", rules=rules, week=week, this=this, left_ms=this.left_ms(now_ms()),
                           looked_up=args["player"], player=player, cohort=found, joins=joins,
                           entries=[{**entry, "zone": rules.zone(found.tier, entry["rank"], found.entrants)}
                                    for entry in found.entries] if found else [],
                           moving=rules.moving(found.entrants) if found else 0)
    return _page(html, player=args["player"], frozen=week.ends_ms <= now_ms())


@blp.route("/tournaments")
def tournaments():
    """The tournaments running, to come and ended (paged), each with its window and entrants."""
    args = _query(TournamentsPageArgs())
    listed = {state: tournaments_in(db(), state, 0, TOURNAMENTS_LISTED) for state in (RUNNING, UPCOMING)}
    total, ended = tournaments_in(db(), ENDED, (args["ended"] - 1) * TOURNAMENTS_LISTED, TOURNAMENTS_LISTED)
    html = render_template("tournaments.html", running=listed[RUNNING], upcoming=listed[UPCOMING],
                           ended=(total, ended), page=args["ended"],
                           pages=max(1, math.ceil(total / TOURNAMENTS_LISTED)),
                           entrants={one.id: progress_of(db(), one).entrants
                                     for one in [*listed[RUNNING][1], *listed[UPCOMING][1], *ended]})
    return _page(html)


@blp.route("/tournaments/<tournament_id>")
def tournament(tournament_id):
    """A tournament: its rules, a countdown to its start or end, a player's attempts left (``?player=``),
    its standings, and its sealed decks once it has ended."""
    args = _query(BoardPageArgs())
    try:
        found = load_tournament(db(), tournament_id)
    except NoSuchTournament:
        raise Refused(404, f"There is no tournament {tournament_id!r}.") from None
    view = tournament_view(found)
    named = board_names.shown(tournament_board(found.id, found.scoring), found.title)
    player = player_named(args["player"]) if args["player"] else None
    entry = entry_of(db(), found, player) if player else None
    at = now_ms()
    total, entries = _entries(named, (args["page"] - 1) * PAGE_SIZE, PAGE_SIZE)
    html = render_template(
        "tournament.html", tournament=found, view=view, named=named, entries=entries, total=total,
        page=args["page"], pages=max(1, math.ceil(total / PAGE_SIZE)), page_size=PAGE_SIZE,
        boundary_ms=(found.starts_ms if view["state"] == UPCOMING else found.ends_ms) - at,
        player=player, entry=entry, attempts_left=attempts_left(found, entry.used) if entry else None,
        friends=_friends(named, args["player"]), **_standing(named, args["player"]))
    return _page(html, player=args["player"], frozen=view["final"])


def _places_held(player: str, runs: list[Run]) -> list[tuple[NamedBoard, Standing, int]]:
    """The player's places, with the page of the board each is on: every variant's open, dealt
    and ladder boards first, then the seasons' boards (this one's and the latest past ones': the
    player's season history), then the daily, sealed and seed boards of ``runs``' days and deals."""
    own = [board for variant in scoundrel.VARIANTS for board in board_names.variant_boards(variant)]
    fixed = sorted(own, key=lambda board: board.is_ladder)  # the ladders last
    _, past = past_seasons(db(), 0, SEASONS_LISTED)
    seasonal = [board for season in [current_season(db()), *past] for board in board_names.season_boards(season)]
    of_runs = list({board.path: board for run in runs for board in board_names.run_boards(run)}.values())
    listed = fixed + seasonal + of_runs
    ranked = [board for board in listed if not board.is_ladder]  # the ladders rank means, read apart
    means = [board for board in listed if board.is_ladder]
    places = player_standings(db(), player, [ranking(board.of) for board in ranked], [board.of for board in means])
    place_of = dict(zip([board.path for board in ranked + means], places, strict=True))
    return [(board, place, math.ceil(place.rank / PAGE_SIZE))
            for board in listed if (place := place_of[board.path]) is not None]


@blp.route("/players/<name>")
def player(name):
    """A player: their place on every board they hold one on, their recent runs, win rate and scores. A banned
    player's page says so and until when, and shows no streak, as their profile does (``service.profile``)."""
    found = player_named(name)
    if found is None:
        raise Refused(404, f"There is no player called {name!r}.")
    ban = ban_of(db(), found)
    total, runs = player_runs(db(), found, 0, RECENT_RUNS)
    runs = [shown(run, revealed) for run in runs]
    verified = [run for run in runs if run.status == "verified" and run.score is not None]
    won = sum(run.outcome == "won" for run in verified)
    html = render_template("player.html", player=found, total=total, runs=RunSchema(many=True).dump(runs[:RUNS_LISTED]),
                           examined=len(runs), verified=len(verified), won=won, places=_places_held(found, runs),
                           history=charts.history(list(reversed(verified))), streak=load_streak(db(), found),
                           today=today(), report_reasons=REPORT_REASONS, banned=ban is not None,
                           banned_until=None if ban is None else iso_time(ban.until_ms))
    return _page(html)


@blp.route("/daily")
def daily_today():
    """Today's (UTC) daily page."""
    return _daily(today())


@blp.route("/daily/<day>")
def daily(day):
    """A day's daily page: its open and sealed boards, their spreads, the sealed deal once revealed."""
    return _daily(_day(day))


def _reached(par: ParView | None, entries: list[dict]) -> list[str]:
    """The players of a sealed board's first ``entries`` whose score reached ``par`` (its line's score)."""
    return [] if par is None else [entry["player"] for entry in entries if entry["score"] >= par.par]


def _par_reached(day: date) -> dict | None:
    """A revealed day's sealed par and who of its board's best reached it; None before its day is over."""
    sealed = sealed_daily(day, search=False)
    if sealed["par"] is None:
        return None
    total, entries = page_of(db(), BoardId(SEALED_BOARD, (day.isoformat(),)), 0, DAILY_TOP)
    return {"day": day, "par": sealed["par"], "total": total, "reached": _reached(sealed["par"], entries)}


def _daily(day: date):
    args = _query(PlayerArgs())
    boards = []
    for named in board_names.day_boards(day):
        total, entries = _entries(named, 0, DAILY_TOP)
        boards.append({"named": named, "total": total, "entries": entries, **_standing(named, args["player"])})
    sealed = sealed_daily(day, search=False)
    yesterday = _par_reached(day - timedelta(days=1)) if day == today() else None
    html = render_template("daily.html", day=day, today=today(), open_seed=daily_seed(referee().daily_secret(), day),
                           sealed=sealed, reached=_reached(sealed["par"], boards[1]["entries"]),
                           yesterday=yesterday, revealed=revealed(daily_seal(day.isoformat())), boards=boards,
                           previous=day - timedelta(days=1), following=day + timedelta(days=1))
    return _page(html, day, args["player"])
