-- A player's report of a run or a player, for the moderators' queue (``store.sanctions.reports``): one open
-- report per reporter and target, and at most so many a reporter files in a window of time.
-- KEYS: the reporter's open report of the target, the report, the open reports, the reporter's reports.
-- ARGV: the report's id, the time (ms), the window's start (ms), the most reports in a window, then the
-- report's fields as alternating name/value pairs.
-- Answers {'ok', id}, {'open', the open report's id} or {'limited', when the oldest in the window leaves it}.
local open = redis.call('GET', KEYS[1])
if open then
  return {'open', open}
end
local recent = redis.call('ZRANGEBYSCORE', KEYS[4], ARGV[3], '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
if redis.call('ZCOUNT', KEYS[4], ARGV[3], '+inf') >= tonumber(ARGV[4]) then
  return {'limited', recent[2]}
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], unpack(ARGV, 5))
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1])
return {'ok', ARGV[1]}
