"""How runs, boards and verdict errors look in API responses."""

from marshmallow import fields, validate
from webargs.fields import DelimitedList

from store.base import iso_time

from .base import Schema
from .log import RunLogSchema
from .par import ParSchema


class Time(fields.String):
    """A time in milliseconds since 1970, shown as ISO 8601 UTC (``store.base.packing.iso_time``); null for none."""

    def _serialize(self, value, attr, obj, **kwargs) -> str | None:
        return iso_time(value)


class RuleErrorSchema(Schema):
    code = fields.String(metadata={"description": "one of RULES.md's rejection codes"})
    move_index = fields.Integer()
    message = fields.String()
    ruling = fields.String(allow_none=True)


class RunSchema(Schema):
    """A run (``domain.run.Run``) as the API shows it: every response that holds a run dumps it here."""

    id = fields.String()
    player = fields.String()
    seed = fields.String(allow_none=True, metadata={"description": "null for a sealed daily run until its UTC "
                                                                   "day is over, and a tournament's sealed deck's "
                                                                   "until its end (moderators see it)"})
    variant = fields.String()
    moves = fields.List(fields.String(), allow_none=True,
                        metadata={"description": "null while the seed is (a sealed daily run)"})
    status = fields.String(metadata={"description": "pending, verified, rejected, error (verification kept failing; "
                                                    "see error), or void (a moderator voided it; restore undoes it)"})
    submitted_at = Time(attribute="submitted_ms")
    verified_at = Time(attribute="verified_ms", allow_none=True)
    outcome = fields.String(allow_none=True, metadata={"description": "won, lost or forfeit (R18), for a verified run"})
    score = fields.Integer(allow_none=True)
    health = fields.Integer(allow_none=True)
    error = fields.Nested(RuleErrorSchema, allow_none=True)
    ruleset = fields.String(allow_none=True)
    engine = fields.String(allow_none=True)
    origin = fields.String(metadata={"description": "open (submitted) or dealt (a dealt game's run)"})
    game_id = fields.String(allow_none=True, metadata={"description": "the dealt game, for a dealt run"})
    challenge = fields.String(allow_none=True, metadata={"description": '"daily": a sealed daily game\'s run; '
                                                                        '"tournament": a tournament game\'s'})
    date = fields.String(allow_none=True, metadata={"description": "the sealed daily's UTC date"})
    forfeit = fields.Boolean(metadata={"description": "the dealt game was forfeited (R18)"})
    season = fields.String(allow_none=True, metadata={"description": "the season a dealt run counts on: the one "
                                                                     "its game ended in (docs/seasons.md)"})
    tournament = fields.String(allow_none=True, metadata={"description": "a tournament game's run: its tournament"})
    deal = fields.Integer(allow_none=True, metadata={"description": "a tournament game's run: its sealed deck (1 "
                                                                    "for the first), 0 for a fresh deck"})
    par = fields.Nested(ParSchema, metadata={"description": "one run's own answer (/v1/runs/<id>), once verified, "
                                                            "its seed shown and its deal's par kept: that par, without "
                                                            "the line"})
    from_par = fields.Integer(metadata={"description": "with par: the score's distance from it (negative below)"})
    log = fields.Nested(RunLogSchema, metadata={"description": "one run's own answer, once its verdict is in the "
                                                            "public log: its latest leaf (docs/transparency.md)"})


MAX_RUN_IDS = 100  # runs ``GET /v1/runs`` reads at once: ids of 16 characters make a request line of some
# 1,700 bytes, well within the 4,094 gunicorn reads


class RunIdsArgs(Schema):
    """``GET /v1/runs``' query: the runs to read, by id."""

    ids = DelimitedList(fields.String(validate=validate.Regexp(r"^[^,]{1,64}$")), required=True,
                        validate=validate.Length(1, MAX_RUN_IDS),
                        metadata={"description": f"1-{MAX_RUN_IDS} run ids, separated by commas"})


class RunListSchema(Schema):
    runs = fields.List(fields.Nested(RunSchema), metadata={"description": "the runs found, in the order asked; an "
                                                                          "id with no run is left out"})


class RunPageSchema(Schema):
    player = fields.String()
    total = fields.Integer()
    runs = fields.List(fields.Nested(RunSchema))


_AMONG = "with among: the player whose friends' view this is (as registered)"


class ShareSchema(Schema):
    """A place's share of its board (``domain.boards.percentile``): the same fields on every board."""

    total = fields.Integer(metadata={"description": "places on the whole board"})
    percentile = fields.Float(metadata={"description": "the share of the board, in percent, at or below this "
                                                       "place: places with an equal score count as at or below, so "
                                                       "they share one percentile (two decimals, rounded down)"})
    top_percent = fields.Float(metadata={"description": "the \"top X %\" pages show: 100 × (places with a strictly "
                                                        "higher score + 1) / total, rounded up to a whole percent "
                                                        "(to a tenth below 1 %)"})


class PlaceSchema(ShareSchema):
    """A place on any board; what ranks it is its order's (``BoardEntrySchema``, ``LadderEntrySchema``)."""

    rank = fields.Integer()
    global_rank = fields.Integer(metadata={"description": "with among: the rank on the whole board (rank is among "
                                                          "the player and those they follow)"})
    player = fields.String()


class BoardEntrySchema(PlaceSchema):
    score = fields.Integer()
    run_id = fields.String(allow_none=True, metadata={"description": "null for an erased player's place a past "
                                                                 "season or sealed day keeps"})
    submitted_at = fields.String()
    from_par = fields.Integer(metadata={"description": "a seed board's, once its deal's par is kept: the score's "
                                                       "distance from it (negative below)"})


class LadderEntrySchema(PlaceSchema):
    mean = fields.Float(metadata={"description": "mean score of the player's last 20 finished dealt games, "
                                                 "exact at 2 decimals"})
    games = fields.Integer(metadata={"description": "the player's finished dealt games of the variant (20 or more)"})
    run_id = fields.String(allow_none=True, metadata={"description": "the latest game counted (null for an erased "
                                                                 "player's place a past season keeps)"})
    submitted_at = fields.String(metadata={"description": "when the latest game counted ended"})


class BoardHeadSchema(Schema):
    """What heads a page of any board (``service.boards``): the parts of its key its URL names, what its board
    adds, and which view it is (``among``, ``around``). A board's page has the fields of its own key."""

    variant = fields.String()
    seed = fields.String(metadata={"description": "a seed board's seed; the daily board's: the day's public seed"})
    date = fields.String(metadata={"description": "a daily or sealed board's UTC day"})
    season = fields.String()
    week = fields.String(metadata={"description": "a league board's UTC ISO week, YYYY-Www"})
    tournament = fields.String()
    deal = fields.Integer(metadata={"description": "with deal: the deal these are the standings of"})
    final = fields.Boolean(metadata={"description": "a tournament's: its standings are final"})
    revised_at = fields.String(allow_none=True, metadata={"description": "a tournament's: when its standings last "
                                                                         "changed"})
    par = fields.Nested(ParSchema, metadata={"description": "a seed board's, once kept: the deal's par as "
                                                            "/v1/seeds/<seed>/par gives it, without the line"})
    among = fields.String(metadata={"description": _AMONG})
    around = fields.String(metadata={"description": "with around: the player the entries are around"})
    rank = fields.Integer(metadata={"description": "with around: the player's rank"})
    total = fields.Integer()


class BoardPageSchema(BoardHeadSchema):
    """A page of a board ranking runs (best, first, or a sum of places)."""

    entries = fields.List(fields.Nested(BoardEntrySchema))


class LadderPageSchema(BoardHeadSchema):
    """A page of a board ranking means (a ladder)."""

    entries = fields.List(fields.Nested(LadderEntrySchema))


class PositionSchema(ShareSchema):
    """A player's place on a board (``/players/<name>``): their rank and run, and the places around it."""

    rank = fields.Integer()
    run_id = fields.String()


class BoardPositionSchema(PositionSchema):
    score = fields.Integer()
    around = fields.List(fields.Nested(BoardEntrySchema))


class LadderPositionSchema(PositionSchema):
    mean = fields.Float()
    games = fields.Integer()
    around = fields.List(fields.Nested(LadderEntrySchema))


class DailySchema(Schema):
    date = fields.String()
    seed = fields.String()


class VersionSchema(Schema):
    ruleset = fields.String(metadata={"example": "scoundrel-1"})
    deal = fields.String(metadata={"example": "deal-v1"})
    engine = fields.String()


class ApiRootLinksSchema(Schema):
    openapi = fields.String(metadata={"description": "the OpenAPI document of this API", "example": "/v1/openapi.json"})
    docs = fields.String(metadata={"description": "the API's docs (Swagger UI)", "example": "/v1/docs"})
    health = fields.String(metadata={"example": "/v1/health"})
    play = fields.String(metadata={"description": "the page to play a dealt game in a browser", "example": "/play"})
    boards = fields.String(metadata={"description": "the boards as pages", "example": "/boards"})
    daily = fields.String(metadata={"description": "today's daily as a page", "example": "/daily"})
    rules = fields.String(metadata={"description": "the ruleset as a page", "example": "/rules"})


class ApiRootSchema(VersionSchema):
    """The API's root (``/v1``, and ``/`` for a client that asks for JSON)."""

    name = fields.String(metadata={"example": "Scoundrel Referee"})
    links = fields.Nested(ApiRootLinksSchema)


class HealthSchema(Schema):
    status = fields.String()
    redis = fields.String()
    queues = fields.String()
    queue_depth = fields.Integer()
    replicas = fields.String()  # "short": fewer replicas than SCOUNDREL_WAIT_REPLICAS asks for
    ruleset = fields.String()
    deal = fields.String()
    engine = fields.String()
