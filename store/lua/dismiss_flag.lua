-- KEYS: the flag; the open flags of any reason and of its reason, the
-- dismissed flags of any reason and of its reason. All the service's.
-- ARGV: flag id, moderator, time (ms), note, the open status, the dismissed
-- status.
-- A moderator's dismissal: the flag stays, dismissed, with who and when.
-- 'missing' without the flag, 'dismissed' if it already is, else 'ok'. The
-- entry on its run's audit log is the next step (note_flag_dismissed.lua,
-- in the run's shard: store.flags).
local flag = redis.call('HMGET', KEYS[1], 'status', 'created_ms')
if not flag[1] then
  return 'missing'
end
if flag[1] ~= ARGV[5] then
  return 'dismissed'
end
redis.call('HSET', KEYS[1], 'status', ARGV[6], 'dismissed_by', ARGV[2], 'dismissed_ms', ARGV[3], 'note', ARGV[4])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[4], flag[2], ARGV[1])
redis.call('ZADD', KEYS[5], flag[2], ARGV[1])
return 'ok'
