--#include _audit
--#include _placement
--#include _events
-- KEYS: run, pending runs, metrics, latency, then the keys of the boards
-- the run counts on (``_placement``), then the webhook outbox and the
-- webhooks index (``_events``).
-- ARGV: run id, the worker's name, the time (ms), the verdict's metrics
-- field, its latency bucket and latency (seconds), the boards (their count,
-- then their orders: ``_placement``), then the verdict's fields as
-- alternating name/value pairs.
-- Empty fields are not stored, nor the job fields a pending run needs, nor
-- the verdict's time (its audit entry's, ``store.audit.verdict_ms``).
-- A verdict is written once, with its audit entry and its counts: a run no
-- longer pending is left alone, so a job that runs twice changes nothing
-- (either way the run leaves the pending index). A verified run is offered
-- to every board it counts on (``_placement``); while webhooks are registered,
-- its run.verified event and a record.beaten event per board whose first
-- place it took from another player go to the outbox.
local boards, outbox, first_field = boards_from(5, 7)
redis.call('ZREM', KEYS[2], ARGV[1])
if redis.call('HGET', KEYS[1], 'status') ~= 'pending' then
  return 0
end
local before = snapshot(KEYS[1])
local fields, dropped = {}, {'job', 'request_id'}  -- what only a pending run needs, and empty fields
for i = first_field, #ARGV, 2 do
  if ARGV[i + 1] == '' then
    dropped[#dropped + 1] = ARGV[i]
  else
    fields[#fields + 1] = ARGV[i]
    fields[#fields + 1] = ARGV[i + 1]
  end
end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('HDEL', KEYS[1], unpack(dropped))
local after = snapshot(KEYS[1])
audit(KEYS[1], after.status, 'worker', ARGV[2], ARGV[3], before, after, {})
redis.call('HINCRBY', KEYS[3], ARGV[4], 1)
redis.call('HINCRBY', KEYS[4], ARGV[5], 1)
redis.call('HINCRBY', KEYS[4], 'count', 1)
redis.call('HINCRBYFLOAT', KEYS[4], 'sum', ARGV[6])
if after.status == 'verified' then
  local taken = events_wanted(KEYS[outbox + 1]) and {} or nil
  place_verified(run_fields(KEYS[1]), boards, taken)
  if taken then
    record_event(KEYS[outbox], {event = 'run.verified', run_id = ARGV[1], at_ms = ARGV[3]})
    for _, beaten in ipairs(taken) do
      beaten.event, beaten.run_id, beaten.at_ms = 'record.beaten', ARGV[1], ARGV[3]
      record_event(KEYS[outbox], beaten)
    end
  end
end
return 1
