--#include _audit
-- KEYS: the run a dispute is of.
-- ARGV: dispute id, player, reason, the time it was filed (ms).
-- The run's audit entry of the dispute's filing, once: 1 if written, 0 if
-- the run is gone or an entry of its log names the dispute (its filing, or
-- a decision on it: the filing's entry never follows its decision).
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
for entry in string.gmatch(redis.call('HGET', KEYS[1], 'log') or '', '[^\30]+') do
  local fields = entry_fields(entry)
  if string.find(fields[7] or '', ARGV[1], 1, true) then
    return 0
  end
end
local now = snapshot(KEYS[1])
audit(KEYS[1], 'disputed', 'player', ARGV[2], ARGV[4], now, now, {dispute_id = ARGV[1], reason = ARGV[3]})
return 1
