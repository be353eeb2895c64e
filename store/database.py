"""The connection to Redis that every store function takes.

Two clients share one server: ``redis`` decodes replies to ``str`` for our
own keys, ``raw`` leaves them as bytes because RQ stores pickled jobs. The
verification queue lives here too, so that accepting a run and queueing its
job can be one transaction.
"""

import redis
from rq import Queue

from . import keys

VERIFY_JOB = "worker.jobs.verify_run"


class Database:
    """Redis clients, the verification queue and the registered Lua scripts."""

    def __init__(self, url: str, queue_name: str = "verify", job_timeout: int = 30,
                 socket_timeout: float = 2.0):
        options = dict(socket_connect_timeout=socket_timeout, socket_timeout=socket_timeout,
                       health_check_interval=10, retry_on_timeout=False)
        self.url = url
        self.redis = redis.Redis.from_url(url, decode_responses=True, **options)
        self.raw = redis.Redis.from_url(url, **options)
        self.queue = Queue(queue_name, connection=self.raw, default_timeout=job_timeout)
        self.record_verdict_script = self.redis.register_script(keys.RECORD_VERDICT)
        self.create_player_script = self.redis.register_script(keys.CREATE_PLAYER)
        self.create_moderator_script = self.redis.register_script(keys.CREATE_MODERATOR)
        self.file_dispute_script = self.redis.register_script(keys.FILE_DISPUTE)
        self.resolve_dispute_script = self.redis.register_script(keys.RESOLVE_DISPUTE)
        self.restore_run_script = self.redis.register_script(keys.RESTORE_RUN)
        self.reverify_run_script = self.redis.register_script(keys.REVERIFY_RUN)

    def ping(self) -> bool:
        return bool(self.redis.ping())

    def close(self) -> None:
        self.redis.close()
        self.raw.close()
