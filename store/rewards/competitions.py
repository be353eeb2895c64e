"""Settling each kind of competition: a tournament once its standings are final, and again after a void
or a restore re-ranks it (``domain.rewards``)."""

from redis.exceptions import WatchError

from domain.boards import tournament_board
from domain.rewards import TOURNAMENT_SOURCE, depth, earned, source_id
from domain.tournaments import Tournament
from store.base import keys
from store.base.database import Database
from store.boards.pages import board_page, ranking
from store.rewards.settling import Settled, granted_players, is_settled, mark_settled, settle
from store.tournaments.tournaments import load_tournament

PAGE = 1000  # places read a call


def _final_order(db: Database, tournament: Tournament) -> tuple[list[str], int]:
    """The tournament's players best first, as deep as its reward table reaches, and its placed players."""
    board = ranking(tournament_board(tournament.id, tournament.scoring))
    total, entries = board_page(db, board, 0, PAGE)
    deepest = depth(tournament.rewards, total)
    while len(entries) < deepest:
        _, more = board_page(db, board, len(entries), PAGE)
        if not more:
            break
        entries += more
    return [entry["player"] for entry in entries[:deepest]], total


def settle_tournament(db: Database, tournament: Tournament) -> Settled | None:
    """Grant the rewards of a tournament whose standings are final (``tournament.ended`` told), or grant and
    withdraw them again after a re-ranking; None for a tournament with no reward table."""
    if not tournament.rewards:
        return None
    source = source_id(TOURNAMENT_SOURCE, tournament.id)
    order, total = _final_order(db, tournament)
    settled = settle(db, source, earned(tournament.rewards, order, total), among=granted_players(db, source))
    mark_settled(db, source)
    return settled


def settle_revised(db: Database) -> list[str]:
    """Settle again each settled competition a void, restore or re-verification re-ranked since
    (``keys.rewards_unsettled``): the workers' periodic step. The sources settled again."""
    done = []
    for source, noted in db.redis.zrange(keys.rewards_unsettled(), 0, -1, withscores=True):
        kind, ref = source.split(":", 1)
        if kind == TOURNAMENT_SOURCE and is_settled(db, source):
            settle_tournament(db, load_tournament(db, ref))
            done.append(source)
        _settled_since(db, source, noted)
    return done


def _settled_since(db: Database, source: str, noted: float) -> None:
    """Take ``source`` off the competitions to settle again, unless a revision was noted meanwhile."""
    with db.redis.pipeline(transaction=True) as pipe:
        try:
            pipe.watch(keys.rewards_unsettled())
            if pipe.zscore(keys.rewards_unsettled(), source) == noted:
                pipe.multi()
                pipe.zrem(keys.rewards_unsettled(), source)
                pipe.execute()
        except WatchError:
            pass  # noted again meanwhile: the next pass settles it again
