"""A player's recent dealt games as judged for the ``clairvoyant`` flag, and the flag (``store.moderation.flags``).

Judging a game is costly (``verification.clairvoyance``: a determinised
search at every room), so each game is judged once, as it is verified, and
its tally (telling decisions, perfect choices) is kept in the player's one
sorted set (``keys.clairvoyance_tallies``), scored by the run's submission
time and trimmed to the newest games the flag looks at: the flag sums kept
tallies and never judges a game again.

A flag cites a window of games, and no game twice: raising it marks the
newest game it cites (the member ``~cited``), and the next window starts
after it. So a player whose play stays clairvoyant is flagged again only
on games no flag cited yet. The flag's id is derived from its player and
the games it cites, so a verification job that runs twice raises it once.
"""

import hashlib
import json
from dataclasses import dataclass

from domain.run import Run
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.moderation import scripts
from store.moderation.flags import CLAIRVOYANT, OPEN, Finding, every_index, listed_in

# The member scored by the newest game a flag cited: no run id is this, and on a tie of scores it ranks
# above the game (``~`` sorts after every character of an id), so trimming drops the game before the mark.
_CITED = "~cited"


@dataclass(frozen=True)
class GameTally:
    """One judged game: its run, its telling decisions and the perfect choices among them."""

    run_id: str
    telling: int
    perfect: int


def note_tally(db: Database, run: Run, telling: int, perfect: int, window: int) -> list[GameTally]:
    """Keep the tally of ``run`` (a dealt game, judged) among its player's newest ``window`` games; the tallies
    no flag cited yet, oldest first. Noting a game twice keeps it once."""
    key = keys.clairvoyance_tallies(run.player)
    with db.redis.pipeline(transaction=True) as pipe:
        pipe.zadd(key, {f"{run.id} {telling} {perfect}": run.submitted_ms})
        pipe.zremrangebyrank(key, 0, -(window + 2))  # the newest games and, among them or older, the mark
        pipe.zrange(key, 0, -1, withscores=True)
        kept = pipe.execute()[-1]
    cited = max((score for member, score in kept if member == _CITED), default=float("-inf"))
    tallies = []
    for member, score in kept:
        if member != _CITED and score > cited:
            run_id, telling_, perfect_ = member.split()
            tallies.append(GameTally(run_id, int(telling_), int(perfect_)))
    return tallies[-window:]


def player_tallies(db: Database, player: str) -> list[GameTally]:
    """The player's kept tallies, newest game first (what the desk shows of a case's player)."""
    kept = db.redis.zrevrange(keys.clairvoyance_tallies(player), 0, -1)
    return [GameTally(run_id, int(telling), int(perfect))
            for run_id, telling, perfect in (member.split() for member in kept if member != _CITED)]


def clairvoyant_flag_id(player: str, run_ids: list[str]) -> str:
    """A clairvoyant flag's id, the same for the same player and games: raising it twice finds the first."""
    return hashlib.sha256(f"flag\n{CLAIRVOYANT}\n{player}\n{' '.join(run_ids)}".encode()).hexdigest()[:16]


def raise_clairvoyant_flag(db: Database, player: str, games: list[GameTally], cited_ms: int, finding: Finding,
                           kept: int) -> bool:
    """Flag ``player`` for ``games`` (the newest submitted at ``cited_ms``) and mark them cited, in one step;
    True if the flag is new."""
    run_ids = [game.run_id for game in games]
    raised = now_ms()
    fields = {"reason": CLAIRVOYANT, "status": OPEN, "created_ms": raised, "players": player,
              "runs": " ".join(run_ids), "detail": json.dumps(finding.detail, separators=(",", ":"))}
    with db.redis.pipeline(transaction=True) as pipe:
        scripts.raise_flag(pipe, flag_id=clairvoyant_flag_id(player, run_ids), listed_in=listed_in(CLAIRVOYANT, OPEN),
                           every_index=every_index(), raised_ms=raised, kept=kept, runs=run_ids, fields=fields)
        pipe.zadd(keys.clairvoyance_tallies(player), {_CITED: cited_ms}, gt=True)
        return bool(pipe.execute()[0])
