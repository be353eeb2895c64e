"""Tournaments: a moderator's competition with an entry window, a cap on entrants and on attempts, and
a board of its own.

- **Its window.** Games start from ``starts_ms`` until ``ends_ms``; a
  game still in play at the end is forfeited with the moves it had, before
  anything of its deal is shown (RULES.md R19, as the sealed daily's R18).
  Players may join from the tournament's creation until its end.
- **Its deals.** ``deals`` sealed decks, dealt by the server to every
  entrant and never shown before the end (``deal_seed``: derived from the
  tournament's secret, which no answer holds), or with ``deals`` 0 a fresh
  deck for every game, dealt as a free game is.
- **Attempts.** ``max_attempts`` games per entrant on each sealed deal, or
  in all for fresh decks. ``scoring`` says how they rank: ``best``, each
  entrant's best game; ``sum`` (sealed decks only), the sum of each
  entrant's best game on each deal, a deal not played adding nothing.
- **Its board** is a registry board (``domain.boards``): the tournament's
  runs are placed as any verified run, and a void re-ranks it, after the
  end too. A ``sum`` tournament has a best board per deal and the board of
  their sum (``Order.SUM``).
"""

import hashlib
import hmac
from dataclasses import dataclass

from .errors import Refusal
from .rewards import Band
from .run import TOURNAMENT as TOURNAMENT  # the ``challenge`` of a tournament game and its run

BEST = "best"
SUM = "sum"
SCORINGS = (BEST, SUM)
MAX_DEALS = 10  # sealed decks a tournament may have
MAX_ATTEMPTS = 100  # attempts a tournament may allow each entrant on each deal

UPCOMING, RUNNING, ENDED = "upcoming", "running", "ended"
STATES = (UPCOMING, RUNNING, ENDED)

# Why a game or a join is refused (``TournamentRefusal.reason``).
NOT_STARTED = "not_started"
TOURNAMENT_ENDED = "ended"
FULL = "full"
NOT_JOINED = "not_joined"
ATTEMPTS_USED = "attempts_used"
GAME_IN_PLAY = "game_in_play"
NO_SUCH_DEAL = "no_such_deal"
WRONG_VARIANT = "wrong_variant"

_REFUSALS = {
    NOT_STARTED: "The tournament has not started yet.",
    TOURNAMENT_ENDED: "The tournament has ended.",
    FULL: "The tournament is full: it has as many entrants as it takes.",
    NOT_JOINED: "Join the tournament first: it takes only players who joined.",
    ATTEMPTS_USED: "You have used every attempt the tournament allows.",
    GAME_IN_PLAY: "You have a game of this tournament in play; finish or forfeit it first.",
    NO_SUCH_DEAL: "The tournament has no such deal.",
    WRONG_VARIANT: "The tournament is played in another variant: leave the variant out, or give its own.",
}


class NoSuchTournament(Refusal):
    """The tournament does not exist."""

    def __init__(self, tournament_id: str):
        super().__init__(f"No tournament {tournament_id!r}.")


class TournamentRefusal(Refusal):
    """A join or a game the tournament's rules refuse: ``reason`` says which rule (one of ``_REFUSALS``),
    ``game_id`` the game in play for ``game_in_play``."""

    def __init__(self, reason: str, game_id: str | None = None):
        self.reason = reason
        self.game_id = game_id
        super().__init__(_REFUSALS[reason])


@dataclass(frozen=True)
class Tournament:
    """One tournament as created, with who created it and when (times in ms since 1970)."""

    id: str
    title: str
    variant: str
    starts_ms: int
    ends_ms: int
    join_required: bool
    max_entrants: int | None  # None: no cap
    max_attempts: int
    deals: int  # sealed decks; 0: a fresh deck every game
    scoring: str
    created_by: str
    created_ms: int
    rewards: tuple[Band, ...] = ()  # its reward table (``domain.rewards``), granted once it is final
    schedule: str | None = None  # the schedule that made it (``domain.schedules``); None: made by hand

    def state(self, at_ms: int) -> str:
        """upcoming, running or ended at ``at_ms``."""
        if at_ms < self.starts_ms:
            return UPCOMING
        return RUNNING if at_ms < self.ends_ms else ENDED

    @property
    def sealed(self) -> bool:
        """Its games are dealt from sealed decks, the same for every entrant."""
        return self.deals > 0


def deal_seed(secret: str, tournament_id: str, deal: int) -> str:
    """The seed of a tournament's sealed deck ``deal`` (1 for the first): 64 hex digits (a valid seed under
    RULES.md) that nobody can know before the tournament's secret is shown, at its end."""
    return hmac.new(bytes.fromhex(secret), f"tournament\n{tournament_id}\n{deal}".encode(), hashlib.sha256).hexdigest()


def attempt_deal(tournament: Tournament, used: list[int], asked: int | None) -> int:
    """The deal a new game of ``tournament`` is dealt from, given the entrant's attempts ``used`` on each
    sealed deal (``used[0]``: in all, for fresh decks; ``used[d - 1]`` on deal ``d``) and the deal
    ``asked`` for (None: the first with an attempt left). 0 for a fresh deck.

    Raises ``TournamentRefusal`` (``no_such_deal``, ``attempts_used``).
    """
    if not tournament.sealed:
        if asked not in (None, 0):
            raise TournamentRefusal(NO_SUCH_DEAL)
        if used[0] >= tournament.max_attempts:
            raise TournamentRefusal(ATTEMPTS_USED)
        return 0
    if asked is not None and not 1 <= asked <= tournament.deals:
        raise TournamentRefusal(NO_SUCH_DEAL)
    candidates = [asked] if asked is not None else range(1, tournament.deals + 1)
    for deal in candidates:
        if used[deal - 1] < tournament.max_attempts:
            return deal
    raise TournamentRefusal(ATTEMPTS_USED)


def attempts_left(tournament: Tournament, used: list[int]) -> int:
    """The games an entrant may still start, given their attempts ``used`` (as ``attempt_deal`` takes them)."""
    return sum(max(0, tournament.max_attempts - count) for count in used)
