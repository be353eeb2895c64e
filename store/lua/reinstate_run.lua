-- KEYS: run, player-runs, players with runs, the key naming the run under its
-- game (``keys.submission``, for a run whose id is not derived from its player
-- and game; else the run key again).
-- ARGV: run id, submission time (ms), player, then the fields to store as
-- name/value pairs (its audit log among them).
-- Puts an archived run back into Redis as it was archived (``store.runs.history.hot_run``):
-- 1, or 0 (changing nothing) if Redis holds the run already.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[3], 'LT', ARGV[2], ARGV[3])
if KEYS[4] ~= KEYS[1] then
  redis.call('SET', KEYS[4], ARGV[1], 'NX')
end
return 1
