"""A moderator's forced rename of a player (``POST /v1/players/<name>/rename``, ``scoundrel player rename``): every
key, board member and field that names the player moves to the new name, and the old name rests as an erased
one does (``store.accounts.players.resting_until``).

The store names a player by their name almost everywhere (their account and
token, runs, places on every board, follows both ways, studio links, streak,
games, league weeks, tournament entries, rewards, sanctions, reports,
disputes, flags, the public log's secret), so a rename walks what an erasure
walks (``personal_data`` finds it) and moves each piece instead of deleting
it. Places move member for member with their rank keys, so every board is
the same, place for place, under the new name: no recompute, a closed
season's frozen board included.

Redis' share is one script (``lua/rename_player.lua``), whole or not at all,
under the boards' lock (no board moves to or from the archive meanwhile). The
archive's share (archived runs and board places) follows it, noted in between
(``keys.renames_begun``), so a rename stopped between the two is carried on by
asking for it again (``rename_player`` with the old name).
"""

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from domain.errors import NameResting, NameTaken
from domain.events import PLAYER_RENAMED
from domain.pseudonyms import renamed_name
from domain.run import OPEN as OPEN_RUN
from domain.run import Run
from domain.tournaments import MAX_DEALS
from store.accounts.players import PLAYERS, erased_name_key, find_player, resting_until
from store.accounts.tokens import find_holder
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.boards.cooling import board_lock
from store.leagues.membership import history
from store.log.leaves import SECRETS as LOG_SECRETS
from store.log.leaves import drop_kept
from store.privacy import personal_data, scripts
from store.rewards.inbox import inbox
from store.runs.accepting import fingerprint, open_run_id
from store.runs.records import load_runs
from store.sanctions.places import boards_played
from store.sanctions.reports import CLOSED, PLAYER, Target
from store.sanctions.reports import OPEN as REPORT_OPEN
from store.sanctions.sanctions import RENAME
from store.webhooks.hooks import emit

SCAN_BATCH = 1000


@dataclass(frozen=True)
class Renamed:
    """A forced rename done: the name the player had and the one they have now."""

    previous: str
    player: str


@dataclass
class Moves:
    """The moves of one rename, as ``lua/rename_player.lua`` reads them: each a kind, its keys and its values."""

    keys: list[str] = field(default_factory=list)
    values: list[str] = field(default_factory=list)
    count: int = 0

    def add(self, kind: str, named: list[str], *values: object) -> None:
        self.keys += named
        self.values += [kind, *map(str, values)]
        self.count += 1

    def key(self, old: str, new: str) -> None:
        if old != new:
            self.add("key", [old, new])

    def member(self, key: str, old: str, new: str) -> None:
        self.add("member", [key], old, new)

    def field(self, key: str, old: str, new: str) -> None:
        self.add("field", [key], old, new)


def next_default_name(db: Database) -> str:
    """A ``player-<n>`` no one holds, for a rename whose moderator chose no name."""
    named = renamed_name(db.redis.incr(keys.renamed_players()))
    while find_holder(db, PLAYERS, named) is not None:  # someone registered that name themselves
        named = renamed_name(db.redis.incr(keys.renamed_players()))
    return named


def unfinished(db: Database, name: str) -> Renamed | None:
    """A rename of ``name`` (in any case) whose archive share is still to do, or None."""
    for previous, player in db.redis.hgetall(keys.renames_begun()).items():
        if previous.lower() == name.lower():
            return Renamed(previous, player)
    return None


def rename(db: Database, name: str, new: str | None, moderator: str, cool_off_seconds: int,
           allowed: Callable[[str], object]) -> Renamed | None:
    """Rename the player ``name`` names (in any case) to ``new``, or to the next free ``player-<n>``: None for no
    such player. A rename of ``name`` stopped midway is finished instead, whatever ``new`` says. ``allowed``
    refuses a name the name policy refuses (``NameNotAllowed``) before anything changes; a name resting after
    an erasure or a rename is ``NameResting``, one someone else holds ``NameTaken``."""
    if (stopped := unfinished(db, name)) is not None:
        return finish_rename(db, stopped)
    player = find_player(db, name)
    if player is None:
        return None
    new = new or next_default_name(db)
    allowed(new)
    if new.lower() != player.lower() and (until := resting_until(db, new)) is not None:
        raise NameResting(new, until)
    return rename_player(db, player, new, moderator, cool_off_seconds)


def rename_player(db: Database, player: str, new: str, moderator: str, cool_off_seconds: int) -> Renamed | None:
    """Rename ``player`` (as registered) to ``new``: all theirs moves, the old name rests ``cool_off_seconds``
    (a name changed only in case does not), the moderators' log says who did it, and the webhooks are told
    (``player.renamed``). None if the player is gone meanwhile (erased); ``NameTaken`` for a ``new`` someone
    else holds (in any case)."""
    with board_lock(db):
        moves = _moves(db, player, new, moderator, cool_off_seconds)
        answer = scripts.rename_player(db.redis, player, new, moves.keys, moves.values, moves.count)
        if answer == "gone":
            return None
        if answer == "taken":
            raise NameTaken(new, find_player(db, new))
        drop_kept(player, new)  # this process's copies of the public log's secrets under either name
        return finish_rename(db, Renamed(player, new))


def finish_rename(db: Database, renamed: Renamed) -> Renamed:
    """The archive's share of a rename (its runs and board places under the new name), the webhooks told (the
    studios' accounts linked to the player with it), then the rename's note gone: a rename stopped before
    that is finished, and told, by asking for it again."""
    db.archive.rename_player(renamed.previous, renamed.player)
    links = db.redis.hgetall(keys.player_links(renamed.player))
    emit(db, PLAYER_RENAMED, {"player": renamed.player, "previous": renamed.previous,
                              "links": [{"issuer": issuer, "subject": subject}
                                        for issuer, subject in sorted(links.items())]})
    db.redis.hdel(keys.renames_begun(), renamed.previous)
    return renamed


def _moves(db: Database, old: str, new: str, moderator: str, cool_off_seconds: int) -> Moves:
    """Every move of the rename of ``old`` to ``new``, found first: the script makes them all or none."""
    moves = Moves(keys=[keys.player(old), keys.player(new), keys.player_name(new)])
    _account(db, moves, old, new, cool_off_seconds)
    run_ids = [str(run_id) for run_id in db.redis.zrange(keys.player_runs(old), 0, -1)]
    _runs(db, moves, old, new, run_ids, [run for run in load_runs(db, run_ids) if run is not None])
    _places(db, moves, old, new)
    _ties(db, moves, old, new)
    moves.add("put_field", [keys.renames_begun()], old, new)
    moves.add("log", [keys.moderation_log()], json.dumps(
        {"action": RENAME, "player": new, "previous": old, "moderator": moderator, "at_ms": now_ms()}))
    return moves


def _account(db: Database, moves: Moves, old: str, new: str, cool_off_seconds: int) -> None:
    """The account, its token, its studios' links, its public log secret; the old name resting."""
    token_hash = db.redis.hget(keys.player(old), "token_hash")
    moves.key(keys.player(old), keys.player(new))
    moves.add("set_field", [keys.player(new)], "name", new)
    if token_hash:
        moves.add("set", [keys.token(token_hash)], new)
    if db.redis.get(keys.player_name(old)) == old:  # not an older namesake's in another case
        moves.add("drop", [keys.player_name(old)])
    moves.add("set_new", [keys.player_name(new)], new)
    moves.key(keys.player_links(old), keys.player_links(new))
    for issuer, subject in db.redis.hgetall(keys.player_links(old)).items():
        moves.add("set", [keys.external_link(issuer, subject)], new)
    moves.field(LOG_SECRETS, old, new)
    if cool_off_seconds > 0 and old.lower() != new.lower():
        moves.add("rest", [erased_name_key(db, old)], cool_off_seconds)


def _runs(db: Database, moves: Moves, old: str, new: str, run_ids: list[str], runs: list[Run]) -> None:
    """The runs in Redis and their indexes; each open run sent again under the new name finds its run; the
    dealt games, in play or ended, their slots and the player's next deal and streak."""
    moves.key(keys.player_runs(old), keys.player_runs(new))
    moves.member(keys.run_players(), old, new)
    for run_id in run_ids:
        moves.add("set_field", [keys.run(run_id)], "player", new)
    for family in (keys.submission, keys.idempotency):
        prefix = family(old, "")
        for key in db.redis.scan_iter(match=family(old, "*"), count=SCAN_BATCH):
            moves.key(key, family(new, key.removeprefix(prefix)))
    for run in runs:
        if run.origin != OPEN_RUN or run.seed is None or run.moves is None:
            continue
        printed = fingerprint(run.seed, run.variant, list(run.moves))
        if run.id == open_run_id(old, printed):
            moves.add("set_new", [keys.submission(new, printed)], run.id)
    slots = db.redis.hgetall(keys.player_games_playing(old))
    for game_id in {*slots.values(), *(run.game_id for run in runs if run.game_id)}:
        moves.add("set_field", [keys.game(game_id)], "player", new)
    days = {run.date for run in runs if run.date} | {slot.removeprefix("daily:") for slot in slots
                                                     if slot.startswith("daily:")}
    for day in days:
        moves.key(keys.sealed_game(day, old), keys.sealed_game(day, new))
    for owned in (keys.player_games_playing, keys.next_deal, keys.streak, keys.clairvoyance_tallies,
                  keys.live_events, keys.following, keys.league_history, keys.inbox, keys.reports_filed):
        moves.key(owned(old), owned(new))


def _places(db: Database, moves: Moves, old: str, new: str) -> None:
    """The player's place on every board their runs count on, moved with its rank key (a ladder's count of
    games and window of runs too; a board kept as its one place, that place), so each board is the same,
    place for place; the archive's boards follow
    in ``finish_rename``."""
    for board in boards_played(db, old):
        kind, parts = board.board.kind, board.parts
        moves.member(keys.board_places(kind, parts), old, new)
        moves.field(keys.board_holders(kind, parts), old, new)
        if board.board.sole:
            moves.add("sole", [keys.sole_places(board.name)], board.name, old, new)
        moves.field(keys.board_games(kind, parts), old, new)
        moves.key(keys.board_window(kind, parts, old), keys.board_window(kind, parts, new))


def _ties(db: Database, moves: Moves, old: str, new: str) -> None:
    """What ties the player to others: who follows them, their league weeks, tournament entries and rewards,
    their sanctions, the disputes and reports they filed and those about them, the flags naming them."""
    for follower in personal_data.followers(db, old):
        moves.member(keys.following(follower), old, new)
    for week in history(db, old):
        moves.field(keys.league_members(week.week), old, new)
        moves.field(keys.live_zones(week.week), old, new)
        moves.add("list", [keys.league_cohort(week.week, str(week.cohort))], old, new)
    for tournament in personal_data.tournaments_entered(db, old):
        moves.member(keys.tournament_entrants(tournament), old, new)
        for deal in range(MAX_DEALS + 1):
            moves.field(keys.tournament_attempts(tournament), f"{old}:{deal}", f"{new}:{deal}")
    for reward in inbox(db, old):
        moves.field(keys.rewards_granted(reward.source), old, new)
    moves.key(keys.ban(old), keys.ban(new))
    moves.member(keys.banned(), old, new)
    moves.field(keys.hidden_players(), old, new)
    for dispute in personal_data.disputes_filed(db, old):
        moves.add("set_field", [keys.dispute(dispute["id"])], "player", new)
    _reports(db, moves, old, new)
    _flags(db, moves, old, new)


def _reports(db: Database, moves: Moves, old: str, new: str) -> None:
    """The reports the player filed (their open ones' keys too), and those about them."""
    ids = [report_id for status in (REPORT_OPEN, CLOSED) for report_id in db.redis.zrange(keys.reports(status), 0, -1)]
    with db.redis.pipeline(transaction=False) as pipe:
        for report_id in ids:
            pipe.hmget(keys.report(report_id), "kind", "target", "reporter", "status")
        held = pipe.execute()
    for report_id, (kind, target, reporter, status) in zip(ids, held, strict=True):
        filed, about = reporter == old, kind == PLAYER and target == old
        if filed:
            moves.add("set_field", [keys.report(report_id)], "reporter", new)
        if about:
            moves.add("set_field", [keys.report(report_id)], "target", new)
        if (filed or about) and status == REPORT_OPEN:
            moves.key(keys.open_report(reporter, str(Target(kind, target))),
                      keys.open_report(new if filed else reporter, str(Target(kind, new if about else target))))


def _flags(db: Database, moves: Moves, old: str, new: str) -> None:
    """Flags name the player by their new name, and the sealed daily's notes of who started from where too."""
    flag_ids = db.redis.zrange(keys.flags(), 0, -1)
    with db.redis.pipeline(transaction=False) as pipe:
        for flag_id in flag_ids:
            pipe.hget(keys.flag(flag_id), "players")
        named = pipe.execute()
    for flag_id, players in zip(flag_ids, named, strict=True):
        if players and old in players.split():
            moves.add("words", [keys.flag(flag_id)], "players", old, new)
    for key in db.redis.scan_iter(match=keys.flag_address("*", "*"), count=SCAN_BATCH):
        moves.field(key, old, new)
