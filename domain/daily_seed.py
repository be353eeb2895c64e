"""The daily challenges: one seed per UTC day that nobody can know in advance.

Each seed is an HMAC of the date under a server secret, so it is fixed for
its day yet unguessable before it. The open daily's seed is public all day
(``daily-`` and the date, then 16 hex digits). The sealed daily's is
dealt by the server and shown only once its day is over and closed
(``domain.sealing.day_revealed``): 64 hex digits (a valid seed under RULES.md)
under a secret of its own.
"""

import hashlib
import hmac
import re
from datetime import UTC, date, datetime, timedelta

DAY_PATTERN = "[0-9]{4}-[0-9]{2}-[0-9]{2}"  # how a day is written: YYYY-MM-DD, and nothing else


def today() -> date:
    return datetime.now(UTC).date()


def daily_seed(secret: str, day: date) -> str:
    digest = hmac.new(secret.encode(), f"scoundrel/daily/v1:{day.isoformat()}".encode(), hashlib.sha256)
    return f"daily-{day.isoformat()}-{digest.hexdigest()[:16]}"


def sealed_seed(secret: str, day: date) -> str:
    """The sealed daily's seed of ``day``: all 256 bits of the HMAC, as 64 hex digits."""
    return hmac.new(secret.encode(), f"scoundrel/sealed-daily/v1:{day.isoformat()}".encode(),
                    hashlib.sha256).hexdigest()


class DayNotBegun(ValueError):
    """A date whose UTC day is still to come: it has no daily yet."""


def parse_day(text: str) -> date:
    """The UTC day ``text`` names (``YYYY-MM-DD``), once it has begun.

    Raises ``ValueError`` for what is not a calendar date (``2026-02-30``), and
    its subclass ``DayNotBegun`` for a day to come; the API and the pages each
    answer these in their own shape.
    """
    if re.fullmatch(DAY_PATTERN, text) is None:
        raise ValueError(f"{text!r} is not written YYYY-MM-DD")  # fromisoformat takes 20261129 and 2026-W48 too
    day = date.fromisoformat(text)
    if day > today():
        raise DayNotBegun(text)
    return day


def day_over(day: date) -> bool:
    """Whether ``day``'s UTC day is over: its sealed daily has closed (R18). Its deal is shown only once
    the close is recorded too (``domain.sealing.day_revealed``)."""
    return day < today()


def closes_ms(day: str) -> int:
    """The end of UTC day ``day`` (``YYYY-MM-DD``), in ms: when its sealed daily closes (R18)."""
    end = datetime.combine(date.fromisoformat(day) + timedelta(days=1), datetime.min.time(), UTC)
    return int(end.timestamp() * 1000)
