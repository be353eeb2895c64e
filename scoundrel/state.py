"""The position of a game as plain data, and what one move did to it.

``State`` is mutable on purpose: a replay applies up to 200 moves to one
state in place, which keeps a full game near 50 µs. Whoever needs a history
(the step trace, a replay viewer) takes snapshots with ``State.copy``.
"""

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from .cards import monster_total

START_HEALTH = 20  # R3
MAX_HEALTH = 20  # R3
ROOM_SIZE = 4  # R4


@dataclass(slots=True, eq=False)
class State:
    """Everything the rules look at, and nothing else.

    ``room`` is ordered as R4 says (carried-over card first, then the cards
    in the order drawn); ``dungeon`` is the face-down pile, top first.
    """

    room: list[str] = field(default_factory=list)
    dungeon: deque[str] = field(default_factory=deque)
    health: int = START_HEALTH
    weapon: str | None = None
    kills: list[str] = field(default_factory=list)  # by the equipped weapon, oldest first (R9, R10)
    played_in_room: int = 0  # cards played since the room was dealt (R4, R6)
    potion_drunk: bool = False  # a potion already healed in this room (R8)
    avoided_last: bool = False  # the previous room was avoided, no card played since (R6)
    bonus: int = 0  # R15: the last card was a potion drunk at full health; its value

    def __post_init__(self) -> None:
        if not isinstance(self.dungeon, deque):
            self.dungeon = deque(self.dungeon)
        self.room = list(self.room)
        self.kills = list(self.kills)

    @property
    def last_kill(self) -> str | None:
        """The last monster the equipped weapon killed (R10), if any."""
        return self.kills[-1] if self.kills else None

    @property
    def lost(self) -> bool:
        """R12: health at 0 or below ends the game."""
        return self.health <= 0

    @property
    def won(self) -> bool:
        """R13: dungeon and room empty with health above 0."""
        return self.health > 0 and not self.room and not self.dungeon

    @property
    def over(self) -> bool:
        return self.lost or self.won

    @property
    def short_room(self) -> bool:
        """R5: the room was dealt with fewer than 4 cards; all of them must be played."""
        return len(self.room) + self.played_in_room < ROOM_SIZE

    def score(self) -> int:
        """The classic score of a finished game (R15 for a win, R16 for a loss)."""
        if self.lost:
            return self.health - monster_total(self.dungeon)
        return self.health + self.bonus

    def forfeit_score(self) -> int:
        """R18: a forfeit scores as dying at once, 0 minus every monster not yet defeated."""
        return -monster_total((*self.room, *self.dungeon))

    def copy(self) -> "State":
        """A state of its own with the same position: set field by field, without ``__init__`` and
        ``__post_init__`` copying the lists a second time (the players and the judging of dealt games copy
        states hundreds of thousands of times a game searched)."""
        other = object.__new__(State)
        other.room = self.room.copy()
        other.dungeon = self.dungeon.copy()
        other.health = self.health
        other.weapon = self.weapon
        other.kills = self.kills.copy()
        other.played_in_room = self.played_in_room
        other.potion_drunk = self.potion_drunk
        other.avoided_last = self.avoided_last
        other.bonus = self.bonus
        return other


@dataclass(frozen=True, slots=True)
class Effect:
    """What one move did, for the step trace and the audit views."""

    damage: int = 0  # health lost in a fight (R11)
    healed: int = 0  # health restored by a potion (R8)
    wasted: int = 0  # potion value that restored nothing: capped at 20, or a second potion (R8)
    equipped: str | None = None  # the weapon just equipped (R9)
    discarded: tuple[str, ...] = ()  # the old weapon and its kills, discarded by R9
    killed: str | None = None  # the monster recorded as the weapon's last kill (R10, R11)
    avoided: tuple[str, ...] = ()  # the room sent to the bottom of the dungeon (R7)
    dealt: tuple[str, ...] = ()  # cards drawn into a new room after this move (R4, R5)

    def with_dealt(self, dealt: tuple[str, ...]) -> "Effect":
        """This effect with the cards dealt after it: ``dataclasses.replace`` spelt out, at half its CPU
        (``apply`` deals a room every third card; the players and the judging of dealt games apply hundreds of
        thousands of moves a game searched)."""
        return Effect(self.damage, self.healed, self.wasted, self.equipped, self.discarded, self.killed,
                      self.avoided, dealt)

    def to_dict(self) -> dict[str, Any]:
        return {
            "damage": self.damage,
            "healed": self.healed,
            "wasted": self.wasted,
            "equipped": self.equipped,
            "discarded": list(self.discarded),
            "killed": self.killed,
            "avoided": list(self.avoided),
            "dealt": list(self.dealt),
        }
