"""What a sealed daily's share card says: a player's result of one day, to paste into a chat.

The card names the day, the player, the score, the share of the day's
sealed board below it and the streak; never a card, the seed or a move,
so it may be shown while the day is on (docs/fair-play.md): the score and
the standing tell nothing of which cards were dealt. The share text
(``share_text``), the share page and its image (``service.share_page``)
all say the same thing from this one value.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class ShareCard:
    """``player``'s sealed daily of ``date``: ``score``, better than ``better_than`` % of the day's
    board (``store.boards.standings.Spread.share_below``) of ``total`` places, and the streak as it stood
    that day (``domain.streak.Streak.on``; None where it is not known any more)."""

    date: str
    player: str
    score: int
    better_than: int
    total: int
    streak: int | None

    @property
    def first(self) -> bool:
        """The only place on the day's board: nobody to be better than, so no share of them to give."""
        return self.total == 1

    @property
    def standing(self) -> str:
        return "the first to play it" if self.first else f"better than {self.better_than} % of {self.total} players"

    @property
    def streak_line(self) -> str | None:
        if self.streak is None:
            return None
        return f"streak {self.streak} {'day' if self.streak == 1 else 'days'} in a row"

    def share_text(self, url: str) -> str:
        """The lines a player pastes: the day, the score and standing, the streak, the link."""
        lines = [f"Scoundrel sealed daily {self.date}", f"Score {self.score}, {self.standing}"]
        if self.streak_line:
            lines.append(self.streak_line[0].upper() + self.streak_line[1:])
        return "\n".join([*lines, url])
