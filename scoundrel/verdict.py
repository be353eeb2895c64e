"""Verdicts: the one answer a replay gives, and its JSON.

The same JSON leaves the CLI and the HTTP API, so clients parse one shape:
``verified`` with outcome and score, ``rejected`` with the first offending
move, or ``invalid`` with field-level errors for malformed input.
"""

from dataclasses import dataclass, field
from typing import Any

from .rules import Violation
from .state import Effect

RULESET = "scoundrel-1"
ENGINE_VERSION = "1.0.0"

VERIFIED = "verified"
REJECTED = "rejected"
INVALID = "invalid"
WON = "won"
LOST = "lost"
FORFEIT = "forfeit"  # R18: a dealt game its player gave up, or left idle


@dataclass(frozen=True, slots=True)
class Step:
    """One applied move of a replay: the room before it, what it did, the state after."""

    index: int
    move: str
    room: tuple[str, ...]  # the room before the move, in R4 order
    effect: Effect
    health: int
    weapon: str | None
    kills: tuple[str, ...]  # the equipped weapon's kills, oldest first
    room_after: tuple[str, ...]
    dungeon: int  # cards left face down after the move

    @property
    def last_kill(self) -> str | None:
        return self.kills[-1] if self.kills else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "move": self.move,
            "room": list(self.room),
            "health": self.health,
            "weapon": self.weapon,
            "kills": list(self.kills),
            "last_kill": self.last_kill,
            "room_after": list(self.room_after),
            "dungeon": self.dungeon,
            "effect": self.effect.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class RuleError:
    """The first offending move of a rejected run."""

    code: str
    move_index: int
    message: str
    ruling: str

    @classmethod
    def from_violation(cls, violation: Violation, move_index: int) -> "RuleError":
        return cls(violation.code, move_index, f"Move {move_index + 1}: {violation.message}", violation.ruling)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "move_index": self.move_index, "message": self.message, "ruling": self.ruling}


@dataclass(frozen=True, slots=True)
class Verdict:
    """The result of one replay. ``steps`` is filled only when a trace was asked for."""

    status: str
    outcome: str | None = None
    score: int | None = None
    health: int | None = None
    moves: int | None = None
    error: RuleError | None = None
    errors: dict[str, Any] | None = None
    steps: tuple[Step, ...] = field(default=(), compare=False)

    @classmethod
    def invalid(cls, errors: dict[str, Any]) -> "Verdict":
        """The verdict for malformed input: field name → list of messages."""
        return cls(INVALID, errors=errors)

    def to_dict(self) -> dict[str, Any]:
        if self.status == INVALID:
            return {"status": INVALID, "errors": self.errors}
        if self.status == REJECTED:
            assert self.error is not None  # a rejected verdict always names its first offending move
            return {"status": REJECTED, "error": self.error.to_dict(), "ruleset": RULESET, "engine": ENGINE_VERSION}
        return {
            "status": VERIFIED,
            "outcome": self.outcome,
            "score": self.score,
            "health": self.health,
            "moves": self.moves,
            "ruleset": RULESET,
            "engine": ENGINE_VERSION,
        }
