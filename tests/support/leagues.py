"""League games for the tests: classic dealt runs of a week, placed on its league board as a verdict places them."""

from domain.boards import LEAGUE_BOARD, BoardId
from domain.run import DEALT, Run
from domain.seasons import parse_season
from store.base.packing import pack
from store.boards.pages import ranking


def game(player: str, week: str, score: int, at: int) -> Run:
    """A verified classic dealt game of ``player`` ending ``at`` ms into ``week``."""
    ends = parse_season(week).starts_ms + at
    return Run(f"{player}-{week}-{at}", player, "classic", "s", "verified", score, ends, origin=DEALT)


def placed(db, run: Run) -> None:
    """The run on its week's league board, as a verdict places it (the best game counts)."""
    board = ranking(BoardId(LEAGUE_BOARD, (run.week,)))
    key = pack(run.score, run.submitted_ms)
    if key > float(db.redis.zscore(board.places, run.player) or 0):
        db.redis.zadd(board.places, {run.player: key})
        db.redis.hset(board.runs, run.player, run.id)
