--#include _audit
--#include _placement
-- KEYS: run, board, board-runs, daily-board, daily-runs, audit, pending runs,
-- metrics, latency.
-- ARGV: run id, packed rank key ("" when the run is not ranked), "1" for a
-- run on its day's daily seed, the player, the worker's name, the time (ms),
-- the verdict's metrics field, its latency bucket and latency (seconds), then
-- the verdict's fields as alternating name/value pairs.
-- A verdict is written once, with its audit entry and its counts: a run no
-- longer pending is left alone, so a job that runs twice changes nothing
-- (either way the run leaves the pending index). A verified run is offered
-- its player's places (``_placement``).
redis.call('ZREM', KEYS[7], ARGV[1])
if redis.call('HGET', KEYS[1], 'status') ~= 'pending' then
  return 0
end
local before = snapshot(KEYS[1])
local fields = {}
for i = 10, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], unpack(fields))
local after = snapshot(KEYS[1])
audit(KEYS[6], after.status, 'worker', ARGV[5], ARGV[6], before, after, {})
redis.call('HINCRBY', KEYS[8], ARGV[7], 1)
redis.call('HINCRBY', KEYS[9], ARGV[8], 1)
redis.call('HINCRBY', KEYS[9], 'count', 1)
redis.call('HINCRBYFLOAT', KEYS[9], 'sum', ARGV[9])
if ARGV[2] == '' then
  return 1
end
local packed = tonumber(ARGV[2])
offer(KEYS[2], KEYS[3], ARGV[4], packed, ARGV[1], outranks)
if ARGV[3] == '1' then
  offer(KEYS[4], KEYS[5], ARGV[4], packed, ARGV[1], earlier)
end
return 1
