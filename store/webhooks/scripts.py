"""One Python wrapper per Lua script (``store/lua/<name>.lua``), naming its KEYS and ARGV.

The store's modules call these with named values; the positional contract
of each script (documented at its top) is spelt here alone, next to the
key names it uses. ``client`` is a Redis client, or a pipeline to queue the
call in (its reply then comes from ``execute``).

The boards a run counts on come from the registry (``domain.boards``), as
keys and orders (``store.boards.placements``): the scripts rank, they do not
decide which boards a run is on.

Voiding, restoring or re-verifying a run can move a player's place either
way, so those scripts look at every run of the player: the wrapper passes
the run keys (declared, as Redis Cluster wants) and, per board, which of
them count on it; the script refuses, changing nothing, if the player
submitted another run since they were read; the wrapper then reads them
again (``_with_player_runs``).
"""

from typing import Any

from store.base import keys
from store.lua import LuaScript

_RECORD_DELIVERY = LuaScript("record_delivery")


def record_delivery(client: Any, *, hook_id: str, attempt: str, kept: int, counter: str) -> Any:
    """Count a delivery attempt (JSON) under ``counter`` and keep it among the webhook's latest ``kept``,
    unless the webhook is gone: 1 if kept, 0 if not."""
    return _RECORD_DELIVERY.run(client, [keys.webhook(hook_id), keys.webhook_deliveries(hook_id), keys.metrics()],
                                [attempt, kept, counter])
