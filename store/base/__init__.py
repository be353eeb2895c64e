"""The Redis plumbing every subject stands on: the connection (``database``, the one way to connect, to one
Redis or through Sentinel), every key's name (``keys``), Redis refusing (``errors``), waiting for
replicas (``replicas``), the clock, the rank keys' packing, the counters and a paged listing."""
