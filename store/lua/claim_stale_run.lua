-- KEYS: run, pending-runs. ARGV: run id, cutoff (ms), now (ms), most re-queues.
-- Claims one stale pending run for re-queueing, so that of several sweepers
-- only one re-queues it: its time in pending-runs moves to now. Returns
-- 0 when there is nothing to do (the entry is gone, fresh, or the run has a
-- verdict: then the entry is dropped), -1 when the run was re-queued too
-- often already (the caller marks it ``error``), else the re-queue count.
local queued = redis.call('ZSCORE', KEYS[2], ARGV[1])
if not queued or tonumber(queued) > tonumber(ARGV[2]) then
  return 0
end
if redis.call('HGET', KEYS[1], 'status') ~= 'pending' then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 0
end
local requeues = redis.call('HINCRBY', KEYS[1], 'requeues', 1)
if requeues > tonumber(ARGV[4]) then
  return -1
end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return requeues
