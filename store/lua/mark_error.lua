--#include _audit
-- KEYS: run, pending-runs, metrics, the jobs of runs taken from the intake, the errored runs (the desk's
-- queue of runs waiting for re-verification), the players with runs.
-- ARGV: run id, error JSON, time (ms), the worker's name.
-- A pending run whose verification keeps failing becomes ``error``, with
-- the reason and an ``errored`` audit entry, and its player joins the players
-- with runs (a new run's script leaves that to its verdict: ``_new_run``); a
-- run with a verdict is left alone. 1 if the run changed.
if redis.call('HGET', KEYS[1], 'status') ~= 'pending' then
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('HDEL', KEYS[4], ARGV[1])
  return 0
end
local before = snapshot(KEYS[1])
redis.call('HSET', KEYS[1], 'status', 'error', 'error', ARGV[2])
redis.call('HDEL', KEYS[1], 'job', 'request_id')
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
redis.call('HINCRBY', KEYS[3], 'errors', 1)
redis.call('ZADD', KEYS[5], ARGV[3], ARGV[1])
local player, submitted_ms = unpack(redis.call('HMGET', KEYS[1], 'player', 'submitted_ms'))
redis.call('ZADD', KEYS[6], 'LT', submitted_ms, player)
audit(KEYS[1], 'errored', 'worker', ARGV[4], ARGV[3], before, snapshot(KEYS[1]),
  cjson.decode(ARGV[2]))
return 1
