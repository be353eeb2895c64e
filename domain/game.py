"""A dealt game: the value every layer passes around, and the rules that follow from its fields alone.

The store loads it from one hash and writes it back move by move
(``store.games.dealt``); the dealer replays it (``domain.dealer``); the API shows
it. Its position is not part of it: the deck is dealt from ``seed`` and the
moves replayed whenever the position is wanted (``domain.dealer.position``).
"""

import hashlib
from dataclasses import dataclass, replace

from .daily_seed import closes_ms
from .run import DAILY as DAILY  # the challenge of the sealed daily, a game's as its run's
from .run import TOURNAMENT, daily_seal, tournament_seal

PLAYING = "playing"
FORFEIT = "forfeit"


def game_run_id(game_id: str) -> str:
    """The run of a dealt game, the same every time: accepting it twice finds the first."""
    return hashlib.sha256(f"run\n{game_id}".encode()).hexdigest()[:16]


def slot_of(variant: str, day: str, tournament: str = "") -> str:
    """What the one-game-in-play rule counts a game under: ``variant`` for a free game (``day`` and
    ``tournament`` ""), ``day``'s sealed daily, or the tournament."""
    if tournament:
        return f"{TOURNAMENT}:{tournament}"
    return f"{DAILY}:{day}" if day else variant


@dataclass(frozen=True)
class Game:
    """A dealt game as stored, with its run's verdict status and score once it has a run."""

    id: str
    player: str
    variant: str
    challenge: str  # "", "daily" (the sealed daily) or "tournament"
    date: str  # the sealed daily's UTC date, else ""
    seed: str  # the seed the deck is dealt from
    server_seed: str  # the seed committed to: ``seed`` itself unless the player gave a client seed
    client_seed: str  # the player's seed, else ""
    moves: list[str]
    move_gaps: str  # each move's server time: ms since the move before (or the deal), space-separated
    status: str  # playing, won, lost, forfeit
    created_ms: int
    last_ms: int  # when the last move was made (or the game dealt)
    ended_ms: int | None
    run_status: str | None
    run_score: int | None
    tournament: str = ""  # a tournament game's tournament, its end, its deal (0: a fresh deck), how it scores
    tournament_ends_ms: int | None = None
    deal: int = 0
    scoring: str = ""

    @property
    def run_id(self) -> str | None:
        """The game's run, once it has ended."""
        return game_run_id(self.id) if self.status != PLAYING else None

    @property
    def slot(self) -> str:
        return slot_of(self.variant, self.date, self.tournament)

    @property
    def closes_ms(self) -> int | None:
        """When the game closes: a sealed daily's at the end of its day (R18), a tournament's at the
        tournament's end (R19); None for a free game."""
        if self.date:
            return closes_ms(self.date)
        return self.tournament_ends_ms

    @property
    def seal(self) -> str | None:
        """What keeps its deal secret until it closes (``domain.sealing``): the sealed daily's day, a
        tournament's sealed decks; None for a game dealt for its player alone."""
        if self.challenge == DAILY:
            return daily_seal(self.date)
        return tournament_seal(self.tournament) if self.tournament and self.deal else None

    def played(self, moves: list[str], status: str, at_ms: int) -> "Game":
        """The game once ``moves`` are appended at ``at_ms`` and its status set to ``status``, as the
        store writes it: the first new move's gap is the time since the last one, the others' 0
        (one request's moves arrive together)."""
        gaps = [str(at_ms - self.last_ms), *["0"] * (len(moves) - 1)] if moves else []
        ended = status != PLAYING
        return replace(self, moves=[*self.moves, *moves], move_gaps=" ".join([self.move_gaps, *gaps]).strip(),
                       status=status, last_ms=at_ms, ended_ms=at_ms if ended else None)
