"""The daily challenge: one seed per UTC day that nobody can know in advance.

The seed is an HMAC of the date under a server secret, so it is fixed for
its day yet unguessable before it (RULES.md's seed pattern: ``daily-`` and
the date, then 16 hex digits).
"""

import hashlib
import hmac
from datetime import UTC, date, datetime


def today() -> date:
    return datetime.now(UTC).date()


def daily_seed(secret: str, day: date) -> str:
    digest = hmac.new(secret.encode(), f"scoundrel/daily/v1:{day.isoformat()}".encode(), hashlib.sha256)
    return f"daily-{day.isoformat()}-{digest.hexdigest()[:16]}"
