"""Settling each kind of competition (``domain.rewards``): a tournament once its standings are final, and
again after a void or a restore re-ranks it; a season once it is closed; a league week's cohort again
after a void (a week ends in ``store.leagues.week_end``, its cohorts read in batches)."""

from redis.exceptions import WatchError

from domain.boards import SEASON_BOARD, BoardId, tournament_board
from domain.leagues import LeagueRules
from domain.rewards import LEAGUE_SOURCE, SEASON_SOURCE, TOURNAMENT_SOURCE, Band, depth, earned, source_id
from domain.tournaments import Tournament
from scoundrel import CLASSIC
from store.base import keys
from store.base.database import Database
from store.boards.pages import board_page, ranking
from store.boards.seasons import SEASON_PART
from store.leagues.week_end import settle_cohort_again
from store.rewards.settling import Settled, granted_players, is_settled, mark_settled, settle
from store.tournaments.tournaments import load_tournament

PAGE = 1000  # places read a call
SEASONS_LOOKED_BACK = 2  # closed seasons a pass settles when not yet settled
SEASON_VARIANT = CLASSIC  # the seasons' rewards are of their classic dealt board


def _final_order(db: Database, board: BoardId, bands: tuple[Band, ...]) -> tuple[list[str], int]:
    """A closed board's players best first, as deep as ``bands`` reach, and its placed players."""
    places = ranking(board)
    total, entries = board_page(db, places, 0, PAGE)
    deepest = depth(bands, total)
    while len(entries) < deepest:
        _, more = board_page(db, places, len(entries), PAGE)
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
    order, total = _final_order(db, tournament_board(tournament.id, tournament.scoring), tournament.rewards)
    settled = settle(db, source, earned(tournament.rewards, order, total), among=granted_players(db, source))
    mark_settled(db, source)
    return settled


def settle_closed_seasons(db: Database, bands: tuple[Band, ...]) -> list[str]:
    """Grant ``bands`` (``SCOUNDREL_SEASON_REWARDS``) on the classic dealt board of each season closed lately
    (``SEASONS_LOOKED_BACK``) and not settled yet: the workers' periodic step, after the seasons' close. A
    closed season's boards never change (``store.boards.seasons``), so it is settled once. The seasons
    this call settled."""
    if not bands:
        return []
    done = []
    for season in db.redis.zrevrange(keys.closed(SEASON_PART), 0, SEASONS_LOOKED_BACK - 1):
        source = source_id(SEASON_SOURCE, season)
        if is_settled(db, source):
            continue
        order, total = _final_order(db, BoardId(SEASON_BOARD, (SEASON_VARIANT, season)), bands)
        settle(db, source, earned(bands, order, total))
        mark_settled(db, source)
        done.append(season)
    return done


def settle_revised(db: Database, rules: LeagueRules, league_rewards: dict[str, tuple[Band, ...]]) -> list[str]:
    """Settle again each settled competition a void, restore or re-verification re-ranked since
    (``keys.rewards_unsettled``): a tournament whole, a league week's cohort of the player noted
    (``league:<week>:<player>``). The workers' periodic step; the sources settled again."""
    done = []
    for noted_source, noted in db.redis.zrange(keys.rewards_unsettled(), 0, -1, withscores=True):
        kind, ref = noted_source.split(":", 1)
        if kind == TOURNAMENT_SOURCE and is_settled(db, noted_source):
            settle_tournament(db, load_tournament(db, ref))
            done.append(noted_source)
        elif kind == LEAGUE_SOURCE:
            week, player = ref.split(":", 1)
            if is_settled(db, source_id(LEAGUE_SOURCE, week)) and settle_cohort_again(db, rules, league_rewards,
                                                                                          week, player):
                done.append(noted_source)
        _settled_since(db, noted_source, noted)
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
