--#include _audit
-- KEYS: as restore_run. ARGV: actor kind, actor, time (ms), "1" to log an
-- unchanged verdict too, then the new verdict's fields as name/value pairs.
-- Writes the current engine's verdict over the stored one (a void run stays
-- void with its verdict under ``voided_status``), logs 'reverified' with
-- whether the verdict changed (its ``snapshot``), and, for a changed verdict,
-- owes the player's places on the run's boards a recompute (``store.placing``).
-- Running it twice changes nothing more. 'pending' for a run the worker has
-- not judged yet; else 'changed' or 'unchanged'.
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'pending' then
  return 'pending'
end
local before = snapshot(KEYS[1])
for i = 5, #ARGV, 2 do
  local name = ARGV[i]
  if name == 'status' and status == 'void' then name = 'voided_status' end
  if ARGV[i + 1] == '' then
    redis.call('HDEL', KEYS[1], name)
  else
    redis.call('HSET', KEYS[1], name, ARGV[i + 1])
  end
end
local after = snapshot(KEYS[1])
local changed = differs(before, after)
if changed then
  redis.call('ZADD', KEYS[2], ARGV[3], string.match(KEYS[1], '[^:]+$'))
end
if changed or ARGV[4] == '1' then
  audit(KEYS[1], 'reverified', ARGV[1], ARGV[2], ARGV[3], before, after, {changed = changed})
end
if changed then return 'changed' end
return 'unchanged'
