"""Everything the store holds about one player, found whole: read for their export
(``GET /v1/players/<name>/export``) and erased on request (``store.privacy.erasure``).

Most of it hangs off keys named after the player (their account, runs,
streak, follows, league weeks). The rest is found by looking: who follows
them (each follower's set is read: one ZMSCORE a follower, the players who
follow anyone), the disputes they filed (the disputes' indexes), the
tournaments they entered (the tournaments' indexes). Those walks are the
price of an operation a player asks for once, not a read any page makes.
"""

from collections.abc import Iterator

from domain.boards import BoardId, boards_of
from domain.run import Run
from store.base import keys
from store.base.database import Database
from store.moderation.disputes import STATUSES
from store.runs.history import player_runs

SCAN_BATCH = 1000
RUN_BATCH = 500  # runs read at a time


def account(db: Database, player: str) -> dict:
    """The player's account: name, creation time (ms), and the studios' accounts linked to it (issuer → ``sub``);
    never the token's hash."""
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.hget(keys.player(player), "created_ms")
        pipe.hgetall(keys.player_links(player))
        created, links = pipe.execute()
    return {"name": player, "created_ms": int(created or 0), "links": links}


def run_batches(db: Database, player: str) -> Iterator[list[Run]]:
    """Every run of the player, in Redis and in the archive, newest first, ``RUN_BATCH`` at a time."""
    offset = 0
    while True:
        total, runs = player_runs(db, player, offset, RUN_BATCH)
        if runs:
            yield runs
        offset += RUN_BATCH
        if offset >= total:
            return


def boards_held(runs: list[Run]) -> list[BoardId]:
    """The boards the player's verified ``runs`` count on: where they may hold a place, in a stable order."""
    return list(dict.fromkeys(board for run in runs if run.status == "verified" for board in boards_of(run)))


def followers(db: Database, player: str) -> list[str]:
    """The players who follow ``player``, by name."""
    prefix = keys.following("")
    found = []
    follower_keys = list(db.redis.scan_iter(match=keys.following("*"), count=SCAN_BATCH))
    for start in range(0, len(follower_keys), SCAN_BATCH):
        batch = follower_keys[start:start + SCAN_BATCH]
        with db.redis.pipeline(transaction=False) as pipe:
            for key in batch:
                pipe.zscore(key, player)
            scores = pipe.execute()
        found += [key.removeprefix(prefix) for key, score in zip(batch, scores, strict=True) if score is not None]
    return sorted(found)


def disputes_filed(db: Database, player: str) -> list[dict[str, str]]:
    """The stored disputes the player filed, open and resolved, oldest first."""
    ids = [dispute_id for status in STATUSES for dispute_id in db.redis.zrange(keys.disputes(status), 0, -1)]
    with db.redis.pipeline(transaction=False) as pipe:
        for dispute_id in ids:
            pipe.hgetall(keys.dispute(dispute_id))
        disputes = pipe.execute()
    return sorted((fields for fields in disputes if fields.get("player") == player),
                  key=lambda fields: int(fields.get("filed_ms") or 0))


def tournaments_entered(db: Database, player: str) -> list[str]:
    """The ids of the tournaments the player joined (or started a game of), in id order."""
    ids = sorted({*db.redis.zrange(keys.tournaments_starting(), 0, -1),
                  *db.redis.zrange(keys.tournaments_ending(), 0, -1)}, key=int)
    with db.redis.pipeline(transaction=False) as pipe:
        for tournament_id in ids:
            pipe.zscore(keys.tournament_entrants(tournament_id), player)
        joined = pipe.execute()
    return [tournament_id for tournament_id, at in zip(ids, joined, strict=True) if at is not None]
