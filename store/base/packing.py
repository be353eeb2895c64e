"""One exact integer per board entry: the score, then the earlier submission.

Redis sorted-set scores are doubles, exact only up to 2^53, so the rank key
packs the score and the submission time into 52 bits: a higher score ranks
first, and at equal scores the earlier submission does (its time is stored
inverted). Scores range from about -221 (R16: death at -13 with every
monster left in the dungeon) to 30 (R15), well inside the 9 bits allowed.
Lua packs and unpacks it in one place too (``lua/_rank.lua``, where doubles
are exact as well); a test holds the two equal.
"""

import calendar
import datetime
import functools
import time
from dataclasses import dataclass

from domain.boards import LADDER_GAMES as LADDER_GAMES  # the ladder key packs a sum of this many scores

SCORE_OFFSET = 256  # scores from -256 to 255
TIME_BITS = 43  # milliseconds since 1970, good until the year 2248
TIME_SPAN = 2**TIME_BITS
LATEST_MS = TIME_SPAN - 1


@dataclass(frozen=True)
class Packing:
    """How a best-ranked board's rank keys pack a score and a time, as its reads unpack them: ``rank``
    (``pack``: one game's score, then the ms) or ``total`` (``pack_ladder``: a sum of scores, then the second,
    the places of a board ranking sums: a tournament's, ``domain.boards.Order.SUM``). ``name`` is how the
    scripts take it (``lua/_rank.lua``'s ``unpack_place``)."""

    name: str
    span: int  # the rank key's part above this is the score (``lua/_around.lua``'s ``places_above``)
    offset: int

    def score(self, packed: float | int) -> int:
        return int(packed) // self.span - self.offset

    def least_above(self, packed: float | int) -> int:
        """The least rank key of a higher score than ``packed``'s."""
        return (int(packed) // self.span + 1) * self.span


RANK = Packing("rank", TIME_SPAN, SCORE_OFFSET)


def pack(score: int, submitted_ms: int) -> int:
    """The rank key: larger means better (higher score, then earlier submission)."""
    if not -SCORE_OFFSET <= score < SCORE_OFFSET:
        raise ValueError(f"score {score} outside the packable range")
    if not 0 <= submitted_ms <= LATEST_MS:
        raise ValueError(f"time {submitted_ms} outside the packable range")
    return (score + SCORE_OFFSET) * TIME_SPAN + (LATEST_MS - submitted_ms)


packed_score = RANK.score  # the score a rank key packs (``pack``'s inverse, as ``lua/_rank.lua``'s ``rank_score``)
least_above = RANK.least_above  # the least rank key of a higher score (``lua/_around.lua``'s ``places_above``)


LADDER_OFFSET = 8192  # sums of 20 scores from -8192 to 8191 (20 × -221 to 20 × 30 fit)
LADDER_TIME_BITS = 35  # seconds since 1970, good until the year 3058
LADDER_SPAN = 2**LADDER_TIME_BITS


def pack_ladder(total: int, latest_ms: int) -> int:
    """The ladder's rank key: a higher sum of the last ``LADDER_GAMES`` scores (so a
    higher mean) ranks first; at equal sums, the player whose latest game ended
    earlier, to the second (the sum needs the bits milliseconds would take)."""
    if not -LADDER_OFFSET <= total < LADDER_OFFSET:
        raise ValueError(f"ladder sum {total} outside the packable range")
    return (total + LADDER_OFFSET) * LADDER_SPAN + (LADDER_SPAN - 1 - latest_ms // 1000)


def packed_ladder_total(packed: float | int) -> int:
    """The sum of the last ``LADDER_GAMES`` scores a ladder key packs (``pack_ladder``'s first part)."""
    return int(packed) // LADDER_SPAN - LADDER_OFFSET


TOTAL = Packing("total", LADDER_SPAN, LADDER_OFFSET)


def iso_time(ms: int | str | None) -> str | None:
    """Milliseconds since 1970 as an ISO 8601 UTC timestamp, as the API shows times.

    Integer arithmetic, not a float division: exact, and cheap enough for
    every entry of a 100-place board page.
    """
    if ms in (None, ""):
        return None
    days, millis = divmod(int(ms), 86_400_000)
    hours, millis = divmod(millis, 3_600_000)
    minutes, millis = divmod(millis, 60_000)
    seconds, millis = divmod(millis, 1000)
    return f"{_iso_date(days)}T{hours:02d}:{minutes:02d}:{seconds:02d}.{millis:03d}Z"


def parse_iso_time(text: str) -> int:
    """Milliseconds since 1970 of a timestamp ``iso_time`` wrote (the inverse, exact to the ms)."""
    moment = datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.UTC)
    return int(calendar.timegm(moment.timetuple())) * 1000 + moment.microsecond // 1000


@functools.lru_cache(maxsize=1024)
def _iso_date(days: int) -> str:
    """The date ``days`` after 1970-01-01; a page's times fall on few days."""
    return time.strftime("%Y-%m-%d", time.gmtime(days * 86_400))
