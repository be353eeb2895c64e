--#include _archived_filter
-- KEYS: run, pending runs, metrics, intake, the archived-runs filter, the
-- key saying it is whole. All of the run's shard.
-- ARGV: run id, submission time (ms), "1" if the archive holds the run,
-- "0" if it does not, "" to ask the archived-runs filter, "1" to push a new
-- run onto the intake (a single submission: a dispatcher queues its job),
-- then the run's fields as name/value pairs (its audit log's first entry
-- among them).
-- The run's step of accepting a submission (``store.runs``): creates the
-- run unless it exists. {'new', intake length} (0 when not pushed onto the
-- intake: the caller queues its job), {'existing', its submission time}
-- when Redis holds the run, {'archived'} when the archive does, or
-- {'ask_archive'} when the filter says the archive may hold the run (or is
-- not whole yet): nothing is stored then, and the caller asks the archive
-- and tries again. A new run enters the pending runs here, with it.
local submitted = redis.call('HGET', KEYS[1], 'submitted_ms')
if submitted then
  redis.call('HINCRBY', KEYS[3], 'submissions:duplicate', 1)
  return {'existing', submitted}
end
if ARGV[3] == '1' then
  redis.call('HINCRBY', KEYS[3], 'submissions:duplicate', 1)
  return {'archived'}
end
if ARGV[3] == '' and
    (redis.call('EXISTS', KEYS[6]) == 0 or may_be_archived(KEYS[5], ARGV[1])) then
  return {'ask_archive'}
end
redis.call('HSET', KEYS[1], unpack(ARGV, 5))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
local waiting = 0
if ARGV[4] == '1' then
  waiting = redis.call('RPUSH', KEYS[4], ARGV[1])
end
redis.call('HINCRBY', KEYS[3], 'submissions:accepted', 1)
return {'new', waiting}
