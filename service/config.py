"""Configuration, read from the environment in this one place.

Every setting has a documented default (README, "Configuration"), so the
service runs with none set; tests pass a ``Settings`` of their own.
"""

import os
from dataclasses import dataclass


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value not in (None, "") else default


@dataclass(frozen=True)
class Settings:
    redis_url: str = "redis://127.0.0.1:6379/0"
    queue: str = "verify"
    job_timeout: int = 30  # seconds a verification job may run
    daily_secret: str = ""  # empty: a random secret is generated once and kept in Redis
    redis_timeout: float = 1.0  # seconds before a Redis call gives up (the API then answers 503)

    @classmethod
    def from_env(cls) -> "Settings":
        return cls(
            redis_url=os.environ.get("REDIS_URL") or cls.redis_url,
            queue=os.environ.get("SCOUNDREL_QUEUE") or cls.queue,
            job_timeout=_env_int("SCOUNDREL_JOB_TIMEOUT", cls.job_timeout),
            daily_secret=os.environ.get("SCOUNDREL_DAILY_SECRET", ""),
        )
