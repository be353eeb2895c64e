-- KEYS: run, player-runs, players with runs, the key naming the run under its
-- game (``keys.submission``, for a run whose id is not derived from its player
-- and game; else the run key again).
-- ARGV: run id, player, then the run's fields as read (name/value pairs).
-- Removes a run from Redis once the archive holds it (``store.operations.retention``), unless it
-- changed since it was read: 'ok', 'gone' (removed before) or 'changed' (changing
-- nothing). Its board places stay: each names the run by id, wherever it lives.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 'gone'
end
if redis.call('HLEN', KEYS[1]) * 2 ~= #ARGV - 2 then
  return 'changed'
end
for i = 3, #ARGV, 2 do
  if redis.call('HGET', KEYS[1], ARGV[i]) ~= ARGV[i + 1] then
    return 'changed'
  end
end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
if #oldest == 0 then
  redis.call('ZREM', KEYS[3], ARGV[2])
else
  redis.call('ZADD', KEYS[3], oldest[2], ARGV[2])
end
if KEYS[4] ~= KEYS[1] and redis.call('GET', KEYS[4]) == ARGV[1] then
  redis.call('DEL', KEYS[4])
end
return 'ok'
