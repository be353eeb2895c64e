"""Every board's API, registered from the registry (``domain.boards.BOARDS``) in one loop.

Each kind of board answers at its entry's ``api`` URL (kinds sharing its path,
a tournament's standings, share its routes): a page of it; with
``?among=<name>``, that player's friends' view (``board_listing``); with
``?around=<name>``, the places around that player's. At the same path plus
``/players/<name>``: a player's place, ``around`` places either side. Its
entries are shaped by its order (a ladder's places are means).

The parts of a board's key come from its URL as its entry names them
(``Board.params``), each read and checked as ``PARAMETERS`` says: 404 for a
board the service does not have, 422 for a value not shaped as one. A page
is headed by what they name (``variant``, ``date``, ``season``…), and by
what a kind adds of its own (``ADDED``: the daily's seed, a seed board's par).
So a new kind of board keyed by parameters listed here is its registry
entry alone: its routes, schemas and docs follow.
"""

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

from flask import jsonify
from marshmallow import Schema

import scoundrel
from domain.boards import BOARDS, DAILY_BOARD, LADDER_GAMES, SEED_BOARD, Board, BoardId, Order
from domain.daily_seed import daily_seed
from domain.tournaments import SUM
from schemas.paging import AroundArgs, BoardArgs, DealArgs
from schemas.par import ParSchema
from schemas.runs import BoardPageSchema, BoardPositionSchema, LadderPageSchema, LadderPositionSchema
from schemas.tournaments import StandingsDealArgs
from store.base import iso_time
from store.boards import position_on
from store.tournaments import load_tournament, progress_of

from .api import Blueprint, error_response
from .board_listing import board_listing
from .context import db, referee
from .daily import begun_day
from .errors import abort
from .leagues import known_week
from .par import beside_par, kept_par
from .players import player_named, registered
from .seasons import season_named
from .seeds import valid_seed


@dataclass(frozen=True)
class Given:
    """One part of a board's key as a request gave it: the part, what it heads a page with, and for a
    route several kinds share, the scoring of the tournament it names (``Board.scoring``)."""

    part: str
    head: dict = field(default_factory=dict)
    scoring: str | None = None
    deals: int = 0


def _variant(text: str, given: dict[str, Given]) -> Given:
    if text not in scoundrel.VARIANTS:
        abort(404, message=f"No board {text!r}; the variants are {', '.join(scoundrel.VARIANTS)}.")
    return Given(text, {"variant": text})


def _seed(text: str, given: dict[str, Given]) -> Given:
    return Given(valid_seed(text), {"seed": text})


def _day(text: str, given: dict[str, Given]) -> Given:
    day = begun_day(text).isoformat()
    return Given(day, {"date": day})


def _season(text: str, given: dict[str, Given]) -> Given:
    season = season_named(text).id
    return Given(season, {"season": season})


def _week(text: str, given: dict[str, Given]) -> Given:
    week = known_week(text).id
    return Given(week, {"week": week})


def _tournament(text: str, given: dict[str, Given]) -> Given:
    tournament = load_tournament(db(), text)
    progress = progress_of(db(), tournament)
    return Given(tournament.id, {"tournament": tournament.id, "final": progress.final,
                                 "revised_at": iso_time(progress.revised_ms)}, tournament.scoring, tournament.deals)


def _deal(deal: int, given: dict[str, Given]) -> Given:
    tournament = given["tournament_id"]
    if tournament.scoring != SUM or deal > tournament.deals:
        abort(404, message=f"Tournament {tournament.part} has no standings of deal {deal}: only a sum tournament "
                           "ranks each of its deals.")
    return Given(str(deal), {"deal": deal}, SUM)


@dataclass(frozen=True)
class Parameter:
    """How a board's URLs give one part of its key (``Board.params``): ``check`` turns the value given
    (knowing the parts given before it) into the part, or answers 404 or 422; ``converter`` reads it in a
    path (``service.app`` registers them), ``query`` from a query string (a schema of that one field)."""

    check: Callable[..., Given]
    converter: str | None = None
    query: type[Schema] | None = None


PARAMETERS: dict[str, Parameter] = {
    "variant": Parameter(_variant, query=DealArgs),
    "seed": Parameter(_seed),
    "day": Parameter(_day, "day"),
    "season": Parameter(_season, "season"),
    "week": Parameter(_week, "week"),
    "tournament_id": Parameter(_tournament),
    "deal": Parameter(_deal, query=StandingsDealArgs),
}


def _daily_seed(board: BoardId, entries: list[dict]) -> tuple[dict, list[dict]]:
    """The daily board's page names its day's public seed."""
    return {"seed": daily_seed(referee().daily_secret(), date.fromisoformat(board.named_parts["day"]))}, entries


def _par(board: BoardId, entries: list[dict]) -> tuple[dict, list[dict]]:
    """A seed board's page, once its deal's par is kept: that par (without its line), each entry's distance."""
    found = kept_par(board.named_parts["seed"], board.named_parts["variant"])
    if found is None:
        return {}, entries
    return {"par": ParSchema().dump(found)}, beside_par(entries, found)


# What a kind's page adds to its head and entries, beyond the parts of its key.
ADDED: dict[str, Callable[[BoardId, list[dict]], tuple[dict, list[dict]]]] = {
    DAILY_BOARD.kind: _daily_seed,
    SEED_BOARD.kind: _par,
}


@dataclass(frozen=True)
class Route:
    """The kinds of board one URL serves (``Board.api_path``): one, or a tournament's standings' kinds."""

    boards: tuple[Board, ...]

    @property
    def template(self) -> str:
        return self.boards[0].api_path

    @property
    def path_params(self) -> list[str]:
        return re.findall(r"\{(\w+)\}", self.template)

    @property
    def query_params(self) -> list[str]:
        named = [name for board in self.boards for name in board.params if name not in self.path_params]
        return list(dict.fromkeys(named))

    @property
    def rule(self) -> str:
        """The Flask rule of its page: each path part with its converter."""
        def converted(match: re.Match) -> str:
            converter = PARAMETERS[match[1]].converter
            return f"<{converter}:{match[1]}>" if converter else f"<{match[1]}>"
        return re.sub(r"\{(\w+)\}", converted, self.template)

    @property
    def ladder(self) -> bool:
        return self.boards[0].order is Order.LATEST

    @property
    def name(self) -> str:
        return self.boards[0].kind.replace("-", "_")

    def args(self, base: type[Schema]) -> Schema:
        """``base``'s arguments with the query parameters of its boards."""
        extra = [query for name in self.query_params if (query := PARAMETERS[name].query) is not None]
        if not extra:
            return base()
        return type(f"{self.name.title().replace('_', '')}{base.__name__}", (base, *extra), {})()

    def board(self, path: dict, args: dict) -> tuple[BoardId, dict]:
        """The board a request names, and what heads its page (404 or 422 for a part it does not have)."""
        given: dict[str, Given] = {}
        for name in [*self.path_params, *self.query_params]:
            value = path[name] if name in path else args.get(name)
            if value is not None:
                given[name] = PARAMETERS[name].check(value, given)
        scoring = next((one.scoring for one in reversed(given.values()) if one.scoring), None)
        chosen = next((board for board in self.boards
                       if set(board.params) == set(given) and board.scoring in (None, scoring)), None)
        if chosen is None:
            abort(404, message="No such board.")
        head = {key: value for one in given.values() for key, value in one.head.items()}
        return BoardId(chosen, tuple(given[name].part for name in chosen.params)), head


def routes(boards: list[Board]) -> list[Route]:
    """The registry's boards by the URL they answer at, in its order."""
    by_path: dict[str, list[Board]] = {}
    for board in boards:
        by_path.setdefault(board.api_path, []).append(board)
    return [Route(tuple(group)) for group in by_path.values()]


def _missing(board: BoardId, name: str) -> str:
    if board.board.order is Order.LATEST:
        return f"{name!r} has fewer than {LADDER_GAMES} games counted on the board ({board.title})."
    return f"{name!r} has no place on the board ({board.title})."


def _page(route: Route, args: dict, path: dict):
    board, head = route.board(path, args)
    if args["around"] is not None:
        player = registered(args["around"])
        found = position_on(db(), board, player, args["places"])
        if found is None:
            abort(404, message=_missing(board, player))
        listing = {"around": player, "rank": found["rank"], "total": found["total"], "entries": found["around"]}
    else:
        listing = board_listing(board, args)
    if board.board.kind in ADDED:
        added, listing["entries"] = ADDED[board.board.kind](board, listing["entries"])
        head = {**head, **added}
    # Already in the documented shape: a Response skips the schema's dump, the
    # costliest part of a 100-entry page (the rankings benchmark, `bench/rankings.py`).
    return jsonify(**head, **listing)


def _position(route: Route, args: dict, path: dict, name: str):
    board, _ = route.board(path, args)
    player = player_named(name)
    found = position_on(db(), board, player, args["around"]) if player else None
    if found is None:
        abort(404, message=_missing(board, name))
    return jsonify(found)


def _doc(template: str) -> str:
    """A registry text with its parts named, as the API's docs show it (``<variant>``)."""
    return re.sub(r"\{(\w+)\}", lambda match: f"``<{match[1].lower()}>``", template)


def _register(blp: Blueprint, route: Route) -> None:
    """The route's page and position views, documented from its boards' entries."""
    title = _doc(route.boards[0].title)
    proves = " ".join(dict.fromkeys(_doc(board.proves) for board in route.boards))
    pages, places = ((LadderPageSchema, LadderPositionSchema) if route.ladder
                     else (BoardPageSchema, BoardPositionSchema))

    @blp.route(route.rule, endpoint=f"{route.name}_page")
    @blp.doc(summary=f"A page of the board: {title}",
             description=f"{proves} With among, a player and those they follow; with around, the places around a "
                         "player's.")
    @blp.arguments(route.args(BoardArgs), location="query")
    @blp.response(200, pages)
    @error_response(blp, 404, "No such board, or no such player to list among or around, or not ranked")
    @error_response(blp, 422, "A part of the board's address not shaped as one")
    def page(args, **path):
        return _page(route, args, path)

    @blp.route(f"{route.rule}/players/<name>", endpoint=f"{route.name}_position")
    @blp.doc(summary=f"A player's place on the board: {title}",
             description="A player's rank and the places around it (the player's own included); the name in any "
                         "case.")
    @blp.arguments(route.args(AroundArgs), location="query")
    @blp.response(200, places)
    @error_response(blp, 404, "No such board, or the player is not on it")
    @error_response(blp, 422, "A part of the board's address not shaped as one")
    def position(args, name, **path):
        return _position(route, args, path, name)


def board_views() -> Blueprint:
    """Every board's page and position views, from the registry as it stands (``create_app`` registers them)."""
    return _views_of(tuple(BOARDS))


@functools.cache
def _views_of(boards: tuple[Board, ...]) -> Blueprint:
    """The views of one registry, made once and registered in every app made with it, as the other blueprints
    (each a module's own) are: making them costs some 0.015 s of CPU, a quarter of building an app."""
    blp = Blueprint("boards", __name__, description="Every board: a page, a friends' view (among), the places "
                                                    "around a player (around), a player's place")
    for route in routes(list(boards)):
        _register(blp, route)
    return blp
