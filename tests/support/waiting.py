"""Waiting for what processes bring about (a verdict, a sweep, a failover): looked at quickly at first,
then less often.

Each look costs CPU on both sides: an HTTP request costs the API and the
test about 4 ms between them, a look at the sentinels a connection to each.
Looking every 50 ms while a job's delay, a sweep or a failover takes
seconds was most of what such a wait cost. What comes at once is still seen
within 50 ms, and what takes seconds within a quarter of a second.
"""

import time
from collections.abc import Callable
from typing import TypeVar

Found = TypeVar("Found")

FIRST_PAUSE = 0.05  # seconds between the first two looks
LONGEST_PAUSE = 0.25  # seconds between two looks, at most
GROWTH = 1.5  # each pause this much longer than the one before


def until(found: Callable[[], Found], what: str, timeout: float) -> Found:
    """What ``found()`` returns once it is truthy; ``timeout`` only ends a wait that has failed."""
    deadline = time.monotonic() + timeout
    pause = FIRST_PAUSE
    while not (result := found()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not in {timeout} s")
        time.sleep(pause)
        pause = min(pause * GROWTH, LONGEST_PAUSE)
    return result
