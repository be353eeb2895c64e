"""What every job of a worker process shares: its settings and one connection pool, made once."""

import functools

from settings import Settings
from store import Database

from .registry import JOBS


@functools.cache
def settings() -> Settings:
    return Settings.from_env()


@functools.cache
def database() -> Database:
    """One connection pool per worker process, configured like the API."""
    return Database.from_settings(settings(), JOBS)
