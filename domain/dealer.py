"""The dealer: what a dealt game shows (``GameView``), and which new moves it takes.

The position is not stored: it is dealt from the stored seed and replayed
from the stored moves on every request (``position``, about 50 µs).

Fair play (docs/fair-play.md): a game shows the cards face up in its room
and nothing more of the deck: no seed until it is revealed, no order or
make-up of the dungeon, only how many cards are left in it. That is why
``judge`` takes a batch of moves only up to the one that deals new cards:
a move after it would be judged against cards not yet face up, and
whether it was refused (and the engine's message) would tell the player
what they are. Whether a move deals new cards depends only on what is
face up (the room, the moves made in it, the cards left), so refusing the
moves after it tells nothing.
"""

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass

import scoundrel
from scoundrel import IllegalMove, State

from .errors import MovesRefused
from .game import PLAYING, Game
from .sealing import Revealed

ROOM_NOT_DEALT = "room_not_dealt"
TOO_MANY_MOVES = "too_many_moves"


def fresh_seed() -> str:
    """A free game's seed: 256 random bits as 64 hex digits (a valid seed under RULES.md)."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """The hex SHA-256 of the seed's characters (ASCII): published before play, checked after."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


def dealt_seed(server_seed: str, client_seed: str | None) -> str:
    """The seed a free game's deck is dealt from: the server seed itself without a client seed, else
    base64url(HMAC-SHA256(key = server seed, message = client seed)) without padding.

    The server commits to its seed (``next-deal``) before the player
    chooses theirs, so neither alone picks the deck. The result is 43
    characters of ``A–Z a–z 0–9 _ -``: a valid RULES.md seed.
    """
    if not client_seed:
        return server_seed
    digest = hmac.new(server_seed.encode("ascii"), client_seed.encode("ascii"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def position(game: Game) -> State:
    """The game's position after its stored moves."""
    state = scoundrel.start(scoundrel.deal(game.seed))
    scoundrel.rules.play_out(state, [scoundrel.MOVES[move] for move in game.moves], game.variant)
    return state


def status_of(state: State) -> str:
    """``won``, ``lost`` or still ``playing`` (R12, R13)."""
    if state.lost:
        return "lost"
    return "won" if state.won else PLAYING


def judge(state: State, variant: str, played: int, moves: list[str]) -> str:
    """Apply ``moves`` to ``state`` (after ``played`` moves) in order, all or none; the status they lead to.

    Raises ``MovesRefused`` for the first illegal move (the engine's code,
    message and ruling: the message names only cards face up), the first
    move after one that deals new cards (``room_not_dealt``), or the first
    beyond RULES.md's 200 (``too_many_moves``: easy allows avoiding forever,
    and a longer game could not be verified; such a game can only be forfeited).
    """
    if played + len(moves) > scoundrel.MAX_MOVES:
        index = max(0, scoundrel.MAX_MOVES - played)
        raise MovesRefused({
            "code": TOO_MANY_MOVES, "move_index": index, "ruling": None,
            "message": f"Move {index + 1}: a game has at most {scoundrel.MAX_MOVES} moves (RULES.md) and {played} "
                       "are played; past that it can only be forfeited.",
        })
    dealing = None
    for index, notation in enumerate(moves):
        if dealing is not None:
            raise MovesRefused({
                "code": ROOM_NOT_DEALT, "move_index": index, "ruling": None,
                "message": f"Move {index + 1}: move {dealing + 1} deals new cards into the room, so the moves "
                           "after it are judged only once those cards are face up; send them in another request.",
            })
        try:
            effect = scoundrel.apply(state, scoundrel.MOVES[notation], variant)
        except IllegalMove as illegal:
            raise MovesRefused(scoundrel.RuleError.from_violation(illegal.violation, index).to_dict()) from None
        if effect.dealt:
            dealing = index
    return status_of(state)


def is_revealed(game: Game, revealed: Revealed) -> bool:
    """A game's seed is shown once it ends; a sealed game's (a sealed daily's, a tournament's sealed
    deck's) once its seal is over and closed too (``revealed``)."""
    if game.status == PLAYING:
        return False
    return game.seal is None or revealed(game.seal)


def may_see(game: Game, player: str | None, revealed: Revealed) -> bool:
    """Only the game's player sees it until its seed is revealed; then anyone may check it."""
    return player == game.player or is_revealed(game, revealed)


@dataclass(frozen=True)
class GameView:
    """A dealt game as an answer shows it: the game, its position, whether its seed is revealed, and when.

    ``schemas.games.GameSchema`` dumps it, and is the one definition of
    the game's JSON (its fields, their order, the OpenAPI document): the
    schema reads the stored fields from ``game`` and everything else from
    the properties here, which decide what of the deck is shown (fair
    play): the room, the arms and how many cards are left, the seeds only
    once revealed.
    """

    game: Game
    position: State
    revealed: bool  # ``is_revealed`` when the answer was made
    now_ms: int  # when the answer was made

    @property
    def challenge(self) -> str | None:
        return self.game.challenge or None

    @property
    def date(self) -> str | None:
        return self.game.date or None

    @property
    def tournament(self) -> str | None:
        return self.game.tournament or None

    @property
    def deal(self) -> int | None:
        """A tournament game's sealed deck (1 for the first), 0 for a fresh deck; None outside tournaments."""
        return self.game.deal if self.game.tournament else None

    @property
    def commitment(self) -> str:
        return commitment(self.game.server_seed)

    @property
    def seed(self) -> str | None:
        return self.game.seed if self.revealed else None

    @property
    def server_seed(self) -> str | None:
        """Only with a client seed: without one, it is ``seed`` itself."""
        return self.game.server_seed if self.revealed and self.game.client_seed else None

    @property
    def client_seed(self) -> str | None:
        return self.game.client_seed or None

    @property
    def room(self) -> list[str]:
        return list(self.position.room)

    @property
    def health(self) -> int:
        return self.position.health

    @property
    def weapon(self) -> int | None:
        """The equipped weapon's value (a card already played face up)."""
        return scoundrel.VALUE[self.position.weapon] if self.position.weapon else None

    @property
    def last_kill(self) -> int | None:
        return scoundrel.VALUE[self.position.last_kill] if self.position.last_kill else None

    @property
    def cards_left(self) -> int:
        """How many cards are face down: all that is shown of the dungeon."""
        return len(self.position.dungeon)

    @property
    def legal_moves(self) -> list[str]:
        return scoundrel.legal_moves(self.position, self.game.variant) if self.game.status == PLAYING else []

    @property
    def score(self) -> int | None:
        """The run's score once it is verified."""
        return self.game.run_score if self.game.run_status == "verified" else None

    @property
    def closes_ms(self) -> int | None:
        """A sealed daily's or a tournament's game in play: when it closes and is forfeited (R18, R19)."""
        return self.game.closes_ms if self.game.status == PLAYING else None

    @property
    def closes_in(self) -> float | None:
        """Seconds from the answer to ``closes_ms``."""
        closes = self.closes_ms
        return max(0.0, (closes - self.now_ms) / 1000) if closes is not None else None
