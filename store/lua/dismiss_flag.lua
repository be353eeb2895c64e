--#include _audit
-- KEYS: the flag; the open flags of any reason and of its reason, the
-- dismissed flags of any reason and of its reason; then the run it is about
-- (the flag again for a flag of no run).
-- ARGV: flag id, moderator, time (ms), note, the open status, the dismissed
-- status, the audit event, "1" when KEYS[6] is a run.
-- A moderator's dismissal: the flag stays, dismissed, with who and when;
-- the run's audit log gets an entry naming the flag. 'missing' without the
-- flag, 'dismissed' if it already is, else 'ok'.
local flag = redis.call('HMGET', KEYS[1], 'status', 'reason', 'created_ms')
if not flag[1] then
  return 'missing'
end
if flag[1] ~= ARGV[5] then
  return 'dismissed'
end
redis.call('HSET', KEYS[1], 'status', ARGV[6], 'dismissed_by', ARGV[2], 'dismissed_ms', ARGV[3], 'note', ARGV[4])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[4], flag[3], ARGV[1])
redis.call('ZADD', KEYS[5], flag[3], ARGV[1])
if ARGV[8] == '1' and redis.call('EXISTS', KEYS[6]) == 1 then
  local unchanged = snapshot(KEYS[6])
  audit(KEYS[6], ARGV[7], 'moderator', ARGV[2], ARGV[3], unchanged, unchanged,
    {flag = ARGV[1], reason = flag[2]})
end
return 'ok'
