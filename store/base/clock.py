"""The store's clock: milliseconds since 1970, as every record keeps its times."""

import time


def now_ms() -> int:
    return int(time.time() * 1000)
