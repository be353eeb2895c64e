"""Rewards: what a competition's close grants its players, by rank, into their inbox.

- **A reward table** is a list of bands, each ``from_rank``–``to_rank`` (1
  the first place) or the ``top_percent`` of the entrants, with a
  ``payload``: JSON the studio defines (``{"coins": 100}``), which the
  service keeps and shows and never reads. A player's reward is the first
  band that covers their rank (``reward_band``); a player with no band has
  none. A tournament carries its table, a schedule's template too; the
  weekly leagues have one per tier (``SCOUNDREL_LEAGUE_REWARDS``) and the
  seasons one (``SCOUNDREL_SEASON_REWARDS``).
- **A source** is the closed competition a reward comes from: each player is
  granted at most one reward of each (``tournament:<id>``, ``league:<week>``,
  ``season:<id>``), so the source names the reward in their inbox.
- **Settling** grants each player the reward their rank earns, once. A void
  or a restore afterwards settles again: a reward not yet claimed follows the
  new ranks (granted, changed or withdrawn); a claimed one is never taken
  back, but flagged for the moderators when the new ranks no longer earn it.
"""

import json
import math
from dataclasses import dataclass
from typing import Any

from .errors import Refusal

TOURNAMENT_SOURCE, LEAGUE_SOURCE, SEASON_SOURCE = "tournament", "league", "season"
ALREADY_CLAIMED = "already_claimed"


@dataclass(frozen=True)
class Band:
    """One row of a reward table: the ranks ``from_rank``–``to_rank``, or the ``top_percent`` of the
    entrants (then both ranks None), and what it grants."""

    payload: Any
    from_rank: int | None = None
    to_rank: int | None = None
    top_percent: float | None = None

    def covers(self, rank: int, entrants: int) -> bool:
        """Whether a player ranked ``rank`` of ``entrants`` earns this band (the top percent rounded up,
        so a band of any percent covers the first place)."""
        if self.top_percent is not None:
            return rank <= math.ceil(entrants * self.top_percent / 100)
        return (self.from_rank or 1) <= rank <= (self.to_rank or self.from_rank or 1)


def reward_band(bands: tuple[Band, ...], rank: int, entrants: int) -> Band | None:
    """The band a player ranked ``rank`` of ``entrants`` earns: the first that covers them; None for none."""
    return next((band for band in bands if band.covers(rank, entrants)), None)


def depth(bands: tuple[Band, ...], entrants: int) -> int:
    """How many of the first places a table may reward among ``entrants``: all a settling needs to read."""
    return min(entrants, max((math.ceil(entrants * band.top_percent / 100) if band.top_percent is not None
                              else band.to_rank or band.from_rank or 1 for band in bands), default=0))


def band_problem(row: dict[str, Any]) -> str | None:
    """Why a band (its fields checked one by one) is not one; None when it is: ranks or a percent."""
    if ("top_percent" in row) == ("from_rank" in row):
        return "Give from_rank (and to_rank) or top_percent, not both."
    if "to_rank" in row and "from_rank" not in row:
        return "to_rank ends a band that from_rank starts."
    if row.get("to_rank", row.get("from_rank", 1)) < row.get("from_rank", 1):
        return "to_rank is from_rank or after it."
    return None


def table_from(listed: object) -> tuple[Band, ...]:
    """A reward table given as JSON outside the API (a setting); ``ValueError`` saying why it is not one."""
    if not isinstance(listed, list) or not all(isinstance(row, dict) and "payload" in row for row in listed):
        raise ValueError("a reward table is a list of bands, each with its payload")
    for row in listed:
        ranks = [row[name] for name in ("from_rank", "to_rank") if name in row]
        if not all(isinstance(rank, int) and rank >= 1 for rank in ranks) or not (
                isinstance(row.get("top_percent", 1), int | float) and 0 < row.get("top_percent", 1) <= 100):
            raise ValueError("ranks are whole numbers from 1, a top_percent above 0 and at most 100")
        if unknown := set(row) - {"payload", "from_rank", "to_rank", "top_percent"}:
            raise ValueError(f"unknown fields: {', '.join(sorted(unknown))}")
        if problem := band_problem(row):
            raise ValueError(problem)
    return bands_of(listed)


def bands_of(table: list[dict[str, Any]]) -> tuple[Band, ...]:
    """A reward table as the API and the settings give it (checked: ``schemas.rewards``)."""
    return tuple(Band(row["payload"], row.get("from_rank"), row.get("to_rank"), row.get("top_percent"))
                 for row in table)


def table_of(bands: tuple[Band, ...]) -> list[dict[str, Any]]:
    """A reward table as the API shows it and the store keeps it: the inverse of ``bands_of``."""
    return [{"payload": band.payload, "top_percent": band.top_percent} if band.top_percent is not None
            else {"payload": band.payload, "from_rank": band.from_rank, "to_rank": band.to_rank}
            for band in bands]


def bands_json(bands: tuple[Band, ...]) -> str:
    return json.dumps(table_of(bands), separators=(",", ":"))


def source_id(kind: str, ref: str) -> str:
    """The source of a competition's rewards: ``tournament:12``, ``league:2026-W49``, ``season:2026-12``."""
    return f"{kind}:{ref}"


def reward_id(source: str) -> str:
    """A reward's id in its player's inbox (one reward a source): its source, with a dash for the colon."""
    return source.replace(":", "-", 1)


@dataclass(frozen=True)
class Reward:
    """One reward in a player's inbox: where it came from, the rank that earned it and what it grants,
    when it was granted and claimed (ms; None: not yet)."""

    id: str
    source: str
    player: str
    rank: int
    payload: Any
    granted_ms: int
    claimed_ms: int | None = None


@dataclass(frozen=True)
class Earned:
    """What a player's final rank earns in a competition: the rank, and the band's payload."""

    player: str
    rank: int
    payload: Any


def earned(bands: tuple[Band, ...], ranked: list[str], entrants: int) -> list[Earned]:
    """The rewards a competition's final order (best first, ``entrants`` in all, the unranked ones counted
    last) earns under ``bands``: one for each player a band covers."""
    found = []
    for rank, player in enumerate(ranked, start=1):
        if (band := reward_band(bands, rank, entrants)) is not None:
            found.append(Earned(player, rank, band.payload))
    return found


class NoSuchReward(Refusal):
    """The player's inbox holds no such reward."""

    def __init__(self, reward: str):
        super().__init__(f"No reward {reward!r} in this inbox.")


class AlreadyClaimed(Refusal):
    """The reward was claimed before (``reason``: ``already_claimed``)."""

    reason = ALREADY_CLAIMED

    def __init__(self, reward: str):
        super().__init__(f"The reward {reward!r} was claimed already.")
