"""What every job of a worker process shares: its settings and one connection pool, made once."""

import functools

from settings import Settings
from store import Database


@functools.cache
def settings() -> Settings:
    return Settings.from_env()


@functools.cache
def database() -> Database:
    """One connection pool per worker process, configured like the API."""
    from .jobs import JOBS  # imported here: the jobs import this module for this very function

    return Database.from_settings(settings(), JOBS)
