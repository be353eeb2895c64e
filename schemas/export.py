"""A player's data exported whole (``GET /v1/players/<name>/export``): each part in the JSON the API shows it in
elsewhere, gathered in one document."""

from marshmallow import fields

from .base import Schema
from .following import FollowedSchema
from .games import GameSchema
from .leagues import LeagueWeekSchema
from .moderation import AuditEntrySchema, DisputeSchema
from .rewards import RewardSchema
from .runs import RunSchema, ShareSchema, Time
from .streaks import StreakSchema
from .tournaments import TournamentSchema


class LinkSchema(Schema):
    issuer = fields.String(metadata={"description": "the studio's token issuer (iss)"})
    subject = fields.String(metadata={"description": "the studio's account (sub) linked to the player"})


class AccountSchema(Schema):
    name = fields.String()
    created_at = Time(attribute="created_ms")
    links = fields.List(fields.Nested(LinkSchema), metadata={"description": "the studios' accounts that sign in "
                                                                            "as the player"})


class ExportedRunSchema(RunSchema):
    audit = fields.List(fields.Nested(AuditEntrySchema), metadata={"description": "the run's audit log, oldest first"})


class PlaceSchema(ShareSchema):
    board = fields.String(metadata={"description": "the board's JSON path"})
    page = fields.String(metadata={"description": "the board's page"})
    rank = fields.Integer()
    score = fields.Integer(allow_none=True, metadata={"description": "a best or first board's"})
    mean = fields.Float(allow_none=True, metadata={"description": "a ladder's"})
    games = fields.Integer(allow_none=True, metadata={"description": "a ladder's"})
    run_id = fields.String(allow_none=True)


class ExportSchema(Schema):
    exported_at = Time(attribute="exported_ms")
    player = fields.Nested(AccountSchema)
    runs = fields.List(fields.Nested(ExportedRunSchema), metadata={
        "description": "every run, newest first, with its moves, verdict and audit log (a sealed run's deal as "
                       "anyone sees it: hidden until its day is over)"})
    games_in_play = fields.List(fields.Nested(GameSchema), metadata={
        "description": "dealt games not over yet, as their player sees them (a finished game is a run)"})
    places = fields.List(fields.Nested(PlaceSchema), metadata={"description": "the player's place on each board "
                                                                             "their verified runs count on"})
    streak = fields.Nested(StreakSchema)
    following = fields.List(fields.Nested(FollowedSchema), metadata={"description": "the latest followed first"})
    followers = fields.List(fields.String(), metadata={"description": "the players who follow them"})
    disputes = fields.List(fields.Nested(DisputeSchema), metadata={"description": "the disputes they filed"})
    leagues = fields.List(fields.Nested(LeagueWeekSchema), metadata={"description": "their league weeks still "
                                                                                    "kept, latest first"})
    tournaments = fields.List(fields.Nested(TournamentSchema), metadata={"description": "the tournaments they "
                                                                                       "entered, with their entry"})
    rewards = fields.List(fields.Nested(RewardSchema), metadata={"description": "their inbox: the rewards their "
                                                                               "competitions granted them"})


class ErasedSchema(Schema):
    name = fields.String(metadata={"description": "the player erased, as they were registered"})
    erased = fields.Boolean(metadata={"description": "always true: the account and everything in Redis are gone"})
    finished = fields.Boolean(metadata={"description": "false while the archive's share (a very long history) "
                                                       "waits for the operator's scoundrel erase --finish"})


class ErasureActorSchema(Schema):
    kind = fields.String(metadata={"description": "player, server_key, moderator or cli"})
    name = fields.String(metadata={"description": "the server key's, moderator's or operator's name; for the player "
                                                  "themselves, their pseudonym"})


class ErasureEntrySchema(Schema):
    pseudonym = fields.String(metadata={"description": "the name the player's kept places show now"})
    erased_at = Time(attribute="at_ms")
    by = fields.Nested(ErasureActorSchema)


class ErasureLogSchema(Schema):
    total = fields.Integer()
    entries = fields.List(fields.Nested(ErasureEntrySchema), metadata={"description": "newest first"})
