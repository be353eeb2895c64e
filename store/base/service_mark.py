"""The mark of a Redis that holds this service's data.

An operator command pointed at the wrong Redis (a new shell without
``REDIS_URL``, the default ``127.0.0.1:6379`` of some other program) would
otherwise find nothing, report every board consistent and write a
moderator where the service never looks. The API and every worker set the
mark as they start on a Redis; ``scoundrel check``, ``moderator``,
``reverify`` and ``archive`` refuse a Redis without it (``cli.connecting``).
"""

from store.base import keys
from store.base.database import Database

SERVICE = "scoundrel-referee"


def mark_service(db: Database) -> None:
    """Note in Redis that it holds the service's data (idempotent: every start sets it again)."""
    db.redis.set(keys.service_mark(), SERVICE)


def holds_service_data(db: Database) -> bool:
    """Whether the API or a worker has ever started on this Redis."""
    return db.redis.get(keys.service_mark()) == SERVICE
