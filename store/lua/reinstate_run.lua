-- KEYS: run, audit, player-runs, runs, submission.
-- ARGV: run id, submission time (ms), the number of run fields, the fields as name/value
-- pairs, then per audit entry its stream id and its seven fields as name/value pairs.
-- Puts an archived run back into Redis as it was archived (``store.history.hot_run``):
-- 1, or 0 (changing nothing) if Redis holds the run already.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
local fields_end = 3 + 2 * tonumber(ARGV[3])
for i = 4, fields_end, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
end
for i = fields_end + 1, #ARGV, 15 do
  redis.call('XADD', KEYS[2], ARGV[i], unpack(ARGV, i + 1, i + 14))
end
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1])
redis.call('SET', KEYS[5], ARGV[1], 'NX')
return 1
