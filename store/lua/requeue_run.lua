--#include _audit
-- KEYS: run, pending-runs. ARGV: run id, time (ms), the moderator.
-- A moderator's re-queue: an ``error`` run is pending again, its re-queue
-- count reset, with a ``requeued`` audit entry. 0 if the run is not in ``error``.
if redis.call('HGET', KEYS[1], 'status') ~= 'error' then
  return 0
end
local before = snapshot(KEYS[1])
redis.call('HSET', KEYS[1], 'status', 'pending')
redis.call('HDEL', KEYS[1], 'error', 'verified_ms', 'requeues')
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
audit(KEYS[1], 'requeued', 'moderator', ARGV[3], ARGV[2], before, snapshot(KEYS[1]), {})
return 1
