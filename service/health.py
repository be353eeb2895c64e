"""``/v1/health``: whether the service can take submissions right now."""

from redis.exceptions import RedisError

import scoundrel
from schemas.runs import HealthSchema, VersionSchema
from store.base import replicas_short
from store.queue import verify_queue

from .api import Blueprint
from .context import db
from .errors import RETRY_AFTER_SECONDS

blp = Blueprint("health", __name__, url_prefix="/v1", description="Service health")


def versions() -> dict:
    """The ruleset, deal and engine this server verifies with."""
    return {"ruleset": scoundrel.RULESET, "deal": scoundrel.DEAL_VERSION, "engine": scoundrel.ENGINE_VERSION}


@blp.route("/version")
@blp.response(200, VersionSchema)
def version():
    """The ruleset, deal and engine this server verifies with; touches nothing but memory."""
    return versions()


@blp.route("/health")
@blp.response(200, HealthSchema)
@blp.alt_response(503, schema=HealthSchema, description="The data's Redis does not answer (redis: down), or "
                                                         "answers but refuses writes (redis: refusing_writes)")
def health():
    """200 when Redis takes writes; 503 when it does not answer, or refuses writes (full, read-only):
    a submission would fail either way. With the queues on a Redis of their own that is away, 200
    with ``status`` ``degraded`` and ``queues`` ``down``: submissions are taken, their verdicts wait.
    With fewer replicas than ``SCOUNDREL_WAIT_REPLICAS`` asks for (after a failover, until a replica is
    back), 200 with ``status`` ``degraded`` and ``replicas`` ``short``: reads answer, changes are refused."""
    answered = versions()
    retry = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    try:
        writable = db().accepts_writes()
    except RedisError:
        return {"status": "unavailable", "redis": "down", **answered}, 503, retry
    try:
        queues = {"queues": "up", "queue_depth": verify_queue(db()).count}
    except RedisError:
        # the queues' own Redis away: submissions are taken, and verified once it is back
        queues = {"queues": "down"}
    if not writable:
        return {"status": "unavailable", "redis": "refusing_writes", **queues, **answered}, 503, retry
    replicas = {"replicas": "short"} if replicas_short(db()) else {}
    degraded = queues["queues"] != "up" or replicas
    return {"status": "degraded" if degraded else "ok", "redis": "up", **queues, **replicas, **answered}
