"""The webhooks' events: one table names each, says what it tells and what its body holds.

Every place that names an event reads it here: the store records them
(its scripts get the names they record as ARGV from their Python wrappers,
and hold none themselves), ``store.webhooks.hooks.emit`` takes only these,
the API offers these names to a webhook, and ``docs/webhooks.md`` lists
them as this table does (a test holds the two alike).

A body is ``ENVELOPE`` (the event's name, its id and when it happened) and
the fields of the event's ``payload``.
"""

from dataclasses import dataclass

ENVELOPE = ("event", "id", "created_at")  # the fields every event's body starts with


@dataclass(frozen=True, eq=False)
class Event:
    """One kind of event: its ``name`` (what a webhook takes and a delivery's header says), what it
    ``tells`` (when it is sent), and its body's ``payload``: each field beyond the ``ENVELOPE`` and
    what it holds."""

    name: str
    tells: str
    payload: dict[str, str]


RUN_VERIFIED = "run.verified"
RUN_VOIDED = "run.voided"
RECORD_BEATEN = "record.beaten"
SEASON_ENDED = "season.ended"
TOURNAMENT_STARTED = "tournament.started"
TOURNAMENT_ENDED = "tournament.ended"
PLAYER_ERASED = "player.erased"
PLAYER_RENAMED = "player.renamed"
LEAGUE_WEEK_ENDED = "league.week_ended"
REWARD_GRANTED = "reward.granted"
REWARD_CLAIMED = "reward.claimed"

_RUN = "the run, as `GET /v1/runs/<id>` shows it to anyone"
_REWARD = "the reward as the inbox shows it: `id`, `source`, `rank`, `payload`, `granted_at`, `claimed_at`"
_TOURNAMENT = "the tournament: `id`, `title`, `variant`, `starts_at`, `ends_at`, `deals`, `scoring`"

# Every event a webhook may take, by name, in the order the docs list them.
EVENTS: dict[str, Event] = {event.name: event for event in (
    Event(RUN_VERIFIED, "a run's verdict is recorded by its worker and it is verified (a moderator's restore or "
                        "re-verification sends none)", {"run": _RUN}),
    Event(RUN_VOIDED, "a moderator voids a run (resolving a dispute with `void`, or at the desk with no dispute)",
          {"run": _RUN + ", now void"}),
    Event(RECORD_BEATEN, "a verified run takes first place on a board from another player: one event per board",
          {"run": "the new holder's run, as `GET /v1/runs/<id>` shows it to anyone",
           "board": "the board: its `kind` and its JSON's `path`",
           "previous": "who held first place: `player` and `score` (on a ladder, `mean`)",
           "holder": "who holds it now: `player` and `score` (on a ladder, `mean`)"}),
    Event(SEASON_ENDED, "a season ends: the call that closes it tells the webhooks, once",
          {"season": "the season as `GET /v1/seasons` shows it"}),
    Event(TOURNAMENT_STARTED, "a tournament's start has come: the workers' periodic pass tells it, once",
          {"tournament": _TOURNAMENT}),
    Event(TOURNAMENT_ENDED, "a tournament has ended, closed, and no run of it waits for a verdict: its final "
                            "standings, once",
          {"tournament": _TOURNAMENT,
           "standings": "`total` and the first 100 entries, as `GET /v1/tournaments/<id>/standings` shows them"}),
    Event(PLAYER_ERASED, "a player was erased on request: erase every copy of theirs",
          {"player": "the player's name as they were registered",
           "pseudonym": "the pseudonym their kept places show now",
           "links": "the studios' accounts linked to them: `issuer` and `subject` each"}),
    Event(PLAYER_RENAMED, "a moderator renamed a player (a forced rename): their runs, places and accounts carry "
                          "over to the new name",
          {"player": "the player's new name", "previous": "the name they had",
           "links": "the studios' accounts linked to them: `issuer` and `subject` each"}),
    Event(LEAGUE_WEEK_ENDED, "a league week has ended: one event a cohort, with its final standings, promotions "
                             "and demotions, once",
          {"week": "the week", "cohort": "the cohort's number", "tier": "its tier's name",
           "entrants": "how many joined it", "standings": "each entrant's `rank` (null: no run), `player` and "
                                                          "`zone` (`up`, `stays`, `down`)",
           "promoted": "the players going up a tier", "demoted": "the players going down a tier"}),
    Event(REWARD_GRANTED, "a closed tournament, league week or season granted a player a reward, into their inbox "
                          "(again, with the new terms, when a void changes an unclaimed one), once",
          {"player": "the player granted it", "reward": _REWARD}),
    Event(REWARD_CLAIMED, "a player claimed a reward of their inbox, once",
          {"player": "the player who claimed it", "reward": _REWARD + ", `claimed_at` set"}),
)}


def named(name: str) -> Event:
    """The event called ``name``. Raises ``ValueError`` for a name not in ``EVENTS``."""
    try:
        return EVENTS[name]
    except KeyError:
        raise ValueError(f"unknown event {name!r}: one of {', '.join(EVENTS)}") from None
