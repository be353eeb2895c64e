"""Par of a revealed deal: the score the engine's own search player reaches on it.

Shown beside a sealed daily's seed once its day is over, as a yardstick for
the scores on its board (a golf card's par: what a steady player makes of
that course). It is ``scoundrel.strategies``' ``search`` player, deterministic
for a seed, so every API process computes the same par; it takes about a
third of a second, so each process remembers the last days it computed, and
the daily page asks for it only for a day somebody played.
Never computed before the seed is revealed: the par of a deal tells
something of the deal.
"""

import functools

import scoundrel
from scoundrel.strategies import play_game

REMEMBERED_DEALS = 1024  # about three years of days, a few hundred bytes each


@functools.lru_cache(maxsize=REMEMBERED_DEALS)
def par(seed: str, variant: str = scoundrel.CLASSIC) -> int:
    """The score of the reference player's game on ``seed`` (a revealed seed only)."""
    verdict = scoundrel.replay(seed, play_game(seed, variant, strategy="search"), variant=variant)
    assert verdict.score is not None, "the strategies play only legal, finished games"
    return verdict.score
