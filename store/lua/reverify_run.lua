--#include _audit
--#include _places
--#include _log
-- KEYS: as restore_run. ARGV: actor kind, actor, time (ms), "1" to log an
-- unchanged verdict too, the outcome's leaf in the public log around its
-- index (two items, ``_log``: appended whatever the outcome), the boards and the runs on each (``_places``), then
-- the new verdict's fields as name/value pairs.
-- Writes the current engine's verdict over the stored one (a void run stays
-- void with its verdict under ``voided_status``), recomputes the player's
-- places and logs 'reverified' with whether the verdict changed (its
-- ``snapshot``). Running it twice changes nothing more. 'pending' for a run
-- the worker has not judged yet; else 'changed' or 'unchanged'.
local boards, player_runs, first_field = recomputed_boards(4, 7)
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'pending' then
  return 'pending'
end
if not complete(KEYS[player_runs], player_runs + 1) then
  return 'stale'
end
local before = snapshot(KEYS[1])
for i = first_field, #ARGV, 2 do
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
place(KEYS[1], boards, player_runs + 1)
append_leaf(KEYS[2], KEYS[3], ARGV[5], ARGV[6])
if changed or ARGV[4] == '1' then
  audit(KEYS[1], 'reverified', ARGV[1], ARGV[2], ARGV[3], before, after, {changed = changed})
end
if changed then return 'changed' end
return 'unchanged'
