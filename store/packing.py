"""One exact integer per board entry: the score, then the earlier submission.

Redis sorted-set scores are doubles, exact only up to 2^53, so the rank key
packs the score and the submission time into 52 bits: a higher score ranks
first, and at equal scores the earlier submission does (its time is stored
inverted). Scores range from about -221 (R16: death at -13 with every
monster left in the dungeon) to 30 (R15), well inside the 9 bits allowed.
"""

from datetime import datetime, timezone

SCORE_OFFSET = 256  # scores from -256 to 255
TIME_BITS = 43  # milliseconds since 1970, good until the year 2248
TIME_SPAN = 2**TIME_BITS
LATEST_MS = TIME_SPAN - 1


def pack(score: int, submitted_ms: int) -> int:
    """The rank key: larger means better (higher score, then earlier submission)."""
    if not -SCORE_OFFSET <= score < SCORE_OFFSET:
        raise ValueError(f"score {score} outside the packable range")
    if not 0 <= submitted_ms <= LATEST_MS:
        raise ValueError(f"time {submitted_ms} outside the packable range")
    return (score + SCORE_OFFSET) * TIME_SPAN + (LATEST_MS - submitted_ms)


def unpack(packed: float | int | str) -> tuple[int, int]:
    """``(score, submitted_ms)`` from a rank key as Redis returns it."""
    value = int(float(packed)) if not isinstance(packed, int) else packed
    high, low = divmod(value, TIME_SPAN)
    return high - SCORE_OFFSET, LATEST_MS - low


def iso_time(ms: int | str | None) -> str | None:
    """Milliseconds since 1970 as an ISO 8601 UTC timestamp, as the API shows times."""
    if ms in (None, ""):
        return None
    moment = datetime.fromtimestamp(int(ms) / 1000, tz=timezone.utc)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
