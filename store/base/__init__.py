"""The Redis plumbing every subject stands on: the connection (``database``, the one way to connect, to one
Redis or through Sentinel), every key's name (``keys``), Redis refusing (``errors``), waiting for
replicas (``replicas``), the clock, the rank keys' packing, the counters and a paged listing."""

from store.base.clock import now_ms
from store.base.database import BULK_TIMEOUT, Database, Jobs
from store.base.errors import NotReplicated, TokenRevoked, first_line, refuses_writes
from store.base.keys import rate_limit_prefix
from store.base.metrics import LATENCY_BUCKETS, MOVE_LATENCY_BUCKETS, count_job_failure, read_tallies
from store.base.packing import LADDER_GAMES, iso_time, packed_ladder_total
from store.base.replicas import replicas_short
from store.base.service_mark import holds_service_data, mark_service

__all__ = [
    "now_ms", "BULK_TIMEOUT", "Database", "Jobs", "NotReplicated", "TokenRevoked", "first_line", "refuses_writes",
    "rate_limit_prefix", "LATENCY_BUCKETS", "MOVE_LATENCY_BUCKETS", "count_job_failure", "read_tallies",
    "LADDER_GAMES", "iso_time", "packed_ladder_total", "replicas_short", "holds_service_data", "mark_service",
]
