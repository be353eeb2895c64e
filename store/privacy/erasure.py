"""A player erased on request (``DELETE /v1/players/<name>``, ``scoundrel erase``): their account, tokens,
links, runs, games, places, streak, follows, disputes, league weeks and tournament entries go, from Redis and
the archive alike, and the name with them.

Places are removed and the boards close the gap, but where standings are
history that others' places are read against, a closed season's boards
(frozen, ``store.boards.seasons``) and a closed day's sealed board: there
the place passes to a pseudonym, ``deleted-<n>``, with no run behind it
(``domain.pseudonyms``; ``scoundrel check`` knows such places).

An erasure is a walk of steps, each of which finds by the player's name
what is left to do, so running it again after a crash carries on: the
name and its pseudonym are noted first (``keys.erasures_begun``, the one
key naming the player until the end), then access is cut (the account,
its token and links go: nothing new arrives), then pending runs go (so
no verdict places one behind the walk), then places, then the secret of
the player's pseudonym in the public log, with the log's ``erase`` leaf of
it (``store.log.forget_player``), then runs and the rest.
The archive's runs go ``ARCHIVE_BATCH`` at a time: all of them in the
request up to ``ARCHIVE_INLINE``, more left to ``scoundrel erase
--finish`` (as the request's answer says). The name stays unregistrable
for a cool-off: its keyed hash is kept that long, never the name. The log
of erasures says when, by whom, and the pseudonym; not what was erased.
"""

import json
import logging
from collections.abc import Callable, Collection
from dataclasses import dataclass

from redis.exceptions import RedisError, ResponseError

from domain.boards import SEALED_BOARD, BoardId, boards_of
from domain.events import PLAYER_ERASED
from domain.pseudonyms import pseudonym
from domain.run import PENDING, Run
from domain.tournaments import MAX_DEALS
from store.accounts.players import PLAYERS, erased_name_key
from store.accounts.tokens import find_holder
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.listing import logged_page
from store.boards.cooling import board_lock, board_name
from store.boards.seasons import frozen_boards
from store.leagues.membership import history
from store.log import forget_player
from store.moderation.disputes import STATUSES
from store.privacy import personal_data, scripts
from store.queue.intake import entry_parts
from store.queue.queues import forget_carried_runs
from store.rewards.inbox import inbox
from store.tournaments.tournaments import note_revision
from store.webhooks.hooks import emit, forget_bodies_naming

ARCHIVE_BATCH = 1000  # archived runs deleted in one transaction
ARCHIVE_INLINE = 20_000  # archived runs a request erases itself; beyond, ``scoundrel erase --finish`` does
BOARD_BATCH = 100  # boards whose places one script call erases
KEYS_BATCH = 1000  # keys deleted, or SCAN asks for, at a time
LOG_KEPT = 100_000  # erasures the log keeps, newest first

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Erasure:
    """An erasure begun: the player (as registered), the pseudonym their kept places pass to, and the studios'
    accounts linked to them (issuer → ``sub``), which their ``player.erased`` event names."""

    player: str
    pseudonym: str
    links: dict[str, str]


@dataclass(frozen=True)
class Erased:
    """What an erasure did: the runs it erased (archived ones included), and whether archived runs are left
    (``finish_erasures`` erases them)."""

    player: str
    runs: int
    archive_left: bool


def _erasure(player: str, noted: str) -> Erasure:
    held = json.loads(noted)
    return Erasure(player, held["pseudonym"], held["links"])


def begun(db: Database, name: str) -> Erasure | None:
    """The erasure of ``name`` (exactly as registered) begun and not finished, or None."""
    noted = db.redis.hget(keys.erasures_begun(), name)
    return _erasure(name, noted) if noted else None


def erased_meanwhile(db: Database, gone: Collection[str]) -> set[str]:
    """Of ``gone``, players whose runs retention wrote to the archive and then found gone from Redis, those
    being erased or erased: their account is gone, which an erasure cuts first.

    Such a run was erased from Redis by that erasure, whose archive step, finding rows by name, may have
    come before retention's write: the row is retention's to take out again. (A run another pass moved
    first is gone too, but its player has an account: its row is that pass's.)
    """
    return {player for player in gone if find_holder(db, PLAYERS, player) is None}


def begin_erasure(db: Database, player: str) -> Erasure:
    """Note the erasure of ``player`` (as registered) with a pseudonym of its own, or the one begun already."""
    if (found := begun(db, player)) is not None:
        return found
    named = pseudonym(db.redis.incr(keys.pseudonyms()))
    while find_holder(db, PLAYERS, named) is not None:  # a name an older release let someone register
        named = pseudonym(db.redis.incr(keys.pseudonyms()))
    links = db.redis.hgetall(keys.player_links(player))
    db.redis.hsetnx(keys.erasures_begun(), player, json.dumps({"pseudonym": named, "links": links}))
    return _erasure(player, db.redis.hget(keys.erasures_begun(), player))


def erase(db: Database, erasure: Erasure, by: tuple[str, str], cool_off_seconds: int,
          archive_inline: int | None = ARCHIVE_INLINE) -> Erased:
    """Erase the player of ``erasure`` (``begin_erasure``) for ``by`` (who asked: their kind and name). Up to
    ``archive_inline`` archived runs go too (None: all), and then the erasure is finished: logged, told
    (``player.erased``), the name resting ``cool_off_seconds``, and out of the files; else ``archive_left``."""
    erased = _erase(db, erasure, by, cool_off_seconds, archive_inline)
    if not erased.archive_left:
        _leave_the_files(db)
    return erased


def finish_erasures(db: Database, by: tuple[str, str], cool_off_seconds: int) -> list[Erased]:
    """Carry every erasure begun and not finished to its end, whatever the size of its archive's share
    (``scoundrel erase --finish``), and then out of the files, all of them at once (Redis rewrites its
    append-only file once: a rewrite asked for while one runs is refused)."""
    finished = [_erase(db, _erasure(player, noted), by, cool_off_seconds, archive_inline=None)
                for player, noted in sorted(db.redis.hgetall(keys.erasures_begun()).items())]
    if finished:
        _leave_the_files(db)
    return finished


def _erase(db: Database, erasure: Erasure, by: tuple[str, str], cool_off_seconds: int,
           archive_inline: int | None) -> Erased:
    """``erase`` but for the files."""
    player = erasure.player
    _cut_access(db, player, erasure.links, cool_off_seconds)
    runs = [run for batch in personal_data.run_batches(db, player) for run in batch]
    _drop_pending(db, runs)
    _erase_places(db, erasure, runs)
    forget_player(db, player, now_ms())  # the public log's erase leaf; its pseudonym then names no one
    for run in {run.tournament: run for run in runs if run.tournament}.values():
        note_revision(db, run)  # an ended tournament's standings say they changed
    _erase_games(db, player, runs)
    _erase_runs(db, player, [run.id for run in runs])
    _erase_ties(db, erasure)
    forget_bodies_naming(db, player)
    archived = _erase_archived(db, player, archive_inline)
    if archived is not None:
        _finish(db, erasure, by)
    return Erased(player, len(runs), archived is None)


def erasure_log(db: Database, offset: int, limit: int) -> tuple[int, list[dict]]:
    """``(total, entries)``: the erasures finished, newest first: when, by whom, the pseudonym."""
    return logged_page(db, keys.erasure_log(), offset, limit)


def _cut_access(db: Database, player: str, links: dict[str, str], cool_off_seconds: int) -> None:
    """The account, its token and its links go (no request acts as the player any more), and the name rests."""
    token_hash = db.redis.hget(keys.player(player), "token_hash")
    spelling_held = db.redis.get(keys.player_name(player)) == player  # not an older namesake's in another case
    with db.redis.pipeline(transaction=True) as pipe:
        if token_hash:
            pipe.delete(keys.token(token_hash))
        if spelling_held:
            pipe.delete(keys.player_name(player))
        pipe.delete(keys.player(player), keys.player_links(player),
                    *(keys.external_link(issuer, subject) for issuer, subject in links.items()))
        if cool_off_seconds > 0:
            pipe.set(erased_name_key(db, player), "1", ex=cool_off_seconds)
        pipe.execute()


def _drop_pending(db: Database, runs: list[Run]) -> None:
    """The pending runs go first: a verdict on a run that is gone places nothing (``record_verdicts``).
    Those waiting in the intake leave it in the same step (the intake holds only runs that exist:
    ``store.queue.intake``), and the jobs a dispatcher queued for the others drop the copies of their hashes
    they carry (``store.queue.queues.forget_carried``; a job being queued in that moment keeps its copy until
    it has run, when RQ deletes it)."""
    pending = [run.id for run in runs if run.status == PENDING]
    if pending:
        # their entries in the intake (each names its request too); one a dispatcher takes meanwhile is
        # simply not there to remove, and its run is taken out of the pending runs and their jobs below
        erased = set(pending)
        waiting = [entry for entry in db.redis.lrange(keys.intake(), 0, -1) if entry_parts(entry)[0] in erased]
        with db.redis.pipeline(transaction=True) as pipe:
            pipe.hmget(keys.pending_jobs(), pending)
            pipe.delete(*map(keys.run, pending))
            pipe.zrem(keys.pending_runs(), *pending)
            pipe.hdel(keys.pending_jobs(), *pending)
            for entry in waiting:
                pipe.lrem(keys.intake(), 0, entry)
            noted, *_ = pipe.execute()
        try:
            forget_carried_runs(db, {entry_parts(job)[0] for job in noted if job}, erased)
        except RedisError as error:  # the queues' Redis away: the copies go as their jobs run
            log.warning("erased runs' copies left in their jobs", extra={"error": str(error)})


def _kept_boards(db: Database) -> Callable[[BoardId], bool]:
    """Which boards keep an erased player's place under their pseudonym: a closed season's, a closed day's
    sealed board."""
    frozen = frozen_boards(db)
    closed_days = db.redis.smembers(keys.sealed_closed())
    return lambda board: frozen(board) or (board.board is SEALED_BOARD and board.parts[0] in closed_days)


def _erase_places(db: Database, erasure: Erasure, runs: list[Run]) -> None:
    """The player's places on every board their runs count on, in Redis and the archive: removed, or passed
    to the pseudonym (``_kept_boards``). Under the boards' lock: no board moves between the two meanwhile."""
    boards = list(dict.fromkeys(board for run in runs for board in boards_of(run)))
    kept = _kept_boards(db)
    with board_lock(db):
        for start in range(0, len(boards), BOARD_BATCH):
            batch = boards[start:start + BOARD_BATCH]
            scripts.erase_places(db.redis, batch, [kept(board) for board in batch], player=erasure.player,
                                 pseudonym=erasure.pseudonym)
        db.archive.erase_places(erasure.player, erasure.pseudonym,
                                {(board.board.kind, board_name(board)) for board in boards if kept(board)})


def _erase_games(db: Database, player: str, runs: list[Run]) -> None:
    """The player's dealt games, in play or ended (kept a while), and the commitment of their next deal."""
    slots = db.redis.hgetall(keys.player_games_playing(player))
    game_ids = list({*slots.values(), *(run.game_id for run in runs if run.game_id)})
    days = {run.date for run in runs if run.date} | {slot.removeprefix("daily:") for slot in slots
                                                     if slot.startswith("daily:")}
    with db.redis.pipeline(transaction=False) as pipe:
        for game_id in game_ids:
            pipe.hmget(keys.game(game_id), "date", "tournament")
        held = pipe.execute()
    with db.redis.pipeline(transaction=True) as pipe:
        for game_id, (date, tournament) in zip(game_ids, held, strict=True):
            pipe.delete(keys.game(game_id))
            pipe.zrem(keys.games_playing(), game_id)
            if date:
                pipe.srem(keys.sealed_playing(date), game_id)
            if tournament:
                pipe.srem(keys.tournament_playing(tournament), game_id)
        pipe.delete(keys.player_games_playing(player), keys.next_deal(player), keys.streak(player),
                    *(keys.sealed_game(day, player) for day in days))
        pipe.execute()


def _erase_runs(db: Database, player: str, run_ids: list[str]) -> None:
    """The player's runs in Redis, their list and their flags' index (the archived ones: ``_erase_archived``)."""
    for start in range(0, len(run_ids), KEYS_BATCH):
        batch = run_ids[start:start + KEYS_BATCH]
        with db.redis.pipeline(transaction=True) as pipe:
            pipe.delete(*map(keys.run, batch), *map(keys.run_flags, batch))
            pipe.zrem(keys.pending_runs(), *batch)
            pipe.execute()
    db.redis.delete(keys.player_runs(player))
    db.redis.zrem(keys.run_players(), player)
    for pattern in (keys.submission(player, "*"), keys.idempotency(player, "*")):
        _delete_matching(db, pattern)


def _delete_matching(db: Database, pattern: str) -> None:
    found = list(db.redis.scan_iter(match=pattern, count=KEYS_BATCH))
    for start in range(0, len(found), KEYS_BATCH):
        db.redis.delete(*found[start:start + KEYS_BATCH])


def _erase_ties(db: Database, erasure: Erasure) -> None:
    """What ties the player to others: whom they follow and who follows them, the disputes they filed, their
    league weeks and tournament entries, their rewards; and the moderators' flags name the pseudonym instead."""
    player = erasure.player
    followers = personal_data.followers(db, player)
    disputes = personal_data.disputes_filed(db, player)
    tournaments = personal_data.tournaments_entered(db, player)
    weeks = history(db, player)
    rewarded = inbox(db, player)
    with db.redis.pipeline(transaction=True) as pipe:
        pipe.delete(keys.following(player), keys.league_history(player), keys.clairvoyance_tallies(player),
                    keys.live_events(player), keys.inbox(player))
        for reward in rewarded:
            pipe.hdel(keys.rewards_granted(reward.source), player)
        for follower in followers:
            pipe.zrem(keys.following(follower), player)
        for dispute in disputes:
            pipe.delete(keys.dispute(dispute["id"]))
            for status in STATUSES:
                pipe.zrem(keys.disputes(status), dispute["id"])
        for week in weeks:
            pipe.hdel(keys.league_members(week.week), player)
            pipe.hdel(keys.live_zones(week.week), player)
            pipe.lrem(keys.league_cohort(week.week, str(week.cohort)), 0, player)
        for tournament in tournaments:
            pipe.zrem(keys.tournament_entrants(tournament), player)
            pipe.hdel(keys.tournament_attempts(tournament), *(f"{player}:{deal}" for deal in range(MAX_DEALS + 1)))
        pipe.execute()
    _rename_in_flags(db, erasure)


def _rename_in_flags(db: Database, erasure: Erasure) -> None:
    """Flags naming the player name the pseudonym (a flag is the moderators' record of what was seen), and
    the sealed daily's per-address notes of who started from where forget them."""
    flag_ids = db.redis.zrange(keys.flags(), 0, -1)
    with db.redis.pipeline(transaction=False) as pipe:
        for flag_id in flag_ids:
            pipe.hget(keys.flag(flag_id), "players")
        named = pipe.execute()
    with db.redis.pipeline(transaction=True) as pipe:
        for flag_id, players in zip(flag_ids, named, strict=True):
            if players and erasure.player in players.split():
                pipe.hset(keys.flag(flag_id), "players", " ".join(
                    erasure.pseudonym if name == erasure.player else name for name in players.split()))
        for key in db.redis.scan_iter(match=keys.flag_address("*", "*"), count=KEYS_BATCH):
            pipe.hdel(key, erasure.player)
        pipe.execute()


def _erase_archived(db: Database, player: str, most: int | None) -> int | None:
    """The player's archived runs, ``ARCHIVE_BATCH`` a transaction: how many went, or None if more than
    ``most`` are there (none is erased then: the whole share is left to ``finish_erasures``)."""
    if most is not None and db.archive.player_count(player) > most:
        return None
    erased = 0
    while (batch := db.archive.erase_runs(player, ARCHIVE_BATCH)):
        erased += batch
    return erased


def _finish(db: Database, erasure: Erasure, by: tuple[str, str]) -> None:
    """The erasure logged (never the name), told to the studios' webhooks (who must erase their copies: the
    name, its studios' accounts and the pseudonym), and its begun mark, the last key naming the player, gone."""
    at = now_ms()
    entry = {"pseudonym": erasure.pseudonym, "at_ms": at, "by": {"kind": by[0], "name": by[1]}}
    with db.redis.pipeline(transaction=True) as pipe:
        pipe.lpush(keys.erasure_log(), json.dumps(entry))
        pipe.ltrim(keys.erasure_log(), 0, LOG_KEPT - 1)
        pipe.execute()
    emit(db, PLAYER_ERASED, {"player": erasure.player, "pseudonym": erasure.pseudonym,
                             "links": [{"issuer": issuer, "subject": subject}
                                       for issuer, subject in sorted(erasure.links.items())]})
    db.redis.hdel(keys.erasures_begun(), erasure.player)


def _leave_the_files(db: Database) -> None:
    """What the erasure deleted, out of the files that still hold it: the archive's (``Archive.settle_erasure``)
    and Redis' append-only file. Neither is the erasure's to wait for, nor to fail on: what is left, and
    until when, is logged (docs/integrators.md)."""
    if not db.archive.settle_erasure():
        log.warning("erasure: a reader held the archive's write-ahead log; the next checkpoint empties it")
    _rewrite_append_only_file(db)


def _rewrite_append_only_file(db: Database) -> None:
    """Redis asked to rewrite its append-only file (if it keeps one), which holds every write since its last
    rewrite, the erased player's among them: the rewritten file holds what is in Redis now. One already
    running began before the erasure and holds the player: the next rewrite is the one that drops them. A
    Redis that refuses the command (a managed one may) is logged, the erasure done all the same."""
    try:
        if int(db.redis.info("persistence").get("aof_enabled", 0)):
            db.redis.bgrewriteaof()
    except ResponseError as error:  # "already in progress": Redis takes no second one meanwhile
        log.warning("erasure: Redis' append-only file not rewritten (%s); its next rewrite drops the player", error)
