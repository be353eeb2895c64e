"""Moderators' sanctions of a player: a ban (optionally until a time) and a hiding, and their log.

A ban takes the player's places off every board (``places``), forfeits their
games in play (R18) and refuses them new runs and games (``PlayerBanned``:
the script that accepts a run reads the ban with the token, and the service
asks before it deals a game); a timed ban ends by itself: it
refuses nothing from its end on (``ban_of``), and the worker's sweep lifts it
(``lift_ended_bans``), which gives the places back. A hiding takes the places
off the boards for everyone and refuses nothing: the player plays on, unaware,
while moderators gather evidence. The places come back when the last of the
two is lifted.

Each sanction is a JSON value: a ban in a key of the player's own
(``keys.ban``, which a submission's script reads in the one ``MGET`` it
makes: no round trip of its own), listed by its end for the sweep
(``keys.banned``); a hiding in one hash keyed by the player's name
(``keys.hidden_players``), read by none of a run's steps. Each action is
logged (``keys.moderation_log``), newest first.

Both change what the boards show, so noting the first of the two, or lifting
the last, appends a leaf to the public log in the same script
(``lua/sanction_player.lua``): ``withhold`` or ``show`` and the player's
pseudonym, never which sanction nor why (a hiding is a ban's leaf too, so
the log tells no one a moderator is looking: docs/transparency.md).
"""

import json
from dataclasses import dataclass

from domain.errors import GameMoved, GameOver, NoSuchGame, NotSanctioned
from domain.game import FORFEIT
from domain.sanctions import Sanction
from domain.transparency import SHOW, WITHHOLD
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.listing import logged_page
from store.games.dealt import games_in_play, load_game, play_moves
from store.log import log_keys, player_leaf_parts
from store.lua import LuaScript
from store.sanctions.places import set_places

LOG_KEPT = 100_000  # moderators' actions the log keeps, newest first
LOG_CHUNK = 1000  # log entries read at a time by a filtered log
BAN, UNBAN, HIDE, UNHIDE, RENAME = "ban", "unban", "hide", "unhide", "rename"  # the log's actions on players
# ... and on runs, flags and reports (``store.moderation``, ``store.sanctions.reports``), each logged once its
# own step is written: that step, with the run's audit entry, is the record; this log is the moderators' index
UPHOLD, VOID, RESTORE, REVERIFY, REQUEUE = "uphold", "void", "restore", "reverify", "requeue"
DISMISS_FLAG, CLOSE_REPORT = "dismiss_flag", "close_report"
END_TOURNAMENT = "end_tournament"  # ... and on a tournament (``store.tournaments.closing``): no player's
ACTIONS = (BAN, UNBAN, HIDE, UNHIDE, RENAME, UPHOLD, VOID, RESTORE, REVERIFY, REQUEUE, DISMISS_FLAG, CLOSE_REPORT,
           END_TOURNAMENT)
EXPIRY = "expiry"  # the log's moderator for a timed ban that ended by itself
_SANCTION_PLAYER = LuaScript("sanction_player")


def _stored(value: str | None) -> Sanction | None:
    return None if value is None else Sanction.from_kept(value)


def log_action(db: Database, action: str, player: str, moderator: str, at_ms: int, **more: object) -> None:
    """Log a moderator's ``action`` (one of ``ACTIONS``) about ``player``, with what more it names (a run's id,
    the reason or note), in the moderators' log."""
    entry = {"action": action, "player": player, "moderator": moderator, "at_ms": at_ms, **more}
    with db.redis.pipeline(transaction=True) as pipe:
        pipe.lpush(keys.moderation_log(), json.dumps(entry))
        pipe.ltrim(keys.moderation_log(), 0, LOG_KEPT - 1)
        pipe.execute()


def _sanction(db: Database, kind: str, player: str, sanction: Sanction | None, at_ms: int) -> bool:
    """Note (or, with None, lift) the player's sanction of ``kind`` (``BAN`` or ``HIDE``), the public log told
    if the player's places are withheld where they were not, or shown where they were withheld: False for a
    sanction to lift that the player does not have."""
    leaves = player_leaf_parts(db, player, at_ms, (WITHHOLD, SHOW))
    value = "" if sanction is None else sanction.kept()
    ends = "+inf" if sanction is None or sanction.until_ms is None else sanction.until_ms
    return bool(_SANCTION_PLAYER.run(db.redis, [keys.ban(player), keys.banned(), keys.hidden_players(), *log_keys()],
                                     [player, kind, value, ends, *leaves]))


@dataclass(frozen=True)
class LogFilter:
    """Which of the moderators' log's entries to show: of one moderator, one action and one player, each
    where given (names as their ``name_key``, lower case: checked by the caller's schema)."""

    moderator: str | None = None
    action: str | None = None
    player: str | None = None

    def __bool__(self) -> bool:
        return any((self.moderator, self.action, self.player))

    def admits(self, entry: dict) -> bool:
        return (self.moderator in (None, entry["moderator"].lower()) and self.action in (None, entry["action"])
                and self.player in (None, entry["player"].lower()))


def moderation_log(db: Database, offset: int, limit: int, only: LogFilter = LogFilter()) -> tuple[int, list[dict]]:
    """``(total, entries)``: the moderators' actions, newest first, those ``only`` admits. A filtered log is
    read whole (``LOG_KEPT`` at most), ``LOG_CHUNK`` entries at a time: the API's and the desk's filters."""
    if not only:
        return logged_page(db, keys.moderation_log(), offset, limit)
    matched: list[dict] = []
    start = 0
    while True:
        _, entries = logged_page(db, keys.moderation_log(), start, LOG_CHUNK)
        matched += [entry for entry in entries if only.admits(entry)]
        if len(entries) < LOG_CHUNK:
            return len(matched), matched[offset:offset + limit]
        start += LOG_CHUNK


def ban_of(db: Database, player: str) -> Sanction | None:
    """The player's ban in force (a timed ban past its end is none, lifted or not yet), or None."""
    found = _stored(db.redis.get(keys.ban(player)))
    return None if found is None or found.over(now_ms()) else found


def hiding_of(db: Database, player: str) -> Sanction | None:
    """Why the player is hidden, or None."""
    return _stored(db.redis.hget(keys.hidden_players(), player))


def ban(db: Database, player: str, moderator: str, reason: str, until_ms: int | None = None) -> Sanction:
    """Ban ``player`` (as registered): noted first (no new run or game from then on), their games in play
    forfeited (R18), their places withheld. Banning a banned player replaces the ban (its reason, its end)."""
    sanction = Sanction(reason, moderator, now_ms(), until_ms)
    _sanction(db, BAN, player, sanction, sanction.at_ms)
    _forfeit_games(db, player)
    set_places(db, player, withhold=True)
    log_action(db, BAN, player, moderator, sanction.at_ms, reason=reason, until_ms=until_ms)
    return sanction


def unban(db: Database, player: str, moderator: str) -> None:
    """Lift the player's ban: their places recomputed from all their runs (unless they are hidden). Raises
    ``NotSanctioned``."""
    if not _sanction(db, BAN, player, None, now_ms()):
        raise NotSanctioned(player, "banned")
    _lifted(db, player, still_withheld=hiding_of(db, player) is not None)
    log_action(db, UNBAN, player, moderator, now_ms())


def hide(db: Database, player: str, moderator: str, reason: str) -> Sanction:
    """Hide ``player``'s places from everyone: withheld from every board; they play on."""
    sanction = Sanction(reason, moderator, now_ms())
    _sanction(db, HIDE, player, sanction, sanction.at_ms)
    set_places(db, player, withhold=True)
    log_action(db, HIDE, player, moderator, sanction.at_ms, reason=reason)
    return sanction


def unhide(db: Database, player: str, moderator: str) -> None:
    """Show the player's places again (unless they are banned). Raises ``NotSanctioned``."""
    if not _sanction(db, HIDE, player, None, now_ms()):
        raise NotSanctioned(player, "hidden")
    _lifted(db, player, still_withheld=bool(db.redis.exists(keys.ban(player))))
    log_action(db, UNHIDE, player, moderator, now_ms())


def _lifted(db: Database, player: str, still_withheld: bool) -> None:
    """One sanction lifted: the places recomputed, unless the other one still holds (``still_withheld``)."""
    if not still_withheld:
        set_places(db, player, withhold=False)


def lift_ended_bans(db: Database) -> list[str]:
    """Lift every timed ban whose end has come (the worker's sweep): the players whose ban ended."""
    ended = db.redis.zrangebyscore(keys.banned(), "-inf", now_ms())
    lifted = []
    for player in ended:
        try:
            unban(db, player, EXPIRY)
        except NotSanctioned:  # lifted meanwhile, by a moderator or another sweep
            continue
        lifted.append(player)
    return lifted


def _forfeit_games(db: Database, player: str, tries: int = 3) -> None:
    """The player's games in play, each forfeited (R18): a move landing meanwhile is read and tried again."""
    for game in games_in_play(db, player):
        for _ in range(tries):
            try:
                play_moves(db, game, [], FORFEIT, request_id="ban")  # R18
                break
            except GameMoved:
                if (found := load_game(db, game.id)) is None:
                    break
                game = found
            except (GameOver, NoSuchGame):
                break
