--#include _audit
--#include _events
-- The run's step of resolving a dispute (``store.disputes``), the first of three: this one, the
-- recompute of the player's places for a void (``store.placing``), then closing the dispute
-- (``close_dispute``).
-- KEYS: run, the webhook outbox and the webhooks mark of the run's shard (``_events``: a run
-- newly voided is a run.voided event), the runs of its shard whose places are to be recomputed.
-- ARGV: moderator, decision (uphold, void), note, time (ms), the dispute's id.
-- The run's log names each dispute decided on it (its 'upheld' or 'voided' entry), so this step is done once: called again (a
-- resolve cut short, tried again), it answers the decision its entry shows ('upheld', 'voided'),
-- changing nothing. 'pending' to void a run with no verdict yet; else the decision's entry
-- written: 'upheld', or 'voided' (the run void, its places owed a recompute).
local log = redis.call('HGET', KEYS[1], 'log') or ''
for entry in string.gmatch(log, '[^\30]+') do
  local fields = entry_fields(entry)
  if (fields[1] == 'upheld' or fields[1] == 'voided') and string.find(fields[7], ARGV[5], 1, true) then
    return fields[1]
  end
end
local status = redis.call('HGET', KEYS[1], 'status')
if ARGV[2] == 'void' and status == 'pending' then
  return 'pending'
end
local before = snapshot(KEYS[1])
local event = 'upheld'
if ARGV[2] == 'void' then
  event = 'voided'
  if status ~= 'void' then
    redis.call('HSET', KEYS[1], 'status', 'void', 'voided_status', status)
    if events_wanted(KEYS[3]) then
      record_event(KEYS[2], {event = 'run.voided', run_id = string.match(KEYS[1], '[^:]+$'), at_ms = ARGV[4]})
    end
  end
  redis.call('ZADD', KEYS[4], ARGV[4], string.match(KEYS[1], '[^:]+$'))
end
audit(KEYS[1], event, 'moderator', ARGV[1], ARGV[4], before, snapshot(KEYS[1]),
  {dispute_id = ARGV[5], note = ARGV[3]})
return event
