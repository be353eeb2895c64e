-- Make one occurrence of a schedule: a tournament (``store.schedules``), once however many workers race.
-- The schedule's ``made_ms`` is the start of the latest occurrence made, and every caller makes its
-- occurrences in order: so an occurrence starting at or before it was made (or skipped, past), and one
-- after it is made here, in the step that moves it on.
-- KEYS: the schedule, the tournament ids, the tournaments by start, the tournaments by end.
-- ARGV: the occurrence's start (ms), its end (ms), the tournaments' key prefix, the tournament's fields
-- (name, value, ...).
-- Returns {1, id} when made, {0} when made already, {-1} when the schedule is gone or paused.
local paused, made = unpack(redis.call('HMGET', KEYS[1], 'paused', 'made_ms'))
if paused == false or paused == '1' then
  return {-1}
end
if tonumber(ARGV[1]) <= tonumber(made or '0') then
  return {0}
end
local id = tostring(redis.call('INCR', KEYS[2]))
redis.call('HSET', ARGV[3] .. id, unpack(ARGV, 4))
redis.call('ZADD', KEYS[3], ARGV[1], id)
redis.call('ZADD', KEYS[4], ARGV[2], id)
redis.call('HSET', KEYS[1], 'made_ms', ARGV[1])
return {1, id}
