"""A moderator's sanction of a player: a ban, optionally until a time, or a hiding (docs/moderation.md).

A value with one text form, the JSON its store keeps (``store.sanctions``), so that whoever reads a ban
as kept (the script accepting a run hands it back as it found it: ``store.runs.accepting``) reads it the
same way.
"""

import json
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Sanction:
    """A ban or a hiding: why, by whom, since when (ms) and, for a timed ban, until when (ms)."""

    reason: str
    moderator: str
    at_ms: int
    until_ms: int | None = None

    def over(self, at_ms: int) -> bool:
        """Whether a timed ban's end has come at ``at_ms``: it refuses nothing from then on."""
        return self.until_ms is not None and self.until_ms <= at_ms

    def kept(self) -> str:
        """The sanction as its store keeps it."""
        return json.dumps(asdict(self))

    @classmethod
    def from_kept(cls, text: str) -> "Sanction":
        """The sanction ``text`` keeps (``kept``)."""
        return cls(**json.loads(text))
