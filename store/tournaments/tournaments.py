"""Tournaments in the store: one hash each, listed by start and by end, their entrants and attempts.

A tournament is created whole in one transaction (its hash, its places in
``tournaments_starting`` and ``tournaments_ending``); its id is a number
counted by ``tournament_ids``. The hash holds the secret its sealed decks
are dealt from (``domain.tournaments.deal_seed``): only ``tournament_secret``
reads it, for a start and for the deals shown once it is closed.

Joining and starting a game are one script each (``join_tournament.lua``,
``start_tournament_game.lua``): the window, the cap on entrants, the one game
in play and the attempts are checked in the step that changes them, so two
racing starts never both take a tournament's last place or an entrant's
last attempt.
"""

import json
import secrets
from dataclasses import dataclass

from domain.game import Game, slot_of
from domain.leagues import counts
from domain.numerals import is_ascii_number
from domain.rewards import LEAGUE_SOURCE, TOURNAMENT_SOURCE, Band, bands_json, bands_of, source_id
from domain.run import Run
from domain.seasons import parse_season
from domain.tournaments import (
    FULL,
    GAME_IN_PLAY,
    NOT_JOINED,
    NOT_STARTED,
    RUNNING,
    TOURNAMENT,
    TOURNAMENT_ENDED,
    UPCOMING,
    NoSuchTournament,
    Tournament,
    TournamentRefusal,
    attempt_deal,
    deal_seed,
)
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.games.dealt import new_game, new_game_fields, new_game_id
from store.tournaments import scripts

SECRET_BYTES = 32
START_TRIES = 3  # starts read again when a racing start of the same entrant changed their attempts

_REFUSED = {"ended": TOURNAMENT_ENDED, "not_started": NOT_STARTED, "not_joined": NOT_JOINED, "full": FULL}


def stored_tournament(tournament: Tournament) -> dict[str, str]:
    """A tournament's fields as its hash keeps them (its secret apart): for a creation and a schedule's."""
    fields = {"title": tournament.title, "variant": tournament.variant, "starts_ms": tournament.starts_ms,
              "ends_ms": tournament.ends_ms, "join_required": "1" if tournament.join_required else "",
              "max_entrants": "" if tournament.max_entrants is None else tournament.max_entrants,
              "max_attempts": tournament.max_attempts, "deals": tournament.deals, "scoring": tournament.scoring,
              "created_by": tournament.created_by, "created_ms": tournament.created_ms,
              "rewards": bands_json(tournament.rewards), "schedule": tournament.schedule or ""}
    return {name: str(value) for name, value in fields.items()}


def _tournament(tournament_id: str, fields: dict[str, str]) -> Tournament:
    return Tournament(
        id=tournament_id, title=fields["title"], variant=fields["variant"], starts_ms=int(fields["starts_ms"]),
        ends_ms=int(fields["ends_ms"]), join_required=fields["join_required"] == "1",
        max_entrants=int(fields["max_entrants"]) if fields["max_entrants"] else None,
        max_attempts=int(fields["max_attempts"]), deals=int(fields["deals"]), scoring=fields["scoring"],
        created_by=fields["created_by"], created_ms=int(fields["created_ms"]),
        rewards=bands_of(json.loads(fields.get("rewards") or "[]")), schedule=fields.get("schedule") or None)


def create_tournament(db: Database, *, title: str, variant: str, starts_ms: int, ends_ms: int,
                      join_required: bool, max_entrants: int | None, max_attempts: int, deals: int, scoring: str,
                      created_by: str, rewards: tuple[Band, ...] = ()) -> Tournament:
    """Store a new tournament (its fields checked by the caller's schema); the tournament as stored."""
    tournament = Tournament(str(db.redis.incr(keys.tournament_ids())), title, variant, starts_ms, ends_ms,
                            join_required, max_entrants, max_attempts, deals, scoring, created_by, now_ms(), rewards)
    with db.redis.pipeline(transaction=True) as pipe:
        pipe.hset(keys.tournament(tournament.id),
                  mapping={**stored_tournament(tournament), "secret": secrets.token_hex(SECRET_BYTES)})
        pipe.zadd(keys.tournaments_starting(), {tournament.id: starts_ms})
        pipe.zadd(keys.tournaments_ending(), {tournament.id: ends_ms})
        pipe.execute()
    return tournament


def load_tournament(db: Database, tournament_id: str) -> Tournament:
    """The tournament; ``NoSuchTournament`` if there is none."""
    fields = db.redis.hgetall(keys.tournament(tournament_id)) if is_ascii_number(tournament_id) else {}
    if not fields:
        raise NoSuchTournament(tournament_id)
    return _tournament(tournament_id, fields)


def tournament_secret(db: Database, tournament: Tournament) -> str:
    """The secret its sealed decks are dealt from: for a start, and to show its decks once it is closed."""
    return db.redis.hget(keys.tournament(tournament.id), "secret")


def tournaments_in(db: Database, state: str, offset: int, limit: int) -> tuple[int, list[Tournament]]:
    """``(total, tournaments)`` in ``state`` now: upcoming soonest first, running and ended by their end,
    the running soonest first and the ended latest first; ``limit`` of them from ``offset``."""
    at = now_ms()
    if state == UPCOMING:
        key, low, high, reverse = keys.tournaments_starting(), f"({at}", "+inf", False
    elif state == RUNNING:
        key, low, high, reverse = keys.tournaments_ending(), f"({at}", "+inf", False
    else:
        key, low, high, reverse = keys.tournaments_ending(), "-inf", str(at), True
    if state == RUNNING:  # running: not ended, and started; few at once, so filtered here
        ids = [tournament_id for tournament_id, starts in _starts(db, db.redis.zrangebyscore(key, low, high))
               if starts <= at]
        total, ids = len(ids), ids[offset:offset + limit]
    else:
        with db.redis.pipeline(transaction=False) as pipe:
            pipe.zcount(key, low, high)
            if reverse:
                pipe.zrevrangebyscore(key, high, low, start=offset, num=limit)
            else:
                pipe.zrangebyscore(key, low, high, start=offset, num=limit)
            total, ids = pipe.execute()
    return total, load_tournaments(db, ids)


def _starts(db: Database, ids: list[str]) -> list[tuple[str, int]]:
    scores = db.redis.zmscore(keys.tournaments_starting(), ids) if ids else []
    return [(tournament_id, int(score or 0)) for tournament_id, score in zip(ids, scores, strict=True)]


def load_tournaments(db: Database, ids: list[str]) -> list[Tournament]:
    """The tournaments of ``ids`` in one round trip, in that order (those gone left out)."""
    with db.redis.pipeline(transaction=False) as pipe:
        for tournament_id in ids:
            pipe.hgetall(keys.tournament(tournament_id))
        found = pipe.execute()
    return [_tournament(tournament_id, fields) for tournament_id, fields in zip(ids, found, strict=True) if fields]


def join_tournament(db: Database, tournament: Tournament, player: str) -> bool:
    """Join ``player`` to ``tournament``: True if newly, False if they had joined.
    ``TournamentRefusal`` (ended, full) otherwise."""
    reply = scripts.join_tournament(db.redis, tournament_id=tournament.id, player=player, at_ms=now_ms(),
                                    ends_ms=tournament.ends_ms, max_entrants=tournament.max_entrants)
    if reply[0] != "joined":
        raise TournamentRefusal(_REFUSED[reply[0]])
    return bool(reply[1])


@dataclass(frozen=True)
class Entry:
    """A player's part in a tournament: joined or not, their attempts used on each deal (``used[0]`` in
    all for fresh decks, else ``used[d - 1]`` on deal ``d``), and their game of it in play, if any."""

    joined: bool
    used: list[int]
    in_play: str | None


def entry_of(db: Database, tournament: Tournament, player: str) -> Entry:
    """``player``'s entry in ``tournament``."""
    deals = range(1, tournament.deals + 1) if tournament.sealed else [0]
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.zscore(keys.tournament_entrants(tournament.id), player)
        pipe.hmget(keys.tournament_attempts(tournament.id), [f"{player}:{deal}" for deal in deals])
        pipe.hget(keys.player_games_playing(player), slot_of(tournament.variant, "", tournament.id))
        joined, used, in_play = pipe.execute()
    return Entry(joined is not None, [int(count or 0) for count in used], in_play)


@dataclass(frozen=True)
class Progress:
    """How far a tournament has come: its entrants, whether its end was told with final standings, and
    when a void, restore or re-verification last changed its board after its end (None: never)."""

    entrants: int
    final: bool
    revised_ms: int | None


def progress_of(db: Database, tournament: Tournament) -> Progress:
    """``tournament``'s progress, in one round trip."""
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.zcard(keys.tournament_entrants(tournament.id))
        pipe.zscore(keys.tournaments_ended(), tournament.id)
        pipe.hget(keys.tournament(tournament.id), "revised_ms")
        count, told, revised = pipe.execute()
    return Progress(count, told is not None, int(revised) if revised else None)


def note_revision(db: Database, run: Run) -> None:
    """Record that a void, restore or re-verification of ``run`` changed its tournament's board, if it
    is a tournament's run and the tournament has ended (its standings then say so, and its rewards are
    settled again: ``store.competitions``); a league week's run, after the week, likewise."""
    at = now_ms()
    if counts(run) and at >= parse_season(run.week).ends_ms:
        db.redis.zadd(keys.rewards_unsettled(), {source_id(LEAGUE_SOURCE, f"{run.week}:{run.player}"): at})
    if run.tournament is None:
        return
    ends = db.redis.hget(keys.tournament(run.tournament), "ends_ms")
    if ends is not None and at >= int(ends):
        db.redis.hset(keys.tournament(run.tournament), "revised_ms", at)
        db.redis.zadd(keys.rewards_unsettled(), {source_id(TOURNAMENT_SOURCE, run.tournament): at})


def start_tournament_game(db: Database, tournament: Tournament, player: str, fresh_seed: str,
                          deal: int | None = None) -> Game:
    """Deal ``player`` a game of ``tournament``: of its sealed deck ``deal`` (None: the first with an
    attempt left), or of ``fresh_seed`` for a tournament of fresh decks. The game as stored.

    Raises ``TournamentRefusal`` for each rule it breaks (``domain.tournaments``), with the game in
    play for ``game_in_play``.
    """
    for _ in range(START_TRIES):
        entry = entry_of(db, tournament, player)
        if entry.in_play is not None:
            raise TournamentRefusal(GAME_IN_PLAY, entry.in_play)
        used = entry.used
        dealt_from = attempt_deal(tournament, used, deal)
        seed = deal_seed(tournament_secret(db, tournament), tournament.id, dealt_from) if dealt_from else fresh_seed
        game_id, created = new_game_id(), now_ms()
        fields = new_game_fields(player, tournament.variant, seed, created, challenge=TOURNAMENT,
                                 tournament=tournament.id, tournament_ends_ms=tournament.ends_ms, deal=dealt_from,
                                 scoring=tournament.scoring)
        reply = scripts.start_tournament_game(
            db.redis, tournament_id=tournament.id, player=player, at_ms=created, starts_ms=tournament.starts_ms,
            ends_ms=tournament.ends_ms, join_required=tournament.join_required,
            max_entrants=tournament.max_entrants, attempts_field=f"{player}:{dealt_from}",
            attempts_read=used[max(0, dealt_from - 1)], game_id=game_id,
            slot=slot_of(tournament.variant, "", tournament.id), fields=fields)
        if reply[0] == "new":
            return new_game(game_id, fields)
        if reply[0] == "existing":
            raise TournamentRefusal(GAME_IN_PLAY, reply[1])
        if reply[0] != "attempts":
            raise TournamentRefusal(_REFUSED[reply[0]])
    raise TournamentRefusal(GAME_IN_PLAY)  # every try raced another start of the same entrant

