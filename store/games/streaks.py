"""A player's streak of sealed dailies, and their share card of a day's sealed daily.

The streak is written only by ``play_moves.lua`` (its ``_streak.lua``
step), in the same atomic step that ends the game, so it never counts a
game that did not end, nor one twice; read here as ``domain.streak.Streak``.
"""

from datetime import date

from domain.boards import SEALED_BOARD, BoardId
from domain.share_card import ShareCard
from domain.streak import Streak
from store.base import keys
from store.base.database import Database
from store.boards.pages import ranking
from store.boards.standings import board_spread, standings


def load_streak(db: Database, player: str) -> Streak:
    """The player's streak (``Streak()`` for a player who never finished a sealed daily)."""
    last, run, best = db.redis.hmget(keys.streak(player), "last", "run", "best")
    return Streak() if last is None else Streak(last, int(run), int(best))


def share_card(db: Database, day: date, player: str) -> ShareCard | None:
    """``player``'s share card of ``day``'s sealed daily, from their place on the day's sealed board
    (their verified game), its spread and their streak; None without a place there."""
    board = ranking(BoardId(SEALED_BOARD, (day.isoformat(),)))
    [place] = standings(db, player, [board], [])
    if place is None:
        return None
    score = int(place.score)
    below = board_spread(db, board, score).share_below()
    return ShareCard(day.isoformat(), player, score, below or 0, place.total, load_streak(db, player).on(day))
