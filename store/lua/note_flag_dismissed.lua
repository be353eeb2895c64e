--#include _audit
-- KEYS: the run a dismissed flag is about.
-- ARGV: the flag id, its reason, the moderator who dismissed it, when (ms),
-- the audit event.
-- The run's audit entry of the flag's dismissal, once: 1 if written, 0 if
-- the run is gone or its log has an entry of that event naming the flag.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
for entry in string.gmatch(redis.call('HGET', KEYS[1], 'log') or '', '[^\30]+') do
  local fields = entry_fields(entry)
  if fields[1] == ARGV[5] and string.find(fields[7], ARGV[1], 1, true) then
    return 0
  end
end
local unchanged = snapshot(KEYS[1])
audit(KEYS[1], ARGV[5], 'moderator', ARGV[3], ARGV[4], unchanged, unchanged, {flag = ARGV[1], reason = ARGV[2]})
return 1
