"""A tournament's start and end in the store: told once each, the end closing its games first.

- **Start.** The workers' periodic pass (``worker.runner``) tells each
  tournament whose start has come (``tournament.started``), once: one script
  lists it as started and records the event (``lua/mark_once.lua``).
- **Close.** From its end no game of it takes a move (``play_moves.lua``
  compares the time with the game's close, R19). Closing it records that
  (``close_tournament.lua``) and forfeits each game of it still in play, and
  comes first whenever anything of its sealed decks is to be shown
  (``tournament_revealed``), as a sealed daily's close does (R18). The first
  close appends each sealed deck's ``reveal`` leaf to the public log.
- **End.** Once closed and without a run still waiting for its verdict, its
  standings are final: the periodic pass tells them (``tournament.ended``),
  once. A void afterwards still re-ranks its board (``domain.tournaments``);
  its page says the standings changed after the end. Its rewards are
  granted as it is told (``store.rewards``), and settled again after a void.
- **Ended early.** A moderator may end a running tournament now
  (``end_tournament``): its end moves to now, in its games in play's own
  copies too, it is closed at once, and the periodic pass settles and
  tells it as any other.
"""

from collections.abc import Callable

from domain.boards import tournament_board
from domain.events import TOURNAMENT_ENDED, TOURNAMENT_STARTED
from domain.run import tournament_seal
from domain.tournaments import Tournament, TournamentRefusal, deal_seed
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.packing import iso_time
from store.boards.pages import board_page, ranking
from store.games.dealt import forfeit_at_close
from store.log import reveal_leaf_parts
from store.queue import pending_run_ids
from store.sanctions.sanctions import END_TOURNAMENT, log_action
from store.tournaments import scripts
from store.tournaments.tournaments import load_tournament, load_tournaments, tournament_secret
from store.webhooks.hooks import wake_if_waiting
from store.webhooks.scripts import mark_once

PENDING_LOOKED_AT = 1000  # pending runs a pass looks through for a tournament's; more: its end waits
FINAL_PLACES = 100  # the places a ``tournament.ended`` event lists

_closed: set[str] = set()  # tournaments this process has closed: a tournament once closed stays closed


def close_tournament(db: Database, tournament: Tournament) -> None:
    """Close ``tournament`` (it has ended, R19): mark it closed, so that no game of it takes a move from
    then on, and forfeit each game of it still in play. Idempotent; once a process."""
    if tournament.id in _closed:
        return
    playing = keys.tournament_playing(tournament.id)
    seeds = [deal_seed(tournament_secret(db, tournament), tournament.id, deal)
             for deal in range(1, tournament.deals + 1)]
    reveals = reveal_leaf_parts(tournament_seal(tournament.id), seeds, now_ms())
    for game_id in scripts.close_tournament(db.redis, tournament_id=tournament.id, reveals=reveals):
        forfeit_at_close(db, game_id, playing)
    _closed.add(tournament.id)


def end_tournament(db: Database, tournament_id: str, moderator: str, reason: str) -> Tournament:
    """End a running tournament now (``moderator``, for ``reason``): its end, and each of its games in play's
    copy of it, move to now; it is closed, its games in play forfeited (R19), and the action is in the
    moderators' log. The workers' periodic pass then settles and tells it (``tell_ended``) as one that
    ended on time. The tournament as it is now; ``NoSuchTournament``, or ``TournamentRefusal`` (``ended``,
    ``not_started``)."""
    load_tournament(db, tournament_id)
    at = now_ms()
    outcome = scripts.end_tournament(db.redis, tournament_id=tournament_id, at_ms=at,
                                     game_ids=sorted(db.redis.smembers(keys.tournament_playing(tournament_id))))
    if outcome != "ended_now":
        raise TournamentRefusal(outcome)
    tournament = load_tournament(db, tournament_id)
    close_tournament(db, tournament)
    log_action(db, END_TOURNAMENT, "", moderator, at, tournament=tournament_id, title=tournament.title,
               reason=reason)
    return tournament


def tournament_revealed(db: Database, tournament_id: str) -> bool:
    """Whether the tournament's sealed decks may be shown now: it has ended, and is closed (recorded
    here first, so no game of it can move)."""
    if tournament_id in _closed:
        return True
    tournament = load_tournament(db, tournament_id)
    if now_ms() < tournament.ends_ms:
        return False
    close_tournament(db, tournament)
    return True


def summary(tournament: Tournament) -> dict:
    """The tournament as its events show it."""
    return {"id": tournament.id, "title": tournament.title, "variant": tournament.variant,
            "starts_at": iso_time(tournament.starts_ms), "ends_at": iso_time(tournament.ends_ms),
            "deals": tournament.deals, "scoring": tournament.scoring}


def tell_started(db: Database) -> list[Tournament]:
    """Tell each tournament whose start has come (``tournament.started``), once; those this call told."""
    at = now_ms()
    ids = db.redis.zrangebyscore(keys.tournaments_starting(), "-inf", at)
    told = []
    for tournament in load_tournaments(db, ids):
        if mark_once(db.redis, marks=keys.tournaments_started(), member=tournament.id, score=tournament.starts_ms,
                     event=TOURNAMENT_STARTED, at_ms=at, fields={"tournament": summary(tournament)}):
            told.append(tournament)
    if ids:
        db.redis.zrem(keys.tournaments_starting(), *ids)  # listed as started: no longer upcoming
    if told:
        wake_if_waiting(db)
    return told


def _unjudged(db: Database, tournament_ids: set[str]) -> set[str]:
    """Which of ``tournament_ids`` have a run waiting for its verdict (all of them when too many runs wait
    to look through)."""
    pending = pending_run_ids(db, PENDING_LOOKED_AT)
    if len(pending) == PENDING_LOOKED_AT:
        return tournament_ids
    with db.redis.pipeline(transaction=False) as pipe:
        for run_id in pending:
            pipe.hget(keys.run(run_id), "tournament")
        return tournament_ids & set(pipe.execute())


def final_standings(db: Database, tournament: Tournament) -> dict:
    """The head of a tournament's standings as its ``tournament.ended`` event tells them: ``total`` and
    the first ``FINAL_PLACES`` entries (the API's board entries)."""
    total, entries = board_page(db, ranking(tournament_board(tournament.id, tournament.scoring)), 0, FINAL_PLACES)
    return {"total": total, "entries": entries}


def tell_ended(db: Database, settle: Callable[[Database, Tournament], object]) -> list[Tournament]:
    """Close each tournament that has ended, and tell those whose standings are final (closed, no run
    of theirs waiting for a verdict) with them (``tournament.ended``), once; those this call told.
    ``settle`` grants an ended tournament's rewards before it is told (``store.competitions``, which
    reads the tournaments: handed in, so that the tournaments need not know of it)."""
    at = now_ms()
    ended = db.redis.zrangebyscore(keys.tournaments_ending(), "-inf", at)
    scores = db.redis.zmscore(keys.tournaments_ended(), ended) if ended else []
    untold = load_tournaments(db, [tournament_id for tournament_id, told in zip(ended, scores, strict=True)
                                   if told is None])
    for tournament in untold:
        close_tournament(db, tournament)
    waiting = _unjudged(db, {tournament.id for tournament in untold}) if untold else set()
    told = []
    for tournament in untold:
        if tournament.id in waiting:
            continue
        settle(db, tournament)  # before it is told: a pass cut short settles again, nothing twice
        fields = {"tournament": summary(tournament), "standings": final_standings(db, tournament)}
        if mark_once(db.redis, marks=keys.tournaments_ended(), member=tournament.id, score=tournament.ends_ms,
                     event=TOURNAMENT_ENDED, at_ms=at, fields=fields):
            told.append(tournament)
    if told:
        wake_if_waiting(db)
    return told
