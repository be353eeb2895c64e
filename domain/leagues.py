"""Weekly leagues: each week a player races about 30 others of similar standing, the top of each cohort
moving up a tier and the bottom down.

- **Counted games** are classic dealt games (a submitted run proves
  nothing about its deal, and every cohort plays one variant): the
  ``LEAGUE_BOARD`` of ``domain.boards`` ranks each player's best counted
  game of a UTC ISO week, so a void re-ranks it as any board.
- **Cohorts** form as players finish their first counted game of the week:
  the player joins the open cohort of their tier, and a full one (``size``
  players) is followed by a new one. One step, O(1), no pass over anybody
  (``store.leagues``).
- **A player's tier** for a week follows from the last week they played:
  the top ``moves`` of their cohort then went up a tier, the bottom
  ``moves`` down, the rest stayed (``next_tier``); at most a third of a
  cohort moves either way, so a cohort of two moves nobody. A player's
  first week is in the lowest tier; a player who skipped weeks comes back
  in the tier their last played week gave them. The week's close is this
  rule applied when each player next plays: nothing runs at midnight, for
  a million players as for ten. A week's standings count what its board
  holds when read: a void after the week changes them, and the tiers of
  the players who have not played since.
"""

from dataclasses import dataclass

from scoundrel import CLASSIC

from .run import Run

LEAGUE_VARIANT = CLASSIC


def counts(run: Run) -> bool:
    """Whether a verified run counts in the leagues: a classic dealt game."""
    return run.dealt and run.variant == LEAGUE_VARIANT


@dataclass(frozen=True)
class LeagueRules:
    """The tiers, lowest first (``SCOUNDREL_LEAGUE_TIERS``), a cohort's size (``SCOUNDREL_LEAGUE_COHORT``)
    and how many of a cohort go up and down at its week's end (``SCOUNDREL_LEAGUE_MOVES``)."""

    tiers: tuple[str, ...]
    size: int
    moves: int

    def name(self, tier: int) -> str:
        """A tier's name; a tier past the configured ones (a shorter list since) is the highest."""
        return self.tiers[min(tier, len(self.tiers) - 1)]

    def moving(self, entrants: int) -> int:
        """How many of a cohort of ``entrants`` go up, and as many down: ``moves``, at most a third of it."""
        return min(self.moves, entrants // 3)

    def zone(self, tier: int, rank: int | None, entrants: int) -> str:
        """Where a place in a cohort leads: "up", "down" or "stays" (``rank`` None: no counted game left
        on the board, a void took it: last)."""
        moving = self.moving(entrants)
        place = entrants if rank is None else rank
        if place <= moving and tier < len(self.tiers) - 1:
            return "up"
        if place > entrants - moving and tier > 0:
            return "down"
        return "stays"

    def next_tier(self, tier: int, rank: int | None, entrants: int) -> int:
        """The tier a player plays in after a week in ``tier`` ended at ``rank`` of ``entrants``."""
        return tier + {"up": 1, "down": -1, "stays": 0}[self.zone(tier, rank, entrants)]
