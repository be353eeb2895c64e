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
-- the verdict's time (its audit entry's, ``store.runs.audit.verdict_ms``).
-- A verdict is written once, with its audit entry and its counts: a run no
-- longer pending is left alone, so a job that runs twice changes nothing
-- (either way the run leaves the pending index). A verified run is offered
-- to every board it counts on (``_placement``); while webhooks are registered,
-- its run.verified event and a record.beaten event per board whose first
-- place it took from another player go to the outbox.
local boards, outbox, first_field = boards_from(5, 7)
redis.call('ZREM', KEYS[2], ARGV[1])
-- the run read once: its verdict fields (``SNAPSHOT_FIELDS``), then its log, player and submission time
local read = redis.call('HMGET', KEYS[1], 'status', 'outcome', 'score', 'health', 'error', 'voided_status', 'log',
                        'player', 'submitted_ms')
if read[1] ~= 'pending' then
  return 0
end
local before = snapshot_of(read)
local fields, dropped = {}, {'job', 'request_id'}  -- what only a pending run needs, and empty fields
local written = {}  -- the run's fields as this script leaves them, by name
for i, name in ipairs(SNAPSHOT_FIELDS) do written[name] = read[i] end
for i = first_field, #ARGV, 2 do
  if ARGV[i + 1] == '' then
    dropped[#dropped + 1] = ARGV[i]
    written[ARGV[i]] = false
  else
    fields[#fields + 1] = ARGV[i]
    fields[#fields + 1] = ARGV[i + 1]
    written[ARGV[i]] = ARGV[i + 1]
  end
end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('HDEL', KEYS[1], unpack(dropped))
local values = {}
for i, name in ipairs(SNAPSHOT_FIELDS) do values[i] = written[name] end
local after = snapshot_of(values)
audit(KEYS[1], after.status, 'worker', ARGV[2], ARGV[3], before, after, {},
      {read[7], read[8], read[9], now = after})
redis.call('HINCRBY', KEYS[3], ARGV[4], 1)
redis.call('HINCRBY', KEYS[4], ARGV[5], 1)
redis.call('HINCRBY', KEYS[4], 'count', 1)
redis.call('HINCRBYFLOAT', KEYS[4], 'sum', ARGV[6])
if after.status == 'verified' then
  local taken = events_wanted(KEYS[outbox + 1]) and {} or nil
  place_verified({id = ARGV[1], status = 'verified', player = read[8], score = tonumber(written.score),
                  ms = tonumber(read[9])}, boards, taken)
  if taken then
    record_event(KEYS[outbox], {event = 'run.verified', run_id = ARGV[1], at_ms = ARGV[3]})
    for _, beaten in ipairs(taken) do
      beaten.event, beaten.run_id, beaten.at_ms = 'record.beaten', ARGV[1], ARGV[3]
      record_event(KEYS[outbox], beaten)
    end
  end
end
return 1
